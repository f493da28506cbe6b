// Package interchange reads and writes schedule files: the JSON schedule file
// of DESIGN.md (and, later, MSPDI and XER). Readers validate fully and name
// the field and index of every problem; nothing half-read is returned.
package interchange

import (
	"encoding/json"
	"io"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// fileSchedule, fileActivity and fileRelationship fix the written form: key
// order and which keys are optional.
type fileSchedule struct {
	Name          string             `json:"name,omitempty"`
	StartDate     string             `json:"start_date,omitempty"`
	Calendar      *schedule.Calendar `json:"calendar,omitempty"`
	Activities    []fileActivity     `json:"activities"`
	Relationships []fileRelationship `json:"relationships"`
}

type fileActivity struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Duration    string `json:"duration"`
}

type fileRelationship struct {
	ID          string  `json:"id"`
	Type        string  `json:"type"`
	Predecessor string  `json:"predecessor"`
	Successor   string  `json:"successor"`
	Lag         float64 `json:"lag"`
}

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

// WriteJSON writes s as a JSON schedule file, indented for people and diffs.
func WriteJSON(w io.Writer, s *schedule.Schedule) error {
	f := fileSchedule{Name: s.Name, StartDate: s.StartDate, Calendar: s.Calendar}
	f.Activities = make([]fileActivity, len(s.Activities))
	for i, a := range s.Activities {
		f.Activities[i] = fileActivity{ID: a.ID, Name: a.Name, Description: a.Description, Duration: a.Duration}
	}
	f.Relationships = make([]fileRelationship, len(s.Relationships))
	for i, r := range s.Relationships {
		f.Relationships[i] = fileRelationship{ID: r.ID, Type: string(r.Type), Predecessor: r.Predecessor, Successor: r.Successor, Lag: r.Lag}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(f)
}
