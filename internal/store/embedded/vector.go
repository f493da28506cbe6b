package embedded

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/parallel"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// candidates is how many hits each side (BM25, vector) contributes before
// fusion; far more than any k a planner asks for.
const candidates = 200

// vectorIndex is a schedule's documents in memory for brute-force cosine
// search: at 10,000 documents of 384 dimensions a full scan takes a few ms.
type vectorIndex struct {
	kinds   []store.Kind
	ids     []string
	names   []string
	dims    int
	vectors []float32 // len(ids) * dims, each L2-normalised
}

func (s *Store) forgetIndex(scheduleID string) {
	s.mu.Lock()
	delete(s.indexes, scheduleID)
	s.mu.Unlock()
}

// applyVectors is the VectorStore's Apply: documents, FTS terms, vectors.
func (s *Store) applyVectors(ctx context.Context, scheduleID string, changes []store.VectorChange) ([]string, error) {
	defer s.forgetIndex(scheduleID)
	return s.applyLedgered(ctx, "vector_ledger", scheduleID, len(changes),
		func(i int) string { return changes[i].OpID },
		func(tx *preparedTx, i int) error { return s.applyVectorChange(tx, scheduleID, changes[i]) },
		nil)
}

func (s *Store) applyVectorChange(tx *preparedTx, scheduleID string, c store.VectorChange) error {
	if err := tx.watchCodes(scheduleID); err != nil {
		return err
	}
	fts := ftsPending{}
	del := func(kind store.Kind, id string) error {
		var rowid int64
		var terms string
		found, err := tx.scan(`DELETE FROM docs WHERE schedule_id = ? AND kind = ? AND id = ? RETURNING rowid, terms`,
			[]any{scheduleID, string(kind), id}, &rowid, &terms)
		if found {
			tx.noteCode(scheduleID, rowid, nil)
			fts.touch(rowid, terms, true)
		}
		return err
	}
	// put writes documents of one kind, many per statement: first what
	// the index holds for those already stored, then the upsert.
	put := func(kind store.Kind, docs []putDoc) error {
		n := len(docs)
		for _, run := range distinctRuns(n, func(i int) string { return docs[i].id }) {
			batch := docs[run[0]:run[1]]
			keys := make([]string, len(batch))
			for i, d := range batch {
				keys[i] = string(kind) + "\x00" + d.id
			}
			absent, err := tx.absent("docs", scheduleID, keys)
			if err != nil {
				return err
			}
			lookup := make([]any, 0, 2+len(batch))
			lookup = append(lookup, scheduleID, string(kind))
			values := make([]any, 0, docWidth*len(batch))
			for i, d := range batch {
				if !absent[i] {
					lookup = append(lookup, d.id)
				}
				values = append(values, scheduleID, string(kind), d.id, d.name, d.body, d.terms, d.vector)
			}
			old := make(map[string]ftsTerms, len(batch))
			if len(lookup) > 2 {
				if err := tx.query(`SELECT id, terms FROM docs WHERE schedule_id = ? AND kind = ? AND id IN `+inList(len(lookup)-2), lookup, func(rows *sql.Rows) error {
					var id, terms string
					if err := rows.Scan(&id, &terms); err != nil {
						return err
					}
					old[id] = ftsTerms{terms, true}
					return nil
				}); err != nil {
					return err
				}
			}
			rowids := make(map[string]int64, len(batch))
			if err := tx.queryValues(putDocHead, putDocTail, docWidth, values, func(rows *sql.Rows) error {
				var id string
				var rowid int64
				if err := rows.Scan(&id, &rowid); err != nil {
					return err
				}
				rowids[id] = rowid
				return nil
			}); err != nil {
				return err
			}
			for _, d := range batch {
				rowid, ok := rowids[d.id]
				if !ok {
					return fmt.Errorf("document %s %q: not written", kind, d.id)
				}
				tx.noteCode(scheduleID, rowid, d.code)
				if o := old[d.id]; !o.indexed || o.terms != d.terms {
					fts.touch(rowid, o.terms, o.indexed)
				}
			}
		}
		return nil
	}
	for _, id := range c.DeleteRelationships {
		if err := del(store.RelationshipKind, id); err != nil {
			return err
		}
	}
	for _, id := range c.DeleteActivities {
		if err := del(store.ActivityKind, id); err != nil {
			return err
		}
	}
	prepared, _ := c.Prepared.(*preparedDocs)
	if prepared == nil {
		prepared = s.prepareDocuments(&c)
	}
	if prepared.err != nil {
		return prepared.err
	}
	if err := put(store.ActivityKind, prepared.activities); err != nil {
		return err
	}
	if err := put(store.RelationshipKind, prepared.relationships); err != nil {
		return err
	}
	for _, op := range c.Forget {
		if err := tx.exec(`DELETE FROM vector_ledger WHERE schedule_id = ? AND op_id = ?`, scheduleID, op); err != nil {
			return err
		}
	}
	return fts.flush(tx)
}

// preparedDocs is a change's documents encoded for writing: built beside
// the writer when the coordinator asks (PrepareDocuments), else by the
// writer itself.
type preparedDocs struct {
	activities, relationships []putDoc
	err                       error
}

// PrepareDocuments is store.DocumentPreparer.
func (v vectorView) PrepareDocuments(vc *store.VectorChange) {
	vc.Prepared = v.prepareDocuments(vc)
}

// prepareDocuments encodes a change's documents on all cores: their JSON,
// search terms, vectors and binary codes.
func (s *Store) prepareDocuments(c *store.VectorChange) *preparedDocs {
	p := &preparedDocs{
		activities:    make([]putDoc, len(c.PutActivities)),
		relationships: make([]putDoc, len(c.PutRelationships)),
	}
	errs := make([]error, len(c.PutActivities)+len(c.PutRelationships))
	parallel.For(len(errs), 64, func(i int) {
		if i < len(c.PutActivities) {
			a := &c.PutActivities[i]
			p.activities[i], errs[i] = newPutDoc(store.ActivityKind, a.ID, a.Name, a, strings.Join(s.tokenize(a.KeywordText()), " "), a.Vector)
			return
		}
		r := &c.PutRelationships[i-len(c.PutActivities)]
		text := fmt.Sprintf("%s %s %s %s", r.Predecessor.Name, r.Predecessor.Description, r.Successor.Name, r.Successor.Description)
		p.relationships[i-len(c.PutActivities)], errs[i] = newPutDoc(store.RelationshipKind, r.ID, relationshipName(*r), r, strings.Join(s.tokenize(text), " "), r.Vector)
	})
	p.err = errors.Join(errs...)
	return p
}

// putDoc is one document as applyVectorChange writes it, encoded.
type putDoc struct {
	id, name string
	body     string // the document as JSON
	terms    string
	vector   []byte
	code     []byte // its binary code (codes.go)
}

func newPutDoc(kind store.Kind, id, name string, doc any, terms string, vector []float32) (putDoc, error) {
	body, err := json.Marshal(doc)
	if err != nil {
		return putDoc{}, fmt.Errorf("document %s %q: %w", kind, id, err)
	}
	return putDoc{id: id, name: name, body: string(body), terms: terms, vector: encodeVector(vector), code: encodeCode(kind, vector)}, nil
}

// The multi-row upsert of documents; it returns each row's id and rowid
// (RETURNING's order is not the rows' order).
const (
	putDocHead = `INSERT INTO docs (schedule_id, kind, id, name, doc, terms, vector)`
	putDocTail = `ON CONFLICT (schedule_id, kind, id) DO UPDATE SET name = excluded.name, doc = excluded.doc, terms = excluded.terms, vector = excluded.vector
		RETURNING id, rowid`
	docWidth = 7
)

// ftsPending is what a change does to the search index (docs_fts, an
// external-content FTS5 table over docs), written in two statements at
// its end: FTS5 writes its terms to disk at every statement that touches
// it, so one statement per document (as row triggers did) made a large
// import spend half its time merging tiny index segments.
type ftsPending struct {
	// old holds, for each document row touched, the terms the index had
	// for it before the change ("" and false when it had none).
	old map[int64]ftsTerms
	// order is the rows in the order first touched, so the statements are
	// the same for the same change.
	order []int64
}

type ftsTerms struct {
	terms   string
	indexed bool
}

// touch notes that row rowid changed; terms are its indexed terms before
// the change, if indexed. Only the first touch of a row says what the
// index holds.
func (f *ftsPending) touch(rowid int64, terms string, indexed bool) {
	if f.old == nil {
		f.old = map[int64]ftsTerms{}
	}
	if _, seen := f.old[rowid]; seen {
		return
	}
	f.old[rowid] = ftsTerms{terms, indexed}
	f.order = append(f.order, rowid)
}

// flush takes the old terms of the touched rows out of the index and
// puts in the terms the rows hold now (a row deleted holds none).
func (f *ftsPending) flush(tx *preparedTx) error {
	if len(f.order) == 0 {
		return nil
	}
	var gone [][2]any
	for _, rowid := range f.order {
		if o := f.old[rowid]; o.indexed {
			gone = append(gone, [2]any{rowid, o.terms})
		}
	}
	if len(gone) > 0 {
		list, err := json.Marshal(gone)
		if err != nil {
			return err
		}
		if err := tx.exec(`INSERT INTO docs_fts(docs_fts, rowid, terms)
			SELECT 'delete', json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]') FROM json_each(?) j`, string(list)); err != nil {
			return err
		}
	}
	list, err := json.Marshal(f.order)
	if err != nil {
		return err
	}
	return tx.exec(`INSERT INTO docs_fts(rowid, terms) SELECT d.rowid, d.terms FROM json_each(?) j JOIN docs d ON d.rowid = j.value`, string(list))
}

// relationshipName is how a relationship reads in search results.
func relationshipName(r store.RelationshipDoc) string {
	lag := ""
	if r.Lag != 0 {
		lag = " " + strconv.FormatFloat(r.Lag, 'f', -1, 64) + "d"
	}
	return fmt.Sprintf("%s -%s%s-> %s", r.Predecessor.Name, r.Type, lag, r.Successor.Name)
}

// index returns the schedule's in-memory vectors, loading them once.
func (s *Store) index(ctx context.Context, scheduleID string) (*vectorIndex, error) {
	s.mu.Lock()
	idx := s.indexes[scheduleID]
	s.mu.Unlock()
	if idx != nil {
		return idx, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT kind, id, name, vector FROM docs WHERE schedule_id = ?`, scheduleID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	idx = &vectorIndex{}
	for rows.Next() {
		var kind, id, name string
		var blob []byte
		if err := rows.Scan(&kind, &id, &name, &blob); err != nil {
			return nil, err
		}
		before := len(idx.vectors)
		idx.vectors = decodeVector(blob, idx.vectors)
		dims := len(idx.vectors) - before
		if idx.dims == 0 {
			idx.dims = dims
		}
		if dims != idx.dims {
			return nil, fmt.Errorf("schedule %s: document %s has %d dimensions, others %d: re-import with one embedder", scheduleID, id, dims, idx.dims)
		}
		idx.kinds = append(idx.kinds, store.Kind(kind))
		idx.ids = append(idx.ids, id)
		idx.names = append(idx.names, name)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !s.noCache {
		s.mu.Lock()
		s.indexes[scheduleID] = idx
		s.mu.Unlock()
	}
	return idx, nil
}

// nearest returns the indices of the n documents most similar to query
// among those of the wanted kinds, best first. Scores are computed on all
// cores in chunks; a bounded min-heap keeps the best n.
func (idx *vectorIndex) nearest(query []float32, n int, wanted func(store.Kind) bool) []int {
	scores := make([]float32, len(idx.ids))
	parallel.For(len(scores), 4096, func(i int) { scores[i] = idx.score(i, query) })
	var best []int // a min-heap on score, at most n long
	less := func(a, b int) bool { return scores[best[a]] < scores[best[b]] }
	down := func(i int) {
		for {
			small, l, r := i, 2*i+1, 2*i+2
			if l < len(best) && less(l, small) {
				small = l
			}
			if r < len(best) && less(r, small) {
				small = r
			}
			if small == i {
				return
			}
			best[i], best[small] = best[small], best[i]
			i = small
		}
	}
	for i := range scores {
		if !wanted(idx.kinds[i]) {
			continue
		}
		switch {
		case len(best) < n:
			best = append(best, i)
			for j := len(best) - 1; j > 0 && less(j, (j-1)/2); j = (j - 1) / 2 {
				best[j], best[(j-1)/2] = best[(j-1)/2], best[j]
			}
		case scores[i] > scores[best[0]]:
			best[0] = i
			down(0)
		}
	}
	slices.SortFunc(best, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	return best
}

// score is the cosine similarity of document i to query (both unit length),
// with four accumulators so the loop is not one long dependency chain.
func (idx *vectorIndex) score(i int, query []float32) float32 {
	v := idx.vectors[i*idx.dims : (i+1)*idx.dims]
	q := query[:len(v)]
	var s0, s1, s2, s3 float32
	n := len(v) &^ 3
	for j := 0; j < n; j += 4 {
		s0 += v[j] * q[j]
		s1 += v[j+1] * q[j+1]
		s2 += v[j+2] * q[j+2]
		s3 += v[j+3] * q[j+3]
	}
	for j := n; j < len(v); j++ {
		s0 += v[j] * q[j]
	}
	return s0 + s1 + s2 + s3
}

type docKey struct {
	kind store.Kind
	id   string
}

// Search fuses BM25 (FTS5) and cosine similarity the way Weaviate's
// relative score fusion does: each side's scores are scaled to 0..1 by
// min-max, then blended alpha*vector + (1-alpha)*keyword.
func (s *Store) Search(ctx context.Context, scheduleID string, q store.Query) ([]store.Hit, error) {
	if q.K <= 0 {
		q.K = 10
	}
	wanted := func(k store.Kind) bool { return len(q.Kinds) == 0 || slices.Contains(q.Kinds, k) }
	names := map[docKey]string{}
	vectorScores := map[docKey]float64{}
	keywordScores := map[docKey]float64{}
	coded, err := s.searchCodes(ctx, scheduleID, q, wanted, vectorScores, keywordScores, names)
	if err != nil {
		return nil, err
	}
	if coded {
		return fuse(vectorScores, keywordScores, names, q.Alpha, q.K), nil
	}
	if len(q.Vector) > 0 && q.Alpha > 0 {
		idx, err := s.index(ctx, scheduleID)
		if err != nil {
			return nil, err
		}
		if idx.dims != 0 && idx.dims != len(q.Vector) {
			return nil, fmt.Errorf("query has %d dimensions, schedule %s has %d: use the embedder it was imported with", len(q.Vector), scheduleID, idx.dims)
		}
		for _, i := range idx.nearest(q.Vector, candidates, wanted) {
			key := docKey{idx.kinds[i], idx.ids[i]}
			vectorScores[key] = float64(idx.score(i, q.Vector))
			names[key] = idx.names[i]
		}
	}
	if match := ftsQuery(s.tokenize(q.Text)); match != "" && q.Alpha < 1 {
		rows, err := s.db.QueryContext(ctx, `
			SELECT d.kind, d.id, d.name, -bm25(docs_fts) FROM docs_fts JOIN docs d ON d.rowid = docs_fts.rowid
			WHERE docs_fts MATCH ? AND d.schedule_id = ? ORDER BY bm25(docs_fts) LIMIT ?`, match, scheduleID, candidates)
		if err != nil {
			return nil, fmt.Errorf("keyword search: %w", err)
		}
		for rows.Next() {
			var kind, id, name string
			var score float64
			if err := rows.Scan(&kind, &id, &name, &score); err != nil {
				rows.Close()
				return nil, err
			}
			key := docKey{store.Kind(kind), id}
			if wanted(key.kind) {
				keywordScores[key] = score
				names[key] = name
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return fuse(vectorScores, keywordScores, names, q.Alpha, q.K), nil
}

// searchCodes searches a schedule too large to hold in memory: the
// candidates are the documents nearest the query by binary codes plus
// every document holding a rare query term; each is scored exactly
// (cosine) and by BM25 over its terms, and the best of each side fill
// vector, keyword and names. It reports whether it ran (false for a
// schedule small enough for the exact in-memory index and FTS5, or already
// held in memory).
func (s *Store) searchCodes(ctx context.Context, scheduleID string, q store.Query, wanted func(store.Kind) bool, vector, keyword map[docKey]float64, names map[docKey]string) (bool, error) {
	s.mu.Lock()
	cached := s.indexes[scheduleID] != nil
	s.mu.Unlock()
	if cached || len(q.Vector) == 0 {
		return false, nil
	}
	rowids, docs, ok, err := s.shortlist(ctx, scheduleID, q.Vector, candidates*rerankPer, wanted)
	if err != nil {
		return false, err
	}
	if !ok {
		// Codes not complete (a file from before them): build them once
		// if the schedule is large enough to need them.
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM docs WHERE schedule_id = ?`, scheduleID).Scan(&n); err != nil {
			return false, err
		}
		if n <= exactLimit {
			return false, nil
		}
		if err := s.rebuildCodes(ctx, scheduleID); err != nil {
			return false, err
		}
		if rowids, docs, ok, err = s.shortlist(ctx, scheduleID, q.Vector, candidates*rerankPer, wanted); err != nil || !ok {
			return false, err
		}
	}
	if docs <= exactLimit {
		return false, nil
	}
	terms := s.tokenize(q.Text)
	df, rare, err := s.keywordCandidates(ctx, terms)
	if err != nil {
		return false, err
	}
	cands, err := s.rescore(ctx, scheduleID, append(rowids, rare...), q.Vector)
	if err != nil {
		return false, err
	}
	maps.DeleteFunc(cands, func(k docKey, _ candidate) bool { return !wanted(k.kind) })
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(rowid), 0) FROM docs`).Scan(&total); err != nil {
		return false, err
	}
	cosine := make(map[docKey]float64, len(cands))
	for k, c := range cands {
		cosine[k] = c.cosine
		names[k] = c.name
	}
	best := func(scores map[docKey]float64, into map[docKey]float64) {
		keys := slices.Collect(maps.Keys(scores))
		slices.SortFunc(keys, func(a, b docKey) int {
			if c := cmp.Compare(scores[b], scores[a]); c != 0 {
				return c
			}
			if c := cmp.Compare(a.kind, b.kind); c != 0 {
				return c
			}
			return cmp.Compare(a.id, b.id)
		})
		for _, k := range keys[:min(candidates, len(keys))] {
			into[k] = scores[k]
		}
	}
	if q.Alpha > 0 {
		best(cosine, vector)
	}
	if q.Alpha < 1 {
		best(bm25(cands, terms, df, max(total, docs)), keyword)
	}
	maps.DeleteFunc(names, func(k docKey, _ string) bool {
		_, v := vector[k]
		_, kw := keyword[k]
		return !v && !kw
	})
	return true, nil
}

// fuse blends min-max scaled scores; ties break by kind and id so results
// are stable.
func fuse(vector, keyword map[docKey]float64, names map[docKey]string, alpha float64, k int) []store.Hit {
	scale := func(m map[docKey]float64) map[docKey]float64 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range m {
			lo, hi = min(lo, v), max(hi, v)
		}
		out := make(map[docKey]float64, len(m))
		for key, v := range m {
			if hi > lo {
				out[key] = (v - lo) / (hi - lo)
			} else {
				out[key] = 1
			}
		}
		return out
	}
	sv, sk := scale(vector), scale(keyword)
	hits := make([]store.Hit, 0, len(names))
	for key, name := range names {
		hits = append(hits, store.Hit{Kind: key.kind, ID: key.id, Name: name, Score: alpha*sv[key] + (1-alpha)*sk[key]})
	}
	store.SortHits(hits)
	return hits[:min(k, len(hits))]
}

// ftsQuery ORs the terms, each quoted so no term is read as FTS5 syntax.
func ftsQuery(terms []string) string {
	quoted := make([]string, 0, len(terms))
	for _, t := range terms {
		if t = strings.TrimSpace(t); t != "" {
			quoted = append(quoted, `"`+strings.ReplaceAll(t, `"`, `""`)+`"`)
		}
	}
	return strings.Join(quoted, " OR ")
}

// dumpVectors returns the schedule's documents sorted by id.
func (s *Store) dumpVectors(ctx context.Context, scheduleID string) (*store.VectorDump, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, doc FROM docs WHERE schedule_id = ? ORDER BY kind, id`, scheduleID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	d := &store.VectorDump{Activities: []store.ActivityDoc{}, Relationships: []store.RelationshipDoc{}}
	for rows.Next() {
		var kind, doc string
		if err := rows.Scan(&kind, &doc); err != nil {
			return nil, err
		}
		switch store.Kind(kind) {
		case store.ActivityKind:
			var a store.ActivityDoc
			if err := json.Unmarshal([]byte(doc), &a); err != nil {
				return nil, err
			}
			d.Activities = append(d.Activities, a)
		case store.RelationshipKind:
			var r store.RelationshipDoc
			if err := json.Unmarshal([]byte(doc), &r); err != nil {
				return nil, err
			}
			d.Relationships = append(d.Relationships, r)
		}
	}
	return d, rows.Err()
}
