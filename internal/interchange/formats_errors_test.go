package interchange_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// mspdiFile wraps tasks (and an optional calendar block) in a project.
func mspdiFile(calendars, tasks string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<Project xmlns="http://schemas.microsoft.com/project">
<Name>t.xml</Name><StartDate>2026-01-05T08:00:00</StartDate><CalendarUID>1</CalendarUID><MinutesPerDay>480</MinutesPerDay>
<Calendars>` + calendars + `</Calendars>
<Tasks>` + tasks + `</Tasks>
</Project>`
}

const task1 = `<Task><UID>1</UID><ID>1</ID><Name>A</Name><Duration>PT8H0M0S</Duration></Task>`

func TestMSPDIErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not XML", "hello", "no MS Project <Project> element"},
		{"truncated", mspdiFile("", task1)[:200], "line 3: invalid XML: unexpected EOF"},
		{"other root", `<?xml version="1.0"?><Plan/>`, "line 1: the root element is <Plan>, not MS Project's <Project>"},
		{"cycle", mspdiFile("", `<Task><UID>1</UID><Name>A</Name><PredecessorLink><PredecessorUID>2</PredecessorUID></PredecessorLink></Task><Task><UID>2</UID><Name>B</Name><PredecessorLink><PredecessorUID>1</PredecessorUID></PredecessorLink></Task>`),
			"the imported schedule is not valid: circular logic"},
		{"encoding", `<?xml version="1.0" encoding="EBCDIC"?><Project/>`, `unsupported encoding "EBCDIC"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := interchange.ParseMSPDI([]byte(tc.in))
			if err == nil || s != nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %q", err, tc.want)
			}
		})
	}
}

// TestMSPDIDamagedParts: a damaged task, link or project field is a
// warning naming it and what was read instead; the rest of the file is
// read, never refused for it.
func TestMSPDIDamagedParts(t *testing.T) {
	taskB := func(inner string) string {
		return `<Task><UID>2</UID><Name>B</Name><Duration>PT8H0M0S</Duration>` + inner + `</Task>`
	}
	link := func(inner string) string {
		return taskB(`<PredecessorLink><PredecessorUID>1</PredecessorUID>` + inner + `</PredecessorLink>`)
	}
	tests := []struct {
		name, in, want string
		acts, links    int
	}{
		{"link type", mspdiFile("", task1+link(`<Type>5</Type>`)),
			"Task UID 2 (line 5): PredecessorLink 1: unknown Type 5; want 0 (FF), 1 (FS), 2 (SF) or 3 (SS); the link is left out", 2, 0},
		{"unknown predecessor", mspdiFile("", task1+taskB(`<PredecessorLink><PredecessorUID>9</PredecessorUID></PredecessorLink>`)),
			`Task UID 2 (line 5): PredecessorLink 1: PredecessorUID "9" is not a task in the file; the link is left out`, 2, 0},
		{"lag format", mspdiFile("", task1+link(`<LinkLag>4800</LinkLag><LagFormat>99</LagFormat>`)),
			"Task UID 2 (line 5): PredecessorLink 1: unknown LagFormat 99; read with no lag", 2, 1},
		{"bad lag", mspdiFile("", task1+link(`<LinkLag>lots</LinkLag>`)), `PredecessorLink 1: LinkLag "lots" is not a number; read with no lag`, 2, 1},
		{"duration", mspdiFile("", task1+`<Task><UID>3</UID><Name>C</Name><Duration>8 hours</Duration><RemainingDuration>PT4H0M0S</RemainingDuration></Task>`),
			`Task UID 3 (line 5): Duration: "8 hours" is not a duration like PT8H0M0S; read as 0.5 days (its RemainingDuration, else none)`, 2, 0},
		{"duration months", mspdiFile("", `<Task><UID>3</UID><Name>C</Name><Duration>P1M</Duration></Task>`), `years, months and weeks are not a fixed length of working time; use hours (PT..H); read as 0 days`, 1, 0},
		{"huge duration", mspdiFile("", `<Task><UID>3</UID><Name>C</Name><Duration>PT99999999999H</Duration></Task>`), `Duration: "PT99999999999H" is beyond the limit of 100000 working days of 480 minutes`, 1, 0},
		{"duplicate UID", mspdiFile("", task1+task1+link("")), "Task UID 1 (line 5): UID 1 is used twice (also line 5); this task is left out", 2, 1},
		{"bad UID", mspdiFile("", `<Task><UID>x</UID><Name>X</Name></Task>`+task1+taskB(`<PredecessorLink><PredecessorUID>x</PredecessorUID></PredecessorLink>`)),
			`Task UID x (line 5): UID "x" is not a whole number; the task is left out`, 2, 0},
		{"outline level", mspdiFile("", `<Task><UID>3</UID><Name>C</Name><OutlineLevel>deep</OutlineLevel></Task>`+task1),
			`Task UID 3 (line 5): OutlineLevel "deep" is not a whole number; read as 1, the level of the task before it`, 2, 0},
		{"self-link", mspdiFile("", task1+`<Task><UID>2</UID><Name>B</Name><PredecessorLink><PredecessorUID>2</PredecessorUID></PredecessorLink><PredecessorLink><PredecessorUID>1</PredecessorUID></PredecessorLink></Task>`),
			"Task UID 2 (line 5): PredecessorLink 1: the task is its own predecessor; the link is left out", 2, 1},
		{"huge lag", mspdiFile("", task1+link(`<LinkLag>1e308</LinkLag>`)), "Task UID 2 (line 5): PredecessorLink 1: LinkLag 1e308 is beyond the limit of ±100000 working days; read with no lag", 2, 1},
		{"lag NaN", mspdiFile("", task1+link(`<LinkLag>NaN</LinkLag>`)), `LinkLag "NaN" is not a number; read with no lag`, 2, 1},
		{"start date", strings.Replace(mspdiFile("", task1), "2026-01-05T08:00:00", "soon", 1),
			`Project StartDate: "soon" is not a date-time like 2014-10-17T08:00:00; the project starts at its earliest task's start instead`, 1, 0},
		{"minutes per day", strings.Replace(mspdiFile("", task1), "<MinutesPerDay>480", "<MinutesPerDay>lots", 1),
			`Project MinutesPerDay: "lots" is not a number of minutes between 1 and 1440; read as 480 (8 hours), MS Project's default`, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := interchange.ParseWith([]byte(tc.in), interchange.MSPDI, interchange.Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, tc.want) }) {
				t.Errorf("warnings %q\nwant one holding %q", r.Warnings, tc.want)
			}
			if len(r.Schedule.Activities) != tc.acts || len(r.Schedule.Relationships) != tc.links {
				t.Errorf("read %d activities and %d links, want %d and %d", len(r.Schedule.Activities), len(r.Schedule.Relationships), tc.acts, tc.links)
			}
			if _, err := schedule.Analyze(r.Schedule); err != nil {
				t.Errorf("what was read does not compute: %v", err)
			}
		})
	}
}

func TestMSPDIFeatures(t *testing.T) {
	cal := `<Calendar><UID>1</UID><Name>Shifts</Name><BaseCalendarUID>2</BaseCalendarUID><WeekDays>
	<WeekDay><DayType>6</DayType><DayWorking>1</DayWorking><WorkingTimes><WorkingTime><FromTime>08:00:00</FromTime><ToTime>12:00:00</ToTime></WorkingTime></WorkingTimes></WeekDay>
	<WeekDay><DayType>7</DayType><DayWorking>1</DayWorking><WorkingTimes><WorkingTime><FromTime>22:00:00</FromTime><ToTime>00:00:00</ToTime></WorkingTime></WorkingTimes></WeekDay>
	</WeekDays><Exceptions>
	<Exception><TimePeriod><FromDate>2026-12-24T00:00:00</FromDate><ToDate>2026-12-31T23:59:00</ToDate></TimePeriod><Name>Christmas</Name><Type>1</Type><DayWorking>0</DayWorking></Exception>
	<Exception><TimePeriod><FromDate>2026-01-01T00:00:00</FromDate><ToDate>2028-12-31T23:59:00</ToDate></TimePeriod><Name>New Year</Name><Type>2</Type><Month>0</Month><MonthDay>1</MonthDay><DayWorking>0</DayWorking></Exception>
	<Exception><TimePeriod><FromDate>2026-05-01T00:00:00</FromDate><ToDate>2026-06-30T23:59:00</ToDate></TimePeriod><Name>Last Monday</Name><Type>5</Type><MonthItem>4</MonthItem><MonthPosition>4</MonthPosition><Period>1</Period><DayWorking>0</DayWorking></Exception>
	</Exceptions></Calendar>
	<Calendar><UID>2</UID><Name>Base</Name><WeekDays><WeekDay><DayType>1</DayType><DayWorking>0</DayWorking></WeekDay>
	<WeekDay><DayType>2</DayType><DayWorking>1</DayWorking></WeekDay><WeekDay><DayType>3</DayType><DayWorking>1</DayWorking></WeekDay>
	<WeekDay><DayType>4</DayType><DayWorking>1</DayWorking></WeekDay><WeekDay><DayType>5</DayType><DayWorking>1</DayWorking></WeekDay></WeekDays></Calendar>`
	tasks := `<Task><UID>0</UID><OutlineLevel>0</OutlineLevel><Summary>1</Summary><Name>Project</Name></Task>
	<Task><UID>10</UID><Name>Level 1</Name><WBS>1</WBS><OutlineNumber>1</OutlineNumber><OutlineLevel>1</OutlineLevel><Summary>1</Summary></Task>
	<Task><UID>11</UID><Name>Dig</Name><WBS>1.1</WBS><OutlineNumber>1.1</OutlineNumber><OutlineLevel>2</OutlineLevel><Duration>PT12H0M0S</Duration><Notes>By hand</Notes></Task>
	<Task><UID>12</UID><Name>Pour</Name><WBS>1.2</WBS><OutlineNumber>1.2</OutlineNumber><OutlineLevel>2</OutlineLevel><Duration>PT8H0M0S</Duration></Task>
	<Task><UID>13</UID><IsNull>1</IsNull></Task>
	<Task><UID>20</UID><Name>Roof</Name><WBS>2</WBS><OutlineNumber>2</OutlineNumber><OutlineLevel>1</OutlineLevel><Duration>PT4H0M0S</Duration>
	  <PredecessorLink><PredecessorUID>10</PredecessorUID><Type>1</Type><LinkLag>100800</LinkLag><LagFormat>8</LagFormat></PredecessorLink>
	  <PredecessorLink><PredecessorUID>11</PredecessorUID><Type>3</Type><LinkLag>50</LinkLag><LagFormat>19</LagFormat></PredecessorLink>
	  <PredecessorLink><PredecessorUID>13</PredecessorUID></PredecessorLink>
	  <PredecessorLink><PredecessorUID>12</PredecessorUID><CrossProject>1</CrossProject></PredecessorLink></Task>`
	s, err := interchange.ParseMSPDI([]byte(mspdiFile(cal, tasks)))
	if err != nil {
		t.Fatal(err)
	}
	wantCal := &schedule.Calendar{
		Workdays:   []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat"},
		DayHours:   map[string][]string{"Fri": {"08:00-12:00"}, "Sat": {"22:00-24:00"}},
		Holidays:   []string{"2026-01-01", "2027-01-01", "2028-01-01", "2026-05-25", "2026-06-29"},
		Exceptions: []schedule.CalendarException{{Name: "Christmas", From: "2026-12-24", To: "2026-12-31"}},
	}
	// Named one-day exceptions stay exceptions; only unnamed ones are holidays.
	wantCal.Holidays = nil
	wantCal.Exceptions = append(wantCal.Exceptions,
		schedule.CalendarException{Name: "New Year", From: "2026-01-01"}, schedule.CalendarException{Name: "New Year", From: "2027-01-01"}, schedule.CalendarException{Name: "New Year", From: "2028-01-01"},
		schedule.CalendarException{Name: "Last Monday", From: "2026-05-25"}, schedule.CalendarException{Name: "Last Monday", From: "2026-06-29"})
	if got := firstCalendarDifference(s.Calendar, wantCal); got != "" {
		t.Error(got)
	}
	want := []schedule.Activity{
		{ID: "11", Name: "Dig", Description: "By hand\nWBS 1.1 (outline 1.1): Level 1", Duration: "1.5", WBS: "1.1"},
		{ID: "12", Name: "Pour", Description: "WBS 1.2 (outline 1.2): Level 1", Duration: "1", WBS: "1.2"},
		{ID: "20", Name: "Roof", Duration: "0.5"},
	}
	if len(s.Activities) != 3 {
		t.Fatalf("activities %+v", s.Activities)
	}
	for i := range want {
		if !s.Activities[i].Equal(want[i]) {
			t.Errorf("activity %d = %#v\nwant %#v", i, s.Activities[i], want[i])
		}
	}
	// The summary's link lands on both its tasks; 7 elapsed days (100800 =
	// 7 x 1440 minutes x 10) are one working week of this calendar's
	// 4 x 8 + 4 + 2 = 38 hours, 4.75 days of 8 hours; 50% of Dig's 1.5 days.
	wantRels := []schedule.Relationship{
		{ID: "11-FS-20", Type: schedule.FS, Predecessor: "11", Successor: "20", Lag: 4.75},
		{ID: "12-FS-20", Type: schedule.FS, Predecessor: "12", Successor: "20", Lag: 4.75},
		{ID: "11-SS-20", Type: schedule.SS, Predecessor: "11", Successor: "20", Lag: 0.75},
	}
	if len(s.Relationships) != len(wantRels) {
		t.Fatalf("relationships %+v", s.Relationships)
	}
	for i := range wantRels {
		if s.Relationships[i] != wantRels[i] {
			t.Errorf("relationship %d = %+v, want %+v", i, s.Relationships[i], wantRels[i])
		}
	}
}

func firstCalendarDifference(got, want *schedule.Calendar) string {
	var g, w bytes.Buffer
	interchange.WriteJSON(&g, &schedule.Schedule{Calendar: got})
	interchange.WriteJSON(&w, &schedule.Schedule{Calendar: want})
	if g.String() != w.String() {
		return "calendar\n" + g.String() + "want\n" + w.String()
	}
	return ""
}

// A damaged MSPDI calendar is a warning naming it; the file is read, its
// tasks on MS Project's Standard calendar (or without the damaged
// exception).
func TestMSPDIDamagedCalendar(t *testing.T) {
	task1 := `<Task><UID>1</UID><Name>A</Name><Duration>PT8H0M0S</Duration></Task>`
	tests := []struct{ name, in, want string }{
		{"missing calendar", mspdiFile(`<Calendar><UID>3</UID></Calendar>`, task1), "Project CalendarUID 1: no such calendar"},
		{"bad day type", mspdiFile(`<Calendar><UID>1</UID><WeekDays><WeekDay><DayType>9</DayType></WeekDay></WeekDays></Calendar>`, task1), `Calendar UID 1 (line 4): WeekDay 1: DayType "9" is not 0-7`},
		{"bad working time", mspdiFile(`<Calendar><UID>1</UID><WeekDays><WeekDay><DayType>2</DayType><DayWorking>1</DayWorking><WorkingTimes><WorkingTime><FromTime>17:00:00</FromTime><ToTime>08:00:00</ToTime></WorkingTime></WorkingTimes></WeekDay></WeekDays></Calendar>`, task1),
			"Calendar UID 1 (line 4): WeekDay DayType 2: WorkingTime 1: 17:00-08:00 ends before it starts"},
		{"bad exception", mspdiFile(`<Calendar><UID>1</UID><Exceptions><Exception><TimePeriod><FromDate>2026-01-09T00:00:00</FromDate><ToDate>2026-01-02T23:59:00</ToDate></TimePeriod></Exception></Exceptions></Calendar>`, task1),
			"Calendar UID 1 (line 4): Exception 1: TimePeriod ToDate is before FromDate (left out)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := interchange.ParseWith([]byte(tc.in), interchange.MSPDI, interchange.Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if len(r.Schedule.Activities) != 1 || !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, tc.want) }) {
				t.Errorf("activities %d, warnings %q\nwant one holding %q", len(r.Schedule.Activities), r.Warnings, tc.want)
			}
		})
	}
}

func xerFile(tables string) string {
	return "ERMHDR\t19.12\t2026-01-01\tProject\tadmin\tx\tdb\tPM\tUSD\n" +
		"%T\tPROJECT\n%F\tproj_id\tproj_short_name\tclndr_id\tplan_start_date\n%R\t1\tP\t1\t2026-01-05 08:00\n" + tables + "%E\n"
}

const xerCal = "%T\tCALENDAR\n%F\tclndr_id\tclndr_name\tday_hr_cnt\tclndr_data\n"
const xerTasks = "%T\tTASK\n%F\ttask_id\tproj_id\tclndr_id\ttask_type\ttask_code\ttask_name\ttarget_drtn_hr_cnt\n" +
	"%R\t1\t1\t1\tTT_Task\tA1\tDig\t16\n%R\t2\t1\t1\tTT_FinMile\tM1\tDone\t0\n"

func TestXERErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not XER", "<xml/>", "line 1: not an XER file: it does not start with ERMHDR"},
		{"empty", "", "not an XER file: it is empty"},
		{"no project", "ERMHDR\t19\n%E\n", "no PROJECT table"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := interchange.ParseXER([]byte(tc.in))
			if err == nil || s != nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %q", err, tc.want)
			}
		})
	}
}

// TestXERDamagedTasks: a TASK row whose id cannot be read around is left
// out, and a repeated or over-long task_code gives way to the task_id,
// each with a warning naming the row; a damaged project start is the
// earliest activity's; the rest of the file is read.
func TestXERDamagedTasks(t *testing.T) {
	head := "%T\tTASK\n%F\ttask_id\ttask_code\ttask_name\ttarget_start_date\n"
	tests := []struct {
		name, in, want string
		ids            []string
	}{
		{"duplicate code", xerFile(head + "%R\t1\tA\tB\t\n%R\t2\tA\tC\t\n"),
			`line 8: TASK task_id 2: task_code "A" is the TASK row's at line 7 too (activity ids are unique); the activity's task_id 2 is its id instead`, []string{"A", "2"}},
		{"no task_id", xerFile(head + "%R\t\tA\tB\t\n%R\t2\tC\tC\t\n"), "line 7: TASK row without task_id; the activity is left out", []string{"C"}},
		{"task_id twice", xerFile(head + "%R\t1\tA\tB\t\n%R\t1\tC\tC\t\n"), "line 8: TASK task_id 1: task_id is used twice; this row is left out", []string{"A"}},
		{"long code", xerFile(head + "%R\t1\t" + strings.Repeat("c", schedule.MaxID+1) + "\tB\t\n"),
			"line 7: TASK task_id 1: task_code is 257 characters long (256 at most); the activity's task_id 1 is its id instead", []string{"1"}},
		{"too many values", xerFile(head + "%R\t1\tA\tB\t\textra\n"),
			"table TASK: the row at line 7 has more values than its %F line declares (4): the values past its fields are left out", []string{"A"}},
		{"junk line", xerFile(head + "%R\t1\tA\tB\t\njunk\n"), `line 8: "junk" is not an XER line (they start with %T, %F, %R or %E); the line is left out`, []string{"A"}},
		{"table again", xerFile(head + "%R\t1\tA\tB\t\n%T\tTASK\n%F\ttask_name\ttask_id\ttask_code\n%R\tC name\t2\tC\n"),
			"line 8: table TASK appears again (first at line 5); its rows are read into the first", []string{"A", "C"}},
		{"row before fields", strings.Replace(xerFile(head+"%R\t1\tA\tB\t\n"), "%T\tPROJECT", "%R\t1\n%T\tPROJECT", 1), "line 2: %R without %T and %F before it; the row is left out", []string{"A"}},
		{"no name", xerFile(head + "%R\t1\tA\t\t\n"), `line 7: TASK task_id 1: task_name is empty; the activity is named by its task_code, "A"`, []string{"A"}},
		{"start", strings.Replace(xerFile(head+"%R\t1\tA\tB\t2026-02-02 08:00\n"), "2026-01-05 08:00", "next week", 1),
			`line 4: PROJECT plan_start_date: "next week" is not a date`, []string{"A"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := interchange.ParseWith([]byte(tc.in), interchange.XER, interchange.Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, tc.want) }) {
				t.Errorf("warnings %q\nwant one holding %q", r.Warnings, tc.want)
			}
			var ids []string
			for _, a := range r.Schedule.Activities {
				ids = append(ids, a.ID)
			}
			if !slices.Equal(ids, tc.ids) {
				t.Errorf("activities %q, want %q", ids, tc.ids)
			}
			if tc.name == "start" && r.Schedule.StartDate != "2026-02-02" {
				t.Errorf("start date %q, want the earliest activity's, 2026-02-02", r.Schedule.StartDate)
			}
		})
	}
}

// TestXERDamagedCalendar: a calendar P6 wrote damaged (cut short, odd
// hours) is a warning naming its line, id and field, and the rest of the
// file is read, its activities on the project's calendar (issue 28: never
// a refusal of the whole file).
func TestXERDamagedCalendar(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"calendar data", xerFile(xerCal + "%R\t1\tC\t8\t(0||CalendarData()((0||DaysOfWeek()(\n" + xerTasks), "line 7: CALENDAR clndr_id 1: clndr_data at character"},
		{"calendar hours", xerFile(xerCal + "%R\t1\tC\t8\t(0||CalendarData()((0||DaysOfWeek()((0||2()((0||0(s|8am|f|12:00)())))))))\n" + xerTasks), `line 7: CALENDAR clndr_id 1: DaysOfWeek 2: working time "s|8am|f|12:00" is not like s|08:00|f|12:00`},
		{"day hours", xerFile(xerCal + "%R\t1\tC\t99\t\n" + xerTasks), `line 7: CALENDAR clndr_id 1: day_hr_cnt "99" is not a number of hours`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := interchange.ParseWith([]byte(tc.in), interchange.XER, interchange.Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if len(r.Schedule.Activities) != 2 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], tc.want) || !strings.Contains(r.Warnings[0], `calendar "C" left out`) {
				t.Errorf("activities %d, warnings %q\nwant one holding %q", len(r.Schedule.Activities), r.Warnings, tc.want)
			}
		})
	}
}

func TestXERCalendarAndTasks(t *testing.T) {
	data := "(0||CalendarData()(\n  (0||DaysOfWeek()(\n    (0||1()())\n    (0||2()(\n      (0||0(s|08:00|f|12:00)())\n      (0||1(s|13:00|f|17:00)())))\n" +
		"    (0||3()((0||0(s|13:00|f|17:00)())(0||1(s|08:00|f|12:00)())))\n    (0||4()((0||0(s|08:00|f|12:00)())(0||1(s|13:00|f|17:00)())))\n" +
		"    (0||5()((0||0(s|08:00|f|12:00)())(0||1(s|13:00|f|17:00)())))\n    (0||6()((0||0(s|08:00|f|12:00)())))\n    (0||7()())))\n" +
		"  (0||VIEW(ShowTotal|Y)())\n  (0||Exceptions()(\n    (0||0(d|46016)())\n    (0||1(d|46029)((0||0(s|08:00|f|12:00)())))))))"
	data = strings.ReplaceAll(data, "\n", "\x7f\x7f") // as P6 writes line breaks inside a value
	in := xerFile(xerCal + "%R\t1\tMy cal\t8\t" + data + "\n" + xerTasks +
		"%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\tlag_hr_cnt\n%R\t1\t2\t1\t1\t1\tPR_SS\t4\n%R\t2\t2\t99\t1\t2\tPR_FS\t0\n")
	path := filepath.Join(t.TempDir(), "p.xer")
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := interchange.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wantCal := &schedule.Calendar{Workdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri"}, DayHours: map[string][]string{"Fri": {"08:00-12:00"}},
		HoursPerDay: 8, Holidays: []string{"2025-12-25"}, Exceptions: []schedule.CalendarException{{From: "2026-01-07", Working: true, Hours: []string{"08:00-12:00"}}}}
	wantCal.HoursPerDay = 0 // 8 is the length of the usual day
	if d := firstCalendarDifference(s.Calendar, wantCal); d != "" {
		t.Error(d)
	}
	if s.StartDate != "2026-01-05" || s.Name != "P" || len(s.Activities) != 2 || s.Activities[0].Duration != "2" || s.Activities[1].Duration != "0" {
		t.Errorf("schedule %+v", s)
	}
	// The link to another project's task is skipped; 4 hours are half a day.
	if len(s.Relationships) != 1 || s.Relationships[0] != (schedule.Relationship{ID: "A1-SS-M1", Type: schedule.SS, Predecessor: "A1", Successor: "M1", Lag: 0.5}) {
		t.Errorf("relationships %+v", s.Relationships)
	}
}

// XER's live programme: the data date, options, each activity's calendar,
// type, constraints, actuals and remaining duration are read; a damaged
// value is a warning naming line, row and field, and the rest is read.
func TestXERLiveProgramme(t *testing.T) {
	in := "ERMHDR\t19.12\t2026-01-01\tProject\tadmin\tx\tdb\tPM\tUSD\n" +
		"%T\tPROJECT\n%F\tproj_id\tproj_short_name\tclndr_id\tplan_start_date\tlast_recalc_date\tplan_end_date\n%R\t1\tP\t1\t2026-01-05 08:00\t2026-01-12 08:00\t2026-06-30 17:00\n" +
		"%T\tCALENDAR\n%F\tclndr_id\tclndr_name\tday_hr_cnt\tclndr_data\n%R\t1\t5-day\t8\t\n%R\t2\t7-day\t10\t\n" +
		"%T\tSCHEDOPTIONS\n%F\tproj_id\tsched_calendar_on_relationship_lag\tsched_progress_override\tsched_float_type\n%R\t1\trcal_24Hour\tY\tFT_SmallestFloat\n" +
		"%T\tPROJWBS\n%F\twbs_id\tproj_id\tparent_wbs_id\twbs_short_name\tproj_node_flag\n%R\t10\t1\t\tP\tY\n%R\t11\t1\t10\tCIV\tN\n" +
		"%T\tTASK\n%F\ttask_id\tproj_id\twbs_id\tclndr_id\ttask_type\tstatus_code\ttask_code\ttask_name\ttarget_drtn_hr_cnt\tremain_drtn_hr_cnt\tcstr_type\tcstr_date\tact_start_date\tact_end_date\n" +
		"%R\t1\t1\t11\t1\tTT_Task\tTK_Complete\tA1\tDig\t16\t0\t\t\t2026-01-05 08:00\t2026-01-06 17:00\n" +
		"%R\t2\t1\t11\t2\tTT_Task\tTK_Active\tA2\tPour\t40\t20\tCS_MSOA\t2026-01-07 08:00\t2026-01-07 08:00\t\n" +
		"%R\t3\t1\t11\t1\tTT_LOE\tTK_NotStart\tL1\tSupervise\t0\t0\tCS_BOGUS\t\t\t\n" +
		"%R\t4\t1\t11\t1\tTT_Task\tTK_Complete\tA4\tBackwards\t8\t0\t\t\t2026-01-09 08:00\t2026-01-08 17:00\n" +
		"%E\n"
	r, err := interchange.ParseWith([]byte(in), interchange.XER, interchange.Options{})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	s := r.Schedule
	if s.DataDate != "2026-01-12T08:00" || s.Options == nil || *s.Options != (schedule.Options{Tool: schedule.P6, LagCalendar: schedule.Lag24Hour, Progress: schedule.ProgressOverride, Float: schedule.SmallestFloat, MustFinishBy: "2026-06-30T17:00"}) {
		t.Errorf("data date %q, options %+v", s.DataDate, s.Options)
	}
	if len(s.Activities) != 4 {
		t.Fatalf("activities %+v", s.Activities)
	}
	a1, a2, l1, a4 := s.Activities[0], s.Activities[1], s.Activities[2], s.Activities[3]
	if a1.ActualStart != "2026-01-05T08:00" || a1.ActualFinish != "2026-01-06T17:00" || a1.WBS != "CIV" {
		t.Errorf("A1 %+v", a1)
	}
	if a2.Calendar != "2" || a2.Duration != "4" || a2.Remaining != "2" || a2.ActualFinish != "" ||
		a2.Constraint == nil || *a2.Constraint != (schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-01-07T08:00"}) {
		t.Errorf("A2 %+v", a2)
	}
	if s.Calendars["2"] == nil || s.Calendars["2"].Name != "7-day" {
		t.Errorf("calendars %+v", s.Calendars)
	}
	if l1.Type != schedule.LevelOfEffort || l1.Constraint != nil {
		t.Errorf("L1 %+v", l1)
	}
	if a4.ActualStart == "" || a4.ActualFinish != "" {
		t.Errorf("A4's finish before its start is kept: %+v", a4)
	}
	for _, want := range []string{`line 20: TASK task_id 3 (task_code "L1"): cstr_type: unknown constraint "CS_BOGUS"`, `line 21: TASK task_id 4 (task_code "A4"): act_end_date: 2026-01-08T17:00 is before act_start_date 2026-01-09T08:00`} {
		if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, want) }) {
			t.Errorf("no warning %q in %q", want, r.Warnings)
		}
	}
	if _, err := schedule.Analyze(s); err != nil {
		t.Errorf("the schedule read does not compute: %v", err)
	}
}

// TestMSPDIDeadline: an MS Project deadline bounds the late finish only
// (the task's float goes negative, and its predecessors' with it; its
// early dates stay), read as a secondary "finish on or before"; a damaged
// one is a warning naming the task, and "NA" is none.
func TestMSPDIDeadline(t *testing.T) {
	tasks := `<Task><UID>1</UID><Name>Dig</Name><Duration>PT16H0M0S</Duration></Task>
	<Task><UID>2</UID><Name>Pour</Name><Duration>PT24H0M0S</Duration><Deadline>2026-01-08T17:00:00</Deadline>
	  <PredecessorLink><PredecessorUID>1</PredecessorUID><Type>1</Type></PredecessorLink></Task>
	<Task><UID>3</UID><Name>Cure</Name><Duration>PT8H0M0S</Duration><Deadline>soon</Deadline></Task>
	<Task><UID>4</UID><Name>Tidy</Name><Duration>PT8H0M0S</Duration><Deadline>NA</Deadline></Task>`
	r, err := interchange.ParseWith([]byte(mspdiFile("", tasks)), interchange.MSPDI, interchange.Options{})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	s := r.Schedule
	if c := s.Activities[1].SecondaryConstraint; c == nil || *c != (schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2026-01-08T17:00"}) {
		t.Errorf("Pour's deadline read as %+v", c)
	}
	for _, k := range []int{0, 2, 3} {
		if c := s.Activities[k].SecondaryConstraint; c != nil {
			t.Errorf("%s has a deadline %+v", s.Activities[k].Name, c)
		}
	}
	want := `Task UID 3 (line 8): Deadline: "soon" is not a date-time`
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, want) }) {
		t.Errorf("no warning %q in %q", want, r.Warnings)
	}
	res, err := schedule.Analyze(s)
	if err != nil {
		t.Fatal(err)
	}
	c, err := schedule.NewClock(s.StartDate, s.Calendar)
	if err != nil {
		t.Fatal(err)
	}
	at := func(i int, f schedule.DateField) string { return res.At(c, i, f).Format("2006-01-02T15:04") }
	for _, tc := range []struct {
		task             int
		ef, lf           string
		totalFloatInDays float64
	}{
		{0, "2026-01-06T17:00", "2026-01-05T17:00", -1},
		{1, "2026-01-09T17:00", "2026-01-08T17:00", -1},
	} {
		if ef, lf := at(tc.task, schedule.EarlyFinish), at(tc.task, schedule.LateFinish); ef != tc.ef || lf != tc.lf || res.TotalFloat[tc.task] != tc.totalFloatInDays {
			t.Errorf("%s: early finish %s, late finish %s, total float %v; want %s, %s, %v",
				s.Activities[tc.task].Name, ef, lf, res.TotalFloat[tc.task], tc.ef, tc.lf, tc.totalFloatInDays)
		}
	}
	// Written back as MS Project's deadline, not as a constraint.
	var out bytes.Buffer
	if err := interchange.WriteMSPDI(&out, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "<Deadline>2026-01-08T17:00:00</Deadline>") {
		t.Errorf("the export has no deadline:\n%s", out.String())
	}
	back, err := interchange.ParseMSPDI(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if c := back.Activities[1].SecondaryConstraint; c == nil || *c != *s.Activities[1].SecondaryConstraint {
		t.Errorf("the export's deadline reads back as %+v", c)
	}
}

// TestMSPDIWorkWeeks: a work week of Project 2007 and later changes the
// days it covers where they differ from the normal week - Fridays off and
// longer days for a fortnight - but not a date an exception holds; the
// base calendar's work weeks reach a calendar derived from it; a damaged
// work week is a warning naming it, and the rest is read.
func TestMSPDIWorkWeeks(t *testing.T) {
	summer := `<WorkWeeks><WorkWeek><TimePeriod><FromDate>2026-06-01T00:00:00</FromDate><ToDate>2026-06-12T23:59:00</ToDate></TimePeriod><Name>Summer</Name><WeekDays>
	  <WeekDay><DayType>2</DayType><DayWorking>1</DayWorking><WorkingTimes><WorkingTime><FromTime>07:00:00</FromTime><ToTime>12:00:00</ToTime></WorkingTime><WorkingTime><FromTime>13:00:00</FromTime><ToTime>17:30:00</ToTime></WorkingTime></WorkingTimes></WeekDay>
	  <WeekDay><DayType>3</DayType><DayWorking>1</DayWorking><WorkingTimes><WorkingTime><FromTime>07:00:00</FromTime><ToTime>12:00:00</ToTime></WorkingTime><WorkingTime><FromTime>13:00:00</FromTime><ToTime>17:30:00</ToTime></WorkingTime></WorkingTimes></WeekDay>
	  <WeekDay><DayType>4</DayType><DayWorking>1</DayWorking></WeekDay>
	  <WeekDay><DayType>6</DayType><DayWorking>0</DayWorking></WeekDay>
	</WeekDays></WorkWeek>
	<WorkWeek><Name>Broken</Name><WeekDays/></WorkWeek></WorkWeeks>`
	cals := `<Calendar><UID>1</UID><Name>Standard</Name><IsBaseCalendar>1</IsBaseCalendar><WeekDays>
	<WeekDay><DayType>1</DayType><DayWorking>0</DayWorking></WeekDay><WeekDay><DayType>7</DayType><DayWorking>0</DayWorking></WeekDay>
	<WeekDay><DayType>2</DayType><DayWorking>1</DayWorking></WeekDay><WeekDay><DayType>3</DayType><DayWorking>1</DayWorking></WeekDay>
	<WeekDay><DayType>4</DayType><DayWorking>1</DayWorking></WeekDay><WeekDay><DayType>5</DayType><DayWorking>1</DayWorking></WeekDay>
	<WeekDay><DayType>6</DayType><DayWorking>1</DayWorking></WeekDay></WeekDays>
	<Exceptions><Exception><TimePeriod><FromDate>2026-06-05T00:00:00</FromDate><ToDate>2026-06-05T23:59:00</ToDate></TimePeriod><Name>Pour day</Name><Type>1</Type><DayWorking>1</DayWorking></Exception></Exceptions>
	` + summer + `</Calendar>
	<Calendar><UID>2</UID><Name>Crew</Name><IsBaseCalendar>0</IsBaseCalendar><BaseCalendarUID>1</BaseCalendarUID></Calendar>`
	tasks := `<Task><UID>1</UID><Name>Dig</Name><Duration>PT8H0M0S</Duration></Task>
	<Task><UID>2</UID><Name>Pour</Name><Duration>PT8H0M0S</Duration><CalendarUID>2</CalendarUID></Task>`
	r, err := interchange.ParseWith([]byte(mspdiFile(cals, tasks)), interchange.MSPDI, interchange.Options{})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	long := []string{"07:00-12:00", "13:00-17:30"}
	want := []schedule.CalendarException{
		{Name: "Pour day", From: "2026-06-05", Working: true},
		{Name: "Summer", From: "2026-06-01", To: "2026-06-02", Working: true, Hours: long},
		// Wednesday as the normal week; Friday the 5th is the exception's.
		{Name: "Summer", From: "2026-06-08", To: "2026-06-09", Working: true, Hours: long},
		{Name: "Summer", From: "2026-06-12"},
	}
	if got := r.Schedule.Calendar.Exceptions; !slices.EqualFunc(got, want, equalException) {
		t.Errorf("project calendar's exceptions\n%+v\nwant\n%+v", got, want)
	}
	crew := r.Schedule.Calendars[r.Schedule.Activities[1].Calendar]
	if crew == nil || !slices.EqualFunc(crew.Exceptions, want, equalException) {
		t.Errorf("the derived calendar's exceptions: %+v", crew)
	}
	warning := `Calendar UID 1 (line 4): WorkWeek 2 ("Broken"): no TimePeriod (left out)`
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], warning) {
		t.Errorf("warnings %q, want the one %q", r.Warnings, warning)
	}
}

func equalException(a, b schedule.CalendarException) bool {
	return a.Name == b.Name && a.From == b.From && a.To == b.To && a.Working == b.Working && slices.Equal(a.Hours, b.Hours)
}
