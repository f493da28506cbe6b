package interchange

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func TestCrossFormatExplore(t *testing.T) {
	var paths []string
	for _, dir := range []string{"/work/shared/data/real", "/work/shared/data/mspdi"} {
		p, _ := filepath.Glob(filepath.Join(dir, "*"))
		paths = append(paths, p...)
	}
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		from, _ := FormatOf(p)
		r, err := ParseWith(data, from, Options{})
		if err != nil {
			t.Logf("%s: %v", p, err)
			continue
		}
		for _, to := range []Format{XER, MSPDI} {
			var buf bytes.Buffer
			if err := Write(&buf, r.Schedule, to, nil); err != nil {
				t.Errorf("%s -> %s: %v", filepath.Base(p), to, err)
				continue
			}
			os.WriteFile("/tmp/xf/"+filepath.Base(p)+to.Extension(), buf.Bytes(), 0o644)
			back, err := ParseWith(buf.Bytes(), to, Options{})
			if err != nil {
				t.Errorf("%s -> %s: read back: %v", filepath.Base(p), to, err)
				continue
			}
			d := diffAll(back.Schedule, r.Schedule)
			t.Logf("%s -> %s: %d diffs\n%s", filepath.Base(p), to, len(d), strings.Join(d[:min(len(d), 12)], "\n"))
		}
	}
}

func diffAll(got, want *schedule.Schedule) []string {
	var out []string
	add := func(where string, g, w any) {
		gs, ws := fmt.Sprintf("%v", deref(g)), fmt.Sprintf("%v", deref(w))
		if gs != ws {
			out = append(out, fmt.Sprintf("%s: got %s want %s", where, gs, ws))
		}
	}
	add("name", got.Name, want.Name)
	add("start", got.StartDate, want.StartDate)
	add("data date", got.DataDate, want.DataDate)
	add("options", got.Options, want.Options)
	add("calendar", got.Calendar, want.Calendar)
	for k, c := range want.Calendars {
		add("calendars["+k+"]", got.Calendars[k], c)
	}
	add("n calendars", len(got.Calendars), len(want.Calendars))
	add("n activities", len(got.Activities), len(want.Activities))
	for i := range min(len(got.Activities), len(want.Activities)) {
		g, w := got.Activities[i], want.Activities[i]
		p := "activity " + w.ID
		add(p+" id", g.ID, w.ID)
		add(p+" name", g.Name, w.Name)
		add(p+" description", g.Description, w.Description)
		add(p+" duration", g.Duration, w.Duration)
		add(p+" type", g.Type, w.Type)
		add(p+" calendar", g.Calendar, w.Calendar)
		add(p+" constraint", g.Constraint, w.Constraint)
		add(p+" constraint2", g.SecondaryConstraint, w.SecondaryConstraint)
		add(p+" actual start", g.ActualStart, w.ActualStart)
		add(p+" actual finish", g.ActualFinish, w.ActualFinish)
		add(p+" remaining", g.Remaining, w.Remaining)
		add(p+" pct", g.PercentComplete, w.PercentComplete)
		add(p+" manual", fmt.Sprint(g.Manual, g.Start, g.Finish), fmt.Sprint(w.Manual, w.Start, w.Finish))
		add(p+" wbs", g.WBS, w.WBS)
		add(p+" codes", g.Codes, w.Codes)
		add(p+" assignments", g.Assignments, w.Assignments)
	}
	add("n rels", len(got.Relationships), len(want.Relationships))
	for i := range min(len(got.Relationships), len(want.Relationships)) {
		add(fmt.Sprint("rel ", i), got.Relationships[i], want.Relationships[i])
	}
	return out
}

func deref(v any) any {
	switch x := v.(type) {
	case *schedule.Calendar:
		if x != nil {
			return *x
		}
	case *schedule.Constraint:
		if x != nil {
			return *x
		}
	case *schedule.Options:
		if x != nil {
			return *x
		}
	}
	return v
}

func TestUncarriedExplore(t *testing.T) {
	var paths []string
	for _, dir := range []string{"/work/shared/data/real", "/work/shared/data/mspdi"} {
		p, _ := filepath.Glob(filepath.Join(dir, "*"))
		paths = append(paths, p...)
	}
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		from, _ := FormatOf(p)
		r, err := ParseWith(data, from, Options{KeepSource: true})
		if err != nil {
			continue
		}
		to := XER
		if from == XER {
			to = MSPDI
		}
		t.Logf("%s -> %s:\n  %s", filepath.Base(p), to, strings.Join(Uncarried(r.Schedule, to), "\n  "))
	}
}
