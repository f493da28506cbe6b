package interchange

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// xerPatchFiles are the XER files the patch writer is tried on: those P6
// saved (../shared/data/real), MPXJ's resource-rates test file (CRLF,
// Windows-1252, resources and assignments) and site.xer (see
// testdata/xerpatch/make_site.py).
func xerPatchFiles(t *testing.T) []string {
	real, _ := filepath.Glob(realXER("*.xer"))
	own, _ := filepath.Glob("testdata/xerpatch/*.xer")
	own = append(own, "testdata/windows-1252.xer")
	if len(own) < 3 {
		t.Fatal("testdata/xerpatch is missing its files")
	}
	return append(real, own...)
}

// realXER is a file of ../shared/data/real, from the repository or a
// worktree of it.
func realXER(name string) string {
	for _, dir := range []string{"../../../shared/data/real", "../../../../shared/data/real"} {
		if _, err := os.Stat(dir); err == nil {
			return filepath.Join(dir, name)
		}
	}
	return filepath.Join("../../../shared/data/real", name)
}

// importXER reads a file as import does: its source kept.
func importXER(t *testing.T, path string) (*schedule.Schedule, []byte, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseWith(data, XER, Options{KeepSource: true, Name: path})
	if err != nil {
		return nil, data, err
	}
	return r.Schedule, data, nil
}

func TestPatchXERUnchangedIsTheSameFile(t *testing.T) {
	for _, path := range xerPatchFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s, data, err := importXER(t, path)
			if err != nil {
				t.Skipf("the reader refuses it: %v", err)
			}
			var buf bytes.Buffer
			calls := 0
			if err := Write(&buf, s.Clone(), XER, func(done, total int) { calls++ }); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), data) {
				t.Errorf("the export of an unchanged schedule is not the file imported (%d bytes, %d written)", len(data), buf.Len())
			}
			if calls == 0 {
				t.Error("progress was never told")
			}
		})
	}
}

// xerNewID is an id as the tool gives a new activity (a UUID).
const xerNewID = "0f8fad5b-d9cb-469f-a165-70867728950e"

// xerEdit is a change made to a schedule read from a file, and what the
// file written with it must show.
type xerEdit struct {
	name, file string
	edit       func(s *schedule.Schedule)
	// touched are the tables besides TASK and TASKPRED the change may
	// alter; every other table must be byte-identical.
	touched []string
	// gone are task_ids whose rows no table may hold any more; kept are
	// raw rows (tabs as "|") the export must still hold.
	gone, kept []string
	// check looks at the export (raw bytes) further.
	check func(t *testing.T, out []byte)
}

func xerRemoveActivity(s *schedule.Schedule, id string) {
	s.Activities = slices.DeleteFunc(s.Activities, func(a schedule.Activity) bool { return a.ID == id })
	s.Relationships = slices.DeleteFunc(s.Relationships, func(r schedule.Relationship) bool { return r.Predecessor == id || r.Successor == id })
}

func xerActivity(s *schedule.Schedule, id string) *schedule.Activity {
	for i := range s.Activities {
		if s.Activities[i].ID == id {
			return &s.Activities[i]
		}
	}
	panic("no activity " + id)
}

func xerRelationship(s *schedule.Schedule, id string) *schedule.Relationship {
	for i := range s.Relationships {
		if s.Relationships[i].ID == id {
			return &s.Relationships[i]
		}
	}
	panic("no relationship " + id)
}

// xerInsertAfter adds a new activity after id in the schedule's order,
// linked from it and to its old successors' first.
func xerInsertAfter(s *schedule.Schedule, after string, a schedule.Activity) {
	i := slices.IndexFunc(s.Activities, func(x schedule.Activity) bool { return x.ID == after })
	s.Activities = slices.Insert(s.Activities, i+1, a)
	s.Relationships = append(s.Relationships, schedule.Relationship{ID: "new-link-" + a.ID, Type: schedule.FS, Predecessor: after, Successor: a.ID})
}

// xerHasRow reports whether out has a row starting so (tabs written "|").
func xerHasRow(out []byte, row string) bool {
	return bytes.Contains(out, []byte("\n"+strings.ReplaceAll(row, "|", "\t")))
}

func TestPatchXERWritesTheChanges(t *testing.T) {
	const site = "testdata/xerpatch/site.xer"
	cases := []xerEdit{
		{name: "rename in the file's code page", file: site,
			edit: func(s *schedule.Schedule) { xerActivity(s, "A1070").Name = "Pour ‘B’ – Level 3" },
			check: func(t *testing.T, out []byte) {
				if !bytes.Contains(out, []byte("\tA1070\tPour \x91B\x92 \x96 Level 3\t")) {
					t.Error("the new name is not in Windows-1252")
				}
			}},
		{name: "delete an activity with assignments, codes, a memo and a UDF", file: site,
			edit:    func(s *schedule.Schedule) { xerRemoveActivity(s, "A1030") },
			touched: []string{"TASKRSRC", "TASKACTV", "TASKMEMO", "UDFVALUE"},
			gone:    []string{"101720"},
			kept:    []string{"%R|61|101720|4507|||a PROJECT value whose fk_id happens to equal a task_id|", "%R|8002|101721|4507|Y"}},
		{name: "add an activity after another", file: site,
			edit: func(s *schedule.Schedule) {
				xerInsertAfter(s, "A1040", schedule.Activity{ID: xerNewID, Name: "Prop – strip", Duration: "3"})
				xerRelationship(s, "A1040-FS-A1050").Predecessor = xerNewID
			},
			check: func(t *testing.T, out []byte) {
				// A1040 + the project's step of 10 is taken: the next free.
				i := bytes.Index(out, []byte("\tA1041\tProp \x96 strip\t"))
				if i < 0 {
					t.Fatal("no TASK row A1041 'Prop – strip'")
				}
				prev := out[:bytes.LastIndexByte(out[:i], '\n')]
				if prev = prev[bytes.LastIndexByte(prev, '\n')+1:]; !bytes.Contains(prev, []byte("\tA1040\t")) {
					t.Errorf("the new row follows %q, not A1040's", prev)
				}
				if !bytes.Contains(out, []byte("\t101729\t4507\t26012\t178\t0\t")) {
					t.Errorf("the new row is not task_id 101729 in A1040's WBS and the project's calendar")
				}
			}},
		{name: "add an activity with its own code, WBS and calendar", file: site,
			edit: func(s *schedule.Schedule) {
				xerInsertAfter(s, "A1110", schedule.Activity{ID: "Z9", Name: "Handover", Duration: "0", WBS: "STR.L1", Calendar: "179",
					Codes: map[string]string{"Phase": "CON"}, Description: "signed off"})
			},
			touched: []string{"TASKACTV", "UDFTYPE", "UDFVALUE"}},
		{name: "links removed, added and changed", file: site,
			edit: func(s *schedule.Schedule) {
				removeRel := "A1070-FS-A1080"
				s.Relationships = slices.DeleteFunc(s.Relationships, func(r schedule.Relationship) bool { return r.ID == removeRel })
				s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R-new", Type: schedule.FF, Predecessor: "A1020", Successor: "A1090", Lag: 1.5})
				r := xerRelationship(s, "A1080-FS-A1090")
				r.Type, r.Lag = schedule.SS, 2
			},
			kept: []string{"%R|3010|101728|101727|4507|4507|PR_FS|0|||"},
			check: func(t *testing.T, out []byte) {
				for _, row := range []string{"%R|3012|101726|101719|4507|4507|PR_FF|12|||", "%R|3008|101726|101725|4507|4507|PR_SS|16|||"} {
					if !xerHasRow(out, row) {
						t.Errorf("no TASKPRED row %s", row)
					}
				}
			}},
		{name: "fields of activities", file: site,
			edit: func(s *schedule.Schedule) {
				xerActivity(s, "A1040").Duration = "12.5"
				xerActivity(s, "A1040").Constraint = &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2015-08-03T16:00"}
				xerActivity(s, "A1080").ActualStart = "2015-02-25T08:00"
				xerActivity(s, "A1080").Remaining = "60"
				xerActivity(s, "A1090").WBS = "CIV"
				xerActivity(s, "A1100").Codes = map[string]string{"Phase": "DES", "Area": "N"}
				xerActivity(s, "A1000").Calendar = "179"
				xerActivity(s, "A1110").Description = "Tab\tand ‘quotes’"
				xerActivity(s, "A1060").Duration = "pert(8,10,14)"
				xerActivity(s, "A1070").PercentComplete = 40
				xerActivity(s, "A1020").ActualFinish = "2015-03-30T16:00"
				xerActivity(s, "A1020").Remaining = "" // P6 keeps none for a finished activity
			},
			touched: []string{"TASKACTV", "UDFTYPE", "UDFVALUE"}},
		{name: "a WBS and codes the file has not got", file: site,
			edit: func(s *schedule.Schedule) {
				xerActivity(s, "A1000").WBS = "STR.L2.Zone – east"
				xerActivity(s, "A1010").WBS = "STR.L2"
				xerActivity(s, "A1020").WBS = "Ext"
				xerActivity(s, "A1060").WBS = "STR.L2.West" // under a node added just now
				xerActivity(s, "A1040").Codes = map[string]string{"Phase": "HANDOVER", "Trade": "Électricité"}
				xerActivity(s, "A1050").Codes = map[string]string{"Trade": "Électricité"}
			},
			touched: []string{"PROJWBS", "ACTVTYPE", "ACTVCODE", "TASKACTV"},
			check: func(t *testing.T, out []byte) {
				for _, row := range []string{"%R|26014|4507|636|2|1|N|N|WS_Open|L2|L2||26012|", "%R|26015|4507|636|2|1|N|N|WS_Open|Zone \x96 east|Zone \x96 east||26014|",
					"%R|511|20|0|Trade|4507||AS_Project", "%R|513||500|HANDOVER|HANDOVER|0|"} {
					if !xerHasRow(out, row) {
						t.Errorf("no row %s", row)
					}
				}
			}},
		{name: "codes and WBS in a file without their tables", file: realXER("percent-complete-8.4.xer"),
			edit: func(s *schedule.Schedule) {
				xerActivity(s, "A1000").WBS = "North"
				xerActivity(s, "A1040").Codes = map[string]string{"Phase": "CON"}
				xerActivity(s, "A1080").Description = "Wait for the client"
				xerActivity(s, "A1090").Duration = "pert(80,100,130)"
			},
			touched: []string{"PROJWBS", "ACTVTYPE", "ACTVCODE", "TASKACTV", "UDFTYPE", "UDFVALUE"}},
		{name: "a calendar's hours a day and a new calendar", file: site,
			edit: func(s *schedule.Schedule) {
				s.Calendars["179"].Hours = []string{"07:00-12:00", "13:00-16:00"} // 10 hours to 8
				xerActivity(s, "A1110").Calendar = "190"
				s.Calendars["190"] = &schedule.Calendar{Name: "Nights", Workdays: []string{"Mon", "Tue"}, Hours: []string{"20:00-24:00"}}
			},
			touched: []string{"CALENDAR"},
			check: func(t *testing.T, out []byte) {
				// A1050, 80 days with 80 left, is on 179: remain_drtn_hr_cnt
				// and target_drtn_hr_cnt are 640 hours now.
				if !regexp.MustCompile(`\tA1050\t[^\n]*\t640\t0\t0\t0\t640\t`).Match(out) {
					t.Error("A1050's remaining hours are not 80 days of 8 hours")
				}
				if !xerHasRow(out, "%R|190|N|Nights|") {
					t.Error("no CALENDAR row 190")
				}
			}},
		{name: "the project", file: site,
			edit: func(s *schedule.Schedule) {
				s.Name = "Percent – renamed"
				s.DataDate = "2015-03-02T08:00"
				s.StartDate = "2015-02-23"
				cal := s.Calendars["179"]
				cal.Holidays = append(cal.Holidays, "2015-04-03")
			},
			touched: []string{"PROJECT", "PROJWBS", "CALENDAR"}},
		{name: "the brief's change set", file: site,
			edit: func(s *schedule.Schedule) {
				xerRemoveActivity(s, "A1030")
				xerInsertAfter(s, "A1040", schedule.Activity{ID: xerNewID, Name: "New", Duration: "4"})
				s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R-x", Type: schedule.SS, Predecessor: "A1000", Successor: "A1060", Lag: 1})
				s.Relationships = slices.DeleteFunc(s.Relationships, func(r schedule.Relationship) bool { return r.ID == "A1090-FS-A1100" })
				xerRelationship(s, "A1050-FF-A1060").Lag = 0
				xerActivity(s, "A1060").Duration = "90"
				xerActivity(s, "A1070").Name = "Renamed"
			},
			touched: []string{"TASKRSRC", "TASKACTV", "TASKMEMO", "UDFVALUE"},
			gone:    []string{"101720"}},
		{name: "add a link to an empty TASKPRED", file: realXER("PredecessorCalendar.xer"),
			edit: func(s *schedule.Schedule) {
				xerInsertAfter(s, s.Activities[0].ID, schedule.Activity{ID: xerNewID, Name: "Next", Duration: "2"})
			}},
		{name: "add a link to a file without TASKPRED", file: realXER("percent-complete-8.4.xer"),
			edit: func(s *schedule.Schedule) {
				s.Relationships = append(s.Relationships, schedule.Relationship{ID: "L", Type: schedule.FS, Predecessor: "A1000", Successor: "A1040", Lag: 1})
			},
			check: func(t *testing.T, out []byte) {
				if !bytes.Contains(out, []byte("%T\tTASKPRED\n%F\ttask_pred_id\t")) {
					t.Error("no TASKPRED table")
				}
			}},
		{name: "CRLF Windows-1252 file with assignments", file: "testdata/xerpatch/resource-rates-test.xer",
			edit: func(s *schedule.Schedule) {
				s.Activities[0].Name = "Über – task"
				s.Activities[0].Duration = "7"
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, data, err := importXER(t, c.file)
			if err != nil {
				t.Fatal(err)
			}
			s = s.Clone()
			c.edit(s)
			if _, err := schedule.Check(s); err != nil {
				t.Fatalf("the edit makes an invalid schedule: %v", err)
			}
			var buf bytes.Buffer
			if err := Write(&buf, s, XER, nil); err != nil {
				t.Fatal(err)
			}
			out := buf.Bytes()
			if dir := os.Getenv("XERPATCH_OUT"); dir != "" { // for testdata/xerpatch/mpxj_check.py
				name := strings.NewReplacer(" ", "_", "'", "").Replace(c.name)
				os.WriteFile(filepath.Join(dir, name+".xer"), out, 0o644)
				os.WriteFile(filepath.Join(dir, name+".orig.xer"), data, 0o644)
			}
			back, _, err := Parse(out, XER)
			if err != nil {
				t.Fatalf("the export does not read: %v", err)
			}
			if d := xerSameAsWritten(s, back); d != "" {
				t.Errorf("the export reads back otherwise: %s", d)
			}
			xerCheckUntouched(t, s, data, out, c)
			for _, tid := range c.gone {
				for name, rows := range xerRawTables(out) {
					for _, row := range rows[1:] {
						if xerRowHasTask(rows[0], row, tid) {
							t.Errorf("%s still has a row of task %s: %q", name, tid, row)
						}
					}
				}
			}
			for _, row := range c.kept {
				if !xerHasRow(out, row) {
					t.Errorf("row %s is gone", row)
				}
			}
			if c.check != nil {
				c.check(t, out)
			}
		})
	}
}

// xerSameAsWritten compares the schedule exported with the export read back:
// "" when they agree but for what XER cannot say otherwise - a new
// activity's UUID comes back as its task_code, a new activity without a
// WBS in its neighbour's, relationship ids as the reader names them, a
// calendar no activity uses is not read.
func xerSameAsWritten(s, back *schedule.Schedule) string {
	// XER names a calendar only from the activities on it: one no
	// activity uses any more does not come back.
	used := *s
	used.Calendars = nil
	for _, a := range s.Activities {
		if c := s.Calendars[a.Calendar]; c != nil {
			if used.Calendars == nil {
				used.Calendars = map[string]*schedule.Calendar{}
			}
			used.Calendars[a.Calendar] = c
		}
	}
	s = &used
	if !sameMeta(s, back) {
		return fmt.Sprintf("the project differs: %s", xerFirstDiff(jsonText([]any{s.Name, s.StartDate, s.DataDate, s.Calendar, s.Calendars, s.Options}),
			jsonText([]any{back.Name, back.StartDate, back.DataDate, back.Calendar, back.Calendars, back.Options})))
	}
	if len(s.Activities) != len(back.Activities) {
		return fmt.Sprintf("%d activities, %d read back", len(s.Activities), len(back.Activities))
	}
	inBack := indexByID(back)
	inS := indexByID(s)
	rename := map[string]string{}
	var lostS, lostBack []string
	for _, a := range s.Activities {
		if _, ok := inBack[a.ID]; !ok {
			lostS = append(lostS, a.ID)
		}
	}
	for _, a := range back.Activities {
		if _, ok := inS[a.ID]; !ok {
			lostBack = append(lostBack, a.ID)
		}
	}
	if len(lostS) != len(lostBack) {
		return fmt.Sprintf("activities %v are missing and %v are not in the schedule", lostS, lostBack)
	}
	for i, id := range lostS {
		if !xerGeneratedID.MatchString(id) {
			return fmt.Sprintf("activity %s came back as %s", id, lostBack[i])
		}
		rename[id] = lostBack[i]
	}
	name := func(id string) string {
		if r, ok := rename[id]; ok {
			return r
		}
		return id
	}
	for _, a := range s.Activities {
		b := back.Activities[inBack[name(a.ID)]]
		a.ID = name(a.ID)
		if _, added := rename[a.ID]; added || a.WBS == "" {
			a.WBS = b.WBS // a new activity goes in its neighbour's WBS
		}
		if !a.Equal(b) {
			return fmt.Sprintf("activity %s: %s", a.ID, xerFirstDiff(jsonText(a), jsonText(b)))
		}
	}
	links := func(s *schedule.Schedule, name func(string) string) []string {
		var out []string
		for _, r := range s.Relationships {
			out = append(out, fmt.Sprintf("%s %s %s %g", name(r.Predecessor), r.Type, name(r.Successor), r.Lag))
		}
		slices.Sort(out)
		return out
	}
	if a, b := links(s, name), links(back, func(id string) string { return id }); !slices.Equal(a, b) {
		return fmt.Sprintf("relationships %v, read back %v", a, b)
	}
	return ""
}

func xerFirstDiff(a, b string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			from := max(0, i-60)
			return fmt.Sprintf("...%s... written, ...%s... read", a[from:min(len(a), i+60)], b[from:min(len(b), i+60)])
		}
	}
	return fmt.Sprintf("%q and %q", a, b)
}

// xerRawTables cuts a file into its tables as bytes: each table's %F line and
// rows (line endings kept).
func xerRawTables(data []byte) map[string][]string {
	out := map[string][]string{}
	name := ""
	for _, line := range strings.SplitAfter(string(data), "\n") {
		tag, rest, _ := strings.Cut(strings.TrimRight(line, "\r\n"), "\t")
		switch tag {
		case "%T":
			name = rest
		case "%F", "%R":
			out[name] = append(out[name], line)
		}
	}
	return out
}

// xerRowHasTask reports whether a raw row names task tid in a task_id or
// pred_task_id column (fields is its table's %F line).
func xerRowHasTask(fields, row, tid string) bool {
	names := strings.Split(strings.TrimRight(fields, "\r\n"), "\t")
	values := strings.Split(strings.TrimRight(row, "\r\n"), "\t")
	for i, f := range names {
		if (f == "task_id" || f == "pred_task_id") && i < len(values) && values[i] == tid {
			return true
		}
	}
	return false
}

// xerCheckUntouched checks that the tables the change does not concern are
// byte-identical, that touched tables only lost rows unless the case
// says they change, and that the TASK rows of activities neither changed
// nor moved by our CPM are as they were.
func xerCheckUntouched(t *testing.T, s *schedule.Schedule, data, out []byte, c xerEdit) {
	t.Helper()
	before, after := xerRawTables(data), xerRawTables(out)
	for name, rows := range before {
		if name == "TASK" || name == "TASKPRED" || slices.Contains(c.touched, name) {
			continue
		}
		if !slices.Equal(rows, after[name]) {
			t.Errorf("table %s changed", name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok && name != "TASKPRED" && !slices.Contains(c.touched, name) {
			t.Errorf("table %s is new", name)
		}
	}
	base, err := ParseXER(data)
	if err != nil {
		t.Fatal(err)
	}
	e, err := diffSchedules(base, s)
	if err != nil {
		t.Fatal(err)
	}
	moved := map[string]bool{}
	for id := range e.dates {
		moved[id] = true
	}
	for _, i := range e.changed {
		moved[s.Activities[i].ID] = true
	}
	kept := map[string]bool{}
	for _, row := range after["TASK"] {
		kept[row] = true
	}
	untouched := 0
	for _, row := range before["TASK"][1:] {
		code := strings.Split(row, "\t")[14] // task_code in P6 8.x's TASK layout
		if _, ok := e.curAt[code]; !ok || moved[code] || !strings.HasPrefix(code, "A") {
			continue
		}
		untouched++
		if !kept[row] {
			t.Errorf("the TASK row of %s, neither changed nor moved, is not as it was", code)
		}
	}
	t.Logf("%d activities changed, %d added, %d removed, %d dated anew; %d TASK rows untouched", len(e.changed), len(e.added), len(e.removed), len(e.dates), untouched)
}

func TestPatchXERRefusesTextTheCodePageCannotHold(t *testing.T) {
	s, _, err := importXER(t, "testdata/xerpatch/site.xer")
	if err != nil {
		t.Fatal(err)
	}
	s = s.Clone()
	xerActivity(s, "A1000").Name = "二階 slab"
	var buf bytes.Buffer
	err = Write(&buf, s, XER, nil)
	if err == nil || !strings.Contains(err.Error(), "Windows-1252") || !strings.Contains(err.Error(), "A1000") {
		t.Fatalf("err = %v, want one naming A1000 and Windows-1252", err)
	}
}

// TestPatchXERKeepsTheEncoding: a file in UTF-8, with or without its byte
// order mark, or in UTF-16 comes back in it, with a name Windows-1252
// could not hold.
func TestPatchXERKeepsTheEncoding(t *testing.T) {
	raw, err := os.ReadFile("testdata/xerpatch/site.xer")
	if err != nil {
		t.Fatal(err)
	}
	text, undefinedOn := decodeWindows1252(raw)
	if undefinedOn != nil {
		t.Fatalf("bytes Windows-1252 does not define on lines %v", undefinedOn)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"UTF-8", text},
		{"UTF-8 with BOM", append([]byte("\xef\xbb\xbf"), text...)},
		{"UTF-16LE", encodeUTF16(text, false)},
		{"UTF-16BE", encodeUTF16(text, true)},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := ParseWith(c.data, XER, Options{KeepSource: true, Name: "site.xer"})
			if err != nil {
				t.Fatal(err)
			}
			var same bytes.Buffer
			if err := Write(&same, r.Schedule, XER, nil); err != nil || !bytes.Equal(same.Bytes(), c.data) {
				t.Fatalf("unchanged: err %v, same bytes %v", err, bytes.Equal(same.Bytes(), c.data))
			}
			s := r.Schedule.Clone()
			xerActivity(s, "A1000").Name = "二階 slab ≥ 2"
			var buf bytes.Buffer
			if err := Write(&buf, s, XER, nil); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes()[:3], c.data[:3]) {
				t.Errorf("the export starts % x, the file % x", buf.Bytes()[:3], c.data[:3])
			}
			back, _, err := Parse(buf.Bytes(), XER)
			if err != nil {
				t.Fatal(err)
			}
			if d := xerSameAsWritten(s, back); d != "" {
				t.Error(d)
			}
			out, _, _, _ := decodeWindowsText(buf.Bytes())
			if want := bytes.Replace(text, []byte("\tA1000\tDuration 0%\t"), []byte("\tA1000\t二階 slab ≥ 2\t"), 1); !bytes.Equal(out, want) {
				t.Error("more than the name changed")
			}
		})
	}
}

// TestPatchXERRandomEdits: random removals, additions, links, durations
// and names, many at a time, always read back as written.
func TestPatchXERRandomEdits(t *testing.T) {
	orig, _, err := importXER(t, "testdata/xerpatch/site.xer")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(29, 1))
	written := 0
	for round := range 150 {
		s := orig.Clone()
		for range 1 + rng.IntN(6) {
			n := len(s.Activities)
			a := s.Activities[rng.IntN(n)].ID
			b := s.Activities[rng.IntN(n)].ID
			switch rng.IntN(13) {
			case 0:
				if n > 2 {
					xerRemoveActivity(s, a)
				}
			case 1:
				id := schedule.DerivedID("round", fmt.Sprint(round), fmt.Sprint(rng.Int()))
				if rng.IntN(2) == 0 {
					id = fmt.Sprintf("N%d", rng.IntN(1000))
				}
				if _, dup := indexByID(s)[id]; !dup {
					xerInsertAfter(s, a, schedule.Activity{ID: id, Name: "new " + id[:min(4, len(id))], Duration: fmt.Sprint(rng.IntN(20))})
				}
			case 2:
				if a != b {
					s.Relationships = append(s.Relationships, schedule.Relationship{ID: fmt.Sprintf("r%d", rng.Int()),
						Type: []schedule.RelType{schedule.FS, schedule.SS, schedule.FF, schedule.SF}[rng.IntN(4)], Predecessor: a, Successor: b, Lag: float64(rng.IntN(9)) / 2})
				}
			case 3:
				if len(s.Relationships) > 0 {
					i := rng.IntN(len(s.Relationships))
					s.Relationships = slices.Delete(s.Relationships, i, i+1)
				}
			case 4:
				xerActivity(s, a).Duration = fmt.Sprint(float64(rng.IntN(80)) / 4)
			case 5:
				xerActivity(s, a).Name = fmt.Sprintf("Renamed – %d", rng.IntN(100))
			case 6:
				if len(s.Relationships) > 0 {
					r := &s.Relationships[rng.IntN(len(s.Relationships))]
					r.Lag = float64(rng.IntN(9)) - 4
				}
			case 7:
				xerActivity(s, a).WBS = []string{"", "CIV", "STR.L1", "STR.L9", "New.Area"}[rng.IntN(5)]
			case 8:
				xerActivity(s, a).Codes = []map[string]string{nil, {"Phase": "DES"}, {"Area": "S", "Trade": "Roofs"}}[rng.IntN(3)]
			case 9:
				xerActivity(s, a).Calendar = []string{"", "179"}[rng.IntN(2)]
			case 10:
				xerActivity(s, a).Constraint = []*schedule.Constraint{nil, {Type: schedule.StartOnOrAfter, Date: "2015-03-02T08:00"},
					{Type: schedule.AsLateAsPossible}, {Type: schedule.MandatoryFinish, Date: "2015-09-30T16:00"}}[rng.IntN(4)]
			case 11:
				x := xerActivity(s, a)
				x.ActualStart, x.ActualFinish, x.Remaining = []string{"", "2015-02-24T08:00"}[rng.IntN(2)], "", ""
				if x.ActualStart != "" { // P6 always holds a started activity's remaining duration
					x.Remaining = "3"
				}
			case 12:
				xerActivity(s, a).PercentComplete = float64(rng.IntN(5) * 25)
			}
		}
		if _, err := schedule.Check(s); err != nil {
			continue // a loop or a duplicate link: not a schedule to export
		}
		var buf bytes.Buffer
		if err := Write(&buf, s, XER, nil); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		back, _, err := Parse(buf.Bytes(), XER)
		if err != nil {
			t.Fatalf("round %d: the export does not read: %v", round, err)
		}
		if d := xerSameAsWritten(s, back); d != "" {
			t.Fatalf("round %d: %s", round, d)
		}
		written++
	}
	t.Logf("%d of 150 rounds exported", written)
	if written < 50 {
		t.Errorf("only %d of 150 rounds made a valid schedule", written)
	}
}
