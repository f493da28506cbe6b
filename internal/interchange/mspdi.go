package interchange

// MS Project XML (MSPDI) import and export.
//
// What is read, and how it maps:
//
//   - Tasks become activities. The project summary task (UID 0), summary
//     tasks, null (blank) tasks and inactive tasks are skipped. The activity id
//     is the task UID, unless the file carries our "Activity ID" text field
//     (see below). The task's Notes become the description; a task under a
//     summary task gets a last description line "WBS 1.2.3 (outline 1.2.3):
//     Building > Level 1" so the outline is not lost.
//   - Duration (ISO 8601 working time, PT8H0M0S) becomes working days of the
//     file's MinutesPerDay.
//   - PredecessorLink Type 0=FF 1=FS 2=SF 3=SS; LinkLag is in tenths of a
//     minute. For working-time LagFormats (m, h, d, w, mo and their estimated
//     forms) the lag is LinkLag/10/MinutesPerDay working days, exactly as MS
//     Project schedules it. For elapsed formats (em, eh, ed, ew, emo) the lag
//     is calendar time, which a working-day network cannot hold exactly: it
//     is scaled by the calendar's share of working time in a week (an
//     elapsed week is one working week, an elapsed day 5/7 of a working day
//     on a Monday-Friday calendar), exact over whole weeks without
//     exceptions. Percent lags (LagFormat 19, 20, 51, 52; LinkLag is the
//     percentage) are that share of the predecessor's duration. Links to
//     other projects are skipped.
//   - Links to or from a summary task are moved onto its leaf tasks. That is
//     exact for a summary predecessor on FS and FF links and a summary
//     successor on FS and SS links (the usual cases); for the others it is
//     stricter than MS Project, whose summary starts with its first child
//     and finishes with its last.
//   - The project's StartDate (its date) is start_date; Title (else Name) is
//     the name; the project calendar (the project's CalendarUID, with its
//     base calendar's week) is the calendar: WeekDays and WorkingTimes, and
//     the Exceptions of Project 2007 and later (or the DayType 0 exception
//     days of older files), recurring ones expanded to their dates.
//     A non-working one-day exception named "" or "Holiday" is a holiday.
//
//   - The live programme (mspdi_live.go): StatusDate is the data date; a
//     task's CalendarUID, ConstraintType/ConstraintDate, ActualStart,
//     ActualFinish, RemainingDuration, PercentComplete, Manual (with its
//     Start and Finish), elapsed DurationFormats, and its flat assignments
//     to work resources (Units, Work, the resource's calendar), which drive
//     a task that is not fixed-duration as MS Project dates it. Named
//     text fields (Text1-Text30 with an alias) are its activity codes.
//     Its <Baseline> Number 0 (Start, Finish, Duration) is its baseline.
//
// Not read: costs, the other saved baselines (1-10), timephased data,
// splits.
//
// Export writes what MS Project needs to open and schedule the file, with
// the CPM early dates as Start and Finish. Three custom text fields carry
// what MSPDI has no place for, so import(export(s)) gives s back: Text1
// "Activity ID", Text2 "Relationship IDs" (on the successor, JSON: each
// PredecessorLink's id and place in the schedule's list) and Text3 "Duration as written" (e.g.
// "pert(3,5,9)", used only while it still agrees with the task Duration, so
// an edit in MS Project wins). A live programme also gets its status
// date, every calendar, an outline of summary tasks from the WBS paths,
// progress, constraints, manual dates, codes as named text fields
// (Text4-Text30) and resources with their assignments; see mspdi_write.go.

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Aliases of the custom text fields export writes.
const (
	aliasActivityID = "Activity ID"
	aliasRelIDs     = "Relationship IDs"
	aliasDuration   = "Duration as written"
)

// Field IDs of MS Project's Text1, Text2 and Text3 task fields.
var textFieldIDs = [3]string{"188743731", "188743734", "188743737"}

type mspdiProject struct {
	Name               string
	Title              string
	StartDate          string
	StatusDate         string
	CalendarUID        string
	MinutesPerDay      string
	ExtendedAttributes []mspdiFieldDef
	Calendars          []mspdiCalendar
	Tasks              []mspdiTask
	Resources          []mspdiResource
	Assignments        []mspdiAssignment
}

type mspdiResource struct {
	UID         string `xml:"UID"`
	Name        string `xml:"Name"`
	Type        string `xml:"Type"` // 0 material, 1 work, 2 cost
	CalendarUID string `xml:"CalendarUID"`
}

type mspdiAssignment struct {
	TaskUID     string `xml:"TaskUID"`
	ResourceUID string `xml:"ResourceUID"`
	Units       string `xml:"Units"`
	Work        string `xml:"Work"`
	WorkContour string `xml:"WorkContour"`
}

type mspdiFieldDef struct {
	FieldID string `xml:"FieldID"`
	Alias   string `xml:"Alias"`
}

type mspdiCalendar struct {
	line            int
	UID             string `xml:"UID"`
	Name            string `xml:"Name"`
	BaseCalendarUID string `xml:"BaseCalendarUID"`
	WeekDays        struct {
		WeekDay []mspdiWeekDay `xml:"WeekDay"`
	} `xml:"WeekDays"`
	Exceptions *struct {
		Exception []mspdiException `xml:"Exception"`
	} `xml:"Exceptions"`
	WorkWeeks *struct {
		WorkWeek []mspdiWorkWeek `xml:"WorkWeek"`
	} `xml:"WorkWeeks"`
}

// mspdiWorkWeek is a work week of Project 2007 and later: a date range
// worked on a week of its own ("Summer hours", "Night shift in March").
type mspdiWorkWeek struct {
	TimePeriod *mspdiTimePeriod `xml:"TimePeriod"`
	Name       string           `xml:"Name"`
	WeekDays   struct {
		WeekDay []mspdiWeekDay `xml:"WeekDay"`
	} `xml:"WeekDays"`
}

type mspdiTimePeriod struct {
	FromDate string `xml:"FromDate"`
	ToDate   string `xml:"ToDate"`
}

// dates are the first and last dates of a period (an exception's, a work
// week's); p may be nil, a damaged file's.
func (p *mspdiTimePeriod) dates() (from, to time.Time, err error) {
	if p == nil {
		return from, to, errors.New("no TimePeriod")
	}
	from, err1 := parseMSPDIDateTime(p.FromDate)
	to, err2 := parseMSPDIDateTime(p.ToDate)
	if err := errors.Join(err1, err2); err != nil {
		return from, to, fmt.Errorf("TimePeriod: %w", err)
	}
	from, to = dateOf(from), dateOf(to)
	if to.Before(from) {
		return from, to, errors.New("TimePeriod ToDate is before FromDate")
	}
	return from, to, nil
}

type mspdiWorkingTimes struct {
	WorkingTime []struct {
		FromTime string `xml:"FromTime"`
		ToTime   string `xml:"ToTime"`
	} `xml:"WorkingTime"`
}

type mspdiWeekDay struct {
	DayType      string             `xml:"DayType"`
	DayWorking   string             `xml:"DayWorking"`
	TimePeriod   *mspdiTimePeriod   `xml:"TimePeriod"`
	WorkingTimes *mspdiWorkingTimes `xml:"WorkingTimes"`
}

type mspdiException struct {
	TimePeriod    *mspdiTimePeriod   `xml:"TimePeriod"`
	Name          string             `xml:"Name"`
	Type          string             `xml:"Type"`
	Period        string             `xml:"Period"`
	DaysOfWeek    string             `xml:"DaysOfWeek"`
	MonthItem     string             `xml:"MonthItem"`
	MonthPosition string             `xml:"MonthPosition"`
	Month         string             `xml:"Month"`
	MonthDay      string             `xml:"MonthDay"`
	DayWorking    string             `xml:"DayWorking"`
	WorkingTimes  *mspdiWorkingTimes `xml:"WorkingTimes"`
}

type mspdiTask struct {
	line int
	// damaged marks a task left out for what cannot be read around (its
	// UID, or an id another task has): links to and from it go too.
	damaged           bool
	UID               string          `xml:"UID"`
	ID                string          `xml:"ID"`
	Name              string          `xml:"Name"`
	IsNull            string          `xml:"IsNull"`
	WBS               string          `xml:"WBS"`
	OutlineNumber     string          `xml:"OutlineNumber"`
	OutlineLevel      string          `xml:"OutlineLevel"`
	Duration          string          `xml:"Duration"`
	DurationFormat    string          `xml:"DurationFormat"`
	Summary           string          `xml:"Summary"`
	CalendarUID       string          `xml:"CalendarUID"`
	ConstraintType    string          `xml:"ConstraintType"`
	ConstraintDate    string          `xml:"ConstraintDate"`
	Deadline          string          `xml:"Deadline"`
	ActualStart       string          `xml:"ActualStart"`
	ActualFinish      string          `xml:"ActualFinish"`
	RemainingDuration string          `xml:"RemainingDuration"`
	PercentComplete   string          `xml:"PercentComplete"`
	Manual            string          `xml:"Manual"`
	Start             string          `xml:"Start"`
	Finish            string          `xml:"Finish"`
	Type              string          `xml:"Type"` // 0 fixed units, 1 fixed duration, 2 fixed work
	Notes             string          `xml:"Notes"`
	Active            string          `xml:"Active"`
	PredecessorLink   []mspdiLink     `xml:"PredecessorLink"`
	Baseline          []mspdiBaseline `xml:"Baseline"`
	ExtendedAttribute []struct {
		FieldID string `xml:"FieldID"`
		Value   string `xml:"Value"`
	} `xml:"ExtendedAttribute"`
}

type mspdiLink struct {
	PredecessorUID string `xml:"PredecessorUID"`
	Type           string `xml:"Type"`
	CrossProject   string `xml:"CrossProject"`
	LinkLag        string `xml:"LinkLag"`
	LagFormat      string `xml:"LagFormat"`
}

// ParseMSPDI parses and validates an MS Project XML file held in memory.
// Errors name the task or calendar and its line, e.g. "Task UID 7 (line
// 120): PredecessorLink 2: unknown Type 5".
func ParseMSPDI(data []byte) (*schedule.Schedule, error) {
	s, _, err := Parse(data, MSPDI)
	return s, err
}

// readMSPDI decodes an MS Project XML file into a schedule, unvalidated.
func readMSPDI(data []byte, rs *readState) (*schedule.Schedule, error) {
	p, err := decodeMSPDI(data)
	if err != nil {
		return nil, err
	}
	return p.schedule(rs)
}

// decodeMSPDI streams the file so every task and calendar knows its line.
func decodeMSPDI(data []byte) (*mspdiProject, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charsetReader
	p := &mspdiProject{}
	var stack []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, xmlError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			line, _ := d.InputPos()
			path := strings.Join(append(stack, t.Name.Local), "/")
			switch path {
			case "Project":
				if t.Name.Space != "" && t.Name.Space != "http://schemas.microsoft.com/project" {
					return nil, fmt.Errorf("line %d: <Project> in namespace %q is not MS Project XML", line, t.Name.Space)
				}
			case "Project/Name", "Project/Title", "Project/StartDate", "Project/CalendarUID", "Project/MinutesPerDay", "Project/StatusDate":
				var v string
				if err := d.DecodeElement(&v, &t); err != nil {
					return nil, xmlError(err)
				}
				if t.Name.Local != "Name" && t.Name.Local != "Title" {
					v = strings.TrimSpace(v) // names keep their spaces
				}
				switch t.Name.Local {
				case "Name":
					p.Name = v
				case "Title":
					p.Title = v
				case "StartDate":
					p.StartDate = v
				case "CalendarUID":
					p.CalendarUID = v
				case "MinutesPerDay":
					p.MinutesPerDay = v
				case "StatusDate":
					p.StatusDate = v
				}
				continue
			case "Project/ExtendedAttributes/ExtendedAttribute":
				var f mspdiFieldDef
				if err := d.DecodeElement(&f, &t); err != nil {
					return nil, xmlError(err)
				}
				p.ExtendedAttributes = append(p.ExtendedAttributes, f)
				continue
			case "Project/Calendars/Calendar":
				c := mspdiCalendar{line: line}
				if err := d.DecodeElement(&c, &t); err != nil {
					return nil, xmlError(err)
				}
				p.Calendars = append(p.Calendars, c)
				continue
			case "Project/Resources/Resource":
				var r mspdiResource
				if err := d.DecodeElement(&r, &t); err != nil {
					return nil, xmlError(err)
				}
				p.Resources = append(p.Resources, r)
				continue
			case "Project/Assignments/Assignment":
				var a mspdiAssignment
				if err := d.DecodeElement(&a, &t); err != nil {
					return nil, xmlError(err)
				}
				p.Assignments = append(p.Assignments, a)
				continue
			case "Project/Tasks/Task":
				task := mspdiTask{line: line}
				if err := d.DecodeElement(&task, &t); err != nil {
					return nil, xmlError(err)
				}
				p.Tasks = append(p.Tasks, task)
				continue
			default:
				if len(stack) == 0 {
					return nil, fmt.Errorf("line %d: the root element is <%s>, not MS Project's <Project>", line, t.Name.Local)
				}
				if len(stack) >= 1 && path != "Project/Calendars" && path != "Project/Tasks" && path != "Project/ExtendedAttributes" &&
					path != "Project/Resources" && path != "Project/Assignments" {
					if err := d.Skip(); err != nil { // settings, baselines
						return nil, xmlError(err)
					}
					continue
				}
			}
			stack = append(stack, t.Name.Local)
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) > 0 || p.StartDate == "" && p.Tasks == nil && p.Calendars == nil && p.Name == "" && p.Title == "" {
		if len(stack) > 0 {
			return nil, errors.New("the file ends inside <" + stack[len(stack)-1] + ">: it looks truncated")
		}
		return nil, errors.New("no MS Project <Project> element")
	}
	return p, nil
}

// xmlError keeps encoding/xml's line number but drops its package prefix.
func xmlError(err error) error {
	var syn *xml.SyntaxError
	if errors.As(err, &syn) {
		if syn.Msg == "unexpected EOF" {
			// A file cut short in a download or an upload.
			return fmt.Errorf("line %d: invalid XML: unexpected EOF: the file ends before its elements are closed (no </Project>): it looks truncated", syn.Line)
		}
		return fmt.Errorf("line %d: invalid XML: %s", syn.Line, syn.Msg)
	}
	return fmt.Errorf("invalid XML: %s", strings.TrimPrefix(err.Error(), "xml: "))
}

// charsetReader accepts the encodings MS Project and P6 write: UTF-8 and
// the Latin-1 family. An ISO-8859-1 label is read as Windows-1252, as web
// browsers do: files so labelled come from Windows, and Latin-1's own
// meaning of 0x80-0x9F is control characters no schedule text may hold.
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return in, nil
	case "iso-8859-1", "latin1", "latin-1", "windows-1252", "cp1252":
		data, err := io.ReadAll(in)
		if err != nil {
			return nil, err
		}
		out, undefinedOn := decodeWindows1252(data)
		if len(undefinedOn) > 0 {
			// The file says Windows-1252 and is not: its text is not to be trusted.
			return nil, fmt.Errorf("line %d: a byte that is not a Windows-1252 character, in a file that says it is Windows-1252: save it as UTF-8", undefinedOn[0])
		}
		return bytes.NewReader(out), nil
	}
	return nil, fmt.Errorf("unsupported encoding %q; save the file as UTF-8", label)
}

// taskWhere names a task in errors.
func (t *mspdiTask) where() string {
	return fmt.Sprintf("Task UID %s (line %d)", t.UID, t.line)
}

// fieldAliases maps the file's custom field ids to their aliases.
func (p *mspdiProject) fieldAliases() map[string]string {
	fields := map[string]string{}
	for _, f := range p.ExtendedAttributes {
		fields[strings.TrimSpace(f.FieldID)] = strings.TrimSpace(f.Alias)
	}
	return fields
}

// custom is the value of the task's custom field named alias (fields:
// see fieldAliases).
func (t *mspdiTask) custom(fields map[string]string, alias string) (string, bool) {
	for _, a := range t.ExtendedAttribute {
		if fields[strings.TrimSpace(a.FieldID)] == alias {
			return a.Value, true
		}
	}
	return "", false
}

// level is the task's OutlineLevel, 1 when it has none.
func (t *mspdiTask) level() (int, error) {
	v := strings.TrimSpace(t.OutlineLevel)
	if v == "" {
		return 1, nil
	}
	level, err := strconv.Atoi(v)
	if err != nil || level < 0 {
		return 0, fmt.Errorf("%s: OutlineLevel %q is not a whole number", t.where(), t.OutlineLevel)
	}
	return level, nil
}

// summaryAt reports whether the task at outline level is a summary (the
// project summary task too): its leaves are the activities.
func (t *mspdiTask) summaryAt(level int) bool {
	return isTrue(t.Summary) || strings.TrimSpace(t.UID) == "0" && level == 0
}

// skipped reports whether the reader leaves the task out: a null (blank)
// or inactive task.
func (t *mspdiTask) skipped() bool { return isTrue(t.IsNull) || strings.TrimSpace(t.Active) == "0" }

// activityID is the id of the activity a leaf task becomes: its UID,
// unless the file carries our "Activity ID" text field.
func (t *mspdiTask) activityID(fields map[string]string) string {
	if v, ok := t.custom(fields, aliasActivityID); ok && strings.TrimSpace(v) != "" {
		return v
	}
	return strings.TrimSpace(t.UID)
}

// earliestStart is the earliest Start of the file's tasks: the project's
// start when the file does not say it (zero when no task does either).
func (p *mspdiProject) earliestStart() time.Time {
	var first time.Time
	for i := range p.Tasks {
		if t, err := parseMSPDIDateTime(p.Tasks[i].Start); err == nil && (first.IsZero() || t.Before(first)) {
			first = t
		}
	}
	return first
}

func isTrue(v string) bool { v = strings.TrimSpace(v); return v == "1" || strings.EqualFold(v, "true") }

func (p *mspdiProject) schedule(rs *readState) (*schedule.Schedule, error) {
	s := &schedule.Schedule{Name: p.Title, Activities: []schedule.Activity{}, Relationships: []schedule.Relationship{}}
	nameFrom := "Project <Title>"
	if strings.TrimSpace(s.Name) == "" {
		s.Name, nameFrom = p.Name, "Project <Name>"
	}
	s.Name = rs.scheduleName(s.Name, nameFrom)
	lineOf := map[string]int{} // activity id -> its task's line
	var shortened []string     // tasks whose description was cut
	var start time.Time        // the project's start instant, dated once the calendar is read
	if p.StartDate != "" {
		if t, err := parseMSPDIDateTime(p.StartDate); err != nil {
			rs.warnf("Project StartDate: %v; the project starts at its earliest task's start instead", err)
		} else {
			start = t
		}
	}
	if start.IsZero() {
		start = p.earliestStart()
	}
	minutesPerDay := 480.0
	if p.MinutesPerDay != "" {
		v, err := strconv.ParseFloat(p.MinutesPerDay, 64)
		if err != nil || !(v > 0 && v <= 1440) {
			rs.warnf("Project MinutesPerDay: %q is not a number of minutes between 1 and 1440; read as 480 (8 hours), MS Project's default", p.MinutesPerDay)
		} else {
			minutesPerDay = v
		}
	}
	cal, err := p.calendar(minutesPerDay, rs)
	if err == nil {
		_, err = cal.Compile()
	}
	if err != nil {
		// A damaged calendar is a warning, not a refused file: the tasks
		// are scheduled on MS Project's Standard week instead.
		rs.warnf("project calendar: %v; the project is scheduled on MS Project's Standard calendar (Monday to Friday, 08:00-12:00 and 13:00-17:00) instead", err)
		cal = nil
		if minutesPerDay != 480 {
			cal = &schedule.Calendar{Workdays: slices.Clone(schedule.DefaultWorkdays), HoursPerDay: minutesPerDay / 60}
		}
	}
	s.Calendar = cal
	work, err := cal.Compile()
	if err != nil {
		return nil, fmt.Errorf("project calendar: %w", err)
	}
	if !start.IsZero() {
		s.StartDate = schedule.StartDateOf(start, work)
	}
	weekShare := weekWorkingShare(work)
	live := &mspdiLive{p: p, s: s, rs: rs, minutesPerDay: minutesPerDay, calendars: map[string]string{}}
	if v := strings.TrimSpace(p.StatusDate); v != "" {
		if t, err := parseMSPDIDateTime(v); err != nil {
			rs.warnf("Project StatusDate: %v; the schedule has no data date", err)
		} else {
			s.DataDate = t.Format(liveLayout)
		}
	}

	fields := p.fieldAliases()
	custom := func(t *mspdiTask, alias string) (string, bool) { return t.custom(fields, alias) }
	ours := false // the file is our export: it carries the "Activity ID" field
	for _, alias := range fields {
		ours = ours || alias == aliasActivityID
	}

	// Pass 1: the outline, and which UIDs are activities.
	type node struct {
		task    *mspdiTask
		level   int
		summary bool
		leaves  []string // activity ids under a summary
		days    float64
	}
	byUID := map[string]*node{}
	actID := map[string]string{} // task UID -> activity id
	var outline []*node          // open summaries, by level
	lastLevel := 1
	for i := range p.Tasks {
		t := &p.Tasks[i]
		t.UID = strings.TrimSpace(t.UID)
		if _, err := strconv.ParseInt(t.UID, 10, 64); err != nil {
			rs.warnf("%s: UID %q is not a whole number; the task is left out", t.where(), t.UID)
			t.damaged = true
			continue
		}
		if byUID[t.UID] != nil {
			rs.warnf("%s: UID %s is used twice (also line %d); this task is left out", t.where(), t.UID, byUID[t.UID].task.line)
			t.damaged = true
			continue
		}
		level, err := t.level()
		if err != nil {
			rs.warnf("%v; read as %d, the level of the task before it", err, lastLevel)
			level = lastLevel
		}
		lastLevel = level
		n := &node{task: t, level: level, summary: t.summaryAt(level)}
		byUID[t.UID] = n
		for len(outline) > 0 && outline[len(outline)-1].level >= level {
			outline = outline[:len(outline)-1]
		}
		if t.skipped() {
			continue
		}
		if n.summary {
			outline = append(outline, n)
			continue
		}
		id := t.activityID(fields)
		if long := schedule.TooLong(id, schedule.MaxID); long != "" {
			rs.warnf("%s: its %s %s; the task's UID %s is its id instead", t.where(), aliasActivityID, long, t.UID)
			id = t.UID
		}
		if first, dup := lineOf[id]; dup && id != t.UID {
			rs.warnf("%s: its %s %q is the task's at line %d too; the task's UID %s is its id instead", t.where(), aliasActivityID, id, first, t.UID)
			id = t.UID
		}
		if first, dup := lineOf[id]; dup {
			rs.warnf("%s: its activity id %q is the task's at line %d too (activity ids are unique); the task is left out", t.where(), id, first)
			n.summary, t.damaged = false, true
			continue
		}
		lineOf[id] = t.line
		actID[t.UID] = id
		for _, sum := range outline {
			sum.leaves = append(sum.leaves, id)
		}
		days, err := parseMSPDIDuration(t.Duration, minutesPerDay)
		if err != nil {
			days = 0
			if rem, rerr := parseMSPDIDuration(t.RemainingDuration, minutesPerDay); rerr == nil && strings.TrimSpace(t.RemainingDuration) != "" {
				days = rem
			}
			rs.warnf("%s: Duration: %v; read as %s days (its RemainingDuration, else none)", t.where(), err, formatDays(days))
		}
		n.days = days
		a := schedule.Activity{ID: id, Name: t.Name, Description: t.Notes, Duration: formatDays(days)}
		live.task(t, &a, days)
		if a.Name == "" {
			a.Name = "Task " + strings.TrimSpace(t.ID)
		}
		if long := schedule.TooLong(a.Name, schedule.MaxName); long != "" {
			return nil, fmt.Errorf("%s: Name %s", t.where(), long)
		}
		if v, ok := custom(t, aliasDuration); ok {
			if sameDays(days, v) {
				a.Duration = v
			}
		}
		if len(outline) > 0 && outline[0].level > 0 || level > 1 {
			a.WBS = strings.TrimSpace(t.WBS)
			// Our export writes the outline from the WBS path and the
			// notes as the description was; another file's outline is
			// also said in the description.
			if !ours {
				var names []string
				for _, sum := range outline {
					if sum.level > 0 && sum.task.Name != "" {
						names = append(names, sum.task.Name)
					}
				}
				line := fmt.Sprintf("WBS %s (outline %s)", a.WBS, strings.TrimSpace(t.OutlineNumber))
				if len(names) > 0 {
					line += ": " + strings.Join(names, " > ")
				}
				if a.Description != "" {
					a.Description += "\n"
				}
				a.Description += line
			}
		}
		// Notes are MS Project's free text, often pasted pages: past
		// schedule.MaxDescription they are shortened (with a warning)
		// rather than the file refused.
		if d, cut := schedule.Truncate(a.Description, schedule.MaxDescription); cut {
			a.Description = d
			shortened = append(shortened, t.where())
		}
		s.Activities = append(s.Activities, a)
	}

	if len(shortened) > 0 {
		list := strings.Join(shortened[:min(len(shortened), 5)], ", ")
		if len(shortened) > 5 {
			list += fmt.Sprintf(" and %d more", len(shortened)-5)
		}
		rs.warnf("the Notes (with the WBS path) of %s are over %d characters and were shortened to it: %s", plural(len(shortened), "task"), schedule.MaxDescription, list)
	}

	// Pass 2: the logic.
	type key struct {
		pred, succ string
		typ        schedule.RelType
	}
	seen := map[key]int{} // -> index in s.Relationships
	var order []int       // each relationship's place in the exported schedule, or -1
	for i := range p.Tasks {
		t := &p.Tasks[i]
		succ := byUID[t.UID]
		if t.skipped() || t.damaged || len(t.PredecessorLink) == 0 {
			continue
		}
		succIDs := succ.leaves
		if !succ.summary {
			succIDs = []string{actID[t.UID]}
		}
		var ids []relTag
		if v, ok := custom(t, aliasRelIDs); ok {
			if err := json.Unmarshal([]byte(v), &ids); err != nil || len(ids) != len(t.PredecessorLink) || succ.summary {
				ids = nil // edited in MS Project: make new ids
			}
		}
		for j, l := range t.PredecessorLink {
			where := fmt.Sprintf("%s: PredecessorLink %d", t.where(), j+1)
			if isTrue(l.CrossProject) {
				continue
			}
			predUID := strings.TrimSpace(l.PredecessorUID)
			pred := byUID[predUID]
			if pred == nil {
				rs.warnf("%s: PredecessorUID %q is not a task in the file; the link is left out", where, l.PredecessorUID)
				continue
			}
			if pred.task.skipped() || pred.task.damaged {
				continue
			}
			typ, err := mspdiLinkType(l.Type)
			if err != nil {
				rs.warnf("%s: %v; the link is left out", where, err)
				continue
			}
			lag, err := mspdiLag(l, minutesPerDay, weekShare, pred.days)
			if err != nil {
				rs.warnf("%s: %v; read with no lag", where, err)
				lag = 0
			}
			predIDs := pred.leaves
			if !pred.summary {
				predIDs = []string{actID[predUID]}
			}
			for _, pid := range predIDs {
				for _, sid := range succIDs {
					if pid == sid {
						rs.warnf("%s: the task is its own predecessor; the link is left out", where)
						continue
					}
					k := key{pid, sid, typ}
					if at, dup := seen[k]; dup {
						// Two paths to the same link (through summaries):
						// the larger lag is the one that binds.
						s.Relationships[at].Lag = max(s.Relationships[at].Lag, lag)
						continue
					}
					id, at := pid+"-"+string(typ)+"-"+sid, -1
					if ids != nil {
						id, at = ids[j].ID, ids[j].N
					}
					seen[k] = len(s.Relationships)
					s.Relationships = append(s.Relationships, schedule.Relationship{ID: id, Type: typ, Predecessor: pid, Successor: sid, Lag: lag})
					order = append(order, at)
				}
			}
		}
	}
	restoreOrder(s.Relationships, order)
	return s, nil
}

// relTag is a relationship's id and place in the schedule, kept in the
// successor's "Relationship IDs" field: MSPDI groups links by successor.
type relTag struct {
	ID string `json:"id"`
	N  int    `json:"n"`
}

// restoreOrder puts relationships back in the order our export recorded,
// when every one has a distinct place; otherwise file order stands.
func restoreOrder(rels []schedule.Relationship, order []int) {
	if len(order) != len(rels) {
		return
	}
	sorted := make([]schedule.Relationship, len(rels))
	filled := make([]bool, len(rels))
	for i, at := range order {
		if at < 0 || at >= len(rels) || filled[at] {
			return
		}
		sorted[at], filled[at] = rels[i], true
	}
	copy(rels, sorted)
}

// parseMSPDIDateTime reads 2014-10-17T08:00:00 (seconds optional).
func parseMSPDIDateTime(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date-time like 2014-10-17T08:00:00", v)
}

// parseMSPDIDuration reads an ISO 8601 duration of working time into
// working days. MS Project writes PT8H0M0S; days (P1D) count 24 hours as in
// xsd:duration, years and months are refused as ambiguous.
func parseMSPDIDuration(v string, minutesPerDay float64) (float64, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	s, neg := strings.CutPrefix(v, "-")
	rest, ok := strings.CutPrefix(s, "P")
	if !ok || rest == "" {
		return 0, fmt.Errorf("%q is not a duration like PT8H0M0S", v)
	}
	var minutes float64
	inTime := false
	num := ""
	for _, c := range rest {
		switch {
		case c >= '0' && c <= '9' || c == '.':
			num += string(c)
			continue
		case c == 'T' && !inTime && num == "":
			inTime = true
			continue
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || num == "" {
			return 0, fmt.Errorf("%q is not a duration like PT8H0M0S", v)
		}
		num = ""
		switch {
		case !inTime && c == 'D':
			minutes += f * 24 * 60
		case !inTime && (c == 'Y' || c == 'M' || c == 'W'):
			return 0, fmt.Errorf("%q: years, months and weeks are not a fixed length of working time; use hours (PT..H)", v)
		case inTime && c == 'H':
			minutes += f * 60
		case inTime && c == 'M':
			minutes += f
		case inTime && c == 'S':
			minutes += f / 60
		default:
			return 0, fmt.Errorf("%q is not a duration like PT8H0M0S", v)
		}
	}
	if num != "" {
		return 0, fmt.Errorf("%q is not a duration like PT8H0M0S", v)
	}
	if neg && minutes != 0 {
		return 0, fmt.Errorf("%q is negative", v)
	}
	days := minutes / minutesPerDay
	if !(days <= schedule.MaxDays) { // NaN too
		return 0, fmt.Errorf("%q is beyond the limit of %d working days of %g minutes", v, schedule.MaxDays, minutesPerDay)
	}
	return roundDays(days), nil
}

// roundDays drops binary noise below a millionth of a second.
func roundDays(d float64) float64 {
	r := math.Round(d*1e12) / 1e12
	if r == 0 {
		return 0
	}
	return r
}

// sameDays reports whether days is the deterministic value of duration:
// a duration as written ("pert(1,2.5,6)", "5d") that the file's own
// number still matches is kept as written.
func sameDays(days float64, duration string) bool {
	d, err := schedule.DurationDays(duration)
	return err == nil && math.Abs(d-days) < 1e-6
}

func formatDays(d float64) string { return strconv.FormatFloat(d, 'f', -1, 64) }

func mspdiLinkType(v string) (schedule.RelType, error) {
	switch strings.TrimSpace(v) {
	case "0":
		return schedule.FF, nil
	case "1", "": // MS Project's default
		return schedule.FS, nil
	case "2":
		return schedule.SF, nil
	case "3":
		return schedule.SS, nil
	}
	return "", fmt.Errorf("unknown Type %s; want 0 (FF), 1 (FS), 2 (SF) or 3 (SS)", v)
}

// Lag formats: MS Project's duration formats.
const (
	lagWorking = iota
	lagElapsed
	lagPercent
)

func lagKind(format string) (int, error) {
	switch strings.TrimSpace(format) {
	case "", "3", "5", "7", "9", "11", "21", "35", "37", "39", "41", "43", "53":
		return lagWorking, nil
	case "4", "6", "8", "10", "12", "36", "38", "40", "42", "44":
		return lagElapsed, nil
	case "19", "20", "51", "52":
		return lagPercent, nil
	}
	return 0, fmt.Errorf("unknown LagFormat %s", format)
}

func mspdiLag(l mspdiLink, minutesPerDay, weekShare, predDays float64) (float64, error) {
	kind, err := lagKind(l.LagFormat)
	if err != nil {
		return 0, err
	}
	v := strings.TrimSpace(l.LinkLag)
	if v == "" {
		return 0, nil
	}
	raw, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsInf(raw, 0) || math.IsNaN(raw) {
		return 0, fmt.Errorf("LinkLag %q is not a number", l.LinkLag)
	}
	var days float64
	switch kind {
	case lagWorking:
		days = raw / 10 / minutesPerDay
	case lagElapsed:
		days = raw / 10 * weekShare / minutesPerDay
	case lagPercent:
		days = raw / 100 * predDays
	}
	if !(math.Abs(days) <= schedule.MaxDays) { // NaN too
		return 0, fmt.Errorf("LinkLag %s is beyond the limit of ±%d working days", v, schedule.MaxDays)
	}
	return roundDays(days), nil
}

// weekWorkingShare is the working minutes of a normal week over the
// minutes of a week: how elapsed time turns into working time on average.
func weekWorkingShare(w *schedule.WorkTime) float64 {
	monday := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC) // a Monday, before any exception that matters
	total := 0
	for i := range 7 {
		for _, p := range weekPeriods(w, monday.AddDate(0, 0, i)) {
			total += p.Minutes()
		}
	}
	return float64(total) / (7 * 24 * 60)
}

// weekPeriods is the weekday's normal periods, whatever the exceptions.
func weekPeriods(w *schedule.WorkTime, day time.Time) []schedule.Period { return w.Periods(day) }

// calendar builds the project calendar; nil when it is MS Project's
// untouched Standard calendar, so files without one round-trip.
func (p *mspdiProject) calendar(minutesPerDay float64, rs *readState) (*schedule.Calendar, error) {
	return p.calendarOf(p.CalendarUID, minutesPerDay, true, rs)
}

// calendarOf reads the calendar with uid (the project's when project is
// set: nil then stands for MS Project's Standard calendar).
func (p *mspdiProject) calendarOf(uid string, minutesPerDay float64, project bool, rs *readState) (*schedule.Calendar, error) {
	byUID := map[string]*mspdiCalendar{}
	for i := range p.Calendars {
		byUID[strings.TrimSpace(p.Calendars[i].UID)] = &p.Calendars[i]
	}
	c := byUID[strings.TrimSpace(uid)]
	if c == nil && !project {
		return nil, fmt.Errorf("CalendarUID %s: no such calendar in <Calendars>", uid)
	}
	if c == nil {
		if p.CalendarUID != "" && len(p.Calendars) > 0 {
			return nil, fmt.Errorf("Project CalendarUID %s: no such calendar in <Calendars>", p.CalendarUID)
		}
		if minutesPerDay == 480 {
			return nil, nil
		}
		return &schedule.Calendar{Workdays: slices.Clone(schedule.DefaultWorkdays), HoursPerDay: minutesPerDay / 60}, nil
	}
	where := fmt.Sprintf("Calendar UID %s (line %d)", c.UID, c.line)
	// The week: this calendar's days, else its base calendar's.
	var week [7]*mspdiWeekDay
	var oldExceptions []mspdiWeekDay
	chain := []*mspdiCalendar{}
	for cc := c; cc != nil && len(chain) < 10 && !slices.Contains(chain, cc); cc = byUID[strings.TrimSpace(cc.BaseCalendarUID)] {
		chain = append(chain, cc)
	}
	for _, cc := range chain {
		for i := range cc.WeekDays.WeekDay {
			wd := &cc.WeekDays.WeekDay[i]
			dt, err := strconv.Atoi(strings.TrimSpace(wd.DayType))
			if err != nil || dt < 0 || dt > 7 {
				return nil, fmt.Errorf("Calendar UID %s (line %d): WeekDay %d: DayType %q is not 0-7", cc.UID, cc.line, i+1, wd.DayType)
			}
			if dt == 0 {
				if cc == c && c.Exceptions == nil {
					oldExceptions = append(oldExceptions, *wd)
				}
				continue
			}
			if week[dt-1] == nil && strings.TrimSpace(wd.DayWorking) != "" {
				week[dt-1] = wd
			}
		}
	}
	var hours [7][]string
	for _, d := range mondayFirst {
		wd := week[d]
		if wd == nil {
			// Not given anywhere: MS Project's default week.
			if d == time.Saturday || d == time.Sunday {
				continue
			}
			wd = &mspdiWeekDay{DayWorking: "1"}
		}
		if !isTrue(wd.DayWorking) {
			continue
		}
		h, err := mspdiHours(wd.WorkingTimes)
		if err != nil {
			return nil, fmt.Errorf("%s: WeekDay DayType %d: %w", where, d+1, err)
		}
		hours[d] = h
	}
	cal := &schedule.Calendar{}
	common, minutes := foldWeek(cal, hours)
	if len(cal.Workdays) == 0 {
		return nil, fmt.Errorf("%s: no working days", where)
	}
	if float64(minutes) != minutesPerDay {
		cal.HoursPerDay = minutesPerDay / 60
	}
	// Exceptions: its own, then its base calendars' (a project's holidays
	// on a resource's or a task's calendar) on the dates its own leave.
	var own []mspdiException
	if c.Exceptions != nil {
		own = c.Exceptions.Exception
	}
	for _, wd := range oldExceptions {
		own = append(own, mspdiException{TimePeriod: wd.TimePeriod, DayWorking: wd.DayWorking, WorkingTimes: wd.WorkingTimes, Type: "1"})
	}
	cal.Holidays, cal.Exceptions = mspdiExceptions(own, common, where, rs)
	if dropped := dropOverlaps(cal); len(dropped) > 0 {
		rs.warnf("%s: %d exceptions fall on dates another exception already covers (%s); the first one on each date is kept",
			where, len(dropped), strings.Join(dropped[:min(len(dropped), 5)], ", "))
	}
	for _, base := range chain[1:] {
		if base.Exceptions == nil {
			continue
		}
		holidays, exceptions := mspdiExceptions(base.Exceptions.Exception, common, fmt.Sprintf("Calendar UID %s (line %d)", base.UID, base.line), rs)
		for _, h := range holidays {
			if !coversDate(cal, h, h) {
				cal.Holidays = append(cal.Holidays, h)
			}
		}
		for _, e := range exceptions {
			if !coversDate(cal, e.From, lastDay(e)) {
				cal.Exceptions = append(cal.Exceptions, e)
			}
		}
	}
	workWeeks(cal, chain, hours, common, rs)
	def := &schedule.Calendar{Workdays: schedule.DefaultWorkdays}
	if project && strings.EqualFold(c.Name, "Standard") && equalCalendars(cal, def) {
		return nil, nil
	}
	if !project {
		cal.Name = c.Name
		cal.HoursPerDay = minutesPerDay / 60 // MS Project's day is the project's on every calendar
	}
	return cal, nil
}

// mspdiExceptions reads a calendar's Exceptions into holidays (a day off
// named "" or "Holiday") and exceptions, recurring ones expanded. A damaged
// exception is a warning naming it, and is left out.
func mspdiExceptions(list []mspdiException, common []string, where string, rs *readState) (holidays []string, exceptions []schedule.CalendarException) {
	for i, e := range list {
		ranges, ex, err := readMSPDIException(e, common)
		if err != nil {
			rs.warnf("%s: Exception %d: %v (left out)", where, i+1, err)
			continue
		}
		for _, r := range ranges {
			ex.From, ex.To = r[0].Format(time.DateOnly), r[1].Format(time.DateOnly)
			if !ex.Working && ex.From == ex.To && (ex.Name == "" || ex.Name == "Holiday") {
				holidays = append(holidays, ex.From)
				continue
			}
			if ex.To == ex.From {
				ex.To = ""
			}
			exceptions = append(exceptions, ex)
		}
	}
	return holidays, exceptions
}

// readMSPDIException reads one exception: its date ranges and what it is.
func readMSPDIException(e mspdiException, common []string) ([][2]time.Time, schedule.CalendarException, error) {
	ex := schedule.CalendarException{Name: e.Name, Working: isTrue(e.DayWorking)}
	from, to, err := e.TimePeriod.dates()
	if err != nil {
		return nil, ex, err
	}
	if ex.Working {
		if ex.Hours, err = mspdiHours(e.WorkingTimes); err != nil {
			return nil, ex, err
		}
		if slices.Equal(ex.Hours, common) {
			ex.Hours = nil
		}
	}
	ranges, err := expandException(e, from, to)
	return ranges, ex, err
}

func equalCalendars(a, b *schedule.Calendar) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func dateOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// mspdiHours reads WorkingTimes as "08:00-12:00" periods; none is MS
// Project's default day.
func mspdiHours(wt *mspdiWorkingTimes) ([]string, error) {
	if wt == nil || len(wt.WorkingTime) == 0 {
		return slices.Clone(schedule.DefaultHours), nil
	}
	var out []string
	for i, w := range wt.WorkingTime {
		if strings.TrimSpace(w.FromTime) == "" && strings.TrimSpace(w.ToTime) == "" {
			continue
		}
		from, err1 := clockOf(w.FromTime, false)
		to, err2 := clockOf(w.ToTime, true)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("WorkingTime %d: %w", i+1, err)
		}
		p := schedule.Period{From: from, To: to}
		if p.To <= p.From {
			return nil, fmt.Errorf("WorkingTime %d: %s ends before it starts", i+1, p)
		}
		out = append(out, p.String())
	}
	if len(out) == 0 {
		return slices.Clone(schedule.DefaultHours), nil
	}
	return out, nil
}

// clockOf reads 08:00:00 as minutes after midnight; an end of 00:00:00 is
// midnight at the end of the day, as MS Project writes a 24-hour day.
func clockOf(v string, end bool) (int, error) {
	t, err := time.Parse("15:04:05", strings.TrimSpace(v))
	if err != nil {
		if t, err = time.Parse("15:04", strings.TrimSpace(v)); err != nil {
			return 0, fmt.Errorf("%q is not a time like 08:00:00", v)
		}
	}
	m := t.Hour()*60 + t.Minute()
	if end && m == 0 {
		m = 24 * 60
	}
	return m, nil
}

// maxExceptionDates bounds how many dates a recurring exception expands to.
const maxExceptionDates = 20_000

// expandException turns an exception into date ranges: one for a plain
// (daily, every day) exception, one per date for a recurring one. Types are
// MS Project's: 1 daily, 2 yearly on a date, 3 yearly on the n-th weekday,
// 4 monthly on a day, 5 monthly on the n-th weekday, 6 weekly, 7 daily.
func expandException(e mspdiException, from, to time.Time) ([][2]time.Time, error) {
	num := func(name, v string, def int) (int, error) {
		v = strings.TrimSpace(v)
		if v == "" {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s %q is not a whole number", name, v)
		}
		return n, nil
	}
	typ, err := num("Type", e.Type, 1)
	if err != nil {
		return nil, err
	}
	period, err := num("Period", e.Period, 1)
	if err != nil {
		return nil, err
	}
	period = max(period, 1)
	if (typ == 1 || typ == 7) && period == 1 {
		return [][2]time.Time{{from, to}}, nil
	}
	var match func(d time.Time) bool
	switch typ {
	case 1, 7:
		match = func(d time.Time) bool { return int(d.Sub(from).Hours()/24)%period == 0 }
	case 6:
		mask, err := num("DaysOfWeek", e.DaysOfWeek, 0)
		if err != nil {
			return nil, err
		}
		week0 := from.AddDate(0, 0, -int(from.Weekday()))
		match = func(d time.Time) bool {
			weeks := int(d.Sub(week0).Hours() / 24 / 7)
			return mask&(1<<d.Weekday()) != 0 && weeks%period == 0
		}
	case 2, 3, 4, 5:
		month, err := num("Month", e.Month, 0)
		if err != nil {
			return nil, err
		}
		monthDay, err := num("MonthDay", e.MonthDay, 1)
		if err != nil {
			return nil, err
		}
		item, err := num("MonthItem", e.MonthItem, 3)
		if err != nil {
			return nil, err
		}
		pos, err := num("MonthPosition", e.MonthPosition, 0)
		if err != nil {
			return nil, err
		}
		weekday := time.Weekday((item - 3 + 7*100) % 7) // MonthItem 3 is Sunday
		monthOK := func(d time.Time) bool {
			if typ <= 3 {
				return int(d.Month())-1 == month
			}
			months := (d.Year()-from.Year())*12 + int(d.Month()) - int(from.Month())
			return months%period == 0
		}
		match = func(d time.Time) bool {
			if !monthOK(d) {
				return false
			}
			if typ == 2 || typ == 4 {
				return d.Day() == monthDay
			}
			if d.Weekday() != weekday {
				return false
			}
			if pos >= 4 { // last
				return d.AddDate(0, 0, 7).Month() != d.Month()
			}
			return (d.Day()-1)/7 == pos
		}
	default:
		return nil, fmt.Errorf("unknown recurrence Type %d", typ)
	}
	var out [][2]time.Time
	for d, n := from, 0; !d.After(to); d, n = d.AddDate(0, 0, 1), n+1 {
		if n > maxExceptionDates*20 {
			return nil, fmt.Errorf("recurs over more than %d days", maxExceptionDates*20)
		}
		if match(d) {
			if len(out) >= maxExceptionDates {
				return nil, fmt.Errorf("recurs on more than %d dates", maxExceptionDates)
			}
			out = append(out, [2]time.Time{d, d})
		}
	}
	return out, nil
}

// maxWorkWeekDays bounds a work week's range: a century.
const maxWorkWeekDays = 100 * 366

// workWeeks adds the work weeks of an MS Project calendar and of its base
// calendars (chain, the calendar first) to cal as exceptions on the dates
// they change: a day worked otherwise than the normal week (normal, by
// weekday; common is cal's Hours), or not at all. An exception or holiday
// already on a date wins over a work week, and a calendar's own work
// weeks over its base calendars', as in MS Project. A damaged work week
// is a warning naming it, and is left out.
func workWeeks(cal *schedule.Calendar, chain []*mspdiCalendar, normal [7][]string, common []string, rs *readState) {
	decided := map[string]bool{}
	for _, h := range cal.Holidays {
		decided[h] = true
	}
	for _, e := range cal.Exceptions {
		from, err1 := time.Parse(time.DateOnly, e.From)
		to, err2 := time.Parse(time.DateOnly, lastDay(e))
		for d := from; err1 == nil && err2 == nil && !d.After(to); d = d.AddDate(0, 0, 1) {
			decided[d.Format(time.DateOnly)] = true
		}
	}
	var changed []schedule.CalendarException
	for _, cc := range chain {
		if cc.WorkWeeks == nil {
			continue
		}
		for i, ww := range cc.WorkWeeks.WorkWeek {
			from, to, week, err := readWorkWeek(ww)
			if err != nil {
				rs.warnf("Calendar UID %s (line %d): WorkWeek %d (%q): %v (left out)", cc.UID, cc.line, i+1, ww.Name, err)
				continue
			}
			for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
				day, date := week[d.Weekday()], d.Format(time.DateOnly)
				if !day.set || decided[date] {
					continue
				}
				decided[date] = true
				if slices.Equal(day.hours, normal[d.Weekday()]) {
					continue
				}
				ex := schedule.CalendarException{Name: ww.Name, From: date, Working: day.hours != nil}
				if ex.Working && !slices.Equal(day.hours, common) {
					ex.Hours = day.hours
				}
				changed = append(changed, ex)
			}
		}
	}
	// Runs of days changed alike are one exception.
	slices.SortStableFunc(changed, func(a, b schedule.CalendarException) int { return strings.Compare(a.From, b.From) })
	own := len(cal.Exceptions)
	for _, ex := range changed {
		if n := len(cal.Exceptions); n > own {
			last := &cal.Exceptions[n-1]
			if last.Name == ex.Name && last.Working == ex.Working && slices.Equal(last.Hours, ex.Hours) && nextDay(lastDay(*last)) == ex.From {
				last.To = ex.From
				continue
			}
		}
		if !ex.Working && ex.Name == "" {
			cal.Holidays = append(cal.Holidays, ex.From)
			continue
		}
		cal.Exceptions = append(cal.Exceptions, ex)
	}
}

// workWeekDay is one weekday of a work week: set when the work week says
// how it is worked, hours nil when it is not.
type workWeekDay struct {
	set   bool
	hours []string
}

// readWorkWeek reads a work week's dates and its days, by weekday.
func readWorkWeek(ww mspdiWorkWeek) (from, to time.Time, week [7]workWeekDay, err error) {
	if from, to, err = ww.TimePeriod.dates(); err != nil {
		return from, to, week, err
	}
	if to.Sub(from) > maxWorkWeekDays*24*time.Hour {
		return from, to, week, fmt.Errorf("TimePeriod spans more than %d days", maxWorkWeekDays)
	}
	for i, wd := range ww.WeekDays.WeekDay {
		dt, err := strconv.Atoi(strings.TrimSpace(wd.DayType))
		if err != nil || dt < 1 || dt > 7 {
			return from, to, week, fmt.Errorf("WeekDay %d: DayType %q is not 1-7", i+1, wd.DayType)
		}
		if strings.TrimSpace(wd.DayWorking) == "" {
			continue // as the normal week
		}
		day := workWeekDay{set: true}
		if isTrue(wd.DayWorking) {
			if day.hours, err = mspdiHours(wd.WorkingTimes); err != nil {
				return from, to, week, fmt.Errorf("WeekDay DayType %d: %w", dt, err)
			}
		}
		week[dt-1] = day
	}
	return from, to, week, nil
}

// nextDay is the date after a 2006-01-02 date.
func nextDay(date string) string {
	d, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return ""
	}
	return d.AddDate(0, 0, 1).Format(time.DateOnly)
}
