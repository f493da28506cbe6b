package scope

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestDecompose: a prompt of several requests becomes tasks whose
// dependencies come from sequencing words and from references to what an
// earlier request creates; one request is no tasks.
func TestDecompose(t *testing.T) {
	cases := []struct {
		prompt string
		want   []string // "id:prompt<-deps"
	}{
		{"delete the level 4 ceilings", nil},
		{"delete painting on level 2, then level 3", nil}, // an ellipsis continues the request
		{"delete the level 4 ceilings, add a 2 day fire-stopping after drywall board on each level, then make the roof start after the new level 4 fire-stopping",
			[]string{"1:delete the level 4 ceilings<-", "2:add a 2 day fire-stopping after drywall board on each level<-",
				"3:then make the roof start after the new level 4 fire-stopping<-2"}},
		// A reference to an earlier request's new activity, no "then".
		{"add a 3 day scaffold inspection after drywall board level 2; link the scaffold inspection to painting level 2; delete tiling level 1",
			[]string{"1:add a 3 day scaffold inspection after drywall board level 2<-", "2:link the scaffold inspection to painting level 2<-1",
				"3:delete tiling level 1<-"}},
		// Sequencing words other than "then".
		{"Delete the level 1 tiling. After that, add a 2 day inspection after painting level 1",
			[]string{"1:Delete the level 1 tiling<-", "2:add a 2 day inspection after painting level 1<-1"}},
		// An inline numbered list.
		{"1) delete tiling level 1 2) add a 2 day sealing after painting level 1 3) link the sealing to flooring level 1",
			[]string{"1:delete tiling level 1<-", "2:add a 2 day sealing after painting level 1<-", "3:link the sealing to flooring level 1<-2"}},
		// "…, finally …" after a comma.
		{"shorten joinery level 2 by 1 day and add a 1 day joinery inspection after joinery level 2, finally link the joinery inspection to doors and frames level 2",
			[]string{"1:shorten joinery level 2 by 1 day<-", "2:add a 1 day joinery inspection after joinery level 2<-",
				"3:finally link the joinery inspection to doors and frames level 2<-2"}},
		// "the new ..." with no matching name: the latest request that creates something.
		{"add a 1 day cleanup after painting level 4, rename tiling level 4 to Floor tiling Level 4, then link the new activity to handover",
			[]string{"1:add a 1 day cleanup after painting level 4<-", "2:rename tiling level 4 to Floor tiling Level 4<-",
				"3:then link the new activity to handover<-2"}},
	}
	for _, c := range cases {
		tasks := Decompose(c.prompt)
		var got []string
		for _, task := range tasks {
			got = append(got, task.ID+":"+task.Prompt+"<-"+strings.Join(task.DependsOn, ","))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q:\n got %q\nwant %q", c.prompt, got, c.want)
		}
		if err := CheckTasks(tasks); err != nil {
			t.Errorf("%q: %v", c.prompt, err)
		}
	}
}

func TestCheckTasks(t *testing.T) {
	cases := []struct {
		tasks []Task
		err   string
	}{
		{[]Task{{ID: "1", Prompt: "a"}, {ID: "2", Prompt: "b", DependsOn: []string{"1"}}}, ""},
		{[]Task{{ID: "1", Prompt: "a"}, {ID: "1", Prompt: "b"}}, `task "1" appears twice`},
		{[]Task{{ID: "1", Prompt: "a", DependsOn: []string{"2"}}, {ID: "2", Prompt: "b"}}, `task "1" depends on "2", which is not an earlier task`},
		{[]Task{{ID: "", Prompt: "a"}}, "task 1 has no id"},
		{[]Task{{ID: "1", Prompt: " "}}, `task "1" has no prompt`},
	}
	for _, c := range cases {
		err := CheckTasks(c.tasks)
		if (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("%+v: error %v, want %q", c.tasks, err, c.err)
		}
	}
}

// TestReadTaskFeedback: feedback that names tasks goes to them (and to the
// tasks that depend on them, afresh); feedback that names none goes to all.
func TestReadTaskFeedback(t *testing.T) {
	tasks := []Task{{ID: "1"}, {ID: "2"}, {ID: "3", DependsOn: []string{"2"}}, {ID: "4", DependsOn: []string{"3"}}}
	cases := []struct {
		feedback string
		want     []string // per task: "replan:feedback" or "keep"
		unknown  []string
	}{
		{"task 2: 3 days, not 2", []string{"keep", "replan:3 days, not 2", "replan:", "replan:"}, nil},
		{"use SS links", []string{"replan:use SS links", "replan:use SS links", "replan:use SS links", "replan:use SS links"}, nil},
		{"for task 1, only level 2; task 4 - 2 days lag", []string{"replan:only level 2", "keep", "keep", "replan:2 days lag"}, nil},
		{"tasks 1 and 4: not the level 4 ones", []string{"replan:not the level 4 ones", "keep", "keep", "replan:not the level 4 ones"}, nil},
		{"looks good except #3: link to painting instead", []string{"keep", "keep", "replan:looks good except link to painting instead", "replan:"}, nil},
		{"task 9: nothing", []string{"replan:task 9: nothing", "replan:task 9: nothing", "replan:task 9: nothing", "replan:task 9: nothing"}, []string{"9"}},
		{"TASK 02 — make it 4 days", []string{"keep", "replan:make it 4 days", "replan:", "replan:"}, nil},
	}
	for _, c := range cases {
		fb := ReadTaskFeedback(c.feedback, tasks)
		var got []string
		for _, task := range tasks {
			text, replan := fb.For(task, tasks)
			if replan {
				got = append(got, "replan:"+text)
			} else {
				got = append(got, "keep")
			}
		}
		if !slices.Equal(got, c.want) || !slices.Equal(fb.Unknown, c.unknown) {
			t.Errorf("%q:\n got %q unknown %v\nwant %q unknown %v", c.feedback, got, fb.Unknown, c.want, c.unknown)
		}
	}
}

func FuzzReadTaskFeedback(f *testing.F) {
	for _, s := range []string{"task 2: 3 days, not 2", "tasks 1, 2 and 3: x", "#4 - y", "for task 1, z; task 3: w", "task", "#"} {
		f.Add(s)
	}
	tasks := []Task{{ID: "1"}, {ID: "2", DependsOn: []string{"1"}}, {ID: "3"}}
	f.Fuzz(func(t *testing.T, s string) {
		fb := ReadTaskFeedback(s, tasks)
		for _, n := range fb.Named {
			if !slices.ContainsFunc(tasks, func(x Task) bool { return x.ID == n.Task }) {
				t.Fatalf("%q: feedback for unknown task %q", s, n.Task)
			}
		}
		if len(fb.Named) == 0 && fb.General != strings.TrimSpace(s) {
			t.Fatalf("%q: nothing named, yet general is %q", s, fb.General)
		}
	})
}

func FuzzDecompose(f *testing.F) {
	for _, s := range []string{"delete A, then add B after A", "add X after Y; link the new X to Z", "then", ", then ,", "delete a. after that"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tasks := Decompose(s)
		if len(tasks) == 1 {
			t.Fatalf("%q: one task (want none or several)", s)
		}
		if err := CheckTasks(tasks); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	})
}

// TestPlanRoundTasks previews a multi-part prompt as the dispatch plans
// it: ops tagged by task, then feedback naming task 2.
func TestPlanRoundTasks(t *testing.T) {
	s := storetest.Building(t)
	const prompt = "delete the level 4 ceilings, add a 2 day fire-stopping after drywall board on each level, " +
		"then make the roofing membrane start after the new level 4 fire-stopping"
	ctx := context.Background()
	r1, err := PlanRound(ctx, Rules{}, s, PlanInput{Prompt: prompt, Round: 1})
	if err != nil {
		t.Fatal(err)
	}
	count := func(r *Round) map[string]int {
		m := map[string]int{}
		for _, op := range r.Ops {
			m[op.Task]++
		}
		return m
	}
	if got := count(r1); got["1"] != 1 || got["2"] != 8 || got["3"] != 1 || len(got) != 3 {
		t.Fatalf("ops by task = %v; notes %q; question %q", got, r1.Notes, r1.Question)
	}
	r2, err := PlanRound(ctx, Rules{}, s, PlanInput{Prompt: prompt, Round: 2, Feedback: "task 2: 3 days, not 2", Previous: r1.Ops})
	if err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for _, rep := range r2.Tasks {
		statuses = append(statuses, rep.ID+":"+rep.Status)
	}
	if !slices.Equal(statuses, []string{"1:kept", "2:planned", "3:planned"}) {
		t.Errorf("round 2 tasks = %v", statuses)
	}
	for _, op := range r2.Ops {
		if op.Activity != nil && strings.HasPrefix(op.Activity.Name, "Fire-stopping") && op.Activity.Duration != "3" {
			t.Errorf("%s lasts %s, want 3", op.Activity.Name, op.Activity.Duration)
		}
	}
	if count(r2)["3"] != 1 {
		t.Errorf("task 3 planned no link in round 2: %v", r2.Notes)
	}
}

// failing fails the additions step of prompts holding word.
type failing struct {
	Rules
	word string
}

func (p failing) PlanAdditions(ctx context.Context, snap Snapshot, in PlanInput) (Plan, error) {
	if strings.Contains(in.Prompt, p.word) {
		return Plan{}, errors.New("planner down")
	}
	return p.Rules.PlanAdditions(ctx, snap, in)
}

// TestPlanRoundFailedTask: a failed task is undone on the copy and its
// dependents blocked; when every task fails, the round fails.
func TestPlanRoundFailedTask(t *testing.T) {
	s := storetest.Building(t)
	ctx := context.Background()
	const prompt = "delete the level 4 ceilings; make painting on level 3 follow drywall taping level 3 instead of suspended ceilings level 3, then shorten painting level 3 by 1 day"
	r, err := PlanRound(ctx, failing{word: "instead of"}, s, PlanInput{Prompt: prompt, Round: 1})
	if err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for _, rep := range r.Tasks {
		statuses = append(statuses, rep.ID+":"+rep.Status)
	}
	if !slices.Equal(statuses, []string{"1:planned", "2:failed", "3:blocked"}) {
		t.Fatalf("tasks = %v", statuses)
	}
	if len(r.Ops) != 1 || r.Ops[0].Task != "1" {
		t.Errorf("ops = %v, want task 1's deletion only", r.Ops)
	}
	if len(r.After.Relationships) != len(s.Relationships)-3 { // the ceilings' three links
		t.Errorf("links %d -> %d: task 2's removal was not undone", len(s.Relationships), len(r.After.Relationships))
	}
	if _, err := PlanRound(ctx, failing{word: "level"}, s, PlanInput{Prompt: "add a 1 day x after painting level 3, add a 1 day y after painting level 4"}); err == nil || !strings.Contains(err.Error(), "task 1") {
		t.Errorf("every task failed: error %v", err)
	}
}

// TestFeedbackDaysOnAChangeByDays: "make it 3 days" after a change by a
// number of days changes it by 3 (Site hoarding lasts 4); after a duration
// said outright it sets 3.
func TestFeedbackDaysOnAChangeByDays(t *testing.T) {
	ctx := context.Background()
	s := storetest.Building(t)
	for _, c := range []struct{ prompt, feedback, want string }{
		{"add 2 days to site hoarding", "make it 3 days", "7"},
		{"site hoarding needs another 2 days", "3 days, not 2", "7"},
		{"shorten site hoarding by 2 days", "make it 3 days", "1"},
		{"site hoarding will take 6 days", "make it 3 days", "3"},
	} {
		r1, err := PlanRound(ctx, Rules{}, s, PlanInput{Prompt: c.prompt, Round: 1})
		if err != nil || len(r1.Ops) != 1 {
			t.Fatalf("%q: round 1 ops %v, err %v; notes %q; question %q", c.prompt, r1.Ops, err, r1.Notes, r1.Question)
		}
		r2, err := PlanRound(ctx, Rules{}, s, PlanInput{Prompt: c.prompt, Round: 2, Feedback: c.feedback, Previous: r1.Ops})
		if err != nil {
			t.Fatal(err)
		}
		if len(r2.Ops) != 1 || r2.Ops[0].Activity == nil || r2.Ops[0].Activity.Duration != c.want {
			t.Errorf("%q then %q: ops %+v, want Site hoarding at %s days; notes %q", c.prompt, c.feedback, r2.Ops, c.want, r2.Notes)
		}
	}
}
