// Package embedded is the default store: one SQLite file (pure Go, WAL)
// that is both the GraphStore (the seed design's node and edge tables) and
// the VectorStore (documents, vectors, an FTS5 index for BM25, hybrid search
// by fusing BM25 with cosine similarity). It needs no server.
package embedded

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// Store is one SQLite database holding any number of schedules. Graph and
// Vectors are its two roles.
type Store struct {
	db        *sql.DB
	tokenize  func(string) []string
	noCache   bool
	closeOnce sync.Once
	closeErr  error

	mu      sync.Mutex
	indexes map[string]*vectorIndex // per schedule, loaded on first search
}

// Graph is the store in its GraphStore role.
func (s *Store) Graph() store.GraphStore { return graphView{s} }

// Vectors is the store in its VectorStore role.
func (s *Store) Vectors() store.VectorStore { return vectorView{s} }

type graphView struct{ *Store }

type vectorView struct{ *Store }

func (g graphView) Apply(ctx context.Context, scheduleID string, changes []store.Change) ([]string, error) {
	if err := store.CheckScheduleID(scheduleID); err != nil {
		return nil, err
	}
	return g.applyGraph(ctx, scheduleID, changes)
}

// Holds reports whether v is this database's vector side: then the
// Coordinator writes both in one transaction (ApplyAtomic).
func (g graphView) Holds(v store.VectorStore) bool {
	vv, ok := v.(vectorView)
	return ok && vv.Store == g.Store
}

// ApplyAtomic applies the graph changes and every batch of vector changes
// vectors puts in one transaction.
func (g graphView) ApplyAtomic(ctx context.Context, scheduleID string, changes []store.Change, vectors func(put func([]store.VectorChange) error) error) error {
	if err := store.CheckScheduleID(scheduleID); err != nil {
		return err
	}
	defer g.forgetIndex(scheduleID)
	return g.tx(ctx, func(tx *preparedTx) error {
		if _, err := applyLedgeredTx(tx, "graph_ledger", scheduleID, len(changes),
			func(i int) string { return changes[i].OpID },
			func(tx *preparedTx, i int) error { return applyGraphChange(tx, scheduleID, changes[i]) },
			func(i int) (string, error) { return graphRecord(changes[i]) }); err != nil {
			return fmt.Errorf("graph: %w", err)
		}
		return vectors(func(vcs []store.VectorChange) error {
			_, err := applyLedgeredTx(tx, "vector_ledger", scheduleID, len(vcs),
				func(i int) string { return vcs[i].OpID },
				func(tx *preparedTx, i int) error { return g.applyVectorChange(tx, scheduleID, vcs[i]) },
				nil)
			return err
		})
	})
}

func (g graphView) Dump(ctx context.Context, scheduleID string) (*store.GraphDump, error) {
	return g.dumpGraph(ctx, scheduleID)
}

func (v vectorView) Apply(ctx context.Context, scheduleID string, changes []store.VectorChange) ([]string, error) {
	if err := store.CheckScheduleID(scheduleID); err != nil {
		return nil, err
	}
	return v.applyVectors(ctx, scheduleID, changes)
}

func (g graphView) Commit(ctx context.Context, scheduleID string, opIDs []string, rec store.CommitRecord) error {
	return g.commit(ctx, "graph_ledger", scheduleID, opIDs, rec)
}

func (v vectorView) Commit(ctx context.Context, scheduleID string, opIDs []string, rec store.CommitRecord) error {
	return v.commit(ctx, "vector_ledger", scheduleID, opIDs, rec)
}

func (v vectorView) Committed(ctx context.Context, scheduleID string, opIDs []string) (map[string]store.CommitRecord, error) {
	out := map[string]store.CommitRecord{}
	for _, op := range opIDs {
		var text sql.NullString
		err := v.db.QueryRowContext(ctx, `SELECT committed FROM vector_ledger WHERE schedule_id = ? AND op_id = ?`, scheduleID, op).Scan(&text)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && !text.Valid) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var rec store.CommitRecord
		if err := json.Unmarshal([]byte(text.String), &rec); err != nil {
			return nil, fmt.Errorf("vector ledger entry %s: %w", op, err)
		}
		out[op] = rec
	}
	return out, nil
}

// commit marks ledger entries committed in one transaction, keeping a
// record written before; a missing entry fails the whole call. ledger is
// one of the two table names, never input.
func (s *Store) commit(ctx context.Context, ledger, scheduleID string, opIDs []string, rec store.CommitRecord) error {
	text, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *preparedTx) error {
		for _, op := range opIDs {
			held, err := tx.exists("SELECT 1 FROM "+ledger+" WHERE schedule_id = ? AND op_id = ?", scheduleID, op)
			if err != nil {
				return err
			}
			if !held {
				return fmt.Errorf("%w: %s of schedule %q", store.ErrNotRecorded, op, scheduleID)
			}
			if err := tx.exec("UPDATE "+ledger+" SET committed = ? WHERE schedule_id = ? AND op_id = ? AND committed IS NULL", string(text), scheduleID, op); err != nil {
				return err
			}
		}
		return nil
	})
}

func (v vectorView) Dump(ctx context.Context, scheduleID string) (*store.VectorDump, error) {
	return v.dumpVectors(ctx, scheduleID)
}

// Options tune a store.
type Options struct {
	// Tokenize turns text into the terms the BM25 index holds and queries
	// use; the same normalisation as the embedder lets "first floor" find
	// "Level 1". Nil means lower-cased words.
	Tokenize func(string) []string
	// NoVectorCache reads the vectors from the file on every search instead
	// of keeping them in memory: the naive baseline of the benchmarks.
	NoVectorCache bool
}

const schema = `
CREATE TABLE IF NOT EXISTS schedules (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL DEFAULT '',
	start_date TEXT NOT NULL DEFAULT '',
	calendar TEXT NOT NULL DEFAULT '',
	summary TEXT NOT NULL DEFAULT '',
	data_date TEXT NOT NULL DEFAULT '',
	calendars TEXT NOT NULL DEFAULT '',
	options TEXT NOT NULL DEFAULT '',
	source TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS nodes (
	schedule_id TEXT NOT NULL,
	id TEXT NOT NULL,
	kind TEXT NOT NULL,
	weight TEXT NOT NULL,
	activity_id TEXT NOT NULL DEFAULT '',
	name TEXT NOT NULL DEFAULT '',
	description TEXT NOT NULL DEFAULT '',
	live TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (schedule_id, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS edges (
	schedule_id TEXT NOT NULL,
	src TEXT NOT NULL,
	dst TEXT NOT NULL,
	PRIMARY KEY (schedule_id, src, dst)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edges_dst ON edges (schedule_id, dst);
CREATE TABLE IF NOT EXISTS graph_ledger (
	schedule_id TEXT NOT NULL,
	op_id TEXT NOT NULL,
	change TEXT NOT NULL,
	committed TEXT,
	PRIMARY KEY (schedule_id, op_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS docs (
	rowid INTEGER PRIMARY KEY,
	schedule_id TEXT NOT NULL,
	kind TEXT NOT NULL,
	id TEXT NOT NULL,
	name TEXT NOT NULL,
	doc TEXT NOT NULL,
	terms TEXT NOT NULL,
	vector BLOB NOT NULL,
	UNIQUE (schedule_id, kind, id)
);
CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5(terms, content='docs', content_rowid='rowid', tokenize="unicode61 tokenchars '_'");
CREATE VIRTUAL TABLE IF NOT EXISTS docs_vocab USING fts5vocab(docs_fts, 'row');
-- docs_fts is kept in step with docs by the writes themselves, in bulk
-- (see ftsPending): row triggers made FTS5 flush its pending terms on
-- every statement, half the time of a large import.
DROP TRIGGER IF EXISTS docs_ai;
DROP TRIGGER IF EXISTS docs_ad;
DROP TRIGGER IF EXISTS docs_au;
CREATE TABLE IF NOT EXISTS vec_codes (
	schedule_id TEXT NOT NULL,
	chunk INTEGER NOT NULL,
	codes BLOB NOT NULL,
	PRIMARY KEY (schedule_id, chunk)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vec_index (
	schedule_id TEXT PRIMARY KEY,
	slot INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS intents (
	id TEXT PRIMARY KEY,
	schedule_id TEXT NOT NULL,
	started TEXT NOT NULL,
	body TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS schedule_prefs (schedule_id TEXT PRIMARY KEY, body TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS portfolios (name TEXT PRIMARY KEY, schedules TEXT NOT NULL) WITHOUT ROWID;
-- A schedule's kept versions (store.Version as info, the gzipped
-- schedule as body): a rowid table, as its rows are large.
CREATE TABLE IF NOT EXISTS versions (
	schedule_id TEXT NOT NULL,
	id TEXT NOT NULL,
	info TEXT NOT NULL,
	body BLOB NOT NULL,
	UNIQUE (schedule_id, id)
);
CREATE TABLE IF NOT EXISTS vector_ledger (
	schedule_id TEXT NOT NULL,
	op_id TEXT NOT NULL,
	committed TEXT,
	PRIMARY KEY (schedule_id, op_id)
) WITHOUT ROWID;
`

// Open opens (creating if needed) the store at path.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	// Write transactions take the write lock when they begin (immediate):
	// a deferred one that reads first and then writes cannot wait for a
	// busy lock (SQLite refuses at once to avoid a deadlock), so concurrent
	// writers failed with SQLITE_BUSY instead of queueing.
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("embedded store %s: %w", path, err)
	}
	// One connection: SQLite has one writer anyway, and it keeps every
	// statement of a transaction on the same connection.
	db.SetMaxOpenConns(1)
	if err := execSchema(ctx, db); err != nil { // schema.go: retried while another process creates them
		db.Close()
		return nil, fmt.Errorf("embedded store %s: creating tables: %w", path, err)
	}
	if err := migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("embedded store %s: upgrading tables: %w", path, err)
	}
	tokenize := opts.Tokenize
	if tokenize == nil {
		tokenize = func(s string) []string { return strings.Fields(strings.ToLower(s)) }
	}
	return &Store{db: db, tokenize: tokenize, noCache: opts.NoVectorCache, indexes: map[string]*vectorIndex{}}, nil
}

// migrate adds the columns that files written by older versions lack. A
// schedule without a summary is summarised on the next list
// (Coordinator.Schedules); the live programme's columns (issue 28) default
// to empty, which reads as a plain network.
func migrate(ctx context.Context, db *sql.DB) error {
	for _, col := range []struct{ table, column, def string }{
		{"graph_ledger", "committed", "TEXT"},
		{"vector_ledger", "committed", "TEXT"},
		{"schedules", "summary", "TEXT NOT NULL DEFAULT ''"},
		{"schedules", "data_date", "TEXT NOT NULL DEFAULT ''"},
		{"schedules", "calendars", "TEXT NOT NULL DEFAULT ''"},
		{"schedules", "options", "TEXT NOT NULL DEFAULT ''"},
		{"schedules", "source", "TEXT NOT NULL DEFAULT ''"},
		{"nodes", "live", "TEXT NOT NULL DEFAULT ''"},
	} {
		var n int
		err := db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info(?) WHERE name = ?`, col.table, col.column).Scan(&n)
		if err != nil {
			return err
		}
		if n == 0 {
			// Table, column and type are the constants above, never input.
			_, err := db.ExecContext(ctx, "ALTER TABLE "+col.table+" ADD COLUMN "+col.column+" "+col.def)
			if err != nil && !strings.Contains(err.Error(), "duplicate column") { // another process added it first
				return err
			}
		}
	}
	return nil
}

// Close closes the database; closing either role closes both.
func (s *Store) Close(context.Context) error {
	s.closeOnce.Do(func() { s.closeErr = s.db.Close() })
	return s.closeErr
}

// writerWait bounds how long a write waits for another process's write
// to end (a 200,000-activity import holds the lock for minutes).
var writerWait = 30 * time.Minute

// tx runs fn in one write transaction, rolled back on error. While another
// process writes, it waits (SQLite's busy timeout, then again, until
// writerWait or ctx ends), so concurrent writers queue.
func (s *Store) tx(ctx context.Context, fn func(*preparedTx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	for deadline := time.Now().Add(writerWait); err != nil && busy(err) && time.Now().Before(deadline); {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		tx, err = s.db.BeginTx(ctx, nil)
	}
	if err != nil {
		return err
	}
	p := &preparedTx{ctx: ctx, tx: tx, stmts: map[string]*sql.Stmt{}}
	if err := fn(p); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	if err := p.flushCodes(); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}

// busy reports an SQLite "database is locked" error.
func busy(err error) bool {
	var e *sqlite.Error
	if errors.As(err, &e) {
		code := e.Code() & 0xff
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	return false
}

// preparedTx is a transaction that prepares each distinct statement once:
// an import runs the same few statements tens of thousands of times, and
// parsing them each time was a third of its cost. The statements close
// with the transaction.
type preparedTx struct {
	ctx   context.Context
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
	// codes queues the binary-code slots the transaction changed, per
	// schedule; codesComplete says whose codes are complete (codes.go).
	codes         map[string][]codeUpdate
	codesComplete map[string]bool
	// written tracks, per table and schedule, the keys this transaction
	// wrote to a schedule that held no rows there before (rows.go).
	written map[[2]string]map[string]bool
}

func (p *preparedTx) stmt(query string) (*sql.Stmt, error) {
	if st := p.stmts[query]; st != nil {
		return st, nil
	}
	st, err := p.tx.PrepareContext(p.ctx, query)
	if err != nil {
		return nil, err
	}
	p.stmts[query] = st
	return st, nil
}

func (p *preparedTx) exec(query string, args ...any) error {
	st, err := p.stmt(query)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(p.ctx, args...)
	return err
}

// rowid runs a statement that returns at most one rowid; ok is false when
// it returns none.
func (p *preparedTx) rowid(query string, args ...any) (id int64, ok bool, err error) {
	st, err := p.stmt(query)
	if err != nil {
		return 0, false, err
	}
	switch err := st.QueryRowContext(p.ctx, args...).Scan(&id); {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	return id, true, nil
}

// scan reads query's first row into dest; found is false when there is
// none.
func (p *preparedTx) scan(query string, args []any, dest ...any) (found bool, err error) {
	st, err := p.stmt(query)
	if err != nil {
		return false, err
	}
	switch err := st.QueryRowContext(p.ctx, args...).Scan(dest...); {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// exists reports whether query returns a row.
func (p *preparedTx) exists(query string, args ...any) (bool, error) {
	st, err := p.stmt(query)
	if err != nil {
		return false, err
	}
	var one int
	switch err := st.QueryRowContext(p.ctx, args...).Scan(&one); {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// Has reports whether a schedule is stored.
func (s *Store) Has(ctx context.Context, scheduleID string) (bool, error) {
	var one int
	switch err := s.db.QueryRowContext(ctx, `SELECT 1 FROM schedules WHERE id = ?`, scheduleID).Scan(&one); {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// Schedules lists stored schedules with their summaries; only a schedule
// stored without one has its nodes counted.
func (s *Store) Schedules(ctx context.Context) ([]store.ScheduleInfo, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT s.id, s.name, s.summary,
			CASE WHEN s.summary = '' THEN (SELECT count(*) FROM nodes n WHERE n.schedule_id = s.id AND n.kind = 'intra') ELSE 0 END,
			CASE WHEN s.summary = '' THEN (SELECT count(*) FROM nodes n WHERE n.schedule_id = s.id AND n.kind = 'relationship') ELSE 0 END
		FROM schedules s ORDER BY s.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.ScheduleInfo
	for rows.Next() {
		var info store.ScheduleInfo
		var summary string
		if err := rows.Scan(&info.ID, &info.Name, &summary, &info.Activities, &info.Relationships); err != nil {
			return nil, err
		}
		if summary != "" {
			sum := &store.Summary{}
			if err := json.Unmarshal([]byte(summary), sum); err == nil {
				info.Summary = sum
				info.Name, info.Activities, info.Relationships = sum.Name, sum.Activities, sum.Relationships
			}
			// An unreadable summary is none: summarised again.
		}
		out = append(out, info)
	}
	return out, rows.Err()
}

// PutSummary stores the summary of a schedule that has none.
func (s *Store) PutSummary(ctx context.Context, scheduleID string, sum store.Summary) error {
	text, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *preparedTx) error {
		return tx.exec(`UPDATE schedules SET summary = ? WHERE id = ? AND summary = ''`, string(text), scheduleID)
	})
}

// DeleteSchedule removes a schedule's graph, documents and both ledgers.
func (s *Store) DeleteSchedule(ctx context.Context, scheduleID string) error {
	s.forgetIndex(scheduleID)
	return s.tx(ctx, func(tx *preparedTx) error {
		// The search index first, while the documents still say what it holds.
		if err := tx.exec(`INSERT INTO docs_fts(docs_fts, rowid, terms) SELECT 'delete', rowid, terms FROM docs WHERE schedule_id = ?`, scheduleID); err != nil {
			return err
		}
		for _, table := range []string{"schedules", "nodes", "edges", "graph_ledger", "docs", "vector_ledger", "vec_codes", "vec_index", "schedule_prefs", "versions"} {
			col := "schedule_id"
			if table == "schedules" {
				col = "id"
			}
			// Table and column names are constants above, never input.
			if err := tx.exec("DELETE FROM "+table+" WHERE "+col+" = ?", scheduleID); err != nil {
				return err
			}
		}
		return nil
	})
}

// applyLedgered applies n changes in one transaction, skipping those whose
// op ID the ledger table already holds and recording the others there (with
// record's text, when given: the graph ledger keeps whole changes). Changes
// without an op ID are applied and not recorded. It returns the op IDs it
// applied. ledger is one of the two table names above, never input.
func (s *Store) applyLedgered(ctx context.Context, ledger, scheduleID string, n int,
	opID func(i int) string, apply func(tx *preparedTx, i int) error, record func(i int) (string, error)) ([]string, error) {
	var applied []string
	err := s.tx(ctx, func(tx *preparedTx) error {
		var err error
		applied, err = applyLedgeredTx(tx, ledger, scheduleID, n, opID, apply, record)
		return err
	})
	if err != nil {
		return nil, err
	}
	return applied, nil
}

// applyLedgeredTx is applyLedgered inside a transaction the caller holds.
func applyLedgeredTx(tx *preparedTx, ledger, scheduleID string, n int,
	opID func(i int) string, apply func(tx *preparedTx, i int) error, record func(i int) (string, error)) ([]string, error) {
	var applied []string
	for i := range n {
		op := opID(i)
		if op != "" {
			done, err := tx.exists("SELECT 1 FROM "+ledger+" WHERE schedule_id = ? AND op_id = ?", scheduleID, op)
			if err != nil {
				return nil, err
			}
			if done {
				continue // applied before
			}
		}
		if err := apply(tx, i); err != nil {
			return nil, fmt.Errorf("op %s: %w", op, err)
		}
		if op == "" {
			continue
		}
		if record == nil {
			if err := tx.exec("INSERT INTO "+ledger+" (schedule_id, op_id) VALUES (?, ?)", scheduleID, op); err != nil {
				return nil, err
			}
		} else {
			text, err := record(i)
			if err != nil {
				return nil, err
			}
			if err := tx.exec("INSERT INTO "+ledger+" (schedule_id, op_id, change) VALUES (?, ?, ?)", scheduleID, op, text); err != nil {
				return nil, err
			}
		}
		applied = append(applied, op)
	}
	return applied, nil
}
