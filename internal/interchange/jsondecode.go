package interchange

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// A hand-written decoder for the schedule file: it knows the file's shape,
// so it decodes straight into the domain types (several times faster than
// encoding/json on a 100k-activity file) and every error names the field,
// the index and the line and column. Keys match exactly; unknown keys are
// refused so a misspelt "predecesor" cannot silently drop a link; a repeated
// key keeps its last value and null leaves a field empty, as in encoding/json.

// errEOF is the one message for every kind of truncated file.
var errEOF = errors.New("invalid JSON: the file ends before the schedule object is complete")

// errStop ends the decoding of a list's piece at its stopAt (listPieces).
var errStop = errors.New("the piece of the list ends here")

type decoder struct {
	data []byte
	// text is data as a string: a plain string value is a slice of it,
	// with no allocation of its own (a 100k-activity file holds about a
	// million of them).
	text string
	pos  int
	// A piece of a list decoded on its own goroutine (listPieces): resume
	// starts the next array read at an element, its '[' already behind;
	// stopAt ends it before the element at that position (0: no stop).
	// Both apply to the next array read only, not to arrays inside it.
	resume bool
	stopAt int
	// inside is the list element being read (for a truncated file's
	// error); nameAt is where the schedule's name starts (for a warning).
	inside where
	nameAt int
}

func newDecoder(data []byte) *decoder {
	return &decoder{data: data, text: string(data), inside: top}
}

// newOwnDecoder is newDecoder on data nothing else holds or will change
// (a file LoadWith read): its text is data itself, not a copy, and the
// schedule's strings keep it.
func newOwnDecoder(data []byte) *decoder {
	return &decoder{data: data, text: unsafe.String(unsafe.SliceData(data), len(data)), inside: top}
}

// where is a position in the schedule's structure, e.g. relationships[3].lag.
// It is built for every value but formatted only for an error.
type where struct {
	list  string // "activities", "calendar.workdays", or "" at the top
	index int    // element of list, or -1
	field string
}

var top = where{index: -1}

func (w where) String() string {
	s := w.list
	if w.index >= 0 {
		s += "[" + strconv.Itoa(w.index) + "]"
	}
	if w.field != "" && s != "" {
		s += "."
	}
	return s + w.field
}

func (w where) at(field string) where { w.field = field; return w }

// decodeSchedule parses a whole schedule file.
func decodeSchedule(data []byte) (*schedule.Schedule, error) {
	return decodeScheduleWith(data, &readState{})
}

// decodeScheduleWith is decodeSchedule that warns through rs: a schedule
// name over schedule.MaxName characters is shortened, with a warning.
func decodeScheduleWith(data []byte, rs *readState) (*schedule.Schedule, error) {
	var d *decoder
	if rs.owned {
		d = newOwnDecoder(data)
	} else {
		d = newDecoder(data)
	}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		d.pos = 3 // a UTF-8 byte order mark, as some Windows editors write
	}
	s := &schedule.Schedule{}
	err := fields(d, top, s, scheduleField)
	if errors.Is(err, errEOF) {
		// Say where the file stops and in what: a file cut short in a
		// download or an upload.
		line, _ := position(d.data, int64(len(d.data)))
		in := ""
		if d.inside != top {
			in = " (inside " + d.inside.String() + ")"
		}
		return nil, fmt.Errorf("line %d: %w%s: it looks truncated", line, err, in)
	}
	if err != nil {
		return nil, err
	}
	if s.Name != "" {
		line, _ := position(d.data, int64(d.nameAt))
		s.Name = rs.scheduleName(s.Name, fmt.Sprintf("line %d: name", line))
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return nil, d.errorf(top, "unexpected data after the schedule object")
	}
	if s.Activities == nil {
		s.Activities = []schedule.Activity{}
	}
	if s.Relationships == nil {
		s.Relationships = []schedule.Relationship{}
	}
	return s, nil
}

// fit returns list in an allocation of its own size when the estimate was
// far too generous (activities come before the relationships' braces).
func fit[T any](list []T) []T {
	if cap(list) > len(list)+len(list)/4+16 {
		return slices.Clone(list)
	}
	return list
}

// fields reads an object into v, calling field for each key with the
// position on the value; field must consume the value. field is a plain
// function, not a closure, so a list of objects costs no allocation per
// object for the loop itself.
func fields[T any](d *decoder, path where, v *T, field func(d *decoder, path where, v *T, key []byte) error) error {
	for first := true; ; first = false {
		key, more, err := d.nextKey(path, first)
		if err != nil || !more {
			return err
		}
		if err := field(d, path, v, key); err != nil {
			return err
		}
	}
}

func scheduleField(d *decoder, path where, s *schedule.Schedule, key []byte) error {
	switch string(key) {
	case "name":
		d.nameAt = d.pos
		return d.stringInto(path.at("name"), &s.Name)
	case "start_date":
		return d.stringInto(path.at("start_date"), &s.StartDate)
	case "calendar":
		if d.literal("null") {
			s.Calendar = nil
			return nil
		}
		if s.Calendar == nil { // a repeated key merges, as in encoding/json
			s.Calendar = &schedule.Calendar{}
		}
		return fields(d, path.at("calendar"), s.Calendar, calendarField)
	case "data_date":
		return d.stringInto(path.at("data_date"), &s.DataDate)
	case "calendars":
		return d.jsonValue(path.at("calendars"), &s.Calendars)
	case "options":
		return d.jsonValue(path.at("options"), &s.Options)
	case "source":
		return d.jsonValue(path.at("source"), &s.Source)
	case "activities":
		if d.bothLists(path, s) {
			return nil
		}
		var err error
		s.Activities, err = objects(d, path, "activities", activityField)
		return err
	case "relationships":
		var err error
		s.Relationships, err = objects(d, path, "relationships", relationshipField)
		return err
	}
	return d.unknownField(path, string(key))
}

// bothLists decodes the activities array at the position and, when the
// relationships array follows it directly (as every file written here has
// it), that one at the same time: the two are most of a large file. A
// list much longer than the other is cut into pieces (listPieces), so
// every core has a share. It reports false, with nothing consumed, when
// they do not follow each other or either holds a problem; the
// one-at-a-time decoding then reads them and names the problem exactly
// as it always has.
func (d *decoder) bothLists(path where, s *schedule.Schedule) bool {
	start := d.pos
	end, ok := skipArray(d.data, start)
	if !ok || end-start < 1<<16 { // small files: not worth a goroutine
		return false
	}
	ahead := &decoder{data: d.data, text: d.text, pos: end} // to read past the array
	for _, want := range []string{",", `"relationships"`, ":"} {
		ahead.skipSpace()
		if !bytes.HasPrefix(d.data[ahead.pos:], []byte(want)) {
			return false
		}
		ahead.pos += len(want)
	}
	ahead.skipSpace()
	rel := ahead.pos
	// The relationships run to the end of the file or near it: cut them
	// into pieces about as long as the activities.
	acts := end - start
	pieces := min(max(1, (len(d.data)-rel+acts/2)/acts), 2*runtime.GOMAXPROCS(0))
	type decoded struct {
		rels []schedule.Relationship
		end  int
		ok   bool
	}
	done := make(chan decoded, 1)
	go func() {
		rels, at, ok := listPieces(d, path, rel, len(d.data), pieces, "relationships", relationshipField)
		done <- decoded{rels, at, ok}
	}()
	list, _, listOK := listPieces(d, path, start, end, 1, "activities", activityField)
	r := <-done
	if !listOK || !r.ok {
		d.pos, d.inside = start, top
		return false
	}
	s.Activities, s.Relationships, d.pos = list, r.rels, r.end
	return true
}

// listPieces decodes the list whose '[' is at start, ending by until,
// in up to pieces pieces at once: each piece begins at an element found
// by looking for "}, {" after an even share of the bytes, and is read by
// a decoder of its own. Only the piece before it can tell whether such a
// place really is an element's start (and not inside a string or a nested
// list): its decoder, which has read the list from a place already known
// to be one, must stop there exactly. When one does not, the pieces after
// it are dropped and it reads on to the list's end. It returns the list,
// the position after it, and false on any problem in the list.
func listPieces[T any](d *decoder, path where, start, until, pieces int, name string, field func(d *decoder, path where, v *T, key []byte) error) ([]T, int, bool) {
	cuts := []int{start}
	for k := 1; k < pieces; k++ {
		at := elementAfter(d.data[:until], start+(until-start)*k/pieces)
		if at <= cuts[len(cuts)-1] {
			break
		}
		cuts = append(cuts, at)
	}
	// The pieces are read into one list, each into its share: the braces
	// in a piece bound its elements, and the shares are usually full, so
	// the list is whole without copying.
	shares := make([]int, len(cuts)+1)
	for k, at := range cuts {
		next := until
		if k+1 < len(cuts) {
			next = cuts[k+1]
		}
		shares[k+1] = shares[k] + bytes.Count(d.data[at:next], []byte{'{'})
	}
	all := make([]T, shares[len(cuts)])
	type piece struct {
		list []T
		end  int
		err  error
	}
	out := make([]piece, len(cuts))
	var wg sync.WaitGroup
	for k := range cuts {
		read := func() {
			pd := &decoder{data: d.data[:until], text: d.text, pos: cuts[k], inside: top, resume: k > 0}
			if k+1 < len(cuts) {
				pd.stopAt = cuts[k+1]
			}
			// A share's capacity ends where the next begins: a piece that
			// reads on past its end (its next one started in the wrong
			// place) grows a list of its own instead.
			list, err := objectsInto(pd, path, name, field, all[shares[k]:shares[k]:shares[k+1]])
			out[k] = piece{list, pd.pos, err}
		}
		if k == len(cuts)-1 {
			read() // the last piece on this goroutine
		} else {
			wg.Go(read)
		}
	}
	wg.Wait()
	n := 0
	for _, p := range out {
		if p.err != nil && !errors.Is(p.err, errStop) {
			return nil, 0, false
		}
		if len(p.list) > 0 && &all[n] != &p.list[0] { // not in place
			if n+len(p.list) > len(all) { // not reached: braces bound elements
				all = append(all[:n], p.list...)
			} else {
				copy(all[n:], p.list)
			}
		}
		n += len(p.list)
		if p.err == nil { // the list's end: the pieces after it started in the wrong places
			return fit(all[:n]), p.end, true
		}
	}
	return nil, 0, false // not reached: the last piece has no stop
}

// elementAfter finds the first "}" "," "{" (spaces between allowed) at
// or after from and returns the position of its "{", or -1.
func elementAfter(data []byte, from int) int {
	at := decoder{data: data}
	for i := from; i < len(data); i++ {
		k := bytes.IndexByte(data[i:], '}')
		if k < 0 {
			return -1
		}
		i += k
		at.pos = i + 1
		if at.skipSpace(); at.peek() != ',' {
			continue
		}
		at.pos++
		if at.skipSpace(); at.peek() == '{' {
			return at.pos
		}
	}
	return -1
}

// skipArray finds the end of the JSON array at pos (just past its ']'),
// strings and nesting respected, without decoding it; false when the data
// ends first.
func skipArray(data []byte, pos int) (int, bool) {
	if pos >= len(data) || data[pos] != '[' {
		return 0, false
	}
	depth := 0
	for i := pos; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// objects decodes the schedule's array name, each object's fields read by
// field; errors inside it name the element (d.inside). On an error the
// objects read so far are returned with it.
func objects[T any](d *decoder, path where, name string, field func(d *decoder, path where, v *T, key []byte) error) ([]T, error) {
	// Every element is an object, so the braces ahead bound their count.
	list, err := objectsInto(d, path, name, field, make([]T, 0, bytes.Count(d.data[d.pos:], []byte{'{'})))
	return fit(list), err
}

// objectsInto is objects appending to list.
func objectsInto[T any](d *decoder, path where, name string, field func(d *decoder, path where, v *T, key []byte) error, list []T) ([]T, error) {
	err := d.array(path.at(name), func(i int) error {
		var zero T
		list = append(list, zero)
		d.inside = where{list: name, index: i}
		return fields(d, d.inside, &list[len(list)-1], field)
	})
	d.inside = top
	return list, err
}

func activityField(d *decoder, path where, a *schedule.Activity, key []byte) error {
	switch string(key) {
	case "id":
		return d.limitedString(path.at("id"), &a.ID, schedule.MaxID)
	case "name":
		return d.limitedString(path.at("name"), &a.Name, schedule.MaxName)
	case "description":
		return d.limitedString(path.at("description"), &a.Description, schedule.MaxDescription)
	case "duration":
		// A string ("5", "pert(3,5,9)") or, for convenience, a bare number.
		switch c := d.peek(); {
		case c == '"' || c == 'n':
			return d.stringInto(path.at("duration"), &a.Duration)
		case c == '-' || isDigit(c):
			var err error
			a.Duration, _, err = d.number(path.at("duration"))
			return err
		}
		return d.wrongType(path.at("duration"), `a string like "5" or "pert(3,5,9)"`)
	case "type":
		var t string
		err := d.stringInto(path.at("type"), &t)
		a.Type = schedule.ActivityType(t)
		return err
	case "calendar":
		return d.stringInto(path.at("calendar"), &a.Calendar)
	case "actual_start":
		return d.stringInto(path.at("actual_start"), &a.ActualStart)
	case "actual_finish":
		return d.stringInto(path.at("actual_finish"), &a.ActualFinish)
	case "remaining":
		return d.stringInto(path.at("remaining"), &a.Remaining)
	case "percent_complete":
		return d.floatInto(path.at("percent_complete"), &a.PercentComplete)
	case "start":
		return d.stringInto(path.at("start"), &a.Start)
	case "finish":
		return d.stringInto(path.at("finish"), &a.Finish)
	case "wbs":
		return d.stringInto(path.at("wbs"), &a.WBS)
	case "manual":
		return d.jsonValue(path.at("manual"), &a.Manual)
	case "constraint":
		return d.constraintInto(path.at("constraint"), &a.Constraint)
	case "secondary_constraint":
		return d.constraintInto(path.at("secondary_constraint"), &a.SecondaryConstraint)
	case "codes":
		return d.jsonValue(path.at("codes"), &a.Codes)
	case "assignments":
		return d.jsonValue(path.at("assignments"), &a.Assignments)
	case "baseline_start":
		return d.stringInto(path.at("baseline_start"), &a.BaselineStart)
	case "baseline_finish":
		return d.stringInto(path.at("baseline_finish"), &a.BaselineFinish)
	case "baseline_duration":
		return d.stringInto(path.at("baseline_duration"), &a.BaselineDuration)
	}
	return d.unknownField(path, string(key))
}

// constraintInto reads a date constraint (or null) in place: a live
// programme has thousands, and encoding/json costs two decoders each.
func (d *decoder) constraintInto(path where, dst **schedule.Constraint) error {
	if d.literal("null") {
		*dst = nil
		return nil
	}
	if *dst == nil { // a repeated key merges, as in encoding/json
		*dst = &schedule.Constraint{}
	}
	return fields(d, path, *dst, constraintField)
}

// constraintField reads one key of a constraint; path names the
// constraint (activities[3].constraint), errors name the key inside it.
func constraintField(d *decoder, path where, c *schedule.Constraint, key []byte) error {
	switch k := string(key); k {
	case "type":
		t := string(c.Type) // null leaves it, as in encoding/json
		err := d.stringInto(path.at(path.field+"."+k), &t)
		c.Type = schedule.ConstraintType(t)
		return err
	case "date":
		return d.stringInto(path.at(path.field+"."+k), &c.Date)
	}
	return d.unknownField(path, string(key))
}

func relationshipField(d *decoder, path where, r *schedule.Relationship, key []byte) error {
	switch string(key) {
	case "id":
		return d.limitedString(path.at("id"), &r.ID, schedule.MaxID)
	case "type":
		var t string
		err := d.stringInto(path.at("type"), &t)
		r.Type = schedule.RelType(t)
		if parsed, perr := schedule.ParseRelType(t); perr == nil {
			r.Type = parsed // accept "fs"; Validate refuses what is not a type
		}
		return err
	case "predecessor":
		return d.stringInto(path.at("predecessor"), &r.Predecessor)
	case "successor":
		return d.stringInto(path.at("successor"), &r.Successor)
	case "lag":
		switch c := d.peek(); {
		case d.literal("null"):
			return nil
		case c == '-' || isDigit(c):
			var err error
			_, r.Lag, err = d.number(path.at("lag"))
			return err
		}
		return d.wrongType(path.at("lag"), "a number")
	}
	return d.unknownField(path, string(key))
}

// The calendar decoders reproduce encoding/json exactly, including its
// quirks on a repeated key (a second "calendar" or "exceptions" merges into
// what the first one decoded), because the store layer reads calendars back
// with encoding/json and FuzzDecoder holds the two to the same result.

func calendarField(d *decoder, path where, cal *schedule.Calendar, key []byte) error {
	k := string(key)
	at := where{list: "calendar", index: -1, field: k}
	switch k {
	case "workdays":
		return d.stringList(at, "calendar."+k, &cal.Workdays)
	case "holidays":
		return d.stringList(at, "calendar."+k, &cal.Holidays)
	case "hours":
		return d.stringList(at, "calendar."+k, &cal.Hours)
	case "hours_per_day":
		return d.floatInto(at, &cal.HoursPerDay)
	case "name":
		return d.stringInto(at, &cal.Name)
	case "day_hours":
		return d.dayHours(at, &cal.DayHours)
	case "exceptions":
		if d.literal("null") {
			cal.Exceptions = nil
			return nil
		}
		list := cal.Exceptions[:0]
		err := d.array(at, func(i int) error {
			if i < cap(list) {
				list = list[:i+1] // encoding/json decodes into the old element
			} else {
				list = append(list, schedule.CalendarException{})
			}
			if d.literal("null") {
				return nil
			}
			return fields(d, where{list: "calendar.exceptions", index: i}, &list[i], exceptionField)
		})
		if list == nil && err == nil {
			list = []schedule.CalendarException{}
		}
		cal.Exceptions = list
		return err
	}
	return d.unknownField(path, string(key))
}

func exceptionField(d *decoder, path where, e *schedule.CalendarException, key []byte) error {
	switch k := string(key); k {
	case "name":
		return d.stringInto(path.at(k), &e.Name)
	case "from":
		return d.stringInto(path.at(k), &e.From)
	case "to":
		return d.stringInto(path.at(k), &e.To)
	case "working":
		switch {
		case d.literal("true"):
			e.Working = true
		case d.literal("false"):
			e.Working = false
		case d.literal("null"):
		default:
			return d.wrongType(path.at(k), "true or false")
		}
		return nil
	case "hours":
		return d.stringList(path.at(k), path.String()+".hours", &e.Hours)
	}
	return d.unknownField(path, string(key))
}

// jsonValue decodes the value at the position with encoding/json into
// dst, unknown fields refused: the live programme's rarer fields
// (calendars, options, constraints, codes) need no hand-written decoder.
func (d *decoder) jsonValue(path where, dst any) error {
	d.skipSpace()
	dec := json.NewDecoder(bytes.NewReader(d.data[d.pos:]))
	dec.DisallowUnknownFields()
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return errEOF
		}
		return d.syntax(path, err.Error())
	}
	start := d.pos
	d.pos += int(dec.InputOffset())
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	if err := strict.Decode(dst); err != nil {
		d.pos = start
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			path.field += "." + typeErr.Field
		}
		return d.errorf(path, "%s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// stringList reads an array of strings (or null) into dst; elements are
// named list[i] in errors.
func (d *decoder) stringList(path where, list string, dst *[]string) error {
	if d.literal("null") {
		*dst = nil
		return nil
	}
	out := (*dst)[:0]
	err := d.array(path, func(i int) error {
		if i < cap(out) {
			out = out[:i+1]
		} else {
			out = append(out, "")
		}
		return d.stringInto(where{list: list, index: i}, &out[i])
	})
	if out == nil && err == nil {
		out = []string{}
	}
	*dst = out
	return err
}

// floatInto reads a number (or null, which leaves dst as it is).
func (d *decoder) floatInto(path where, dst *float64) error {
	switch c := d.peek(); {
	case d.literal("null"):
		return nil
	case c == '-' || isDigit(c):
		_, v, err := d.number(path)
		if err == nil {
			*dst = v
		}
		return err
	}
	return d.wrongType(path, "a number")
}

// dayHours reads {"Fri": ["08:00-12:00"]}: keys are added to the map, each
// value decoded fresh, as encoding/json does.
func (d *decoder) dayHours(path where, dst *map[string][]string) error {
	if d.literal("null") {
		*dst = nil
		return nil
	}
	if d.peek() != '{' {
		return d.wrongType(path, "an object like {\"Fri\": [\"08:00-12:00\"]}")
	}
	if *dst == nil {
		*dst = map[string][]string{}
	}
	for first := true; ; first = false {
		key, more, err := d.nextKey(path, first)
		if err != nil || !more {
			return err
		}
		k := string(key)
		var v []string
		if err := d.stringList(where{list: "calendar.day_hours", index: -1, field: k}, "calendar.day_hours."+k, &v); err != nil {
			return err
		}
		(*dst)[k] = v
	}
}

// nextKey steps through an object: with first it consumes the '{', then
// the ',' before each further key; it returns more=false after the '}'. On
// a key it leaves the position on the value. The key aliases the input
// unless it has escapes, so reading keys allocates nothing.
func (d *decoder) nextKey(path where, first bool) (key []byte, more bool, err error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return nil, false, errEOF
	}
	c := d.data[d.pos]
	switch {
	case first && c != '{':
		return nil, false, d.wrongType(path, "an object")
	case first:
		d.pos++
		d.skipSpace()
		if d.peek() == '}' {
			d.pos++
			return nil, false, nil
		}
	case c == ',':
		d.pos++
		d.skipSpace()
	case c == '}':
		d.pos++
		return nil, false, nil
	default:
		return nil, false, d.syntax(path, "want ',' or '}' after a field")
	}
	if d.pos >= len(d.data) {
		return nil, false, errEOF
	}
	if d.data[d.pos] != '"' {
		return nil, false, d.syntax(path, "want a field name in double quotes")
	}
	// Fast path: a plain ASCII key is a slice of the input.
	end := d.pos + 1
	for end < len(d.data) && d.data[end] != '"' && d.data[end] >= 0x20 && d.data[end] != '\\' && d.data[end] < utf8.RuneSelf {
		end++
	}
	if end < len(d.data) && d.data[end] == '"' {
		key, d.pos = d.data[d.pos+1:end], end+1
	} else {
		k, err := d.str(path)
		if err != nil {
			return nil, false, err
		}
		key = []byte(k)
	}
	d.skipSpace()
	if err := d.expect(path, ':', "want ':' after a field name"); err != nil {
		return nil, false, err
	}
	d.skipSpace()
	return key, true, nil
}

// array reads [value, ...] (or null), calling elem for each index.
func (d *decoder) array(path where, elem func(i int) error) error {
	resume, stopAt := d.resume, d.stopAt
	d.resume, d.stopAt = false, 0
	d.skipSpace()
	if !resume {
		if d.literal("null") {
			return nil
		}
		if d.pos >= len(d.data) {
			return errEOF
		}
		if d.data[d.pos] != '[' {
			return d.wrongType(path, "an array")
		}
		d.pos++
	}
	for i := 0; ; i++ {
		d.skipSpace()
		if d.pos >= len(d.data) {
			return errEOF
		}
		if d.data[d.pos] == ']' && i == 0 && !resume {
			d.pos++
			return nil
		}
		if stopAt > 0 && d.pos >= stopAt {
			if d.pos == stopAt {
				return errStop
			}
			stopAt = 0 // not an element's start: read on to the end
		}
		if err := elem(i); err != nil {
			return err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return errEOF
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return nil
		default:
			return d.syntax(path, "want ',' or ']' after an element")
		}
	}
}

// limitedString is stringInto for a value with a length limit (see
// schedule.MaxName): one over it is refused here, with its line and
// column, before anything else is read.
func (d *decoder) limitedString(path where, dst *string, max int) error {
	start := d.pos
	if err := d.stringInto(path, dst); err != nil {
		return err
	}
	if long := schedule.TooLong(*dst, max); long != "" {
		d.pos = start
		return d.errorf(path, "%s", long)
	}
	return nil
}

// stringInto reads a string (or null, which leaves dst as it is).
func (d *decoder) stringInto(path where, dst *string) error {
	if d.peek() == '"' {
		v, err := d.str(path)
		*dst = v
		return err
	}
	if d.literal("null") {
		return nil
	}
	return d.wrongType(path, "a string")
}

// str reads a JSON string at d.pos. Plain ASCII without escapes is a slice
// of the file's text; anything else takes the careful path.
func (d *decoder) str(path where) (string, error) {
	d.pos++ // opening quote
	start := d.pos
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			d.pos++
			return d.text[start : d.pos-1], nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			return d.strSlow(path, start)
		}
		d.pos++
	}
	return "", errEOF
}

// strSlow decodes escapes and replaces invalid UTF-8 and lone surrogates with
// U+FFFD, exactly as encoding/json does.
func (d *decoder) strSlow(path where, start int) (string, error) {
	buf := append([]byte(nil), d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return string(buf), nil
		case c < 0x20:
			return "", d.syntax(path, "control character in a string; write it as an escape like \\n")
		case c == '\\':
			if d.pos+1 >= len(d.data) {
				return "", errEOF
			}
			esc := d.data[d.pos+1]
			if r, ok := simpleEscapes[esc]; ok {
				buf = append(buf, r)
				d.pos += 2
				continue
			}
			if esc != 'u' {
				return "", d.syntax(path, fmt.Sprintf("invalid escape \\%c in a string", esc))
			}
			if d.pos+6 > len(d.data) {
				return "", errEOF
			}
			r, ok := d.hex4(d.pos + 2)
			if !ok {
				d.pos += 2
				return "", d.syntax(path, "invalid \\u escape; want four hex digits")
			}
			d.pos += 6
			if utf16.IsSurrogate(r) {
				high := r
				r = utf8.RuneError
				if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					if low, ok := d.hex4(d.pos + 2); ok {
						if pair := utf16.DecodeRune(high, low); pair != utf8.RuneError {
							r = pair
							d.pos += 6
						}
					}
				}
			}
			buf = utf8.AppendRune(buf, r)
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, d.data[d.pos:d.pos+size]...)
			}
			d.pos += size
		}
	}
	return "", errEOF
}

var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hex4 reads the four hex digits of a \u escape starting at at.
func (d *decoder) hex4(at int) (rune, bool) {
	if at+4 > len(d.data) {
		return 0, false
	}
	var v rune
	for _, c := range d.data[at : at+4] {
		switch {
		case isDigit(c):
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// number reads a JSON number, returning its text and value.
func (d *decoder) number(path where) (string, float64, error) {
	start := d.pos
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && isDigit(d.data[d.pos]) {
			d.pos++
			n++
		}
		return n
	}
	if d.peek() == '-' {
		d.pos++
	}
	switch {
	case d.peek() == '0':
		d.pos++
	case digits() == 0:
		return "", 0, d.syntax(path, "invalid number")
	}
	if d.peek() == '.' {
		d.pos++
		if digits() == 0 {
			return "", 0, d.syntax(path, "invalid number: want digits after '.'")
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.pos++
		if c := d.peek(); c == '+' || c == '-' {
			d.pos++
		}
		if digits() == 0 {
			return "", 0, d.syntax(path, "invalid number: want digits in the exponent")
		}
	}
	raw := string(d.data[start:d.pos])
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(v, 0) {
		d.pos = start
		return "", 0, d.errorf(path, "number %s is out of range", raw)
	}
	return raw, v, nil
}

// literal consumes word (null, true, false) if it is next.
func (d *decoder) literal(word string) bool {
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	return false
}

func (d *decoder) peek() byte {
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) && isSpace[d.data[d.pos]] {
		d.pos++
	}
}

// isSpace marks JSON's whitespace: one load per byte, where an indented
// file has many of them.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

func (d *decoder) expect(path where, c byte, msg string) error {
	if d.pos >= len(d.data) {
		return errEOF
	}
	if d.data[d.pos] != c {
		return d.syntax(path, msg)
	}
	d.pos++
	return nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// errorf is a problem at the current position: path (if any), message, and
// where in the file.
func (d *decoder) errorf(path where, format string, args ...any) error {
	line, col := position(d.data, int64(d.pos))
	reason := fmt.Sprintf(format, args...) + fmt.Sprintf(" (line %d, column %d)", line, col)
	if path == top {
		return errors.New(reason)
	}
	return &schedule.FieldError{Path: path.String(), Reason: reason}
}

func (d *decoder) syntax(path where, msg string) error {
	if d.pos >= len(d.data) {
		return errEOF
	}
	line, col := position(d.data, int64(d.pos))
	at := fmt.Sprintf("line %d, column %d", line, col)
	if path != top {
		at = path.String() + " " + at
	}
	return fmt.Errorf("%s: invalid JSON: %s", at, msg)
}

func (d *decoder) wrongType(path where, want string) error {
	if d.pos >= len(d.data) {
		return errEOF
	}
	got := "something else"
	switch c := d.data[d.pos]; {
	case c == '"':
		got = "a JSON string"
	case c == '{':
		got = "a JSON object"
	case c == '[':
		got = "a JSON array"
	case c == 't' || c == 'f':
		got = "a JSON boolean"
	case c == 'n':
		got = "a JSON null"
	case c == '-' || isDigit(c):
		got = "a JSON number"
	default:
		return d.syntax(path, fmt.Sprintf("unexpected %q", c))
	}
	if path == top {
		path = top.at("schedule file")
	}
	return d.errorf(path, "want %s, got %s", want, got)
}

func (d *decoder) unknownField(path where, key string) error {
	return d.errorf(path, "unknown field %q", key)
}

// position converts a byte offset to a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	offset = max(0, min(offset, int64(len(data))))
	line, lineStart := 1, 0
	for i, c := range data[:offset] {
		if c == '\n' {
			line, lineStart = line+1, i+1
		}
	}
	return line, int(offset) - lineStart + 1
}
