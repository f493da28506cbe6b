package web_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var tableRow = regexp.MustCompile(`<tr id="row-([^"]+)"`)

// rowsOf are the ids of the activity table's rows in a schedule page.
func rowsOf(page string) []string {
	var ids []string
	for _, m := range tableRow.FindAllStringSubmatch(page, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// TestActivityTableFilters: the schedule page's table filtered by text,
// critical and the last accepted dispatch's changes, grouped by level,
// and paged; the Gantt frame carries the view.
func TestActivityTableFilters(t *testing.T) {
	a := startApp(t)
	const id = "table"
	a.importFile(t, "../../examples/building.json", id)
	b := a.browser(t)

	_, page := b.get("/s/" + id)
	if n := len(rowsOf(page)); n != 147 || strings.Contains(page, `name="changed"`) {
		t.Errorf("all: %d rows (want 147); changed filter offered with no dispatch: %v", n, strings.Contains(page, `name="changed"`))
	}
	_, page = b.get("/s/" + id + "?find=pour+slab")
	if ids := rowsOf(page); len(ids) != 4 || !strings.Contains(page, "Activities 1–4 of 4 (147 in the schedule)") {
		t.Errorf("find pour slab: %v", ids)
	}
	if src := regexp.MustCompile(`<iframe class="gantt" id="gantt" src="([^"]*)"`).FindStringSubmatch(page); src == nil || !strings.Contains(src[1], "find=pour") {
		t.Errorf("the Gantt frame does not carry the filter: %v", src)
	}
	_, page = b.get("/s/" + id + "?per=50&page=3")
	if ids := rowsOf(page); len(ids) != 47 || ids[0] != "A101" || !strings.Contains(page, `rel="prev"`) || strings.Contains(page, `rel="next"`) {
		t.Errorf("page 3 of 50 a page: %d rows from %v", len(ids), ids[:min(1, len(ids))])
	}
	_, page = b.get("/s/" + id + "?per=50&at=A120")
	if !strings.Contains(page, `<tr id="row-A120" class=" target">`) && !strings.Contains(page, `<tr id="row-A120" class="critical target">`) {
		t.Error("?at=A120 does not show and mark its row")
	}
	_, page = b.get("/s/" + id + "?group=level&critical=1")
	if !strings.Contains(page, `<th colspan="6" scope="rowgroup">Level 3</th>`) || strings.Index(page, ">Level 2</th>") > strings.Index(page, ">Level 3</th>") {
		t.Error("grouped by level: no Level 3 group, or the groups out of order")
	}
	// Its Gantt draws each group under a summary bar.
	if _, gantt := b.get("/s/" + id + "/gantt?group=level"); !strings.Contains(gantt, `<div class="row group-row"><span class="c-id"></span><span class="c-name">Level 3</span>`) ||
		!strings.Contains(gantt, `class="bar summary"`) {
		t.Error("the grouped Gantt has no Level 3 summary row and bar")
	}

	dispatchID := b.prompt(id, "Delete all activities on the second floor", "erin")
	b.reviewPageShows(dispatchID, `id="review-form"`)
	b.post("/d/"+dispatchID+"/review", url.Values{"round": {"1"}, "decision": {"accept"}})
	b.reviewPageShows(dispatchID, `id="outcome"`)
	_, page = b.get("/s/" + id + "?changed=1")
	ids := rowsOf(page)
	if !strings.Contains(page, `name="changed"`) || len(ids) == 0 || len(ids) > 20 {
		t.Fatalf("changed by the last dispatch: %v", ids)
	}
	// The deleted level 2 work is gone: what is left is what it was linked to.
	for _, id := range ids {
		if strings.Contains(page, `<tr id="row-`+id+`"`) && strings.Contains(page, "Level 2</td>") {
			t.Errorf("a level 2 activity is still listed: %s", id)
		}
	}
}
