// Package interchange reads and writes schedule files: the JSON schedule file
// of DESIGN.md (and, later, MSPDI and XER). Readers validate fully and name
// the field and index of every problem; nothing half-read is returned.
package interchange

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// fileSchedule mirrors the JSON schedule file. Durations may be written as
// a string ("5", "pert(3,5,9)") or, for convenience, a bare number.
type fileSchedule struct {
	Name          string             `json:"name"`
	StartDate     string             `json:"start_date"`
	Calendar      *schedule.Calendar `json:"calendar"`
	Activities    []fileActivity     `json:"activities"`
	Relationships []fileRelationship `json:"relationships"`
}

type fileActivity struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Duration    duration `json:"duration"`
}

type fileRelationship struct {
	ID          string  `json:"id"`
	Type        string  `json:"type"`
	Predecessor string  `json:"predecessor"`
	Successor   string  `json:"successor"`
	Lag         float64 `json:"lag"`
}

// duration takes a JSON string or number and keeps it as text.
type duration string

func (d *duration) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*d = duration(s)
		return nil
	}
	if _, err := strconv.ParseFloat(string(b), 64); err != nil {
		return fmt.Errorf("want a string like \"5\" or \"pert(3,5,9)\", got %s", b)
	}
	*d = duration(b)
	return nil
}

// ReadJSON reads and validates a JSON schedule file.
func ReadJSON(r io.Reader) (*schedule.Schedule, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return ParseJSON(data)
}

// ParseJSON parses and validates a JSON schedule file held in memory.
func ParseJSON(data []byte) (*schedule.Schedule, error) {
	var f fileSchedule
	if err := strictUnmarshal(data, &f); err != nil {
		return nil, locateJSONError(data, err)
	}
	s := &schedule.Schedule{
		Name:          f.Name,
		StartDate:     f.StartDate,
		Calendar:      f.Calendar,
		Activities:    make([]schedule.Activity, len(f.Activities)),
		Relationships: make([]schedule.Relationship, len(f.Relationships)),
	}
	for i, a := range f.Activities {
		s.Activities[i] = schedule.Activity{ID: a.ID, Name: a.Name, Description: a.Description, Duration: string(a.Duration)}
	}
	for i, r := range f.Relationships {
		t := schedule.RelType(r.Type)
		if parsed, err := schedule.ParseRelType(r.Type); err == nil {
			t = parsed
		}
		s.Relationships[i] = schedule.Relationship{ID: r.ID, Type: t, Predecessor: r.Predecessor, Successor: r.Successor, Lag: r.Lag}
	}
	if err := schedule.Validate(s); err != nil {
		return nil, err
	}
	return s, nil
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the schedule object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the schedule object")
	}
	return nil
}

// locateJSONError turns a decoding error into one that names where it is:
// the fast path decodes everything at once; only on failure do we decode
// element by element to find the index.
func locateJSONError(data []byte, err error) error {
	var top struct {
		Name          json.RawMessage   `json:"name"`
		StartDate     json.RawMessage   `json:"start_date"`
		Calendar      json.RawMessage   `json:"calendar"`
		Activities    []json.RawMessage `json:"activities"`
		Relationships []json.RawMessage `json:"relationships"`
	}
	if topErr := strictUnmarshal(data, &top); topErr != nil {
		return describeJSONError("", data, topErr)
	}
	for i, raw := range top.Activities {
		var a fileActivity
		if err := strictUnmarshal(raw, &a); err != nil {
			return describeJSONError(fmt.Sprintf("activities[%d]", i), raw, err)
		}
	}
	for i, raw := range top.Relationships {
		var r fileRelationship
		if err := strictUnmarshal(raw, &r); err != nil {
			return describeJSONError(fmt.Sprintf("relationships[%d]", i), raw, err)
		}
	}
	var cal schedule.Calendar
	if len(top.Calendar) > 0 {
		if err := strictUnmarshal(top.Calendar, &cal); err != nil {
			return describeJSONError("calendar", top.Calendar, err)
		}
	}
	return describeJSONError("", data, err)
}

// describeJSONError rewrites encoding/json's messages, which speak of Go
// types, into the file's own terms.
func describeJSONError(path string, data []byte, err error) error {
	join := func(field string) string {
		switch {
		case path == "":
			return field
		case field == "":
			return path
		}
		return path + "." + field
	}
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		return &schedule.FieldError{Path: join(typeErr.Field), Reason: fmt.Sprintf("want %s, got a JSON %s", jsonKind(typeErr.Type.Kind().String()), typeErr.Value)}
	case errors.As(err, &syntaxErr):
		// Offset counts the offending byte; point at it.
		line, col := position(data, syntaxErr.Offset-1)
		where := fmt.Sprintf("line %d, column %d", line, col)
		if path != "" {
			where = path + " " + where
		}
		return fmt.Errorf("%s: invalid JSON: %v", where, syntaxErr)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return errors.New("invalid JSON: the file ends before the schedule object is complete")
	}
	msg := err.Error()
	if unknown, ok := bytes.CutPrefix([]byte(msg), []byte("json: unknown field ")); ok {
		return &schedule.FieldError{Path: join(""), Reason: "unknown field " + string(unknown)}
	}
	if path == "" {
		return fmt.Errorf("invalid schedule file: %s", bytes.TrimPrefix([]byte(msg), []byte("json: ")))
	}
	return &schedule.FieldError{Path: path, Reason: string(bytes.TrimPrefix([]byte(msg), []byte("json: ")))}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "float64", "int", "int64":
		return "a number"
	case "string":
		return "a string"
	case "slice":
		return "an array"
	case "struct", "ptr", "map":
		return "an object"
	}
	return goKind
}

// position converts a byte offset to a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// WriteJSON writes s as a JSON schedule file, indented for people and diffs.
func WriteJSON(w io.Writer, s *schedule.Schedule) error {
	f := fileSchedule{Name: s.Name, StartDate: s.StartDate, Calendar: s.Calendar}
	f.Activities = make([]fileActivity, len(s.Activities))
	for i, a := range s.Activities {
		f.Activities[i] = fileActivity{ID: a.ID, Name: a.Name, Description: a.Description, Duration: duration(a.Duration)}
	}
	f.Relationships = make([]fileRelationship, len(s.Relationships))
	for i, r := range s.Relationships {
		f.Relationships[i] = fileRelationship{ID: r.ID, Type: string(r.Type), Predecessor: r.Predecessor, Successor: r.Successor, Lag: r.Lag}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(writable(f))
}

// writable drops empty optional keys on output.
func writable(f fileSchedule) any {
	type out struct {
		Name          string             `json:"name,omitempty"`
		StartDate     string             `json:"start_date,omitempty"`
		Calendar      *schedule.Calendar `json:"calendar,omitempty"`
		Activities    []fileActivity     `json:"activities"`
		Relationships []fileRelationship `json:"relationships"`
	}
	return out{f.Name, f.StartDate, f.Calendar, f.Activities, f.Relationships}
}
