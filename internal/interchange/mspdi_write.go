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
// duration, CPM early dates and predecessor links. s must be valid.
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
	work, err := s.Calendar.Compile()
	if err != nil {
		return err
	}
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
	x.num("CalendarUID", 1)
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
	x.open("ExtendedAttributes")
	for i, alias := range []string{aliasActivityID, aliasRelIDs, aliasDuration} {
		x.open("ExtendedAttribute")
		x.el("FieldID", textFieldIDs[i])
		x.el("FieldName", "Text"+strconv.Itoa(i+1))
		x.el("Alias", alias)
		x.close("ExtendedAttribute")
	}
	x.close("ExtendedAttributes")
	writeMSPDICalendar(x, s.Calendar)

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
	for i, a := range s.Activities {
		if progress != nil && i%1000 == 0 {
			progress(i, len(s.Activities))
		}
		days := res.EF[i] - res.ES[i]
		x.open("Task")
		x.num("UID", i+1)
		x.num("ID", i+1)
		x.el("Name", a.Name)
		x.num("Type", 0)
		x.num("IsNull", 0)
		x.el("WBS", strconv.Itoa(i+1))
		x.el("OutlineNumber", strconv.Itoa(i+1))
		x.num("OutlineLevel", 1)
		if clock != nil {
			x.el("Start", date(res.At(clock, i, schedule.EarlyStart)))
			x.el("Finish", date(res.At(clock, i, schedule.EarlyFinish)))
		}
		x.el("Duration", mspdiDuration(days, mpd))
		x.num("DurationFormat", 7)
		x.num("Milestone", b2i(days == 0))
		x.num("Summary", 0)
		x.num("ConstraintType", 0) // as soon as possible: the logic drives it
		x.num("CalendarUID", -1)
		if a.Description != "" {
			x.el("Notes", a.Description)
		}
		for _, r := range preds[i] {
			x.open("PredecessorLink")
			x.num("PredecessorUID", uid[r.Predecessor])
			x.num("Type", mspdiTypeCode(r.Type))
			x.num("CrossProject", 0)
			x.el("LinkLag", strconv.FormatFloat(math.Round(r.Lag*mpd*10), 'f', -1, 64))
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
		x.num("Active", 1)
		x.num("Manual", 0)
		x.close("Task")
	}
	if progress != nil {
		progress(len(s.Activities), len(s.Activities))
	}
	x.close("Tasks")
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
