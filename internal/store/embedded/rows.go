package embedded

import (
	"database/sql"
	"strings"
)

// rowBatch is how many rows one multi-row statement writes. Each
// statement costs a trip through database/sql and the driver (argument
// conversion, locks, a goroutine watching the context) that, one row at a
// time, was most of a large import's time; 64 rows of up to 8 columns
// stay far below SQLite's limit on bound parameters.
const rowBatch = 64

// valuesSQL is head + " VALUES (?, …), …" for rows rows of width columns,
// + " " + tail.
func valuesSQL(head, tail string, width, rows int) string {
	one := inList(width)
	var b strings.Builder
	b.Grow(len(head) + len(tail) + rows*(len(one)+2) + 9)
	b.WriteString(head)
	b.WriteString(" VALUES ")
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(one)
	}
	if tail != "" {
		b.WriteString(" ")
		b.WriteString(tail)
	}
	return b.String()
}

// execValues runs head VALUES (…), … tail over args, width values per row,
// at most rowBatch rows per statement.
func (p *preparedTx) execValues(head, tail string, width int, args []any) error {
	for start := 0; start < len(args); start += rowBatch * width {
		chunk := args[start:min(start+rowBatch*width, len(args))]
		if err := p.exec(valuesSQL(head, tail, width, len(chunk)/width), chunk...); err != nil {
			return err
		}
	}
	return nil
}

// queryValues runs one statement head VALUES (…), … tail over args (at
// most rowBatch rows of width values) and hands each row it returns to
// scan.
func (p *preparedTx) queryValues(head, tail string, width int, args []any, scan func(*sql.Rows) error) error {
	return p.query(valuesSQL(head, tail, width, len(args)/width), args, scan)
}

// query runs a prepared query and hands each row to scan.
func (p *preparedTx) query(query string, args []any, scan func(*sql.Rows) error) error {
	st, err := p.stmt(query)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(p.ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// inList is "(?, ?, …)" for n values.
func inList(n int) string {
	return "(" + strings.TrimSuffix(strings.Repeat("?, ", n), ", ") + ")"
}

// distinctRuns splits 0..n into runs of at most rowBatch items in which
// no key repeats, in order: a multi-row statement must not write one row
// twice, and a later write of a key must follow the earlier one.
func distinctRuns(n int, key func(i int) string) [][2]int {
	var runs [][2]int
	seen := map[string]bool{}
	start := 0
	for i := range n {
		k := key(i)
		if i-start == rowBatch || seen[k] {
			runs = append(runs, [2]int{start, i})
			start = i
			clear(seen)
		}
		seen[k] = true
	}
	if start < n {
		runs = append(runs, [2]int{start, n})
	}
	return runs
}

// absent reports, for each key, whether it cannot be in table for
// scheduleID: the schedule held no rows there when this transaction first
// asked, and the transaction has not written the key since. The keys are
// then noted as written. An import into an empty schedule thus skips a
// look-up per row for what it cannot find. table is a name from the code,
// never input.
func (p *preparedTx) absent(table, scheduleID string, keys []string) ([]bool, error) {
	out := make([]bool, len(keys))
	at := [2]string{table, scheduleID}
	written, known := p.written[at]
	if !known {
		held, err := p.exists("SELECT 1 FROM "+table+" WHERE schedule_id = ? LIMIT 1", scheduleID)
		if err != nil {
			return nil, err
		}
		if p.written == nil {
			p.written = map[[2]string]map[string]bool{}
		}
		if held {
			p.written[at] = nil // look everything up
			return out, nil
		}
		written = map[string]bool{}
		p.written[at] = written
	}
	if written == nil {
		return out, nil
	}
	for i, k := range keys {
		out[i] = !written[k]
		written[k] = true
	}
	return out, nil
}
