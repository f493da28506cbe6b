package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPrefsCmd(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	cli := func(args ...string) (int, string, string) { return runCLI(t, append(args, db...)...) }
	if code, _, errOut := cli("import", "../examples/building.json", "--schedule", "building"); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	if code, out, errOut := cli("prefs", "show", "--schedule", "building"); code != 0 || !strings.Contains(out, "no preferences set") {
		t.Fatalf("show on a fresh schedule: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := cli("prefs", "set", "--schedule", "building", "link=FS+1", "duration:inspection=1", "naming=<Trade> Level <n>", "trades=drywall=gypsum board|plasterboard")
	if code != 0 {
		t.Fatalf("set: exit %d %s", code, errOut)
	}
	for _, w := range []string{"link", "FS+1", "duration:inspection", "{Trade} Level {level}", "drywall=gypsum board|plasterboard"} {
		if !strings.Contains(out, w) {
			t.Errorf("set printed no %q:\n%s", w, out)
		}
	}
	code, out, errOut = cli("prefs", "set", "--schedule", "building", "--remember", "use SS+2 for new inspections")
	if code != 0 || !strings.Contains(errOut, "saved: new inspections: link SS+2") || !strings.Contains(out, "link:inspection") {
		t.Fatalf("set --remember: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = cli("prefs", "show", "--schedule", "building", "--json")
	if code != 0 {
		t.Fatalf("show --json: %s", errOut)
	}
	var got struct {
		Schedule    string
		Preferences struct {
			Links []struct {
				Scope, Type string
				Lag         float64
			}
			Durations []struct{ Scope, Duration string }
			Naming    string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Schedule != "building" || len(got.Preferences.Links) != 2 || got.Preferences.Links[1].Scope != "inspection" || got.Preferences.Links[1].Type != "SS" ||
		got.Preferences.Links[1].Lag != 2 || got.Preferences.Naming != "{Trade} Level {level}" || len(got.Preferences.Durations) != 1 {
		t.Errorf("show --json = %+v", got)
	}
	// The stores agree after preference writes (they are not activities).
	if code, out, errOut := cli("verify", "--schedule", "building"); code != 0 {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	}

	// Bad values are refused before anything is stored, naming the key.
	code, _, errOut = cli("prefs", "set", "--schedule", "building", "duration=3", "link=sometimes")
	if code != exitUsage || !strings.Contains(errOut, "link") || !strings.Contains(errOut, "names no relationship type") {
		t.Errorf("bad link: exit %d %s", code, errOut)
	}
	if _, out, _ := cli("prefs", "show", "--schedule", "building", "--json"); strings.Contains(out, `"duration":"3"`) {
		t.Errorf("a refused set stored part of its arguments: %s", out)
	}
	if code, _, errOut := cli("prefs", "set", "--schedule", "building", "colour=blue"); code != exitUsage || !strings.Contains(errOut, `unknown preference "colour"`) {
		t.Errorf("unknown key: exit %d %s", code, errOut)
	}
	if code, _, errOut := cli("prefs", "set", "--schedule", "building", "--remember", "I like blue"); code != exitError || !strings.Contains(errOut, "nothing saved") {
		t.Errorf("--remember not understood: exit %d %s", code, errOut)
	}
	if code, _, errOut := cli("prefs", "set", "--schedule", "building"); code != exitUsage || !strings.Contains(errOut, "nothing to set") {
		t.Errorf("set without arguments: exit %d %s", code, errOut)
	}
	// Unknown schedules are named.
	for _, args := range [][]string{{"prefs", "show", "--schedule", "nope"}, {"prefs", "set", "--schedule", "nope", "link=FS"}} {
		if code, _, errOut := cli(args...); code != exitError || !strings.Contains(errOut, `no schedule "nope" is stored`) {
			t.Errorf("%v: exit %d %s", args, code, errOut)
		}
	}
	if code, _, errOut := cli("prefs", "show"); code != exitUsage || !strings.Contains(errOut, "--schedule is required") {
		t.Errorf("show without --schedule: exit %d %s", code, errOut)
	}
	// Clearing with none.
	if code, out, _ := cli("prefs", "set", "--schedule", "building", "link=none", "link:inspection=none", "duration:inspection=none", "naming=none", "trades=none"); code != 0 || !strings.Contains(out, "no preferences set") {
		t.Errorf("clearing: exit %d\n%s", code, out)
	}
}
