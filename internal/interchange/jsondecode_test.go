package interchange

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// referenceDecode decodes a schedule file with encoding/json, for the
// differential fuzz test of the hand-written decoder.
func referenceDecode(data []byte) (*schedule.Schedule, error) {
	var f struct {
		Name       string             `json:"name"`
		StartDate  string             `json:"start_date"`
		Calendar   *schedule.Calendar `json:"calendar"`
		DataDate   string             `json:"data_date"`
		Calendars  map[string]*schedule.Calendar
		Options    *schedule.Options
		Activities []struct {
			schedule.Activity                 // the live fields
			Duration          json.RawMessage `json:"duration"`
		} `json:"activities"`
		Relationships []struct {
			ID, Type, Predecessor, Successor string
			Lag                              float64 `json:"lag"`
		} `json:"relationships"`
	}
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, os.ErrInvalid // trailing data
	}
	s := &schedule.Schedule{Name: f.Name, StartDate: f.StartDate, Calendar: f.Calendar,
		DataDate: f.DataDate, Calendars: f.Calendars, Options: f.Options,
		Activities: []schedule.Activity{}, Relationships: []schedule.Relationship{}}
	for _, a := range f.Activities {
		var d string
		if len(a.Duration) > 0 && a.Duration[0] == '"' {
			if err := json.Unmarshal(a.Duration, &d); err != nil {
				return nil, err
			}
		} else if string(a.Duration) != "null" {
			d = string(a.Duration)
		}
		act := a.Activity
		act.Duration = d
		s.Activities = append(s.Activities, act)
	}
	for _, r := range f.Relationships {
		t := schedule.RelType(r.Type)
		if p, err := schedule.ParseRelType(r.Type); err == nil {
			t = p
		}
		s.Relationships = append(s.Relationships, schedule.Relationship{ID: r.ID, Type: t, Predecessor: r.Predecessor, Successor: r.Successor, Lag: r.Lag})
	}
	return s, nil
}

func TestDecoderMatchesEncodingJSON(t *testing.T) {
	for _, path := range []string{"testdata/small.json", "../../examples/building.json"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeSchedule(data)
		if err != nil {
			t.Fatal(err)
		}
		want, err := referenceDecode(data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoders disagree", path)
		}
	}
}

func TestDecoderStrings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`"tab\tquote\"slash\/back\\"`, "tab\tquote\"slash/back\\"},
		{`"\u00e9tage \u4e8c\u968e"`, "étage 二階"},
		{`"\ud83c\udfd7 crane"`, "🏗 crane"},
		{`"lone \ud83c end"`, "lone \uFFFD end"},
		{"\"bad \xff byte\"", "bad \uFFFD byte"},
		{`"Étage"`, "Étage"},
	}
	for _, tc := range tests {
		d := newDecoder([]byte(tc.in))
		got, err := d.str(top.at("x"))
		var ref string
		if json.Unmarshal([]byte(tc.in), &ref) != nil || ref != tc.want {
			t.Fatalf("test case %s is wrong: encoding/json gives %q", tc.in, ref)
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestDecoderErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"name": "a` + "\n" + `b"}`, "name line 1, column 12: invalid JSON: control character in a string"},
		{`{"name": "\q"}`, `name line 1, column 11: invalid JSON: invalid escape \q`},
		{`{"name": "\u12G4"}`, `invalid \u escape`},
		{`{"activities": [{"id": "A", "duration": 01}]}`, "activities[0] line 1, column 42: invalid JSON: want ',' or '}' after a field"},
		{`{"activities": [{"id": "A", "duration": 1.}]}`, "want digits after '.'"},
		{`{"relationships": [{"lag": 1e999}]}`, "relationships[0].lag: number 1e999 is out of range"},
		{`{"relationships": [{"lag": true}]}`, "relationships[0].lag: want a number, got a JSON boolean"},
		{`{"activities": [{"duration": [1]}]}`, `activities[0].duration: want a string like "5" or "pert(3,5,9)", got a JSON array`},
		{`{"activities": [1,]}`, "activities[0]: want an object, got a JSON number"},
		{`{"name": "x",}`, "want a field name in double quotes"},
		{`{"calendar": {"workdays": "Mon"}}`, "calendar.workdays: want an array, got a JSON string"},
		{`{"calendar": {"hours": [8]}}`, "calendar.hours[0]: want a string, got a JSON number"},
		{`{"calendar": {"hours_per_day": "8"}}`, "calendar.hours_per_day: want a number, got a JSON string"},
		{`{"calendar": {"day_hours": ["Fri"]}}`, `calendar.day_hours: want an object like {"Fri": ["08:00-12:00"]}, got a JSON array`},
		{`{"calendar": {"day_hours": {"Fri": "08:00-12:00"}}}`, "calendar.day_hours.Fri: want an array, got a JSON string"},
		{`{"calendar": {"day_hours": {"Fri": [1]}}}`, "calendar.day_hours.Fri[0]: want a string, got a JSON number"},
		{`{"calendar": {"exceptions": {}}}`, "calendar.exceptions: want an array, got a JSON object"},
		{`{"calendar": {"exceptions": [{"from": 1}]}}`, "calendar.exceptions[0].from: want a string, got a JSON number"},
		{`{"calendar": {"exceptions": [{}, {"working": "yes"}]}}`, "calendar.exceptions[1].working: want true or false, got a JSON string"},
		{`{"calendar": {"exceptions": [{"hours": ["x", 2]}]}}`, "calendar.exceptions[0].hours[1]: want a string, got a JSON number"},
		{`{"calendar": {"exceptions": [{"form": "2026-01-01"}]}}`, `calendar.exceptions[0]: unknown field "form"`},
		{`{"activities": [{"constraint": "start_on"}]}`, "activities[0].constraint: want an object, got a JSON string"},
		{`{"activities": [{"constraint": {"type": 7}}]}`, "activities[0].constraint.type: want a string, got a JSON number"},
		{`{"activities": [{"secondary_constraint": {"type": "finish_on_or_before", "date": [1]}}]}`, "activities[0].secondary_constraint.date: want a string, got a JSON array"},
		{`{"activities": [{"constraint": {"type": "start_on", "when": "2026-01-05"}}]}`, `activities[0].constraint: unknown field "when"`},
		{`{"bogus": 1}`, `unknown field "bogus" (line 1, column 11)`},
		{``, "ends before the schedule object is complete"},
		{`{"name": "x"`, "ends before the schedule object is complete"},
		{`{"name": "x\`, "ends before the schedule object is complete"},
		{`{"name": "\u12`, "ends before the schedule object is complete"},
	}
	for _, tc := range tests {
		_, err := decodeSchedule([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v\nwant it to contain %q", tc.in, err, tc.want)
		}
	}
}

// FuzzDecoder: whatever the hand-written decoder accepts, encoding/json
// accepts too, with the same result; it never panics.
func FuzzDecoder(f *testing.F) {
	for _, path := range []string{"testdata/small.json", "testdata/live.json"} {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"name": "\ud83c\udfd7 \u00e9", "activities": [{"id": "A", "duration": -0.5e+2}], "relationships": null}`))
	f.Add([]byte("\xef\xbb\xbf{\"calendar\": null}"))
	f.Add([]byte(`{"activities": [{"id": "A", "constraint": {"type": "start_on", "date": "2026-01-05", "type": null},
		"secondary_constraint": null, "constraint": {"date": "2026-02-02"}}, {"constraint": {}}]}`))
	f.Add([]byte(`{"calendar": {"hours": ["07:00-12:00"], "hours_per_day": 7.5, "day_hours": {"Fri": ["07:00-11:00"], "Sat": null},
		"exceptions": [{"name": "Shutdown", "from": "2026-12-24", "to": "2027-01-01"}, {"from": "2026-06-06", "working": true, "hours": ["08:00-12:00"]}, null]},
		"calendar": {"exceptions": [{"to": "x"}], "hours": [null]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeSchedule(data)
		if err != nil {
			if got != nil || err.Error() == "" {
				t.Fatalf("bad failure: %v, %v", got, err)
			}
			return
		}
		want, err := referenceDecode(data)
		if err != nil {
			t.Fatalf("accepted input encoding/json refuses (%v): %q", err, data)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decoders disagree on %q:\n%+v\n%+v", data, got, want)
		}
	})
}

// A large file's two lists decode at once (bothLists); the schedule and
// any problem's message are those of decoding one list after the other.
func TestDecoderBothListsAgrees(t *testing.T) {
	s := schedule.Synthetic(3000, 3, 7)
	s.StartDate = "2026-01-05"
	var buf bytes.Buffer
	if err := WriteJSON(&buf, s); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	got, err := decodeSchedule(data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := referenceDecode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("the two-list decoding differs from encoding/json's")
	}
	// A problem in either list is named as before.
	for _, tc := range []struct{ from, to, want string }{
		{`"predecessor": "A17"`, `"predecesor": "A17"`, `relationships[`},
		{`"name": "Task 2999"`, `"nme": "Task 2999"`, `activities[2999]`},
		{`"lag": 3`, `"lag": "3"`, `.lag: want a number`},
	} {
		bad := bytes.Replace(data, []byte(tc.from), []byte(tc.to), 1)
		if bytes.Equal(bad, data) {
			t.Fatalf("%q is not in the file", tc.from)
		}
		_, err := decodeSchedule(bad)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s -> %s: %v, want an error naming %q", tc.from, tc.to, err, tc.want)
		}
	}
}

// TestListPieces: a list read in pieces at once is the list read in one,
// when the places the pieces start at are elements' starts and when some
// are not (a "}, {" inside a string or inside a nested list of objects),
// and a problem in any piece is reported.
func TestListPieces(t *testing.T) {
	s := schedule.Synthetic(2000, 3, 11)
	for i := range s.Relationships {
		if i%5 == 0 {
			s.Relationships[i].ID = fmt.Sprintf(`R%d}, {"id": "x"}, {`, i) // a cut's look-alike in a string
		}
	}
	for i := range s.Activities {
		if i%3 == 0 {
			s.Activities[i].Assignments = []schedule.Assignment{{Resource: "crane"}, {Resource: "crew"}} // a nested list of objects
		}
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, s); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	for _, list := range []string{`"activities": [`, `"relationships": [`} {
		start := bytes.Index(data, []byte(list)) + len(list) - 1
		end, ok := skipArray(data, start)
		if !ok {
			t.Fatal("no list")
		}
		for pieces := 1; pieces <= 9; pieces++ {
			d := newDecoder(data)
			switch list {
			case `"activities": [`:
				got, at, ok := listPieces(d, top, start, end, pieces, "activities", activityField)
				if !ok || at != end || !reflect.DeepEqual(got, s.Activities) {
					t.Fatalf("activities in %d pieces: ok %v, end %d want %d, same %v", pieces, ok, at, end, reflect.DeepEqual(got, s.Activities))
				}
			default:
				got, at, ok := listPieces(d, top, start, len(data), pieces, "relationships", relationshipField)
				if !ok || at != end || !reflect.DeepEqual(got, s.Relationships) {
					t.Fatalf("relationships in %d pieces: ok %v, end %d want %d, same %v", pieces, ok, at, end, reflect.DeepEqual(got, s.Relationships))
				}
			}
		}
	}
	// A problem in the last piece fails the whole list.
	last := bytes.LastIndex(data, []byte(`"lag": `))
	bad := slices.Concat(data[:last], []byte(`"lag": "x"`), data[last+len(`"lag": 0`):])
	start := bytes.Index(bad, []byte(`"relationships": [`)) + len(`"relationships": [`) - 1
	if _, _, ok := listPieces(newDecoder(bad), top, start, len(bad), 4, "relationships", relationshipField); ok {
		t.Error("a bad lag in the last piece went unnoticed")
	}
	if _, err := decodeSchedule(bad); err == nil || !strings.Contains(err.Error(), ".lag: want a number") {
		t.Errorf("a bad lag in the last piece: %v", err)
	}
}

// TestOwnedDataIsTheText: a file the reader owns is the schedule's text
// (its strings point into it: no copy of the file), and data a caller
// passes is copied (the caller may change it afterwards).
func TestOwnedDataIsTheText(t *testing.T) {
	data := []byte(`{"name": "Own", "activities": [{"id": "A", "name": "Dig", "duration": "2"}], "relationships": []}`)
	within := func(s string) bool {
		p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&data[0]))
		return p >= lo && p < lo+uintptr(len(data))
	}
	owned, err := decodeScheduleWith(data, &readState{owned: true})
	if err != nil || !within(owned.Activities[0].Name) {
		t.Fatalf("owned data: %v; the name is not a slice of the file", err)
	}
	copied, err := decodeScheduleWith(data, &readState{})
	if err != nil || within(copied.Activities[0].Name) {
		t.Fatalf("a caller's data: %v; the name shares the caller's bytes", err)
	}
	data[len(`{"name": "Own", "activities": [{"id": "A", "name": "`)] = 'F'
	if copied.Activities[0].Name != "Dig" {
		t.Errorf("a change to the caller's data reached the schedule: %q", copied.Activities[0].Name)
	}
}

// FuzzListPieces: a list read in pieces is the list read in one, or both
// refuse it, wherever the pieces' look-alike starts fall (in strings, in
// nested values, in broken JSON).
func FuzzListPieces(f *testing.F) {
	f.Add([]byte(`[{"id": "R1", "type": "FS", "predecessor": "A", "successor": "B"}, {"id": "}, {", "lag": 2}, {"id": "R3"}]`), uint8(2))
	f.Add([]byte(`[{"id": "a\"}, {\"id\": \"b"}, {"id": "c"},{"id":"d"} ,  {"lag": -1.5e1}]`), uint8(3))
	f.Add([]byte(`[{"id": "x"}, {"id": "y"}, {"type": "ss"}] trailing`), uint8(4))
	f.Add([]byte(`null`), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, pieces uint8) {
		one := newDecoder(data)
		want, err := objects(one, top, "relationships", relationshipField)
		got, end, ok := listPieces(newDecoder(data), top, 0, len(data), int(pieces%6)+1, "relationships", relationshipField)
		if ok != (err == nil) {
			t.Fatalf("in pieces ok=%v, in one err=%v: %q", ok, err, data)
		}
		if ok && (end != one.pos || !reflect.DeepEqual(got, want)) {
			t.Fatalf("in pieces: %d relationships ending at %d; in one: %d ending at %d: %q", len(got), end, len(want), one.pos, data)
		}
	})
}
