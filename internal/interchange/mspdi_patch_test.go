package interchange

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// realMSPDIFiles are the MS Project files saved by MS Project in the shared
// data (beside the repository, or at its place on this machine).
func realMSPDIFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, root := range []string{"../../../shared/data", "/work/shared/data"} {
		for _, dir := range []string{"real", "mspdi"} {
			m, _ := filepath.Glob(filepath.Join(root, dir, "*.xml"))
			files = append(files, m...)
		}
		if len(files) > 0 {
			return files
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but the shared MS Project files (../shared/data) are not beside the checkout")
	}
	t.Skip("no shared MS Project files")
	return nil
}

// importKept reads an MSPDI file keeping its source, as import does.
func importKept(t *testing.T, data []byte, name string) *schedule.Schedule {
	t.Helper()
	r, err := ParseWith(data, MSPDI, Options{KeepSource: true, Name: name})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r.Schedule
}

func exportMSPDI(t *testing.T, s *schedule.Schedule) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, s, MSPDI, nil); err != nil {
		t.Fatalf("export: %v", err)
	}
	return buf.Bytes()
}

func TestPatchMSPDIUnchangedIsIdentical(t *testing.T) {
	files := append(realMSPDIFiles(t), "testdata/mspdipatch/cp1252.xml")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out := exportMSPDI(t, importKept(t, data, path))
			if !bytes.Equal(out, data) {
				t.Errorf("export of the unchanged schedule differs from the file (%d bytes, want %d)", len(out), len(data))
			}
		})
	}
}

// patchCase is a change set applied to a file's schedule and what the
// export must then show.
type patchCase struct {
	removed   string // activity id removed (with its links)
	removedAt string // its task UID
	added     string // the added activity's id
	after     string // the activity it follows
	touched   map[string]bool
}

// changeSchedule deletes an activity that has assignments in the file (or
// any), adds one after another with a link, removes, changes and adds a
// link, changes a duration and renames an activity.
func changeSchedule(t *testing.T, s *schedule.Schedule, data []byte) patchCase {
	t.Helper()
	p, err := decodeMSPDI(data)
	if err != nil {
		t.Fatal(err)
	}
	assigned := map[string]bool{}
	for _, a := range p.Assignments {
		assigned[strings.TrimSpace(a.TaskUID)] = true
	}
	c := patchCase{touched: map[string]bool{}}
	victim := len(s.Activities) - 1
	for i, a := range s.Activities {
		if assigned[a.ID] && len(s.Activities) > 2 {
			victim = i
			break
		}
	}
	c.removed, c.removedAt = s.Activities[victim].ID, s.Activities[victim].ID
	s.Activities = slices.Delete(s.Activities, victim, victim+1)
	s.Relationships = slices.DeleteFunc(s.Relationships, func(r schedule.Relationship) bool {
		if r.Predecessor == c.removed || r.Successor == c.removed {
			c.touched[r.Successor] = true
			return true
		}
		return false
	})
	if len(s.Activities) == 0 {
		t.Skip("one activity")
	}
	if len(s.Relationships) > 0 { // remove one
		c.touched[s.Relationships[0].Successor] = true
		s.Relationships = s.Relationships[1:]
	}
	if len(s.Relationships) > 0 { // change one's lag
		r := &s.Relationships[0]
		c.touched[r.Successor] = true
		r.Lag += 1
	}
	// A link between two activities that have none, if it keeps the
	// network acyclic.
	for i := 0; i < len(s.Activities) && i < 20; i++ {
		pred, succ := s.Activities[i].ID, s.Activities[len(s.Activities)-1-i].ID
		if pred == succ {
			continue
		}
		try := append(slices.Clone(s.Relationships), schedule.Relationship{ID: "L1", Type: schedule.SS, Predecessor: pred, Successor: succ, Lag: 0.5})
		old := s.Relationships
		s.Relationships = try
		if _, err := schedule.Check(s); err == nil {
			c.touched[succ] = true
			break
		}
		s.Relationships = old
	}
	s.Activities[0].Duration = "7"
	s.Activities[0].Name = "Renamed – «été»"
	c.touched[s.Activities[0].ID] = true
	c.after = s.Activities[0].ID
	c.added = "NEW-1"
	s.Activities = slices.Insert(s.Activities, 1, schedule.Activity{ID: c.added, Name: "Added & checked", Duration: "3"})
	s.Relationships = append(s.Relationships, schedule.Relationship{ID: "L2", Type: schedule.FS, Predecessor: c.after, Successor: c.added})
	if _, err := schedule.Check(s); err != nil {
		t.Fatalf("the change set makes an invalid schedule: %v", err)
	}
	return c
}

func TestPatchMSPDIChanges(t *testing.T) {
	for _, path := range append(realMSPDIFiles(t), "testdata/mspdipatch/cp1252.xml") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := importKept(t, data, path)
			if len(s.Activities) < 2 {
				t.Skip("fewer than two activities")
			}
			c := changeSchedule(t, s, data)
			e, err := diffSchedules(mustBase(t, s), s)
			if err != nil {
				t.Fatal(err)
			}
			out := exportMSPDI(t, s)
			if err := wellFormed(out); err != nil {
				t.Fatalf("the export is not well-formed XML: %v", err)
			}
			back, err := ParseMSPDI(out)
			if err != nil {
				t.Fatalf("reading the export: %v", err)
			}
			checkReadBack(t, s, back, c)
			checkUntouched(t, data, out, e, c)
		})
	}
}

func mustBase(t *testing.T, s *schedule.Schedule) *schedule.Schedule {
	t.Helper()
	base, _, err := sourceSchedule(s.Source)
	if err != nil {
		t.Fatal(err)
	}
	return base
}

func wellFormed(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charsetReader
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// checkReadBack compares the export as read with the schedule exported:
// equal but for the added activity's id (its task UID).
func checkReadBack(t *testing.T, s, back *schedule.Schedule, c patchCase) {
	t.Helper()
	if len(back.Activities) != len(s.Activities) {
		t.Fatalf("read back %d activities, want %d", len(back.Activities), len(s.Activities))
	}
	got := map[string]schedule.Activity{}
	for _, a := range back.Activities {
		got[a.ID] = a
	}
	newID := ""
	for i, a := range back.Activities {
		if a.Name == "Added & checked" {
			newID = a.ID
			if i == 0 || back.Activities[i-1].ID != c.after {
				t.Errorf("the added activity follows %q, want %q", back.Activities[i-1].ID, c.after)
			}
		}
	}
	if newID == "" {
		t.Fatal("the added activity is not in the export")
	}
	for _, a := range s.Activities {
		if a.ID == c.added {
			b := got[newID]
			if b.Duration != a.Duration || b.Name != a.Name {
				t.Errorf("added activity read back as %+v", b)
			}
			continue
		}
		b, ok := got[a.ID]
		if !ok {
			t.Errorf("activity %q is missing from the export", a.ID)
			continue
		}
		if !a.Equal(b) {
			t.Errorf("activity %q read back as\n %+v\nwant\n %+v", a.ID, b, a)
		}
	}
	key := func(r schedule.Relationship) string {
		if r.Predecessor == newID {
			r.Predecessor = c.added
		}
		if r.Successor == newID {
			r.Successor = c.added
		}
		return fmt.Sprintf("%s %s %s %.6f", r.Predecessor, r.Type, r.Successor, r.Lag)
	}
	var want, have []string
	for _, r := range s.Relationships {
		want = append(want, key(r))
	}
	for _, r := range back.Relationships {
		have = append(have, key(r))
	}
	slices.Sort(want)
	slices.Sort(have)
	if !slices.Equal(want, have) {
		t.Errorf("relationships read back:\n %v\nwant\n %v", have, want)
	}
}

// checkUntouched checks that every task the changes do not touch, every
// assignment but the removed task's, and the project's other parts are
// byte-identical in the export.
func checkUntouched(t *testing.T, data, out []byte, e *edits, c patchCase) {
	t.Helper()
	root, _, err := scanMSPDI(data)
	if err != nil {
		t.Fatal(err)
	}
	outRoot, _, err := scanMSPDI(out)
	if err != nil {
		t.Fatal(err)
	}
	touched := map[string]bool{c.removedAt: true}
	for id := range c.touched {
		touched[id] = true
	}
	for id := range e.dates {
		touched[id] = true
	}
	for _, task := range root.child("Tasks").children("Task") {
		uid := task.value("UID")
		if touched[uid] || hasLinkFrom(task, c.removedAt) {
			continue
		}
		if !bytes.Contains(out, data[task.start:task.end]) {
			t.Errorf("untouched Task UID %s is not byte-identical in the export", uid)
		}
	}
	for _, name := range []string{"Calendars", "Resources", "ExtendedAttributes"} {
		if el := root.child(name); el != nil && !bytes.Contains(out, data[el.start:el.end]) {
			t.Errorf("<%s> is not byte-identical in the export", name)
		}
	}
	if tasks := root.child("Tasks"); !bytes.Equal(out[:outRoot.child("Tasks").start], data[:tasks.start]) {
		t.Error("the file before <Tasks> changed")
	}
	if as := root.child("Assignments"); as != nil {
		for _, a := range as.children("Assignment") {
			if a.value("TaskUID") == c.removedAt {
				continue
			}
			if !bytes.Contains(out, data[a.start:a.end]) {
				t.Errorf("assignment of Task UID %s is not byte-identical in the export", a.value("TaskUID"))
			}
		}
		for _, a := range outRoot.child("Assignments").children("Assignment") {
			if a.value("TaskUID") == c.removedAt {
				t.Errorf("an assignment of the removed Task UID %s is still in the export", c.removedAt)
			}
		}
	}
}

func hasLinkFrom(task *xmlEl, uid string) bool {
	for _, l := range task.children("PredecessorLink") {
		if l.value("PredecessorUID") == uid {
			return true
		}
	}
	return false
}

// TestPatchMSPDIOwnExport patches a file our whole-model writer made: its
// custom fields (activity ids, relationship ids and order, durations as
// written) keep the schedule whole, so the export reads back exactly.
func TestPatchMSPDIOwnExport(t *testing.T) {
	src, err := ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	if err := WriteMSPDI(&file, src); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(s *schedule.Schedule)
	}{
		{"rename", func(s *schedule.Schedule) { s.Activities[3].Name = "Pour <slab> & cure" }},
		{"duration as written", func(s *schedule.Schedule) { s.Activities[2].Duration = "pert(2,4,9)" }},
		{"the change set", func(s *schedule.Schedule) { changeSchedule(t, s, file.Bytes()) }},
		{"remove a link", func(s *schedule.Schedule) { s.Relationships = slices.Delete(s.Relationships, 2, 3) }},
		{"data date and name", func(s *schedule.Schedule) { s.Name, s.DataDate = "Renamed", "2025-01-06T08:00" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := importKept(t, file.Bytes(), "building.xml")
			tc.change(s)
			out := exportMSPDI(t, s)
			back, err := ParseMSPDI(out)
			if err != nil {
				t.Fatalf("reading the export: %v", err)
			}
			back.Source, s.Source = nil, nil
			if got, want := jsonText(back), jsonText(s); got != want {
				t.Errorf("the export reads back as another schedule:\n%s", firstDiff(got, want))
			}
		})
	}
}

// firstDiff shows where two texts part.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-120)
	return fmt.Sprintf("got  ...%s\nwant ...%s", got[from:min(len(got), i+200)], want[from:min(len(want), i+200)])
}

// TestPatchMSPDIFields changes one field at a time on every real file: the
// export reads back as the schedule exported.
func TestPatchMSPDIFields(t *testing.T) {
	first := func(s *schedule.Schedule) *schedule.Activity { return &s.Activities[0] }
	day := func(s *schedule.Schedule) string {
		if len(s.StartDate) >= 10 {
			return s.StartDate[:10]
		}
		return "2024-01-08"
	}
	cases := []struct {
		name   string
		change func(s *schedule.Schedule)
	}{
		{"name", func(s *schedule.Schedule) { s.Name = "Après – renamed" }},
		{"data date", func(s *schedule.Schedule) { s.DataDate = day(s) + "T13:00" }},
		{"no data date", func(s *schedule.Schedule) { s.DataDate = "" }},
		{"start date", func(s *schedule.Schedule) { s.StartDate = "2031-03-03" }},
		{"project holiday", func(s *schedule.Schedule) {
			cal := &schedule.Calendar{Workdays: slices.Clone(schedule.DefaultWorkdays)}
			if s.Calendar != nil {
				c := *s.Calendar
				cal = &c
			}
			cal.Holidays = append(slices.Clone(cal.Holidays), "2039-12-27")
			s.Calendar = cal
		}},
		{"constraint", func(s *schedule.Schedule) {
			first(s).Constraint = &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: day(s) + "T08:00"}
		}},
		{"no constraint", func(s *schedule.Schedule) {
			for i := range s.Activities {
				s.Activities[i].Constraint = nil
			}
		}},
		{"deadline", func(s *schedule.Schedule) {
			first(s).SecondaryConstraint = &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: day(s) + "T17:00"}
		}},
		{"no deadline", func(s *schedule.Schedule) {
			for i := range s.Activities {
				s.Activities[i].SecondaryConstraint = nil
			}
		}},
		{"progress", func(s *schedule.Schedule) {
			a := first(s)
			a.ActualStart, a.PercentComplete, a.Remaining, a.ActualFinish = day(s)+"T08:00", 40, "1.5", ""
			s.DataDate = day(s) + "T17:00"
		}},
		{"manual", func(s *schedule.Schedule) {
			a := first(s)
			a.Manual, a.Start, a.Finish = true, day(s)+"T08:00", day(s)+"T17:00"
			// A manual task's assignments do not date it: they read back
			// as the same resources, not driving.
			for k, as := range a.Assignments {
				a.Assignments[k] = schedule.Assignment{Resource: as.Resource, NonDriving: true}
			}
		}},
		{"description", func(s *schedule.Schedule) {
			// Written before the reader's WBS line, which stays last.
			first(s).Description = "A note\nover two lines & more\n" + first(s).Description
		}},
		{"elapsed duration", func(s *schedule.Schedule) { first(s).Duration = "3ed" }},
		{"task calendar", func(s *schedule.Schedule) {
			for key := range s.Calendars {
				first(s).Calendar = key
				return
			}
			first(s).Calendar = "" // none to choose: back to the project's
		}},
		{"new task calendar", func(s *schedule.Schedule) {
			if s.Calendars == nil {
				s.Calendars = map[string]*schedule.Calendar{}
			}
			s.Calendars["night"] = &schedule.Calendar{Name: "Night shift", Workdays: []string{"Mon", "Tue", "Wed"}, Hours: []string{"20:00-24:00"},
				HoursPerDay: calendarDayHours(s)}
			first(s).Calendar = "night"
		}},
	}
	for _, path := range append(realMSPDIFiles(t), "testdata/mspdipatch/cp1252.xml") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range cases {
			t.Run(filepath.Base(path)+"/"+tc.name, func(t *testing.T) {
				s := importKept(t, data, path)
				if len(s.Activities) == 0 {
					t.Skip("no activities")
				}
				tc.change(s)
				if _, err := schedule.Check(s); err != nil {
					t.Skipf("the change makes no valid schedule here: %v", err)
				}
				out := exportMSPDI(t, s)
				back, err := ParseMSPDI(out)
				if err != nil {
					t.Fatalf("reading the export: %v", err)
				}
				back.Source, s.Source = nil, nil
				switch tc.name {
				case "project holiday":
					// MS Project's resource calendars take the holidays of
					// the project calendar they are based on: they change too.
					back.Calendars = s.Calendars
				case "manual":
					// The reader reads the calendars of the resources
					// assigned to an automatic task only.
					back.Calendars = s.Calendars
				}
				if tc.name == "new task calendar" { // the file's calendar UID names it
					for key, cal := range back.Calendars {
						if cal.Name == "Night shift" {
							back.Calendars["night"] = cal
							delete(back.Calendars, key)
							for i := range back.Activities {
								if back.Activities[i].Calendar == key {
									back.Activities[i].Calendar = "night"
								}
							}
							break
						}
					}
				}
				if got, want := jsonText(back), jsonText(s); got != want {
					t.Errorf("the export reads back as another schedule:\n%s", firstDiff(got, want))
				}
			})
		}
	}
}

// calendarDayHours is the working day the reader gives a file's calendars.
func calendarDayHours(s *schedule.Schedule) float64 {
	if s.Calendar != nil && s.Calendar.HoursPerDay != 0 {
		return s.Calendar.HoursPerDay
	}
	return 8
}

// TestPatchMSPDISummaryLinks edits relationships the reader spreads from a
// link on a summary task over its leaves: the link is replaced by direct
// links for the relationships that remain.
func TestPatchMSPDISummaryLinks(t *testing.T) {
	data, err := os.ReadFile("testdata/mspdipatch/summary-links.xml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(s *schedule.Schedule)
	}{
		{"remove one from a summary predecessor", func(s *schedule.Schedule) {
			s.Relationships = slices.DeleteFunc(s.Relationships, func(r schedule.Relationship) bool { return r.ID == "2-FS-4" })
		}},
		{"change one lag to a summary successor", func(s *schedule.Schedule) {
			for i := range s.Relationships {
				if s.Relationships[i].ID == "4-FS-7" {
					s.Relationships[i].Lag = 2
				}
			}
		}},
		{"remove a leaf of the summary predecessor", func(s *schedule.Schedule) {
			s.Activities = slices.DeleteFunc(s.Activities, func(a schedule.Activity) bool { return a.ID == "3" })
			s.Relationships = slices.DeleteFunc(s.Relationships, func(r schedule.Relationship) bool { return r.Predecessor == "3" })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := importKept(t, data, "summary-links.xml")
			if len(s.Relationships) != 4 {
				t.Fatalf("the file reads as %d relationships, want 4", len(s.Relationships))
			}
			tc.change(s)
			out := exportMSPDI(t, s)
			back, err := ParseMSPDI(out)
			if err != nil {
				t.Fatalf("reading the export: %v", err)
			}
			want := map[string]schedule.Relationship{}
			for _, r := range s.Relationships {
				want[r.ID] = r
			}
			got := map[string]schedule.Relationship{}
			for _, r := range back.Relationships {
				got[r.ID] = r
			}
			if jsonText(got) != jsonText(want) {
				t.Errorf("relationships read back as\n%s\nwant\n%s\nexport:\n%s", jsonText(got), jsonText(want), out)
			}
		})
	}
}

// mpxjRead is what testdata/mspdipatch/mpxj_read.py reports of a file.
type mpxjRead struct {
	Tasks map[string]struct {
		Name     *string
		Duration *string
		Summary  bool
		Links    [][]*string
	}
	Resources   [][]*string
	Assignments [][]*string
	Calendars   []string
}

// TestPatchMSPDIWithMPXJ has MPXJ, the field's reference reader, read every
// real file and its export after the change set: it reads the patched file,
// with the same resources and calendars, the assignments but the removed
// task's, the tasks but the removed one plus the added one, and every task
// the changes do not touch as it was. It needs python3 with the mpxj
// package and Java; it is skipped without them and in -short runs.
func TestPatchMSPDIWithMPXJ(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a JVM")
	}
	if err := exec.Command("python3", "-c", "import mpxj, jpype").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but python3 with mpxj and jpype is not installed: %v", err)
		}
		t.Skip("python3 with mpxj and jpype is not installed")
	}
	dir := t.TempDir()
	type pair struct {
		name, orig, patched string
		c                   patchCase
		touched             map[string]bool
	}
	var pairs []pair
	var args []string
	for _, path := range append(realMSPDIFiles(t), "testdata/mspdipatch/cp1252.xml") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := importKept(t, data, path)
		if len(s.Activities) < 2 {
			continue
		}
		c := changeSchedule(t, s, data)
		// MPXJ's view of a task (name, duration, links) changes only
		// where the change set changes it: moved dates do not count.
		touched := map[string]bool{c.removedAt: true}
		for id := range c.touched {
			touched[id] = true
		}
		name := filepath.Base(path)
		orig, patched := filepath.Join(dir, "orig-"+name), filepath.Join(dir, "patched-"+name)
		if err := os.WriteFile(orig, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(patched, exportMSPDI(t, s), 0o644); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, pair{name, orig, patched, c, touched})
		args = append(args, orig, patched)
	}
	cmd := exec.Command("python3", append([]string{"testdata/mspdipatch/mpxj_read.py"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("MPXJ: %v\n%s", err, stderr.String())
	}
	var reads map[string]mpxjRead
	if err := json.Unmarshal(out, &reads); err != nil {
		t.Fatalf("MPXJ report: %v", err)
	}
	var tasks, same, assignments, resources int
	defer func() {
		t.Logf("MPXJ: %d tasks read in the patched files, %d untouched ones as they were; %d assignments, %d resources",
			tasks, same, assignments, resources)
	}()
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			was, now := reads[p.orig], reads[p.patched]
			tasks, assignments, resources = tasks+len(now.Tasks), assignments+len(now.Assignments), resources+len(now.Resources)
			if jsonText(was.Resources) != jsonText(now.Resources) {
				t.Errorf("resources: MPXJ reads %s, want %s", jsonText(now.Resources), jsonText(was.Resources))
			}
			if jsonText(was.Calendars) != jsonText(now.Calendars) {
				t.Errorf("calendars: MPXJ reads %s, want %s", jsonText(now.Calendars), jsonText(was.Calendars))
			}
			want := slices.DeleteFunc(slices.Clone(was.Assignments), func(a []*string) bool {
				return a[0] != nil && *a[0] == p.c.removedAt
			})
			if jsonText(want) != jsonText(now.Assignments) {
				t.Errorf("assignments: MPXJ reads %s, want %s", jsonText(now.Assignments), jsonText(want))
			}
			added := 0
			for uid, task := range now.Tasks {
				old, ok := was.Tasks[uid]
				switch {
				case !ok:
					added++
					if task.Name == nil || *task.Name != "Added & checked" {
						t.Errorf("MPXJ reads a new Task UID %s named %v", uid, task.Name)
					}
				case p.touched[uid] || old.Summary:
				case jsonText(old) != jsonText(task):
					t.Errorf("untouched Task UID %s: MPXJ reads %s, want %s", uid, jsonText(task), jsonText(old))
				default:
					same++
				}
			}
			if _, ok := now.Tasks[p.c.removedAt]; ok {
				t.Errorf("MPXJ still reads the removed Task UID %s", p.c.removedAt)
			}
			if added != 1 {
				t.Errorf("MPXJ reads %d new tasks, want 1", added)
			}
		})
	}
}

// TestPatchMSPDIOddFiles patches files MS Project does not write but the
// reader reads: comments, CDATA, empty elements, one line, a second
// <Tasks>. The export reads back as the schedule and keeps the oddities.
func TestPatchMSPDIOddFiles(t *testing.T) {
	const head = `<?xml version='1.0' encoding='UTF-8'?><Project xmlns="http://schemas.microsoft.com/project"><StartDate>2025-03-03T08:00:00</StartDate>`
	for _, tc := range []struct {
		name, file string
		keep       []string // texts the export still holds
	}{
		{"comments and CDATA", head + `<!-- kept --><Tasks><Task><UID>1</UID><Name>A</Name><Duration>PT8H0M0S</Duration>` +
			`<Notes><![CDATA[<b>bold</b>]]></Notes></Task><!-- between --><Task><UID>2</UID><Name>B</Name><Duration>PT16H0M0S</Duration>` +
			`<PredecessorLink><PredecessorUID>1</PredecessorUID></PredecessorLink></Task><Task><UID>3</UID><Name>C</Name></Task></Tasks></Project>`,
			[]string{"<!-- kept -->", "<!-- between -->", "<![CDATA[<b>bold</b>]]>"}},
		{"empty elements", head + `<Tasks><Task><UID>1</UID><Name/><Duration>PT8H0M0S</Duration><Notes/></Task>` +
			`<Task><UID>2</UID><Name>B</Name><Duration/></Task><Task><UID>3</UID><Name>C</Name></Task></Tasks></Project>`, nil},
		{"two Tasks", head + `<Tasks><Task><UID>1</UID><Name>A</Name><Duration>PT8H0M0S</Duration></Task><Task><UID>3</UID><Name>C</Name></Task></Tasks>` +
			`<Tasks><Task><UID>2</UID><Name>B</Name><PredecessorLink><PredecessorUID>1</PredecessorUID></PredecessorLink></Task></Tasks></Project>`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := importKept(t, []byte(tc.file), "odd.xml")
			s.Activities[0].Name = "A renamed"
			s.Activities[slices.IndexFunc(s.Activities, func(a schedule.Activity) bool { return a.ID == "2" })].Duration = "4"
			s.Activities = slices.DeleteFunc(s.Activities, func(a schedule.Activity) bool { return a.ID == "3" })
			s.Activities = append(s.Activities, schedule.Activity{ID: "N", Name: "New", Duration: "1"})
			s.Relationships = append(s.Relationships, schedule.Relationship{ID: "x", Type: schedule.FS, Predecessor: "2", Successor: "N"})
			out := exportMSPDI(t, s)
			back, err := ParseMSPDI(out)
			if err != nil {
				t.Fatalf("reading the export: %v\n%s", err, out)
			}
			if len(back.Activities) != 3 || back.Activities[0].Name != "A renamed" || back.Activities[1].Duration != "4" ||
				back.Activities[2].Name != "New" || len(back.Relationships) != len(s.Relationships) {
				t.Errorf("the export reads back as %s\n%s", jsonText(back), out)
			}
			for _, text := range tc.keep {
				if !bytes.Contains(out, []byte(text)) {
					t.Errorf("the export lost %s", text)
				}
			}
		})
	}
}

func TestDeclaredEncoding(t *testing.T) {
	for decl, want := range map[string]string{
		`version="1.0" encoding="UTF-8" standalone="yes"`: "utf-8",
		`version='1.0' encoding='windows-1252'`:           "windows-1252",
		`version="1.0" encoding = "ISO-8859-1"`:           "iso-8859-1",
		`version="1.0"`:                                   "",
		`version="1.0" encoding=`:                         "",
	} {
		if got := declaredEncoding(decl); got != want {
			t.Errorf("declaredEncoding(%s) = %q, want %q", decl, got, want)
		}
	}
}

// TestPatchMSPDIDamagedSource: a kept file that no longer reads is an
// error naming it, and nothing is written.
func TestPatchMSPDIDamagedSource(t *testing.T) {
	data, err := os.ReadFile("testdata/mspdipatch/summary-links.xml")
	if err != nil {
		t.Fatal(err)
	}
	s := importKept(t, data, "summary-links.xml")
	s.Source = KeepSource(data[:len(data)/2], MSPDI, "summary-links.xml")
	var out bytes.Buffer
	err = Write(&out, s, MSPDI, nil)
	if err == nil || !strings.Contains(err.Error(), `"summary-links.xml"`) || out.Len() != 0 {
		t.Errorf("Write = %v with %d bytes written; want an error naming the kept file and nothing written", err, out.Len())
	}
}
