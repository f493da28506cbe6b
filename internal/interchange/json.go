// Package interchange reads and writes schedule files: the JSON schedule file
// of DESIGN.md (and, later, MSPDI and XER). Readers validate fully and name
// the field and index of every problem; nothing half-read is returned.
package interchange

import (
	"encoding/json"
	"io"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// ReadJSON reads and validates a JSON schedule file.
func ReadJSON(r io.Reader) (*schedule.Schedule, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return ParseJSON(data)
}

// ParseJSON parses and validates a JSON schedule file held in memory. On any
// problem it returns no schedule and an error naming the field and index.
func ParseJSON(data []byte) (*schedule.Schedule, error) {
	s, _, err := Parse(data, JSON)
	return s, err
}

// WriteJSON writes s as a JSON schedule file, indented for people and diffs:
// every field the schedule holds, the live programme's too, in the order
// the schedule types declare them (empty optional fields left out).
func WriteJSON(w io.Writer, s *schedule.Schedule) error {
	type file schedule.Schedule // without Schedule.MarshalJSON, which escapes HTML
	f := file(*s)
	if f.Activities == nil {
		f.Activities = []schedule.Activity{}
	}
	if f.Relationships == nil {
		f.Relationships = []schedule.Relationship{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(f)
}
