package embedded

// SetExactLimit sets the document count above which a schedule is searched
// through its binary codes, and returns a func that restores it.
func SetExactLimit(n int) (restore func()) {
	old := exactLimit
	exactLimit = n
	return func() { exactLimit = old }
}

// DropCodes forgets a schedule's codes, as in a file written before them.
func (s *Store) DropCodes(scheduleID string) error {
	_, err := s.db.Exec(`DELETE FROM vec_codes WHERE schedule_id = ?; DELETE FROM vec_index WHERE schedule_id = ?`, scheduleID, scheduleID)
	return err
}

// CheckSearchIndex runs FTS5's integrity check of the search index
// against the documents it indexes.
func (s *Store) CheckSearchIndex() error {
	_, err := s.db.Exec(`INSERT INTO docs_fts(docs_fts, rank) VALUES ('integrity-check', 1)`)
	return err
}
