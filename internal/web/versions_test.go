package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestCompareWithThePreviousUpdate: a schedule statused to a new data
// date links its previous update, compares with it and answers what
// slipped since it.
func TestCompareWithThePreviousUpdate(t *testing.T) {
	a := startApp(t)
	b := a.browser(t)
	first := storetest.Building(t)
	first.DataDate = "2026-01-05"
	a.importSchedule(t, first, "upd")
	if _, page := b.get("/s/upd"); strings.Contains(page, `id="compare-previous"`) {
		t.Error("a schedule with no earlier update links one")
	}
	if code, _ := b.get("/compare?s=upd&previous=1"); code != http.StatusNotFound {
		t.Errorf("compare with no previous update: %d, want 404", code)
	}
	next := first.Clone()
	next.DataDate = "2026-01-12"
	for i := range next.Activities {
		if next.Activities[i].ID == "A002" {
			next.Activities[i].Duration = "9"
		}
	}
	a.importSchedule(t, next, "upd")
	_, page := b.get("/s/upd")
	if !strings.Contains(page, `href="/compare?s=upd&amp;previous=1"`) || !strings.Contains(page, "Compare with the previous update (2026-01-05)") {
		t.Errorf("the schedule page links no previous update")
	}
	code, page := b.get("/compare?s=upd&previous=1")
	if code != http.StatusOK || !strings.Contains(page, "upd at data date 2026-01-05") || !strings.Contains(page, "Mobilisation") {
		t.Errorf("compare with the previous update: %d, %.400s", code, page)
	}
	if code, _ := b.get("/compare?s=upd&at=2026-01-05&at=2026-01-12"); code != http.StatusOK {
		t.Errorf("compare at two data dates: %d", code)
	}
	for _, bad := range []string{"/compare?s=upd", "/compare?s=upd&at=5%20Jan", "/compare?s=upd&previous=1&at=2026-01-05"} {
		if code, _ := b.get(bad); code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", bad, code)
		}
	}
	if code, _ := b.get("/compare?s=upd&at=2026-02-02"); code != http.StatusNotFound {
		t.Errorf("compare at a date with no version: %d, want 404", code)
	}
	_, page = b.get("/s/upd?ask=what+slipped+since+the+last+update")
	if !strings.Contains(page, "Since the last update (upd at data date 2026-01-05") || !strings.Contains(page, "The finish moved 4 working days later") {
		t.Errorf("ask what slipped since the last update: the page lacks the answer")
	}
}
