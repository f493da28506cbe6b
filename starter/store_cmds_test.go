package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// embeddedArgs points a command at a fresh embedded store, whatever the
// environment says about Neo4j and Weaviate.
func embeddedArgs(t *testing.T) []string {
	return []string{"--db", filepath.Join(t.TempDir(), "test.db"), "--neo4j-uri=", "--weaviate-url="}
}

func TestImportSearchVerifySchedule(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	cli := func(args ...string) (int, string, string) { return runCLI(t, append(args, db...)...) }

	code, out, errOut := cli("import", "../examples/building.json", "--schedule", "building")
	if code != 0 || out != "" || !strings.Contains(errOut, `imported ../examples/building.json as "building": 147 activities, 262 relationships`) {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	// Every import is its own write: the same file again is refused
	// without --replace like any other, and replaces with it.
	if code, _, errOut := cli("import", "../examples/building.json", "--schedule", "building"); code != exitError || !strings.Contains(errOut, `schedule already exists: "building"`) {
		t.Fatalf("re-importing the same file: exit %d %s", code, errOut)
	}
	if code, _, errOut := cli("import", "../examples/building.json", "--schedule", "building", "--replace"); code != 0 {
		t.Fatalf("re-importing with --replace: %s", errOut)
	}
	if code, _, errOut := cli("import", "testdata/two.json", "--schedule", "building"); code != exitError || !strings.Contains(errOut, `schedule already exists: "building"`) {
		t.Fatalf("import over another schedule: exit %d, %s", code, errOut)
	}

	code, out, errOut = cli("search", "level 3 drywall", "--schedule", "building", "-k", "3", "--json")
	if code != 0 {
		t.Fatalf("search: exit %d %s", code, errOut)
	}
	var res struct {
		Results []struct {
			Kind, ID, Name string
			Score          float64
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("search --json: %v\n%s", err, out)
	}
	if len(res.Results) != 3 || !strings.Contains(res.Results[0].Name, "Level 3") || res.Results[0].Score <= 0 {
		t.Fatalf("search results: %+v", res.Results)
	}

	if code, out, errOut := cli("verify", "--schedule", "building"); code != 0 || !strings.Contains(out, `ok: the stores agree on "building" (147 activities, 262 relationships)`) {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}

	code, out, errOut = cli("schedule", "--schedule", "building", "--format", "json")
	if code != 0 || !strings.HasPrefix(out, `{"project_duration": 167,`) {
		t.Fatalf("schedule --schedule: exit %d %s\n%.200s", code, errOut, out)
	}

	if code, _, errOut := cli("schedule", "--schedule", "nope"); code != exitError || !strings.Contains(errOut, `schedule not found: "nope"`) {
		t.Fatalf("missing schedule: exit %d %s", code, errOut)
	}
	if code, _, errOut := cli("search", "x", "--schedule", "nope"); code != exitError || !strings.Contains(errOut, "schedule not found") {
		t.Fatalf("search in a missing schedule: exit %d %s", code, errOut)
	}
	if code, _, errOut := cli("import", "../examples/building.json"); code != exitUsage || !strings.Contains(errOut, "--schedule is required") {
		t.Fatalf("import without --schedule: exit %d %s", code, errOut)
	}
	if code, _, errOut := cli("schedule", "--file", "x.json", "--schedule", "y"); code != exitUsage || !strings.Contains(errOut, "give one of --file and --schedule") {
		t.Fatalf("both --file and --schedule: exit %d %s", code, errOut)
	}
}

// search refuses an empty query, ranks the kind a query names first and
// filters with --kind (issue 12, item 7).
func TestSearchQueryAndKind(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	cli := func(args ...string) (int, string, string) { return runCLI(t, append(args, db...)...) }
	if code, _, errOut := cli("import", "../examples/building.json", "--schedule", "building"); code != 0 {
		t.Fatal(errOut)
	}
	for _, q := range []string{"", "   "} {
		if code, out, errOut := cli("search", q, "-s", "building"); code != exitUsage || out != "" || !strings.Contains(errOut, "search: the query is empty") {
			t.Errorf("search %q: exit %d, stdout %q, stderr %q", q, code, out, errOut)
		}
	}
	if code, _, errOut := cli("search", "roof", "-s", "building", "--kind", "task"); code != exitUsage || !strings.Contains(errOut, `--kind "task": want activity or relationship`) {
		t.Errorf("--kind task: exit %d %s", code, errOut)
	}
	kinds := func(args ...string) []string {
		t.Helper()
		code, out, errOut := cli(append([]string{"search"}, append(args, "-s", "building", "--json")...)...)
		if code != 0 {
			t.Fatalf("search %v: exit %d %s", args, code, errOut)
		}
		var res struct {
			Results []struct{ Kind, Name string }
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		var ks []string
		for _, r := range res.Results {
			ks = append(ks, r.Kind)
		}
		return ks
	}
	all := func(ks []string, kind string, n int) bool {
		if len(ks) != n {
			return false
		}
		for _, k := range ks {
			if k != kind {
				return false
			}
		}
		return true
	}
	if ks := kinds("activities on the first floor", "-k", "5"); !all(ks, "activity", 5) {
		t.Errorf("activities on the first floor: %v", ks)
	}
	if ks := kinds("dependencies of drywall level 2", "-k", "5"); !all(ks, "relationship", 5) {
		t.Errorf("dependencies of drywall level 2: %v", ks)
	}
	if ks := kinds("drywall level 2", "-k", "8", "--kind", "relationship"); !all(ks, "relationship", 8) {
		t.Errorf("--kind relationship: %v", ks)
	}
	if ks := kinds("links on level 1", "-k", "8", "--kind", "activity"); !all(ks, "activity", 8) {
		t.Errorf("--kind activity: %v", ks)
	}
}
