package interchange_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

// written is the example building in format f.
func written(t *testing.T, f interchange.Format) []byte {
	t.Helper()
	s, err := interchange.ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := interchange.Write(&buf, s, f, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// cuts are the places a file is cut at, short of the whole file: about n
// line boundaries and as many places inside lines, spread over it, and
// every one of the last n bytes.
func cuts(data []byte, n int) []int {
	var out []int
	lines := bytes.Count(data, []byte("\n"))
	every, line := max(1, lines/n), 0
	for i, c := range data[:len(data)-1] {
		if i < 200 {
			continue // a file cut before its first table or task is simply not a schedule file
		}
		if c == '\n' {
			if line++; line%every == 0 {
				out = append(out, i+1)
			}
		}
		if i%(len(data)/n+1) == 0 || i >= len(data)-n {
			out = append(out, i+1)
		}
	}
	return out
}

var lineRef = regexp.MustCompile(`line \d+`)

// A file cut short anywhere is refused, with the line where it ends, in
// every format: never read as a smaller valid schedule (an XER cut in
// TASKPRED read as 147 activities and 100 of the 262 links, 96 days
// instead of 167, and import --replace would have dropped the logic).
func TestTruncatedFilesAreRefused(t *testing.T) {
	for _, f := range interchange.Formats {
		t.Run(string(f), func(t *testing.T) {
			data := written(t, f)
			whole := strings.TrimRight(string(data), "\r\n")
			spread := 250
			if f == interchange.MSPDI {
				spread = 40 // 10 ms a parse; every cut is an XML error anyway
			}
			for _, n := range cuts(data, spread) {
				if n >= len(whole) {
					continue // only line ends are gone: the file is whole
				}
				s, _, err := interchange.Parse(data[:n], f)
				if err == nil {
					t.Fatalf("cut after byte %d of %d: read %d activities and %d relationships without an error", n, len(data), len(s.Activities), len(s.Relationships))
				}
				msg := err.Error()
				if !lineRef.MatchString(msg) || !strings.Contains(msg, "truncated") {
					t.Fatalf("cut after byte %d: err = %v\nwant the line and that it looks truncated", n, err)
				}
			}
		})
	}
}

// The XER refusals say exactly where the file ends and what was cut.
func TestTruncatedXERMessages(t *testing.T) {
	data := string(written(t, interchange.XER))
	lines := strings.SplitAfter(data, "\n")
	taskpred := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "%T\tTASKPRED") {
			taskpred = i
		}
	}
	// Cut after the 100th TASKPRED row (its %T and %F come first).
	atLine := taskpred + 2 + 100
	cut := strings.Join(lines[:atLine], "")
	_, _, err := interchange.Parse([]byte(cut), interchange.XER)
	want := fmt.Sprintf("the file ends at line %d without its %%E end marker: it looks truncated (its last table, TASKPRED, stops after 100 rows)", atLine)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v\nwant %q", err, want)
	}
	// Cut inside the 101st row, after its third value.
	row := lines[atLine]
	values := strings.SplitN(row, "\t", 5)
	mid := cut + strings.Join(values[:4], "\t")
	_, _, err = interchange.Parse([]byte(mid), interchange.XER)
	want = fmt.Sprintf("line %d: the file ends in the middle of a TASKPRED row (3 of its 7 values; no proj_id, pred_proj_id, pred_type, lag_hr_cnt) without its %%E end marker: it looks truncated", atLine+1)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v\nwant %q", err, want)
	}

	// Asked to, the reader reads as far as the file goes and warns with
	// what may be missing.
	r, err := interchange.ParseWith([]byte(mid), interchange.XER, interchange.Options{AllowTruncated: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Schedule.Activities) != 147 || len(r.Schedule.Relationships) != 100 {
		t.Errorf("read %d activities, %d relationships; want 147 and the 100 whole rows", len(r.Schedule.Activities), len(r.Schedule.Relationships))
	}
	got := strings.Join(r.Warnings, "\n")
	for _, w := range []string{
		fmt.Sprintf("line %d: the file ends in the middle of a TASKPRED row (3 of its 7 values; no proj_id, pred_proj_id, pred_type, lag_hr_cnt): the row is left out", atLine+1),
		fmt.Sprintf("the file ends at line %d without its %%E end marker: it was read as far as it goes; table TASKPRED (from line %d) may be cut short after its 100 rows, and any tables P6 writes after it are missing", atLine+1, taskpred+1),
	} {
		if !strings.Contains(got, w) {
			t.Errorf("warnings:\n%s\nwant %q", got, w)
		}
	}
	// A whole file reads with no warning, with or without the option.
	r, err = interchange.ParseWith([]byte(data), interchange.XER, interchange.Options{AllowTruncated: true})
	if err != nil || len(r.Warnings) > 0 || len(r.Schedule.Relationships) != 262 {
		t.Errorf("whole file: err %v, warnings %q", err, r.Warnings)
	}
}

// A row with fewer values than its %F declares, wherever it is, is read
// as far as it goes with a warning naming its table and line; a link row
// without its type or lag is read as a plain finish-to-start link.
func TestXERShortRows(t *testing.T) {
	preds := "%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\tlag_hr_cnt\n"
	tests := []struct {
		name, in, want string
		acts, links    int
	}{
		{"TASKPRED cut to 3 fields", xerFile(xerTasks + preds + "%R\t9\t2\t1\n%R\t10\t2\t1\t1\t1\tPR_SS\t0\n"),
			"table TASKPRED: the row at line 11 has fewer values than its %F line declares (7): the values they lack are read as empty", 2, 2},
		{"TASK cut short", xerFile("%T\tTASK\n%F\ttask_id\tproj_id\ttask_code\ttask_name\ttarget_drtn_hr_cnt\n%R\t1\t1\tA\n%R\t2\t1\tB\tb\t8\n%R\t3\t1\n"),
			"table TASK: 2 rows (lines 7, 9) have fewer values than its %F line declares (5): the values they lack are read as empty", 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, opts := range []interchange.Options{{}, {AllowTruncated: true}} {
				r, err := interchange.ParseWith([]byte(tc.in), interchange.XER, opts)
				if err != nil {
					t.Fatalf("%+v: refused: %v", opts, err)
				}
				if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, tc.want) }) {
					t.Errorf("%+v: warnings %q\nwant one holding %q", opts, r.Warnings, tc.want)
				}
				if len(r.Schedule.Activities) != tc.acts || len(r.Schedule.Relationships) != tc.links {
					t.Errorf("%+v: read %d activities and %d links, want %d and %d", opts, len(r.Schedule.Activities), len(r.Schedule.Relationships), tc.acts, tc.links)
				}
			}
		})
	}
}

// TestXERRowsWithoutTrailingValues: a row that leaves out values the
// reader does not read is kept, as P6 writes some rows (the files saved by
// P6 in ../shared/data/real leave out PROJECT's last five values).
func TestXERRowsWithoutTrailingValues(t *testing.T) {
	preds := "%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\tlag_hr_cnt\tcomments\n"
	s, _, err := interchange.Parse([]byte(xerFile(xerTasks+preds+"%R\t9\t2\t1\t1\t1\tPR_SS\t8\n")), interchange.XER)
	if err != nil || len(s.Relationships) != 1 || s.Relationships[0].Type != schedule.SS {
		t.Fatalf("a row without its unread last value: %v %+v", err, s)
	}
	files, _ := filepath.Glob("../../../shared/data/real/*.xer")
	read := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := interchange.Parse(data, interchange.XER); err != nil && strings.Contains(err.Error(), "cut short") {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
		read++
	}
	if read == 0 && os.Getenv("CI") == "true" {
		t.Fatal("CI=true but no XER files in ../shared/data/real")
	}
}

// MSPDI: a duplicate activity id names both tasks' lines, and the second
// task is read under its UID.
func TestMSPDIDuplicateIDHasLines(t *testing.T) {
	head := `<ExtendedAttributes><ExtendedAttribute><FieldID>188743731</FieldID><Alias>Activity ID</Alias></ExtendedAttribute></ExtendedAttributes>`
	task := func(uid string) string {
		return `<Task><UID>` + uid + `</UID><Name>A</Name><ExtendedAttribute><FieldID>188743731</FieldID><Value>X</Value></ExtendedAttribute></Task>` + "\n"
	}
	in := strings.Replace(mspdiFile("", "\n"+task("1")+task("2")), "<Calendars>", head+"<Calendars>", 1)
	r, err := interchange.ParseWith([]byte(in), interchange.MSPDI, interchange.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `Task UID 2 (line 7): its Activity ID "X" is the task's at line 6 too; the task's UID 2 is its id instead`
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], want) {
		t.Errorf("warnings %q\nwant %q", r.Warnings, want)
	}
	if ids := []string{r.Schedule.Activities[0].ID, r.Schedule.Activities[1].ID}; ids[0] != "X" || ids[1] != "2" {
		t.Errorf("activity ids %q", ids)
	}
}

// The text limits are usertext's.
func TestLimitsAreUsertexts(t *testing.T) {
	if schedule.MaxName != usertext.MaxName || schedule.MaxDescription != usertext.MaxDescription {
		t.Errorf("schedule limits %d/%d, usertext %d/%d", schedule.MaxName, schedule.MaxDescription, usertext.MaxName, usertext.MaxDescription)
	}
}

// Over-long names and descriptions in files. An activity's name (and a
// description that is the file's own text) is refused with where it is; a
// schedule name, only a label, is shortened with a warning so a real file
// still imports; MS Project notes likewise.
func TestLongTextInFiles(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	over := strings.Repeat("é", schedule.MaxName+1)
	tasks := "%T\tTASK\n%F\ttask_id\tproj_id\ttask_code\ttask_name\ttarget_drtn_hr_cnt\n"
	refused := []struct {
		name   string
		format interchange.Format
		in     string
		want   string
	}{
		{"JSON activity name", interchange.JSON, `{"activities": [{"id": "A", "name": "a", "duration": "1"},` + "\n" + `{"id": "B", "name": "` + huge + `", "duration": "1"}]}`,
			"activities[1].name: is 1048576 characters long (255 at most) (line 2, column 21)"},
		{"JSON name just over", interchange.JSON, `{"activities": [{"id": "A", "name": "` + over + `", "duration": "1"}]}`, "activities[0].name: is 256 characters long (255 at most)"},
		{"JSON description", interchange.JSON, `{"activities": [{"id": "A", "name": "a", "description": "` + huge + `", "duration": "1"}]}`, "activities[0].description: is 1048576 characters long (4000 at most) (line 1"},
		{"JSON id", interchange.JSON, `{"activities": [{"id": "` + huge + `", "name": "a", "duration": "1"}]}`, "activities[0].id: is 1048576 characters long (256 at most)"},
		{"JSON relationship id", interchange.JSON, `{"activities": [{"id": "A", "name": "a", "duration": "1"}, {"id": "B", "name": "b", "duration": "1"}], "relationships": [{"id": "` + huge + `", "type": "FS", "predecessor": "A", "successor": "B"}]}`, "relationships[0].id: is 1048576 characters long"},
		{"XER task_name", interchange.XER, xerFile(tasks + "%R\t1\t1\tA\t" + huge + "\t8\n"), `line 7: TASK task_id 1 (task_code "A"): task_name is 1048576 characters long (255 at most)`},
		{"MSPDI task name", interchange.MSPDI, mspdiFile("", "\n<Task><UID>3</UID><Name>"+over+"</Name></Task>"), "Task UID 3 (line 6): Name is 256 characters long (255 at most)"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := interchange.Parse([]byte(tc.in), tc.format)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %.300v\nwant %q", err, tc.want)
			}
			if len(err.Error()) > 500 {
				t.Errorf("the error is %d bytes: it quotes the value", len(err.Error()))
			}
		})
	}

	shortened := []struct {
		name   string
		format interchange.Format
		in     string
		want   string
	}{
		{"JSON name", interchange.JSON, `{"name": "` + huge + `", "activities": [{"id": "A", "name": "a", "duration": "1"}]}`, "line 1: name: the schedule name is 1048576 characters long; it is shortened to its first 254 (names are at most 255 characters)"},
		{"XER proj_short_name", interchange.XER, xerFile(tasks+"%R\t1\t1\tA\ta\t8\n") + "", ""},
		{"XER wbs_name", interchange.XER, xerFile("%T\tPROJWBS\n%F\twbs_id\tproj_id\tproj_node_flag\twbs_name\n%R\t1\t1\tY\t" + huge + "\n" + tasks + "%R\t1\t1\tA\ta\t8\n"), "line 7: PROJWBS wbs_name: the schedule name is 1048576 characters long"},
		{"MSPDI title", interchange.MSPDI, strings.Replace(mspdiFile("", task1), "<Name>t.xml</Name>", "<Title>"+huge+"</Title>", 1), "Project <Title>: the schedule name is 1048576 characters long"},
	}
	for _, tc := range shortened {
		t.Run(tc.name, func(t *testing.T) {
			r, err := interchange.ParseWith([]byte(tc.in), tc.format, interchange.Options{})
			if err != nil {
				t.Fatalf("%.300v", err)
			}
			if tc.want == "" { // a short name: no warning
				if len(r.Warnings) > 0 {
					t.Errorf("warnings %q", r.Warnings)
				}
				return
			}
			if n := len([]rune(r.Schedule.Name)); n != schedule.MaxName || !strings.HasSuffix(r.Schedule.Name, "…") {
				t.Errorf("name of %d characters: %.40q", n, r.Schedule.Name)
			}
			if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], tc.want) {
				t.Errorf("warnings %q\nwant %q", r.Warnings, tc.want)
			}
		})
	}

	// MS Project notes past the limit are shortened, with one warning
	// naming the tasks.
	notes := mspdiFile("", "\n<Task><UID>1</UID><Name>A</Name><Notes>"+huge+"</Notes></Task>\n<Task><UID>2</UID><Name>B</Name><Notes>short</Notes></Task>")
	r, err := interchange.ParseWith([]byte(notes), interchange.MSPDI, interchange.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Schedule.Activities[0].Description; len([]rune(d)) != schedule.MaxDescription || r.Schedule.Activities[1].Description != "short" {
		t.Errorf("descriptions of %d and %q", len([]rune(d)), r.Schedule.Activities[1].Description)
	}
	want := "the Notes (with the WBS path) of 1 task are over 4000 characters and were shortened to it: Task UID 1 (line 6)"
	if len(r.Warnings) != 1 || r.Warnings[0] != want {
		t.Errorf("warnings %q\nwant %q", r.Warnings, want)
	}
}

// WriteFile into a directory that does not exist names the file asked
// for, never the temporary file it writes through.
func TestWriteFileToAMissingDirectory(t *testing.T) {
	s := &schedule.Schedule{Activities: []schedule.Activity{{ID: "A", Name: "a", Duration: "1"}}, Relationships: []schedule.Relationship{}}
	path := t.TempDir() + "/nonexistent/dir/x.xer"
	err := interchange.WriteFile(path, s, interchange.XER, nil)
	want := path + ": the directory " + strings.TrimSuffix(path, "/x.xer") + " does not exist"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}
