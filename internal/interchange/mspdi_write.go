package interchange

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// WriteMSPDI writes s as MS Project XML (SaveVersion 14, Project 2010 and
// later open it): the project calendar, one task per activity with its
// duration, CPM early dates and predecessor links, and for a live
// programme everything the model holds that MSPDI has a place for. s
// must be valid.
func WriteMSPDI(w io.Writer, s *schedule.Schedule) error {
	return writeMSPDI(w, s, nil)
}

// xw writes indented XML elements by hand: the element order MS Project's
// schema wants is easier to see here than in struct tags.
type xw struct {
	w     *bufio.Writer
	depth int
}

func (x *xw) open(name string) {
	x.w.WriteString(strings.Repeat("\t", x.depth) + "<" + name + ">\n")
	x.depth++
}

func (x *xw) close(name string) {
	x.depth--
	x.w.WriteString(strings.Repeat("\t", x.depth) + "</" + name + ">\n")
}

func (x *xw) el(name, value string) {
	x.w.WriteString(strings.Repeat("\t", x.depth) + "<" + name + ">")
	xml.EscapeText(x.w, []byte(value))
	x.w.WriteString("</" + name + ">\n")
}

func (x *xw) num(name string, v int) { x.el(name, strconv.Itoa(v)) }

// mspdiDuration writes working days as PT..H..M..S of minutesPerDay.
func mspdiDuration(days, minutesPerDay float64) string {
	secs := days * minutesPerDay * 60
	secs = math.Round(secs*1000) / 1000
	h := math.Floor(secs / 3600)
	m := math.Floor((secs - h*3600) / 60)
	sec := secs - h*3600 - m*60
	return fmt.Sprintf("PT%.0fH%.0fM%sS", h, m, strconv.FormatFloat(math.Round(sec*1000)/1000, 'f', -1, 64))
}

func writeMSPDI(w io.Writer, s *schedule.Schedule, progress func(done, total int)) error {
	n, err := schedule.Check(s)
	if err != nil {
		return err
	}
	res := n.Compute()
	// MS Project counts every day in the project's MinutesPerDay, so a
	// duration on a calendar with other days is written as its time.
	wc, err := compileCalendars(s)
	if err != nil {
		return err
	}
	work := wc[""]
	mpd := work.MinutesPerDay()
	var clock *schedule.Clock
	if s.StartDate != "" {
		if clock, err = schedule.NewClock(s.StartDate, s.Calendar); err != nil {
			return err
		}
		// Every date written is at or before the finish: one check covers
		// them all, so none is silently stuck at the range's end.
		if err := clock.Check(res.ProjectDuration); err != nil {
			return fmt.Errorf("dating the schedule for MS Project: %w", err)
		}
	}
	date := func(t time.Time) string { return t.Format(schedule.DateTimeLayout) }
	live := isLive(s)
	cals := calendarFileIDs(s)
	codeTypes := mspdiCodeTypes(s)

	bw := bufio.NewWriterSize(w, 1<<16)
	x := &xw{w: bw}
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n")
	bw.WriteString(`<Project xmlns="http://schemas.microsoft.com/project">` + "\n")
	x.depth = 1
	x.num("SaveVersion", 14)
	x.el("Name", s.Name)
	x.el("Title", s.Name)
	x.num("ScheduleFromStart", 1)
	if clock != nil {
		x.el("StartDate", date(clock.StartAt(0)))
		x.el("FinishDate", date(res.FinishAt(clock)))
	}
	x.num("CalendarUID", cals.project)
	hours := schedule.DefaultHours
	if s.Calendar != nil && s.Calendar.Hours != nil {
		hours = s.Calendar.Hours
	}
	first, _ := schedule.ParsePeriod(hours[0])
	last, _ := schedule.ParsePeriod(hours[len(hours)-1])
	x.el("DefaultStartTime", clockText(first.From))
	x.el("DefaultFinishTime", clockText(last.To))
	x.el("MinutesPerDay", strconv.FormatFloat(math.Round(mpd), 'f', -1, 64))
	x.el("MinutesPerWeek", strconv.FormatFloat(math.Round(mpd*float64(workdayCount(work))), 'f', -1, 64))
	x.num("DaysPerMonth", 20)
	x.num("DurationFormat", 7) // days
	if s.DataDate != "" {
		x.el("StatusDate", wc.dateText("", s.DataDate, false, schedule.DateTimeLayout))
	}
	x.open("ExtendedAttributes")
	for i, alias := range []string{aliasActivityID, aliasRelIDs, aliasDuration} {
		x.open("ExtendedAttribute")
		x.el("FieldID", textFieldIDs[i])
		x.el("FieldName", "Text"+strconv.Itoa(i+1))
		x.el("Alias", alias)
		x.close("ExtendedAttribute")
	}
	for i, t := range codeTypes {
		x.open("ExtendedAttribute")
		x.el("FieldID", codeFieldIDs[i])
		x.el("FieldName", "Text"+strconv.Itoa(i+len(textFieldIDs)+1))
		x.el("Alias", t)
		x.close("ExtendedAttribute")
	}
	x.close("ExtendedAttributes")
	if !live {
		writeMSPDICalendar(x, s.Calendar)
	} else {
		name := "Project calendar"
		if s.Calendar == nil {
			name = "Standard"
		}
		x.open("Calendars")
		writeMSPDICalendarElement(x, strconv.Itoa(cals.project), name, s.Calendar)
		for _, key := range cals.keys {
			writeMSPDICalendarElement(x, strconv.Itoa(cals.id[key]), s.Calendars[key].Name, s.Calendars[key])
		}
		x.close("Calendars")
	}

	x.open("Tasks")
	// The project summary task, as MS Project writes it.
	x.open("Task")
	x.num("UID", 0)
	x.num("ID", 0)
	x.el("Name", s.Name)
	x.num("Type", 1)
	x.num("IsNull", 0)
	x.el("WBS", "0")
	x.el("OutlineNumber", "0")
	x.num("OutlineLevel", 0)
	if clock != nil {
		x.el("Start", date(clock.StartAt(0)))
		x.el("Finish", date(res.FinishAt(clock)))
	}
	x.el("Duration", mspdiDuration(res.ProjectDuration, mpd))
	x.num("DurationFormat", 7)
	x.num("Milestone", 0)
	x.num("Summary", 1)
	x.close("Task")

	uid := make(map[string]int, len(s.Activities))
	for i, a := range s.Activities {
		uid[a.ID] = i + 1
	}
	preds := make([][]schedule.Relationship, len(s.Activities))
	place := make([][]relTag, len(s.Activities))
	for n, r := range s.Relationships {
		i := uid[r.Successor] - 1
		preds[i] = append(preds[i], r)
		place[i] = append(place[i], relTag{ID: r.ID, N: n})
	}
	outline := &mspdiOutline{x: x, nextUID: len(s.Activities) + 1}
	for i, a := range s.Activities {
		if progress != nil && i%1000 == 0 {
			progress(i, len(s.Activities))
		}
		days := res.EF[i] - res.ES[i]
		level, number := outline.place(a.WBS)
		wbs := number
		if a.WBS != "" {
			wbs = a.WBS
		}
		x.open("Task")
		x.num("UID", i+1)
		x.num("ID", outline.row)
		x.el("Name", a.Name)
		x.num("Type", 0)
		x.num("IsNull", 0)
		x.el("WBS", wbs)
		x.el("OutlineNumber", number)
		x.num("OutlineLevel", level)
		switch {
		case a.Manual:
			x.el("Start", wc.dateText(a.Calendar, a.Start, false, schedule.DateTimeLayout))
			x.el("Finish", wc.dateText(a.Calendar, a.Finish, true, schedule.DateTimeLayout))
		case clock != nil:
			x.el("Start", date(res.At(clock, i, schedule.EarlyStart)))
			x.el("Finish", date(res.At(clock, i, schedule.EarlyFinish)))
		}
		format := 7 // days
		if live {
			// The duration as planned, in the time it takes on its own
			// calendar (an elapsed one in clock time), not the CPM span.
			d, _ := schedule.ParseDuration(a.Duration)
			days = d.Minutes(wc.hoursPerDay(a.Calendar)*60) / mpd
			switch d.Unit {
			case schedule.ElapsedDays:
				format = 8
			case schedule.ElapsedHours:
				format = 6
			}
		}
		x.el("Duration", mspdiDuration(days, mpd))
		x.num("DurationFormat", format)
		x.num("Milestone", b2i(days == 0 || a.Type == schedule.StartMilestone || a.Type == schedule.FinishMilestone))
		x.num("Summary", 0)
		if live {
			writeMSPDIProgress(x, &a, mpd, wc)
		}
		constraint := 0 // as soon as possible: the logic drives it
		if a.Constraint != nil {
			constraint, _ = strconv.Atoi(keyOf(mspdiConstraints, a.Constraint.Type))
		}
		x.num("ConstraintType", constraint)
		if a.Calendar != "" {
			x.num("CalendarUID", cals.id[a.Calendar])
		} else {
			x.num("CalendarUID", -1)
		}
		if constraint > 1 {
			x.el("ConstraintDate", wc.dateText(a.Calendar, a.Constraint.Date, finishConstraint(a.Constraint.Type), schedule.DateTimeLayout))
		}
		if d := deadline(a.SecondaryConstraint); d != "" {
			x.el("Deadline", wc.dateText(a.Calendar, d, true, schedule.DateTimeLayout))
		}
		if a.Description != "" {
			x.el("Notes", a.Description)
		}
		for _, r := range preds[i] {
			x.open("PredecessorLink")
			x.num("PredecessorUID", uid[r.Predecessor])
			x.num("Type", mspdiTypeCode(r.Type))
			x.num("CrossProject", 0)
			// In the successor's calendar's time, as P6 counts it.
			x.el("LinkLag", strconv.FormatFloat(math.Round(r.Lag*wc.hoursPerDay(a.Calendar)*600), 'f', -1, 64))
			x.num("LagFormat", 7) // days
			x.close("PredecessorLink")
		}
		custom := []string{a.ID, "", a.Duration}
		if len(preds[i]) > 0 {
			b, _ := json.Marshal(place[i])
			custom[1] = string(b)
		}
		for f, v := range custom {
			if v == "" {
				continue
			}
			x.open("ExtendedAttribute")
			x.el("FieldID", textFieldIDs[f])
			x.el("Value", v)
			x.close("ExtendedAttribute")
		}
		for f, t := range codeTypes {
			if v, ok := a.Codes[t]; ok {
				x.open("ExtendedAttribute")
				x.el("FieldID", codeFieldIDs[f])
				x.el("Value", v)
				x.close("ExtendedAttribute")
			}
		}
		writeMSPDIBaseline(x, &a, mpd, wc)
		x.num("Active", 1)
		x.num("Manual", b2i(a.Manual))
		x.close("Task")
	}
	if progress != nil {
		progress(len(s.Activities), len(s.Activities))
	}
	x.close("Tasks")
	writeMSPDIResources(x, s, cals, mpd)
	bw.WriteString("</Project>\n")
	return bw.Flush()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func clockText(m int) string { return fmt.Sprintf("%02d:%02d:00", m/60, m%60) }

func mspdiTypeCode(t schedule.RelType) int {
	switch t {
	case schedule.FF:
		return 0
	case schedule.SF:
		return 2
	case schedule.SS:
		return 3
	}
	return 1
}

func workdayCount(w *schedule.WorkTime) int {
	n := 0
	monday := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 7 {
		if w.Periods(monday.AddDate(0, 0, i)) != nil {
			n++
		}
	}
	return n
}

// writeMSPDICalendar writes the one project calendar (UID 1). A schedule
// without a calendar gets MS Project's Standard calendar under that name,
// which import reads back as no calendar.
func writeMSPDICalendar(x *xw, cal *schedule.Calendar) {
	name := "Project calendar"
	if cal == nil {
		name = "Standard"
	}
	x.open("Calendars")
	writeMSPDICalendarElement(x, "1", name, cal)
	x.close("Calendars")
}

// writeMSPDICalendarElement writes one base calendar: its week and its
// exceptions.
func writeMSPDICalendarElement(x *xw, uid, name string, cal *schedule.Calendar) {
	c, week, hours := exportWeek(cal)
	x.open("Calendar")
	x.el("UID", uid)
	x.el("Name", name)
	x.num("IsBaseCalendar", 1)
	x.num("BaseCalendarUID", -1)
	x.open("WeekDays")
	for d := time.Sunday; d <= time.Saturday; d++ {
		x.open("WeekDay")
		x.num("DayType", int(d)+1)
		works := week[d] != nil
		x.num("DayWorking", b2i(works))
		if works {
			writeWorkingTimes(x, week[d])
		}
		x.close("WeekDay")
	}
	x.close("WeekDays")
	if len(c.Holidays) > 0 || len(c.Exceptions) > 0 {
		x.open("Exceptions")
		for _, h := range c.Holidays {
			writeException(x, schedule.CalendarException{Name: "Holiday", From: h}, hours)
		}
		for _, e := range c.Exceptions {
			writeException(x, e, hours)
		}
		x.close("Exceptions")
	}
	x.close("Calendar")
}

func writeWorkingTimes(x *xw, hours []string) {
	x.open("WorkingTimes")
	for _, h := range hours {
		p, _ := schedule.ParsePeriod(h)
		x.open("WorkingTime")
		x.el("FromTime", clockText(p.From))
		x.el("ToTime", clockText(p.To%(24*60))) // MS Project writes midnight as 00:00:00
		x.close("WorkingTime")
	}
	x.close("WorkingTimes")
}

func writeException(x *xw, e schedule.CalendarException, hours []string) {
	to := e.To
	if to == "" {
		to = e.From
	}
	from, _ := schedule.ParseDate(e.From)
	until, _ := schedule.ParseDate(to)
	x.open("Exception")
	x.num("EnteredByOccurrences", 0)
	x.open("TimePeriod")
	x.el("FromDate", e.From+"T00:00:00")
	x.el("ToDate", to+"T23:59:00")
	x.close("TimePeriod")
	x.num("Occurrences", int(until.Sub(from).Hours()/24)+1)
	x.el("Name", e.Name)
	x.num("Type", 1) // daily: every date of the range
	x.num("DayWorking", b2i(e.Working))
	if e.Working {
		h := e.Hours
		if h == nil {
			h = hours
		}
		writeWorkingTimes(x, h)
	}
	x.close("Exception")
}

// codeFieldIDs are the task text fields Text4 to Text30, which carry
// activity codes (Text1-3 carry what MSPDI has no place for).
var codeFieldIDs = func() []string {
	var ids []string
	for _, n := range []int{60, 63, 66, 67, 68, 69, 70} { // Text4-Text10
		ids = append(ids, strconv.Itoa(mspdiTaskFieldBase+n))
	}
	for n := 317; n <= 336; n++ { // Text11-Text30
		ids = append(ids, strconv.Itoa(mspdiTaskFieldBase+n))
	}
	return ids
}()

// mspdiCodeTypes are the code types an MSPDI export carries, one text
// field each: not one named as a field export writes for itself (or
// nothing), and as many as there are free text fields (Uncarried says
// what is left out).
func mspdiCodeTypes(s *schedule.Schedule) []string {
	var types []string
	for _, t := range sortedCodeTypes(s) {
		switch t {
		case "", aliasActivityID, aliasRelIDs, aliasDuration:
			continue
		}
		if len(types) < len(codeFieldIDs) {
			types = append(types, t)
		}
	}
	return types
}

// mspdiTaskFieldBase is where MS Project numbers its task fields' FieldIDs.
const mspdiTaskFieldBase = 0x0B400000

// mspdiOutline writes the summary tasks that give each activity its WBS
// path as an outline, in the activities' order: a summary opens where a
// path first goes below its neighbour's and closes where it leaves, so an
// activity order that leaves a WBS branch and comes back opens it again
// rather than reordering the activities.
type mspdiOutline struct {
	x       *xw
	nextUID int      // of the next summary: after the activities'
	row     int      // the ID of the last task written
	open    []string // the open summaries' names, outermost first
	counts  []int    // counts[k]: tasks so far at level k+1 under the open path
}

// place writes the summaries an activity with WBS path needs and returns
// its outline level and number.
func (o *mspdiOutline) place(path string) (level int, number string) {
	var segs []string
	if path != "" {
		segs = wbsSegments(path)
	}
	common := 0
	for common < len(o.open) && common < len(segs) && o.open[common] == segs[common] {
		common++
	}
	o.open = o.open[:common]
	if o.counts == nil {
		o.counts = []int{0}
	}
	o.counts = o.counts[:common+1]
	for k := common; k < len(segs); k++ {
		o.counts[k]++
		o.row++
		x := o.x
		x.open("Task")
		x.num("UID", o.nextUID)
		x.num("ID", o.row)
		x.el("Name", segs[k])
		x.num("Type", 1)
		x.num("IsNull", 0)
		x.el("WBS", strings.Join(segs[:k+1], "."))
		x.el("OutlineNumber", outlineNumber(o.counts))
		x.num("OutlineLevel", k+1)
		x.num("Summary", 1)
		x.num("Active", 1)
		x.num("Manual", 0)
		x.close("Task")
		o.nextUID++
		o.open = append(o.open, segs[k])
		o.counts = append(o.counts, 0)
	}
	o.counts[len(segs)]++
	o.row++
	return len(segs) + 1, outlineNumber(o.counts)
}

func outlineNumber(counts []int) string {
	parts := make([]string, len(counts))
	for i, n := range counts {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ".")
}

// writeMSPDIProgress writes a task's actuals, percent complete (MS
// Project holds whole percents) and remaining duration (in the time it
// takes on its calendar).
func writeMSPDIProgress(x *xw, a *schedule.Activity, mpd float64, wc workCalendars) {
	if a.ActualStart != "" {
		x.el("ActualStart", wc.dateText(a.Calendar, a.ActualStart, false, schedule.DateTimeLayout))
	}
	if a.ActualFinish != "" {
		x.el("ActualFinish", wc.dateText(a.Calendar, a.ActualFinish, true, schedule.DateTimeLayout))
	}
	hpd := wc.hoursPerDay(a.Calendar)
	x.num("PercentComplete", int(math.Round(a.PercentComplete)))
	if a.Remaining != "" {
		d, _ := schedule.ParseDuration(a.Remaining)
		x.el("RemainingDuration", mspdiDuration(d.Minutes(hpd*60)/mpd, mpd))
	}
}

// writeMSPDIBaseline writes the activity's baseline as its <Baseline>
// Number 0: start, finish and duration as the reader reads them (the
// duration in the project's days of the time it takes on the activity's
// calendar, an elapsed one in clock time).
func writeMSPDIBaseline(x *xw, a *schedule.Activity, mpd float64, wc workCalendars) {
	if !a.HasBaseline() {
		return
	}
	x.open("Baseline")
	x.num("Number", 0)
	if a.BaselineStart != "" {
		x.el("Start", wc.dateText(a.Calendar, a.BaselineStart, false, schedule.DateTimeLayout))
	}
	if a.BaselineFinish != "" {
		x.el("Finish", wc.dateText(a.Calendar, a.BaselineFinish, true, schedule.DateTimeLayout))
	}
	if a.BaselineDuration != "" {
		d, _ := schedule.ParseDuration(a.BaselineDuration)
		format := 7 // days
		switch d.Unit {
		case schedule.ElapsedDays:
			format = 8
		case schedule.ElapsedHours:
			format = 6
		}
		x.el("Duration", mspdiDuration(d.Minutes(wc.hoursPerDay(a.Calendar)*60)/mpd, mpd))
		x.num("DurationFormat", format)
	}
	x.close("Baseline")
}

// writeMSPDIResources writes the resources the assignments name (work
// resources, with the calendar an assignment gives them) and the
// assignments (Units, and Work in the project's days, as the reader
// reads them).
func writeMSPDIResources(x *xw, s *schedule.Schedule, cals fileIDs, mpd float64) {
	names, calendarOf := resourceNames(s)
	if len(names) == 0 {
		return
	}
	rsrcUID := map[string]int{}
	x.open("Resources")
	for i, name := range names {
		rsrcUID[name] = i + 1
		x.open("Resource")
		x.num("UID", i+1)
		x.num("ID", i+1)
		x.el("Name", name)
		x.num("Type", 1) // work
		if key := calendarOf[name]; key != "" {
			x.num("CalendarUID", cals.id[key])
		}
		x.close("Resource")
	}
	x.close("Resources")
	x.open("Assignments")
	n := 0
	for i := range s.Activities {
		for _, as := range s.Activities[i].DatingAssignments() {
			n++
			units := as.Units
			if units == 0 {
				units = 1
			}
			work, _ := schedule.DurationDays(as.Work)
			x.open("Assignment")
			x.num("UID", n)
			x.num("TaskUID", i+1)
			x.num("ResourceUID", rsrcUID[as.Resource])
			x.el("Units", strconv.FormatFloat(units, 'f', -1, 64))
			x.el("Work", mspdiDuration(work, mpd))
			x.close("Assignment")
		}
	}
	x.close("Assignments")
}
