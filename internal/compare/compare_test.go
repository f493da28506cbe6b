package compare_test

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/compare"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// piling is a small foundation programme: two branches into the slab,
// the piling branch critical (5+12+4+6 = 27 d to the slab, then 3 d), the
// drainage branch with float (5+8+3 = 16 d: 11 d of float).
func piling() *schedule.Schedule {
	acts := []schedule.Activity{
		{ID: "A1", Name: "Site set-up", Duration: "5"},
		{ID: "A2", Name: "Piling", Duration: "12"},
		{ID: "A3", Name: "Pile caps", Duration: "4"},
		{ID: "A4", Name: "Ground beams", Duration: "6"},
		{ID: "A5", Name: "Drainage", Duration: "8"},
		{ID: "A6", Name: "Drainage test", Duration: "3"},
		{ID: "A7", Name: "Ground slab", Duration: "3"},
		{ID: "A8", Name: "Handover", Duration: "0"},
	}
	link := func(id, p, s string) schedule.Relationship {
		return schedule.Relationship{ID: id, Type: schedule.FS, Predecessor: p, Successor: s}
	}
	return &schedule.Schedule{
		Name: "Foundations", StartDate: "2026-01-05", Activities: acts,
		Relationships: []schedule.Relationship{
			link("R1", "A1", "A2"), link("R2", "A2", "A3"), link("R3", "A3", "A4"), link("R4", "A4", "A7"),
			link("R5", "A1", "A5"), link("R6", "A5", "A6"), link("R7", "A6", "A7"), link("R8", "A7", "A8"),
		},
	}
}

func activity(s *schedule.Schedule, id string) *schedule.Activity {
	for i := range s.Activities {
		if s.Activities[i].ID == id {
			return &s.Activities[i]
		}
	}
	panic("no activity " + id)
}

func relationship(s *schedule.Schedule, id string) *schedule.Relationship {
	for i := range s.Relationships {
		if s.Relationships[i].ID == id {
			return &s.Relationships[i]
		}
	}
	panic("no relationship " + id)
}

func changeOf(rep *compare.Report, id string) map[string][2]string {
	for _, c := range rep.ActivitiesChanged {
		if c.ID == id {
			m := map[string][2]string{}
			for _, f := range c.Changes {
				m[f.Field] = [2]string{f.Before, f.After}
			}
			return m
		}
	}
	return nil
}

func ids[T any](xs []T, id func(T) string) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, id(x))
	}
	return out
}

// TestChanges: each kind of change is reported, and only it.
func TestChanges(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(s *schedule.Schedule)
		check func(t *testing.T, rep *compare.Report)
	}{
		{"nothing", func(*schedule.Schedule) {}, func(t *testing.T, rep *compare.Report) {
			if len(rep.ActivitiesChanged)+len(rep.ActivitiesAdded)+len(rep.ActivitiesRemoved)+len(rep.RelationshipsAdded)+
				len(rep.RelationshipsRemoved)+len(rep.RelationshipsChanged)+len(rep.Project)+len(rep.Calendars)+len(rep.FloatErosion) != 0 {
				t.Errorf("changes reported between equal schedules: %+v", rep)
			}
			if rep.Finish.Direction != "unchanged" || rep.Finish.Days != 0 {
				t.Errorf("finish = %+v, want unchanged", rep.Finish)
			}
		}},
		{"added and removed activity", func(s *schedule.Schedule) {
			s.Activities = slices.DeleteFunc(s.Activities, func(a schedule.Activity) bool { return a.ID == "A6" })
			s.Relationships = slices.DeleteFunc(s.Relationships, func(r schedule.Relationship) bool { return r.ID == "R6" || r.ID == "R7" })
			s.Activities = append(s.Activities, schedule.Activity{ID: "A9", Name: "Snagging", Duration: "2"})
			s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R9", Type: schedule.FS, Predecessor: "A7", Successor: "A9"})
		}, func(t *testing.T, rep *compare.Report) {
			if got := ids(rep.ActivitiesAdded, func(a schedule.ComparedActivity) string { return a.ID }); !slices.Equal(got, []string{"A9"}) {
				t.Errorf("added = %v", got)
			}
			if got := ids(rep.ActivitiesRemoved, func(a schedule.ComparedActivity) string { return a.ID }); !slices.Equal(got, []string{"A6"}) {
				t.Errorf("removed = %v", got)
			}
			if len(rep.RelationshipsRemoved) != 2 || len(rep.RelationshipsAdded) != 1 {
				t.Errorf("links added %d removed %d, want 1 and 2", len(rep.RelationshipsAdded), len(rep.RelationshipsRemoved))
			}
		}},
		{"live fields", func(s *schedule.Schedule) {
			a := activity(s, "A5")
			a.Name = "Drainage runs"
			a.Calendar = "six"
			a.Type = schedule.ResourceDependent
			a.Constraint = &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-01-20"}
			a.WBS = "1.2"
			a.Codes = map[string]string{"Area": "North"}
			b := activity(s, "A2")
			b.ActualStart, b.Remaining, b.PercentComplete = "2026-01-12", "6", 50
			s.DataDate = "2026-01-19"
			s.Calendars = map[string]*schedule.Calendar{"six": {Name: "Six-day", Workdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}}}
			s.Calendar = &schedule.Calendar{Holidays: []string{"2026-01-26"}}
		}, func(t *testing.T, rep *compare.Report) {
			got := changeOf(rep, "A5")
			for field, want := range map[string][2]string{
				"name": {"Drainage", "Drainage runs"}, "calendar": {"", "six"}, "type": {"task", "resource dependent"},
				"constraint": {"", "start on or after 2026-01-20"}, "wbs": {"", "1.2"}, "code Area": {"", "North"},
			} {
				if got[field] != want {
					t.Errorf("A5 %s = %q, want %q", field, got[field], want)
				}
			}
			got = changeOf(rep, "A2")
			for field, want := range map[string][2]string{
				"actual_start": {"", "2026-01-12"}, "remaining": {"", "6"}, "percent_complete": {"0", "50"},
			} {
				if got[field] != want {
					t.Errorf("A2 %s = %q, want %q", field, got[field], want)
				}
			}
			if len(rep.Project) != 1 || rep.Project[0].Field != "data_date" || rep.Project[0].After != "2026-01-19" {
				t.Errorf("project changes = %+v, want the data date", rep.Project)
			}
			var cals []string
			for _, c := range rep.Calendars {
				cals = append(cals, c.Change+" "+c.Name+": "+strings.Join(c.Details, "; "))
			}
			want := []string{"changed project calendar: holidays added: 2026-01-26", "added Six-day: "}
			if !slices.Equal(cals, want) {
				t.Errorf("calendars = %q, want %q", cals, want)
			}
		}},
		{"changed link", func(s *schedule.Schedule) {
			r := relationship(s, "R3")
			r.Type, r.Lag = schedule.SS, 2
		}, func(t *testing.T, rep *compare.Report) {
			if len(rep.RelationshipsAdded)+len(rep.RelationshipsRemoved) != 0 || len(rep.RelationshipsChanged) != 1 {
				t.Fatalf("links: %+v %+v %+v, want one changed", rep.RelationshipsAdded, rep.RelationshipsRemoved, rep.RelationshipsChanged)
			}
			c := rep.RelationshipsChanged[0]
			if c.TypeBefore != schedule.FS || c.TypeAfter != schedule.SS || c.LagBefore != 0 || c.LagAfter != 2 || c.Text != "Pile caps -FS-> Ground beams now -SS+2->" {
				t.Errorf("changed link = %+v", c)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := piling(), piling()
			tc.edit(b)
			rep := compare.Compare(a, b, compare.Options{})
			if rep.CPMError != "" {
				t.Fatal(rep.CPMError)
			}
			tc.check(t, rep)
		})
	}
}

// TestFinishExplained: the sentence and the causes name the change on the
// driving path that moved the finish, and the causes add up to the move.
func TestFinishExplained(t *testing.T) {
	for _, tc := range []struct {
		name       string
		edit       func(s *schedule.Schedule)
		days       float64
		direction  string
		causes     []string // "kind id days why"
		textHas    []string
		becameCrit []string
	}{
		{
			name: "longer duration on the critical path",
			edit: func(s *schedule.Schedule) { activity(s, "A2").Duration = "17" },
			days: 5, direction: "later",
			causes:  []string{"activity A2 5 duration 12 -> 17"},
			textHas: []string{"The finish moved 5 working days later (Fri 2026-02-13 -> Fri 2026-02-20)", "Piling +5 d (duration 12 -> 17) drove it through Pile caps -> Ground beams -> Ground slab -> Handover."},
		},
		{
			name: "delay that float takes up in part",
			// Drainage 8 -> 22: the drainage branch had 11 d of float,
			// so the finish moves 3 d and drainage becomes critical.
			edit: func(s *schedule.Schedule) { activity(s, "A5").Duration = "22" },
			days: 3, direction: "later",
			causes:     []string{"activity A5 14 duration 8 -> 22", "relationship R7 -11 had 11 d of float before"},
			textHas:    []string{"Drainage +14 d (duration 8 -> 22) drove it through Drainage test -> Ground slab -> Handover", "Float the path had before took up 11 d of it."},
			becameCrit: []string{"A5", "A6"},
		},
		{
			name: "a lag on a driving link",
			edit: func(s *schedule.Schedule) { relationship(s, "R3").Lag = 2 },
			days: 2, direction: "later",
			causes:  []string{"relationship R3 2 lag 0 -> 2"},
			textHas: []string{"the link Pile caps -FS+2-> Ground beams +2 d (lag 0 -> 2) drove it through Ground beams"},
		},
		{
			name: "an activity added on the path",
			edit: func(s *schedule.Schedule) {
				s.Activities = append(s.Activities, schedule.Activity{ID: "A9", Name: "Pile testing", Duration: "4"})
				relationship(s, "R2").Predecessor = "A9"
				s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R9", Type: schedule.FS, Predecessor: "A2", Successor: "A9"})
			},
			days: 4, direction: "later",
			causes:  []string{"activity A9 4 added (4 d)"},
			textHas: []string{"Pile testing +4 d (added (4 d)) drove it through Pile caps"},
		},
		{
			name: "logic cut",
			// Without Pile caps -> Ground beams, the slab waits only for
			// drainage (day 16) and the project ends when pile caps do
			// (day 21), not at day 30: the cut link had held ground beams
			// 21 d, of which the drainage branch and pile caps take 12 back.
			edit: func(s *schedule.Schedule) {
				s.Relationships = slices.DeleteFunc(s.Relationships, func(r schedule.Relationship) bool { return r.ID == "R3" })
			},
			days: -9, direction: "earlier",
			causes: []string{"relationship R3 -21 link removed (logic cut)", "relationship R4 10 Ground slab now starts 10 d after this link allows",
				"end A8 2 another path now drives the finish, 2 d later than this one"},
			textHas: []string{"The finish moved 9 working days earlier (Fri 2026-02-13 -> Mon 2026-02-02)", "the link Pile caps -FS-> Ground beams was removed (logic cut, -21 d)"},
		},
		{
			name: "shorter duration",
			edit: func(s *schedule.Schedule) { activity(s, "A3").Duration = "2" },
			days: -2, direction: "earlier",
			causes:  []string{"activity A3 -2 duration 4 -> 2"},
			textHas: []string{"Pile caps -2 d (duration 4 -> 2)"},
		},
		{
			name: "more changes than a sentence names",
			edit: func(s *schedule.Schedule) {
				for id, d := range map[string]string{"A1": "6", "A2": "13", "A3": "5", "A4": "7", "A7": "5"} {
					activity(s, id).Duration = d
				}
			},
			days: 6, direction: "later",
			causes: []string{"activity A1 1 duration 5 -> 6", "activity A2 1 duration 12 -> 13", "activity A3 1 duration 4 -> 5",
				"activity A4 1 duration 6 -> 7", "activity A7 2 duration 3 -> 5"},
			// The four largest by their effect, in path order; the rest counted.
			textHas: []string{"Site set-up +1 d (duration 5 -> 6), Piling +1 d (duration 12 -> 13), Pile caps +1 d (duration 4 -> 5), Ground slab +2 d (duration 3 -> 5) and 1 more step (+1 d) drove it through Piling"},
		},
		{
			name: "start constraint",
			edit: func(s *schedule.Schedule) {
				activity(s, "A1").Constraint = &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-01-08"}
			},
			days: 3, direction: "later",
			causes:  []string{"start A1 3 constraint none -> start on or after 2026-01-08"},
			textHas: []string{"Site set-up's start +3 d (constraint none -> start on or after 2026-01-08)"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := piling(), piling()
			tc.edit(b)
			rep := compare.Compare(a, b, compare.Options{})
			fm := rep.Finish
			if fm == nil {
				t.Fatalf("no finish: %s", rep.CPMError)
			}
			if fm.Days != tc.days || fm.Direction != tc.direction {
				t.Errorf("finish moved %v %s, want %v %s", fm.Days, fm.Direction, tc.days, tc.direction)
			}
			var causes []string
			sum := 0.0
			for _, c := range fm.Causes {
				causes = append(causes, strings.TrimSpace(c.Kind+" "+c.ID+" "+days(c.Days)+" "+c.Why))
				sum += c.Days
			}
			if !slices.Equal(causes, tc.causes) {
				t.Errorf("causes = %q, want %q", causes, tc.causes)
			}
			if schedule.RoundDays(sum) != fm.Days {
				t.Errorf("causes add up to %v, the finish moved %v", sum, fm.Days)
			}
			for _, want := range tc.textHas {
				if !strings.Contains(fm.Text, want) {
					t.Errorf("text %q lacks %q", fm.Text, want)
				}
			}
			if tc.becameCrit != nil {
				if got := ids(rep.BecameCritical, func(a schedule.ComparedActivity) string { return a.ID }); !slices.Equal(got, tc.becameCrit) {
					t.Errorf("became critical = %v, want %v", got, tc.becameCrit)
				}
			}
		})
	}
}

func days(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestFloatErosion: activities whose total float fell, the largest drop
// first, counted; a gain is not erosion.
func TestFloatErosion(t *testing.T) {
	a, b := piling(), piling()
	// Drainage +6 eats 6 d of the drainage branch's 11; piling -1 gives
	// the critical path 1 d of... nothing: it shortens the finish by 1, so
	// the drainage branch loses 1 more. Drainage test gains nothing else.
	activity(b, "A5").Duration = "14"
	activity(b, "A6").Duration = "4"
	rep := compare.Compare(a, b, compare.Options{})
	var got []string
	for _, f := range rep.FloatErosion {
		got = append(got, f.ID+" "+days(f.Before)+"->"+days(f.After)+" "+days(f.Drop))
	}
	want := []string{"A5 11->4 7", "A6 11->4 7"}
	if !slices.Equal(got, want) {
		t.Errorf("float erosion = %q, want %q", got, want)
	}

	// Sorted by the drop: the bigger one first whatever the order.
	a, b = piling(), piling()
	activity(b, "A6").Duration = "5" // drainage branch: -2
	b.Activities = append(b.Activities, schedule.Activity{ID: "B1", Name: "Services", Duration: "1"})
	b.Relationships = append(b.Relationships,
		schedule.Relationship{ID: "RB1", Type: schedule.FS, Predecessor: "A1", Successor: "B1"},
		schedule.Relationship{ID: "RB2", Type: schedule.FS, Predecessor: "B1", Successor: "A5"})
	rep = compare.Compare(a, b, compare.Options{})
	got = got[:0]
	for _, f := range rep.FloatErosion {
		got = append(got, f.ID+" "+days(f.Drop))
	}
	want = []string{"A5 3", "A6 3"}
	if !slices.Equal(got, want) {
		t.Errorf("float erosion = %q, want %q", got, want)
	}
}

// TestFloatErosionOrder: a larger drop comes first even when the activity
// comes later in the schedule.
func TestFloatErosionOrder(t *testing.T) {
	s := &schedule.Schedule{Activities: []schedule.Activity{
		{ID: "X", Name: "Long", Duration: "20"},
		{ID: "P", Name: "Small drop", Duration: "2"},
		{ID: "Q", Name: "Big drop", Duration: "2"},
	}}
	a, b := s, s.Clone()
	b.Activities[1].Duration = "3"  // float 18 -> 17
	b.Activities[2].Duration = "12" // float 18 -> 8
	rep := compare.Compare(a, b, compare.Options{})
	got := ids(rep.FloatErosion, func(f compare.FloatDrop) string { return f.ID + " " + days(f.Drop) })
	if want := []string{"Q 10", "P 1"}; !slices.Equal(got, want) {
		t.Errorf("float erosion = %q, want %q", got, want)
	}
}

// TestFormats: the text, JSON and HTML forms say the same thing, and the
// HTML page escapes what the schedule holds.
func TestFormats(t *testing.T) {
	a, b := piling(), piling()
	activity(b, "A2").Duration = "17"
	activity(b, "A3").Name = `<script>alert("caps")</script>`
	rep := compare.Compare(a, b, compare.Options{BeforeLabel: "jan.json", AfterLabel: "feb.json"})

	var text bytes.Buffer
	if err := compare.WriteText(&text, rep, compare.TextOptions{Limit: 20}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Comparing jan.json with feb.json", "The finish moved 5 working days later", "~ Piling (A2): duration 12 -> 17",
		"Critical path: 0 became critical", "Float erosion: 0 activities"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}

	var page bytes.Buffer
	if err := compare.WriteHTML(&page, rep, compare.TextOptions{Limit: 20}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page.String(), "<script>") {
		t.Error("a name became markup in the HTML page")
	}
	if !strings.Contains(page.String(), "&lt;script&gt;") || !strings.Contains(page.String(), "Piling &#43;5 d") {
		t.Errorf("the page lacks the escaped name or the finish:\n%s", page.String())
	}

	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"before", "after", "matched_by", "project", "calendars", "activities_added", "activities_removed",
		"activities_changed", "relationships_added", "relationships_removed", "relationships_changed", "finish",
		"became_critical", "no_longer_critical", "float_erosion"} {
		if _, ok := back[key]; !ok {
			t.Errorf("JSON lacks %q", key)
		}
	}
}

// TestCPMFails: a version CPM refuses still gets its changes, with the
// reason instead of the finish.
func TestCPMFails(t *testing.T) {
	a, b := piling(), piling()
	b.Relationships = append(b.Relationships, schedule.Relationship{ID: "RX", Type: schedule.FS, Predecessor: "A8", Successor: "A1"})
	rep := compare.Compare(a, b, compare.Options{AfterLabel: "b.json"})
	if rep.Finish != nil || !strings.Contains(rep.CPMError, "b.json") {
		t.Errorf("finish %+v, error %q: want none and the error naming b.json", rep.Finish, rep.CPMError)
	}
	if len(rep.RelationshipsAdded) != 1 {
		t.Errorf("added links = %+v", rep.RelationshipsAdded)
	}
	var text bytes.Buffer
	if err := compare.WriteText(&text, rep, compare.TextOptions{}); err != nil || !strings.Contains(text.String(), "not compared") {
		t.Errorf("text (%v):\n%s", err, text.String())
	}
}

// TestNilAndEmpty: no panic on nothing.
func TestNilAndEmpty(t *testing.T) {
	rep := compare.Compare(nil, &schedule.Schedule{}, compare.Options{})
	var buf bytes.Buffer
	if err := compare.WriteText(&buf, rep, compare.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := compare.WriteHTML(&buf, rep, compare.TextOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestRealFiles: each real P6 and MS Project file, compared with a copy
// whose last driving activity with work left takes 5 working days more:
// the finish moves later, the change is named on the path, and the causes
// add up to the move. The files are the tools' own (progress, calendars,
// constraints): nothing here is hand-made.
func TestRealFiles(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/data/real/*")
	tried := 0
	for _, path := range files {
		if f, err := interchange.FormatOf(path); err != nil || f == interchange.JSON {
			continue
		}
		read, err := interchange.LoadWith(path, interchange.Options{})
		if err != nil {
			continue // a file the reader refuses (invalid-8.4.xer) is its tests' business
		}
		s := read.Schedule
		v, err := insight.New(s)
		if err != nil {
			continue
		}
		// The last activity on the driving path with a plain duration in
		// days, no progress, and its duration its own (not a manually
		// scheduled task's dates, not its assignments' work): lengthening
		// it must move the finish.
		driving := v.DrivingPathToFinish().IDs()
		target := ""
		for _, id := range slices.Backward(driving) {
			a := activity(s, id)
			if d, err := strconv.ParseFloat(a.Duration, 64); err == nil && d > 0 && a.ActualStart == "" && a.Remaining == "" &&
				a.Constraint == nil && a.Type == schedule.TaskType && !a.Manual && len(a.Assignments) == 0 {
				target = id
				break
			}
		}
		if target == "" {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			tried++
			b := s.Clone()
			a := activity(b, target)
			d, _ := strconv.ParseFloat(a.Duration, 64)
			a.Duration = strconv.FormatFloat(d+5, 'f', -1, 64)
			rep := compare.Compare(s, b, compare.Options{})
			fm := rep.Finish
			if fm == nil {
				t.Fatalf("no finish: %s", rep.CPMError)
			}
			if fm.Direction != "later" || fm.Days <= 0 || fm.Days > 5+tolerance {
				t.Errorf("finish moved %v %s, want later by up to 5 d", fm.Days, fm.Direction)
			}
			sum, named := 0.0, false
			for _, c := range fm.Causes {
				sum += c.Days
				named = named || c.ID == target && c.Days > 0 && strings.Contains(c.Why, "duration")
			}
			if !named {
				t.Errorf("causes %+v do not name %s's duration", fm.Causes, target)
			}
			if math.Abs(sum-fm.Days) > tolerance {
				t.Errorf("causes add up to %v, the finish moved %v", sum, fm.Days)
			}
			if len(rep.ActivitiesChanged) != 1 || rep.ActivitiesChanged[0].ID != target {
				t.Errorf("changed = %+v, want %s only", rep.ActivitiesChanged, target)
			}
			if len(rep.Project)+len(rep.Calendars)+len(rep.RelationshipsAdded)+len(rep.RelationshipsRemoved)+len(rep.RelationshipsChanged) != 0 {
				t.Errorf("changes reported that were not made: %+v", rep)
			}
			// And with itself: nothing.
			same := compare.Compare(s, s.Clone(), compare.Options{})
			if same.Finish == nil || same.Finish.Direction != "unchanged" || len(same.ActivitiesChanged) != 0 || len(same.FloatErosion) != 0 {
				t.Errorf("a file against its copy: %+v", same.Finish)
			}
		})
	}
	if len(files) > 0 && tried == 0 {
		t.Error("no real file had an activity to lengthen")
	}
}

// tolerance is the clock's rounding: a working minute.
const tolerance = 1e-3

// TestLiveProgramme: a statused programme (P6 rules, three calendars,
// actuals) a week on, with no progress reported on its running work: the
// finish moves, the data date is named, and the steps add up. (Its
// finish-on milestone would hold the finish: it goes in both.)
func TestLiveProgramme(t *testing.T) {
	a := storetest.LiveSchedule()
	activity(a, "L4").Constraint = nil
	b := a.Clone()
	b.DataDate = "2026-03-23T08:00"
	rep := compare.Compare(a, b, compare.Options{})
	fm := rep.Finish
	if fm == nil {
		t.Fatal(rep.CPMError)
	}
	if len(rep.Project) != 1 || rep.Project[0].Field != "data_date" {
		t.Errorf("project changes = %+v", rep.Project)
	}
	if fm.Direction != "later" || fm.Before == "" || fm.After == "" {
		t.Errorf("finish = %+v, want later with dates", fm)
	}
	sum := 0.0
	for _, c := range fm.Causes {
		sum += c.Days
	}
	if math.Abs(sum-fm.Days) > tolerance || !strings.Contains(fm.Text, "data date 2026-03-16T08:00 -> 2026-03-23T08:00") {
		t.Errorf("causes %+v (sum %v, finish %v), text %q", fm.Causes, sum, fm.Days, fm.Text)
	}
}
