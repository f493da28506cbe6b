package embedded

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// A large schedule's vectors do not fit a search's time or memory budget
// (200,000 activities are some 550,000 documents, 850 MB of float32). So
// each document also has a binary code — one sign bit per dimension — kept
// in chunk blobs of codeChunk slots indexed by the document's rowid: a
// search reads a few dozen blobs (about 50 bytes a document), ranks every
// document by Hamming distance, and re-scores only the closest few
// thousand with their exact vectors.
const (
	codeChunk = 1024
	// exactLimit is the document count up to which a schedule is searched
	// with every exact vector in memory (exact, and cached by the worker).
	exactLimitDefault = 20000
	// rerank is how many documents per wanted result the codes shortlist
	// for exact scoring.
	rerankPer = 10
)

// exactLimit is a variable so tests can send small schedules through the
// codes.
var exactLimit = exactLimitDefault

// slot kinds (the first byte of a slot; 0 is an empty slot).
const (
	slotEmpty        = 0
	slotActivity     = 1
	slotRelationship = 2
)

func kindSlot(k store.Kind) byte {
	if k == store.RelationshipKind {
		return slotRelationship
	}
	return slotActivity
}

// codeWords is the number of 64-bit words of a code of dims dimensions.
func codeWords(dims int) int { return (dims + 63) / 64 }

// encodeCode is a slot: the kind byte, then the sign bits of v.
func encodeCode(kind store.Kind, v []float32) []byte {
	words := codeWords(len(v))
	b := make([]byte, 1+8*words)
	b[0] = kindSlot(kind)
	for i, x := range v {
		if x > 0 {
			b[1+i/8] |= 1 << (i % 8)
		}
	}
	return b
}

// codeUpdate is a pending change to one slot: the new slot, or nil to
// empty it.
type codeUpdate struct {
	rowid int64
	slot  []byte
}

// noteCode queues a slot change, written when the transaction commits.
func (p *preparedTx) noteCode(scheduleID string, rowid int64, slot []byte) {
	if p.codes == nil {
		p.codes = map[string][]codeUpdate{}
	}
	p.codes[scheduleID] = append(p.codes[scheduleID], codeUpdate{rowid, slot})
}

// flushCodes writes the queued slot changes, one read and one write per
// chunk touched. A schedule whose codes were complete (or that had no
// documents) before this transaction is marked complete after it.
func (p *preparedTx) flushCodes() error {
	for scheduleID, updates := range p.codes {
		byChunk := map[int64][]codeUpdate{}
		size := 0
		for _, u := range updates {
			byChunk[u.rowid/codeChunk] = append(byChunk[u.rowid/codeChunk], u)
			if u.slot != nil {
				size = len(u.slot)
			}
		}
		for chunk, us := range byChunk {
			blob, err := p.chunkBlob(scheduleID, chunk)
			if err != nil {
				return err
			}
			if blob == nil && size > 0 {
				blob = make([]byte, codeChunk*size)
			}
			if blob == nil {
				continue // only deletes, in a chunk never written
			}
			slotSize := len(blob) / codeChunk
			for _, u := range us {
				at := int(u.rowid%codeChunk) * slotSize
				switch {
				case u.slot == nil:
					clear(blob[at : at+slotSize])
				case len(u.slot) != slotSize:
					// Another embedder's size: the codes are no good for
					// this schedule; search falls back to rebuilding them.
					if err := p.exec(`DELETE FROM vec_index WHERE schedule_id = ?`, scheduleID); err != nil {
						return err
					}
				default:
					copy(blob[at:], u.slot)
				}
			}
			if err := p.exec(`INSERT INTO vec_codes (schedule_id, chunk, codes) VALUES (?, ?, ?)
				ON CONFLICT (schedule_id, chunk) DO UPDATE SET codes = excluded.codes`, scheduleID, chunk, blob); err != nil {
				return err
			}
		}
		if p.codesComplete[scheduleID] && size > 0 {
			if err := p.exec(`INSERT OR IGNORE INTO vec_index (schedule_id, slot) VALUES (?, ?)`, scheduleID, size); err != nil {
				return err
			}
		}
	}
	p.codes = nil
	return nil
}

func (p *preparedTx) chunkBlob(scheduleID string, chunk int64) ([]byte, error) {
	st, err := p.stmt(`SELECT codes FROM vec_codes WHERE schedule_id = ? AND chunk = ?`)
	if err != nil {
		return nil, err
	}
	var blob []byte
	err = st.QueryRowContext(p.ctx, scheduleID, chunk).Scan(&blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return blob, err
}

// watchCodes notes, before a transaction first writes a schedule's
// documents, whether its codes are complete: marked so, or no documents
// yet (every document this transaction writes gets its code).
func (p *preparedTx) watchCodes(scheduleID string) error {
	if p.codesComplete == nil {
		p.codesComplete = map[string]bool{}
	}
	if _, seen := p.codesComplete[scheduleID]; seen {
		return nil
	}
	marked, err := p.exists(`SELECT 1 FROM vec_index WHERE schedule_id = ?`, scheduleID)
	if err != nil {
		return err
	}
	empty := false
	if !marked {
		has, err := p.exists(`SELECT 1 FROM docs WHERE schedule_id = ? LIMIT 1`, scheduleID)
		if err != nil {
			return err
		}
		empty = !has
	}
	p.codesComplete[scheduleID] = marked || empty
	return nil
}

// rebuildCodes writes every code of a schedule from its vectors (a file
// written before codes existed) and marks them complete.
func (s *Store) rebuildCodes(ctx context.Context, scheduleID string) error {
	return s.tx(ctx, func(tx *preparedTx) error {
		if err := tx.exec(`DELETE FROM vec_codes WHERE schedule_id = ?`, scheduleID); err != nil {
			return err
		}
		if err := tx.exec(`DELETE FROM vec_index WHERE schedule_id = ?`, scheduleID); err != nil {
			return err
		}
		rows, err := tx.tx.QueryContext(ctx, `SELECT rowid, kind, vector FROM docs WHERE schedule_id = ?`, scheduleID)
		if err != nil {
			return err
		}
		var vec []float32
		dims := -1
		for rows.Next() {
			var rowid int64
			var kind string
			var blob []byte
			if err := rows.Scan(&rowid, &kind, &blob); err != nil {
				rows.Close()
				return err
			}
			vec = decodeVector(blob, vec[:0])
			if dims >= 0 && len(vec) != dims {
				rows.Close()
				return fmt.Errorf("schedule %s: documents of %d and %d dimensions: re-import with one embedder", scheduleID, dims, len(vec))
			}
			dims = len(vec)
			tx.noteCode(scheduleID, rowid, encodeCode(store.Kind(kind), vec))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		tx.codesComplete = map[string]bool{scheduleID: true}
		return nil
	})
}

// shortlist returns the rowids of the n documents of the wanted kinds
// whose codes are nearest the query's, and how many documents the
// schedule has; ok is false when its codes are not complete.
func (s *Store) shortlist(ctx context.Context, scheduleID string, query []float32, n int, wanted func(store.Kind) bool) (rowids []int64, docs int, ok bool, err error) {
	var slotSize int
	switch err := s.db.QueryRowContext(ctx, `SELECT slot FROM vec_index WHERE schedule_id = ?`, scheduleID).Scan(&slotSize); {
	case errors.Is(err, sql.ErrNoRows):
		return nil, 0, false, nil
	case err != nil:
		return nil, 0, false, err
	}
	words := codeWords(len(query))
	if slotSize != 1+8*words {
		return nil, 0, false, fmt.Errorf("query has %d dimensions, schedule %s has codes of %d bits: use the embedder it was imported with", len(query), scheduleID, 8*(slotSize-1))
	}
	q := encodeCode(store.ActivityKind, query)[1:]
	qw := make([]uint64, words)
	for i := range qw {
		qw[i] = binary.LittleEndian.Uint64(q[8*i:])
	}
	want := [3]bool{false, wanted(store.ActivityKind), wanted(store.RelationshipKind)}
	// Distances go in buckets by value (at most 64*words+1 of them), so
	// the n nearest are found without sorting every document.
	type cand struct {
		rowid int64
		dist  uint16
	}
	rows, err := s.db.QueryContext(ctx, `SELECT chunk, codes FROM vec_codes WHERE schedule_id = ?`, scheduleID)
	if err != nil {
		return nil, 0, false, err
	}
	defer rows.Close()
	var chunks []int64
	var blobs [][]byte
	for rows.Next() {
		var chunk int64
		var blob []byte
		if err := rows.Scan(&chunk, &blob); err != nil {
			return nil, 0, false, err
		}
		if len(blob) != codeChunk*slotSize {
			return nil, 0, false, fmt.Errorf("schedule %s: a code chunk of %d bytes, want %d", scheduleID, len(blob), codeChunk*slotSize)
		}
		chunks, blobs = append(chunks, chunk), append(blobs, blob)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, false, err
	}
	// Distances on every core, a chunk at a time; each worker keeps its
	// own candidates and a histogram of distances (at most 64*words+1
	// values), so the n nearest are found without sorting.
	workers := min(runtime.GOMAXPROCS(0), max(1, len(blobs)/8))
	found := make([][]cand, workers)
	hists := make([][]int, workers)
	counts := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			hist := make([]int, 64*words+1)
			var out []cand
			for c := w; c < len(blobs); c += workers {
				blob, base := blobs[c], chunks[c]*codeChunk
				for i := range codeChunk {
					slot := blob[i*slotSize : (i+1)*slotSize]
					if slot[0] == slotEmpty {
						continue
					}
					counts[w]++
					if int(slot[0]) >= len(want) || !want[slot[0]] {
						continue
					}
					d := 0
					for k := range words {
						d += bits.OnesCount64(binary.LittleEndian.Uint64(slot[1+8*k:]) ^ qw[k])
					}
					out = append(out, cand{base + int64(i), uint16(d)})
					hist[d]++
				}
			}
			found[w], hists[w] = out, hist
		})
	}
	wg.Wait()
	hist := make([]int, 64*words+1)
	for w := range workers {
		docs += counts[w]
		for d, n := range hists[w] {
			hist[d] += n
		}
	}
	all := slices.Concat(found...)
	limit, taken := 0, 0
	for limit < len(hist) && taken+hist[limit] <= n {
		taken += hist[limit]
		limit++
	}
	// Everything nearer than limit, then enough at limit to make n.
	room := n - taken
	for _, c := range all {
		switch {
		case int(c.dist) < limit:
			rowids = append(rowids, c.rowid)
		case int(c.dist) == limit && room > 0:
			rowids = append(rowids, c.rowid)
			room--
		}
	}
	return rowids, docs, true, nil
}

// candidate is a document of a large schedule's search: its exact cosine
// similarity to the query and its indexed terms.
type candidate struct {
	name   string
	cosine float64
	terms  string
}

// rescore reads the documents of rowids that belong to the schedule, with
// each one's cosine similarity to query (unit vectors) and its terms.
func (s *Store) rescore(ctx context.Context, scheduleID string, rowids []int64, query []float32) (map[docKey]candidate, error) {
	out := map[docKey]candidate{}
	const batch = 500
	var vec []float32
	for start := 0; start < len(rowids); start += batch {
		part := rowids[start:min(start+batch, len(rowids))]
		args := make([]any, 0, len(part)+1)
		args = append(args, scheduleID)
		for _, r := range part {
			args = append(args, r)
		}
		// Only "?" placeholders are spliced in; the values are parameters.
		// The unary + keeps SQLite off the schedule_id index, which made
		// it scan the whole schedule (500 ms at 200k) instead of looking
		// the rowids up.
		rows, err := s.db.QueryContext(ctx, `SELECT kind, id, name, terms, vector FROM docs WHERE +schedule_id = ? AND rowid IN (?`+strings.Repeat(",?", len(part)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var kind, id, name, terms string
			var blob []byte
			if err := rows.Scan(&kind, &id, &name, &terms, &blob); err != nil {
				rows.Close()
				return nil, err
			}
			vec = decodeVector(blob, vec[:0])
			var dot float32
			for i := range min(len(vec), len(query)) {
				dot += vec[i] * query[i]
			}
			out[docKey{store.Kind(kind), id}] = candidate{name: name, cosine: float64(dot), terms: terms}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rareTerms bounds the documents a query term may match for them all to
// join a large schedule's candidates: a term that rare is what a keyword
// search is for, and fetching its documents is cheap.
const rareTerms = 5000

// keywordCandidates returns, for each query term, how many documents hold
// it (in the whole file), and the rowids of those documents for the terms
// at most rareTerms documents hold.
func (s *Store) keywordCandidates(ctx context.Context, terms []string) (df map[string]int, rowids []int64, err error) {
	df = map[string]int{}
	for _, t := range terms {
		if _, seen := df[t]; seen {
			continue
		}
		var n int
		err := s.db.QueryRowContext(ctx, `SELECT doc FROM docs_vocab WHERE term = ?`, t).Scan(&n)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, nil, err
		}
		df[t] = n
		if n == 0 || n > rareTerms {
			continue
		}
		rows, err := s.db.QueryContext(ctx, `SELECT rowid FROM docs_fts WHERE docs_fts MATCH ?`, ftsQuery([]string{t}))
		if err != nil {
			return nil, nil, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, nil, err
			}
			rowids = append(rowids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
	}
	return df, rowids, nil
}

// bm25 scores candidates' terms against the query terms as FTS5 does
// (k1 1.2, b 0.75), with document frequencies df out of total documents
// and the candidates' mean length for the average.
func bm25(cands map[docKey]candidate, terms []string, df map[string]int, total int) map[docKey]float64 {
	const k1, b = 1.2, 0.75
	lengths, sum := map[docKey][]string{}, 0
	for k, c := range cands {
		words := strings.Fields(c.terms)
		lengths[k] = words
		sum += len(words)
	}
	if len(cands) == 0 {
		return nil
	}
	avg := float64(sum) / float64(len(cands))
	query := slices.Compact(slices.Sorted(slices.Values(terms)))
	out := map[docKey]float64{}
	for k, words := range lengths {
		score := 0.0
		for _, t := range query {
			tf := 0
			for _, w := range words {
				if w == t {
					tf++
				}
			}
			if tf == 0 {
				continue
			}
			n := float64(df[t])
			idf := math.Log((float64(total)-n+0.5)/(n+0.5) + 1)
			score += idf * float64(tf) * (k1 + 1) / (float64(tf) + k1*(1-b+b*float64(len(words))/avg))
		}
		if score > 0 {
			out[k] = score
		}
	}
	return out
}
