package web_test

import (
	"net/url"
	"strings"
	"testing"
)

// TestTasksInTheReview: a multi-part prompt's review page lists its tasks
// with their dependencies and changes; feedback naming task 2 keeps task 1.
func TestTasksInTheReview(t *testing.T) {
	a := startApp(t)
	a.importFile(t, "../../examples/building.json", "tasks")
	b := a.browser(t)
	const prompt = "delete the level 4 ceilings, add a 2 day fire-stopping after drywall board on each level, " +
		"then make the roofing membrane start after the new level 4 fire-stopping"
	id := b.prompt("tasks", prompt, "alice")
	page := b.reviewPageShows(id, `id="review-form"`)
	for _, want := range []string{`id="tasks"`, `data-task="1" data-status="planned"`, `data-task="3" data-status="planned"`,
		"(after task 2)", "“then make the roofing membrane start after the new level 4 fire-stopping”",
		`add_activity(name=&#34;Fire-stopping Level 4&#34;, duration=&#34;2&#34;)`, "task 2: 3 days, not 2",
		`id="p80-change"`, "P80 finish (Monte Carlo, 2000 iterations)"} {
		if !strings.Contains(page, want) {
			t.Errorf("round 1's review page lacks %q", want)
		}
	}
	b.post("/d/"+id+"/review", url.Values{"round": {"1"}, "decision": {"feedback"}, "name": {"alice"}, "feedback": {"task 2: 3 days, not 2"}})
	page = b.reviewPageShows(id, `name="round" value="2"`)
	for _, want := range []string{`data-task="1" data-status="kept"`, "kept from the last round", `data-task="2" data-status="planned"`,
		"planned again with &#34;3 days, not 2&#34;", `add_activity(name=&#34;Fire-stopping Level 4&#34;, duration=&#34;3&#34;)`} {
		if !strings.Contains(page, want) {
			t.Errorf("round 2's review page lacks %q", want)
		}
	}
}
