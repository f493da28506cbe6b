package interchange

// P6 XER calendars: the clndr_data notation read into a schedule.Calendar
// (the week folded by foldWeek, as MSPDI's is).

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// xerCalendar is a CALENDAR row compiled.
type xerCalendar struct {
	name        string
	cal         *schedule.Calendar
	hoursPerDay float64
}

// xerEpoch is day 0 of clndr_data's exception dates (the spreadsheet serial).
var xerEpoch = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)

// clndrNode is one "(0||name(attributes)(children))" of clndr_data.
type clndrNode struct {
	name     string
	attrs    string
	children []*clndrNode
}

// parseClndrData reads clndr_data's nested lists. It skips the whitespace
// and DEL characters P6 puts between nodes.
func parseClndrData(s string) (*clndrNode, error) {
	p := &clndrParser{s: s}
	p.space()
	n, err := p.node(0)
	if err != nil {
		return nil, err
	}
	return n, nil
}

type clndrParser struct {
	s   string
	pos int
}

func (p *clndrParser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] <= ' ' || p.s[p.pos] == 0x7f) {
		p.pos++
	}
}

func (p *clndrParser) errorf(format string, args ...any) error {
	return fmt.Errorf("clndr_data at character %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

func (p *clndrParser) node(depth int) (*clndrNode, error) {
	if depth > 20 {
		return nil, p.errorf("nested too deep")
	}
	if p.pos >= len(p.s) || p.s[p.pos] != '(' {
		return nil, p.errorf("want '('")
	}
	p.pos++
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] != '(' && p.s[p.pos] != ')' {
		p.pos++
	}
	if p.pos >= len(p.s) || p.s[p.pos] != '(' {
		return nil, p.errorf("want '(' after a node name")
	}
	header := p.s[start:p.pos]
	_, name, _ := strings.Cut(header, "||")
	n := &clndrNode{name: strings.TrimSpace(name)}
	p.pos++
	start = p.pos
	for p.pos < len(p.s) && p.s[p.pos] != ')' && p.s[p.pos] != '(' {
		p.pos++
	}
	if p.pos >= len(p.s) || p.s[p.pos] != ')' {
		return nil, p.errorf("want ')' after attributes")
	}
	n.attrs = p.s[start:p.pos]
	p.pos++
	p.space()
	if p.pos >= len(p.s) || p.s[p.pos] != '(' {
		return nil, p.errorf("want '(' before a node's children")
	}
	p.pos++
	for {
		p.space()
		if p.pos >= len(p.s) {
			return nil, p.errorf("the data ends inside %s", n.name)
		}
		if p.s[p.pos] == ')' {
			p.pos++
			break
		}
		c, err := p.node(depth + 1)
		if err != nil {
			return nil, err
		}
		n.children = append(n.children, c)
	}
	p.space()
	if p.pos >= len(p.s) || p.s[p.pos] != ')' {
		return nil, p.errorf("want ')' to close %s", n.name)
	}
	p.pos++
	p.space()
	return n, nil
}

func (n *clndrNode) child(name string) *clndrNode {
	for _, c := range n.children {
		if strings.EqualFold(c.name, name) {
			return c
		}
	}
	return nil
}

// attr reads key|value pairs: "s|08:00|f|12:00" or "d|45292".
func (n *clndrNode) attr(key string) string {
	parts := strings.Split(n.attrs, "|")
	for i := 0; i+1 < len(parts); i += 2 {
		if strings.TrimSpace(parts[i]) == key {
			return strings.TrimSpace(parts[i+1])
		}
	}
	return ""
}

// hours reads a day's or an exception's children as periods.
func (n *clndrNode) hours() ([]string, error) {
	var out []string
	for _, c := range n.children {
		from, ok1 := xerClock(c.attr("s"))
		to, ok2 := xerClock(c.attr("f"))
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("working time %q is not like s|08:00|f|12:00", c.attrs)
		}
		if to == 0 {
			to = 24 * 60 // P6 writes a period to midnight as 00:00
		}
		p := schedule.Period{From: from, To: to}
		if p.To <= p.From {
			return nil, fmt.Errorf("working time %s ends before it starts", p)
		}
		out = append(out, p.String())
	}
	slices.Sort(out) // P6 does not promise order; "HH:MM" sorts as time
	return out, nil
}

func xerClock(v string) (int, bool) {
	t, err := time.Parse("15:04", v)
	if err != nil {
		return 0, false
	}
	return t.Hour()*60 + t.Minute(), true
}

// parseXERCalendar builds a calendar from clndr_data and day_hr_cnt.
func parseXERCalendar(data, dayHours string) (*xerCalendar, error) {
	hpd := 8.0
	if dayHours != "" {
		v, err := strconv.ParseFloat(dayHours, 64)
		if err != nil || !(v > 0 && v <= 24) {
			return nil, fmt.Errorf("day_hr_cnt %q is not a number of hours from 0 to 24", dayHours)
		}
		hpd = v
	}
	if strings.TrimSpace(data) == "" {
		c := &schedule.Calendar{Workdays: slices.Clone(schedule.DefaultWorkdays)}
		if hpd != 8 {
			c.HoursPerDay = hpd
		}
		return &xerCalendar{cal: c, hoursPerDay: hpd}, nil
	}
	root, err := parseClndrData(data)
	if err != nil {
		return nil, err
	}
	week := root.child("DaysOfWeek")
	if week == nil {
		return nil, errors.New("clndr_data has no DaysOfWeek")
	}
	var hours [7][]string
	for _, d := range mondayFirst {
		node := week.child(strconv.Itoa(int(d) + 1))
		if node == nil || len(node.children) == 0 {
			continue
		}
		h, err := node.hours()
		if err != nil {
			return nil, fmt.Errorf("DaysOfWeek %d: %w", int(d)+1, err)
		}
		hours[d] = h
	}
	cal := &schedule.Calendar{}
	common, minutes := foldWeek(cal, hours)
	if len(cal.Workdays) == 0 {
		return nil, errors.New("clndr_data: no working days")
	}
	if float64(minutes) != hpd*60 {
		cal.HoursPerDay = hpd
	}
	if ex := root.child("Exceptions"); ex != nil {
		seen := map[string]bool{}
		for i, e := range ex.children {
			serial, err := strconv.ParseFloat(e.attr("d"), 64)
			if err != nil || serial < 1 || serial > 2958465 { // 9999-12-31
				return nil, fmt.Errorf("Exceptions %d: date %q is not a day number like d|45292", i+1, e.attrs)
			}
			day := xerEpoch.AddDate(0, 0, int(serial)).Format(time.DateOnly)
			if seen[day] {
				continue // P6 sometimes repeats a date; the first wins
			}
			seen[day] = true
			if len(e.children) == 0 {
				cal.Holidays = append(cal.Holidays, day)
				continue
			}
			h, err := e.hours()
			if err != nil {
				return nil, fmt.Errorf("Exceptions %d: %w", i+1, err)
			}
			x := schedule.CalendarException{From: day, Working: true}
			if !slices.Equal(h, common) {
				x.Hours = h
			}
			cal.Exceptions = append(cal.Exceptions, x)
		}
	}
	return &xerCalendar{cal: cal, hoursPerDay: hpd}, nil
}
