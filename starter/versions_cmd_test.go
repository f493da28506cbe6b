package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// buildingUpdate writes the example building statused to dataDate, with
// edit applied to its activities by id, and returns its path.
func buildingUpdate(t *testing.T, dataDate string, edit map[string]map[string]any) string {
	return editedBuilding(t, "building-"+dataDate+".json", dataDate, edit)
}

// The monthly routine: import the January update, status the programme by
// importing February's over it, list the versions, compare February with
// the previous update and ask what slipped since it.
func TestVersionsCompareAndAskSinceLastUpdate(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("AUTOSCHEDULER_PLANNER", "")
	db := embeddedArgs(t)
	cli := func(args ...string) (int, string, string) { return runCLI(t, append(args, db...)...) }
	january := buildingUpdate(t, "2026-01-05", nil)
	// By 12 January: notice given, mobilisation started but now 9 days,
	// the hoarding started on time.
	february := buildingUpdate(t, "2026-01-12", map[string]map[string]any{
		"A001": {"actual_start": "2026-01-05", "actual_finish": "2026-01-05"},
		"A002": {"actual_start": "2026-01-05", "duration": "9", "remaining": "4"},
		"A003": {"actual_start": "2026-01-07", "remaining": "1"},
	})
	if code, _, errOut := cli("import", january, "--schedule", "tower"); code != 0 {
		t.Fatal(errOut)
	}
	// No earlier update yet: said plainly.
	if code, _, errOut := cli("compare", "--schedule", "tower", "--previous"); code != exitError || !strings.Contains(errOut, `schedule "tower" has no previous version`) {
		t.Fatalf("--previous with none: exit %d, %s", code, errOut)
	}
	code, out, errOut := cli("ask", "what slipped since the last update", "--schedule", "tower")
	if code != 0 || !strings.Contains(out, "no previous version") {
		t.Fatalf("ask with no previous version: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := cli("import", february, "--schedule", "tower", "--replace"); code != 0 {
		t.Fatal(errOut)
	}

	code, out, errOut = cli("versions", "--schedule", "tower")
	if code != 0 {
		t.Fatalf("versions: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"DATA DATE", "2026-01-05", "import --replace moved the data date 2026-01-05 -> 2026-01-12", "2026-01-12", "(now)"} {
		if !strings.Contains(out, want) {
			t.Errorf("versions lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = cli("versions", "--schedule", "tower", "--json")
	var listed struct {
		DataDate   string `json:"data_date"`
		Activities int    `json:"activities"`
		Versions   []struct {
			DataDate   string `json:"data_date"`
			Activities int    `json:"activities"`
			Why        string `json:"why"`
		} `json:"versions"`
	}
	if err := json.Unmarshal([]byte(out), &listed); code != 0 || err != nil || listed.DataDate != "2026-01-12" || listed.Activities != 147 ||
		len(listed.Versions) != 1 || listed.Versions[0].DataDate != "2026-01-05" || listed.Versions[0].Activities != 147 {
		t.Errorf("versions --json: exit %d, %v: %s%s", code, err, out, errOut)
	}

	code, out, errOut = cli("compare", "--schedule", "tower", "--previous")
	if code != 0 {
		t.Fatalf("compare --previous: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Comparing tower at data date 2026-01-05 with tower now",
		"The finish moved 4 working days later",
		"Mobilisation",
		"duration 5 -> 9",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("compare --previous lacks %q:\n%s", want, out)
		}
	}
	// The same two by their data dates.
	code, out2, errOut := cli("compare", "--schedule", "tower", "--at", "2026-01-05", "--at", "2026-01-12")
	if code != 0 || out2 != out {
		t.Errorf("compare --at --at: exit %d, differs from --previous:\n%s%s", code, out2, errOut)
	}
	if code, _, errOut := cli("compare", "--schedule", "tower", "--at", "2026-02-02"); code != exitError || !strings.Contains(errOut, "versions are at 2026-01-05") {
		t.Errorf("--at a date with no version: exit %d, %s", code, errOut)
	}

	code, out, errOut = cli("ask", "what slipped since the last update", "--schedule", "tower")
	if code != 0 {
		t.Fatalf("ask: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"2026-01-05", "The finish moved 4 working days later", "Mobilisation (A002"} {
		if !strings.Contains(out, want) {
			t.Errorf("ask lacks %q:\n%s", want, out)
		}
	}
}

func TestCompareVersionFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--previous"}, "go with --schedule"},
		{[]string{"compare", "--schedule", "x"}, "say which versions"},
		{[]string{"compare", "--schedule", "x", "--previous", "--at", "2027-01-01"}, "not both"},
		{[]string{"compare", "--schedule", "x", "--at", "1 March"}, "is not a date"},
		{[]string{"compare", "--schedule", "x", "--at", "2027-01-01", "--at", "2027-02-01", "--at", "2027-03-01"}, "at most twice"},
		{[]string{"compare", "a.json", "--schedule", "x", "--previous"}, "give no files"},
		{[]string{"versions"}, "give --schedule"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want usage and %q", tc.args, code, errOut, tc.want)
		}
	}
}
