package embedded

import (
	"context"
	"database/sql"
	"time"
)

// execSchema creates the tables that are missing. Processes opening a new
// file at once race to create them: in WAL mode a statement that read the
// schema before another connection committed a table cannot take the write
// lock (SQLite answers SQLITE_BUSY at once, without the busy timeout), so a
// busy answer is retried. Once the tables exist the statements write
// nothing and never wait for a writer.
func execSchema(ctx context.Context, db *sql.DB) error {
	for attempt := 0; ; attempt++ {
		_, err := db.ExecContext(ctx, schema)
		if err == nil || !busy(err) || attempt == 100 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
