package interchange_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// A P6 export in Windows-1252 (testdata, CRLF lines as P6 writes them):
// smart quotes, dashes, the euro sign and Œ/Ÿ/™ come through as themselves.
func TestXERWindows1252(t *testing.T) {
	s, err := interchange.ReadFile("testdata/windows-1252.xer")
	if err != nil {
		t.Fatal(err)
	}
	want := []schedule.Activity{
		{ID: "A1000", Name: "Pour “slab” – Level 2 ‘east’ … €5k Œuvre ™", Duration: "5"},
		{ID: "A1010", Name: "Étage terminé — Ÿves’ sign-off", Duration: "0"},
	}
	if s.Name != "Tour Café – phase 2" || !reflect.DeepEqual(s.Activities, want) {
		t.Errorf("name %q, activities %#v", s.Name, s.Activities)
	}
}

// The same file in UTF-8 (with and without a byte order mark) and UTF-16
// reads the same.
func TestXEREncodings(t *testing.T) {
	raw, err := os.ReadFile("testdata/windows-1252.xer")
	if err != nil {
		t.Fatal(err)
	}
	want, err := interchange.ParseXER(raw)
	if err != nil {
		t.Fatal(err)
	}
	text := []rune(asUTF8(t, raw))
	utf16le, utf16be := []byte{0xff, 0xfe}, []byte{0xfe, 0xff}
	for _, u := range utf16.Encode(text) {
		utf16le = append(utf16le, byte(u), byte(u>>8))
		utf16be = append(utf16be, byte(u>>8), byte(u))
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"UTF-8", []byte(string(text))},
		{"UTF-8 with BOM", append([]byte("\xef\xbb\xbf"), string(text)...)},
		{"UTF-16LE", utf16le},
		{"UTF-16BE", utf16be},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := interchange.ParseXER(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v\nwant %#v", got, want)
			}
		})
	}
}

// asUTF8 decodes the Windows-1252 test file by hand: every character in it
// is ASCII, Latin-1 or one of the few below.
func asUTF8(t *testing.T, raw []byte) string {
	t.Helper()
	high := map[byte]rune{0x80: '€', 0x85: '…', 0x8c: 'Œ', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x96: '–', 0x97: '—', 0x99: '™', 0x9f: 'Ÿ'}
	var b strings.Builder
	for _, c := range raw {
		switch {
		case c < 0x80 || c >= 0xa0:
			b.WriteRune(rune(c))
		case high[c] != 0:
			b.WriteRune(high[c])
		default:
			t.Fatalf("byte 0x%02x not in the table", c)
		}
	}
	return b.String()
}

func TestXEREncodingErrors(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"bad UTF-8 after a BOM", []byte("\xef\xbb\xbfERMHDR\t19.12\n%T\tPROJECT\n\xff\n"), "line 3: invalid UTF-8 in a file marked as UTF-8"},
		{"odd UTF-16", []byte("\xff\xfeE\x00R"), "UTF-16 text with an odd number of bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := interchange.ParseXER(tc.data)
			if err == nil || s != nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %q", err, tc.want)
			}
		})
	}
}

// A file in another code page than Windows-1252 is read, not refused: a
// byte the code page does not define reads as U+FFFD and a warning names
// its line, while the letters both code pages share read right.
func TestXERInAnotherCodePage(t *testing.T) {
	cp1250, err := os.ReadFile("testdata/windows-1250.xer")
	if err != nil {
		t.Fatal(err)
	}
	// Central European: ť is 0x9D, which Windows-1252 does not define.
	r, err := interchange.ParseWith(cp1250, interchange.XER, interchange.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Schedule.Activities) != 2 {
		t.Fatalf("%d activities, want 2", len(r.Schedule.Activities))
	}
	want := "line 4: bytes that are not Windows-1252 characters, read as \uFFFD"
	if len(r.Warnings) == 0 || !strings.HasPrefix(r.Warnings[0], want) {
		t.Errorf("warnings %q, want one starting %q", r.Warnings, want)
	}
	if r.Schedule.Name != "Š\uFFFDastný dùm" {
		t.Errorf("project name %q: want the undefined byte (ť) as U+FFFD and the rest read in Windows-1252", r.Schedule.Name)
	}
}

// A damaged duration in a TASK row is a warning naming the row and field,
// not a refusal: the activity takes its remaining duration (P6 schedules
// progressed work on it), else none, and the rest of the file is read.
func TestXERDamagedDuration(t *testing.T) {
	tasks := "%T\tTASK\n%F\ttask_id\tproj_id\ttask_code\ttask_name\ttarget_drtn_hr_cnt\tremain_drtn_hr_cnt\n"
	for _, tc := range []struct {
		name, target, remain, duration, instead string
	}{
		{"beyond any calendar", "5469776", "16", "2", "its remaining duration (remain_drtn_hr_cnt)"},
		{"negative", "-3", "", "0", "0"},
		{"NaN", "NaN", "NaN", "0", "0"},
		{"too large", "1e308", "8", "1", "its remaining duration (remain_drtn_hr_cnt)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := xerFile(tasks + "%R\t1\t1\tA\tPour\t" + tc.target + "\t" + tc.remain + "\n%R\t2\t1\tB\tCure\t24\t24\n")
			r, err := interchange.ParseWith([]byte(data), interchange.XER, interchange.Options{})
			if err != nil {
				t.Fatal(err)
			}
			acts := r.Schedule.Activities
			if len(acts) != 2 || acts[0].Duration != tc.duration || acts[1].Duration != "3" {
				t.Fatalf("activities %+v: want A of %s days and B of 3", acts, tc.duration)
			}
			want := `line 7: TASK task_id 1 (task_code "A"): target_drtn_hr_cnt "` + tc.target + `" is not a number of hours`
			if len(r.Warnings) == 0 || !strings.HasPrefix(r.Warnings[0], want) || !strings.HasSuffix(r.Warnings[0], "read as "+tc.instead) {
				t.Errorf("warnings %q: want the first starting %q and ending %q", r.Warnings, want, "read as "+tc.instead)
			}
		})
	}
}

// A damaged TASK or TASKPRED row is a warning naming its line, row and
// field, and the rest of the file is read: an unknown task type reads as a
// task, a damaged lag as none, and a link that cannot be read is left out.
func TestXERDamagedRows(t *testing.T) {
	preds := "%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\tlag_hr_cnt\n"
	good := "%R\t8\t2\t1\t1\t1\tPR_SS\t0\n"
	for _, tc := range []struct {
		name, in, warning string
		links             int
		lag               float64
	}{
		{"pred type", xerTasks + preds + good + "%R\t9\t2\t1\t1\t1\tPR_XX\t0\n",
			`line 12: TASKPRED task_pred_id 9 (A1 to M1): pred_type "PR_XX" is not PR_FS, PR_SS, PR_FF or PR_SF; the link is left out`, 1, 0},
		{"lag not a number", xerTasks + preds + "%R\t9\t2\t1\t1\t1\tPR_FS\tsoon\n",
			`line 11: TASKPRED task_pred_id 9 (A1 to M1): lag_hr_cnt "soon" is not a number of hours within ±100000 working days of 8 hours; the link is read without a lag`, 1, 0},
		{"lag beyond any calendar", xerTasks + preds + "%R\t9\t2\t1\t1\t1\tPR_FS\t-1e308\n", `lag_hr_cnt "-1e308" is not a number of hours`, 1, 0},
		{"lag NaN", xerTasks + preds + "%R\t9\t2\t1\t1\t1\tPR_FS\tNaN\n", `lag_hr_cnt "NaN" is not a number of hours`, 1, 0},
		{"missing task", xerTasks + preds + good + "%R\t9\t2\t5\t1\t1\tPR_FS\t0\n", "line 12: TASKPRED task_pred_id 9: task_id 5 is not in TASK; the link is left out", 1, 0},
		{"empty task_id", xerTasks + preds + good + "%R\t9\t\t1\t1\t1\tPR_FS\t0\n", "line 12: TASKPRED task_pred_id 9: the row has no task_id; the link is left out", 1, 0},
		{"empty pred_task_id", xerTasks + preds + good + "%R\t9\t2\t \t1\t1\tPR_FS\t0\n", "line 12: TASKPRED task_pred_id 9: the row has no pred_task_id; the link is left out", 1, 0},
		{"duplicate link", xerTasks + preds + "%R\t9\t2\t1\t1\t1\tPR_FS\t0\n%R\t10\t2\t1\t1\t1\tPR_FS\t8\n",
			"line 12: TASKPRED task_pred_id 10: a second FS link from A1 to M1 (the first is at line 11) is left out", 1, 0},
		{"task type", "%T\tTASK\n%F\ttask_id\ttask_type\ttask_code\ttask_name\n%R\t1\tTT_Odd\tA\tB\n",
			`line 7: TASK task_id 1: task_type "TT_Odd" is not TT_Task, TT_Rsrc, TT_Mile, TT_FinMile, TT_LOE or TT_WBS; read as a task (TT_Task)`, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := interchange.ParseWith([]byte(xerFile(tc.in)), interchange.XER, interchange.Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, tc.warning) }) {
				t.Errorf("warnings %q\nwant one with %q", r.Warnings, tc.warning)
			}
			if len(r.Schedule.Relationships) != tc.links || tc.links > 0 && r.Schedule.Relationships[0].Lag != tc.lag {
				t.Errorf("relationships %+v: want %d, the first with lag %g", r.Schedule.Relationships, tc.links, tc.lag)
			}
		})
	}
}

// A damaged PROJECT date is a warning saying what is lost; the data date
// falls back to next_data_date, and the rest is read.
func TestXERDamagedProjectDates(t *testing.T) {
	in := "ERMHDR\t19.12\n" +
		"%T\tPROJECT\n%F\tproj_id\tproj_short_name\tplan_start_date\tlast_recalc_date\tnext_data_date\tplan_end_date\n" +
		"%R\t1\tP\t2026-01-05 08:00\tsoon\t2026-01-12 08:00\tlater\n" +
		"%T\tSCHEDOPTIONS\n%F\tproj_id\tsched_float_type\n%R\t1\tFT_FF\n" +
		xerTasks + "%E\n"
	r, err := interchange.ParseWith([]byte(in), interchange.XER, interchange.Options{})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	if s := r.Schedule; s.DataDate != "2026-01-12T08:00" || s.Options == nil || s.Options.MustFinishBy != "" || len(s.Activities) != 2 {
		t.Errorf("data date %q, options %+v, %d activities", s.DataDate, s.Options, len(s.Activities))
	}
	for _, want := range []string{`line 4: PROJECT last_recalc_date: "soon" is not a date`, "; the schedule has no data date",
		`line 4: PROJECT plan_end_date: "later" is not a date`, "; the project has no must-finish-by date"} {
		if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, want) }) {
			t.Errorf("warnings %q\nwant one with %q", r.Warnings, want)
		}
	}
}

// A file without a TASK table holds no activities: refused, not read as an
// empty schedule.
func TestXERWithoutTaskTable(t *testing.T) {
	for name, data := range map[string]string{
		"no TASK":       xerFile(""),
		"only calendar": xerFile(xerCal + "%R\t1\tC\t8\t\n"),
		"cut short":     strings.TrimSuffix(xerFile(""), "%E\n"),
	} {
		t.Run(name, func(t *testing.T) {
			s, err := interchange.ParseXER([]byte(data))
			if err == nil || s != nil || !strings.Contains(err.Error(), "no TASK table: the file holds no activities") {
				t.Errorf("err = %v", err)
			}
		})
	}
}

// An MSPDI file labelled windows-1252 (or ISO-8859-1, as often mislabelled)
// keeps its smart quotes and dashes.
func TestMSPDIWindows1252(t *testing.T) {
	for _, label := range []string{"windows-1252", "ISO-8859-1"} {
		t.Run(label, func(t *testing.T) {
			doc := strings.Replace(mspdiFile("", `<Task><UID>1</UID><ID>1</ID><Name>Pour NAME</Name><Duration>PT8H0M0S</Duration></Task>`), "UTF-8", label, 1)
			data := []byte(strings.Replace(doc, "NAME", "\x93slab\x94 \x96 \x80", 1))
			s, err := interchange.ParseMSPDI(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Activities[0].Name; got != "Pour “slab” – €" {
				t.Errorf("name %q", got)
			}
		})
	}
}

// The JSON reader refuses durations and lags beyond schedule.MaxDays (and
// NaN), naming where and the limit; in a P6 or MS Project file they are a
// damaged part, a warning (TestXERDamagedDuration, TestXERDamagedRows,
// TestMSPDIDamagedParts).
func TestReadersRefuseHugeValues(t *testing.T) {
	tests := []struct {
		name   string
		format interchange.Format
		in     string
		want   string
	}{
		{"JSON duration", interchange.JSON, `{"activities": [{"id": "A", "name": "a", "duration": "1e308"}]}`, `activities[0].duration: activity "A": duration "1e308": 1e308 is beyond the limit of 100000 working days`},
		{"JSON pert", interchange.JSON, `{"activities": [{"id": "A", "name": "a", "duration": "pert(1,2,100001)"}]}`, `activity "A": duration "pert(1,2,100001)": parameter 3: 100001 is beyond the limit of 100000 working days`},
		{"JSON lag", interchange.JSON, `{"activities": [{"id": "A", "name": "a", "duration": "1"}, {"id": "B", "name": "b", "duration": "1"}], "relationships": [{"id": "R", "type": "FS", "predecessor": "A", "successor": "B", "lag": 1e308}]}`,
			`relationships[0].lag: relationship "R": lag 1e+308 is beyond the limit of ±100000 working days`},
		{"JSON lead", interchange.JSON, `{"activities": [{"id": "A", "name": "a", "duration": "1"}, {"id": "B", "name": "b", "duration": "1"}], "relationships": [{"id": "R", "type": "FS", "predecessor": "A", "successor": "B", "lag": -100000.5}]}`,
			`relationship "R": lag -100000.5 is beyond the limit of ±100000`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, err := interchange.Parse([]byte(tc.in), tc.format)
			if err == nil || s != nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %q", err, tc.want)
			}
		})
	}
}

// No writer writes Inf or NaN: a schedule beyond the limits is refused
// before a byte is written (MSPDI and XER used to write +Inf and NaN that
// their own readers refuse).
func TestWritersRefuseHugeValues(t *testing.T) {
	for name, change := range map[string]func(*schedule.Schedule){
		"duration": func(s *schedule.Schedule) { s.Activities[0].Duration = "1e308" },
		"lag":      func(s *schedule.Schedule) { s.Relationships[0].Lag = 1e308 },
		"NaN lag":  func(s *schedule.Schedule) { s.Relationships[0].Lag = math.NaN() },
	} {
		for _, f := range interchange.Formats {
			t.Run(name+"/"+string(f), func(t *testing.T) {
				s := richSchedule()
				change(s)
				var buf bytes.Buffer
				err := interchange.Write(&buf, s, f, nil)
				if err == nil || !strings.Contains(err.Error(), "beyond the limit") && !strings.Contains(err.Error(), "not a finite number") || buf.Len() > 0 {
					t.Errorf("err %v, wrote %d bytes", err, buf.Len())
				}
			})
		}
	}
}

// MSPDI carries CPM dates: a finish past the calendar's range is an error,
// not dates stuck at its end. XER carries none and is written.
func TestWriteDatesPastTheCalendarRange(t *testing.T) {
	s := &schedule.Schedule{
		StartDate: "2026-01-05",
		Activities: []schedule.Activity{
			{ID: "A", Name: "a", Duration: "80000"}, {ID: "B", Name: "b", Duration: "80000"},
		},
		Relationships: []schedule.Relationship{{ID: "R", Type: schedule.FS, Predecessor: "A", Successor: "B"}},
	}
	var buf bytes.Buffer
	err := interchange.Write(&buf, s, interchange.MSPDI, nil)
	var rangeErr *schedule.DateRangeError
	if !errors.As(err, &rangeErr) || !strings.Contains(err.Error(), "dating the schedule for MS Project: working day 160000 is past the calendar's range") || buf.Len() > 0 {
		t.Errorf("MSPDI: err %v, wrote %d bytes", err, buf.Len())
	}
	buf.Reset()
	if err := interchange.Write(&buf, s, interchange.XER, nil); err != nil {
		t.Errorf("XER: %v", err)
	}
}

// Control characters in ids and names (and, but for tab and line breaks,
// in descriptions) are refused by every reader, with the field.
func TestReadersRefuseControlCharacters(t *testing.T) {
	tasks := "%T\tTASK\n%F\ttask_id\tproj_id\ttask_code\ttask_name\ttarget_drtn_hr_cnt\n"
	json := func(act string) string { return `{"activities": [` + act + `]}` }
	tests := []struct {
		name   string
		format interchange.Format
		in     string
		want   string
	}{
		{"JSON NUL in id", interchange.JSON, json(`{"id": "A\u0000", "name": "a", "duration": "1"}`), `activities[0].id: id "A\x00": control character U+0000 (NUL) at character 2`},
		{"JSON tab in name", interchange.JSON, json(`{"id": "A", "name": "a\tb", "duration": "1"}`), `activities[0].name: activity "A": name "a\tb": control character U+0009 (tab) at character 2`},
		{"JSON C1 in name", interchange.JSON, json(`{"id": "A", "name": "a\u0085", "duration": "1"}`), `control character U+0085 at character 2`},
		{"JSON ESC in description", interchange.JSON, json(`{"id": "A", "name": "a", "description": "x\u001b[2J", "duration": "1"}`), `activities[0].description: activity "A": description "x\x1b[2J": control character U+001B at character 2`},
		{"JSON relationship id", interchange.JSON, `{"activities": [{"id": "A", "name": "a", "duration": "1"}, {"id": "B", "name": "b", "duration": "1"}], "relationships": [{"id": "R\u007f", "type": "FS", "predecessor": "A", "successor": "B"}]}`,
			`relationships[0].id: id "R\x7f": control character U+007F (DEL) at character 2`},
		{"JSON schedule name", interchange.JSON, `{"name": "P\r", "activities": []}`, `name: name "P\r": control character U+000D (carriage return) at character 2`},
		{"MSPDI tab in name", interchange.MSPDI, mspdiFile("", `<Task><UID>1</UID><Name>a&#9;b</Name></Task>`), `the imported schedule is not valid: activities[0].name: activity "1": name "a\tb": control character U+0009 (tab)`},
		{"MSPDI C1 in id", interchange.MSPDI, strings.Replace(mspdiFile("", `<Task><UID>1</UID><Name>a</Name><ExtendedAttribute><FieldID>188743731</FieldID><Value>A&#x9F;</Value></ExtendedAttribute></Task>`),
			"<Calendars>", "<ExtendedAttributes><ExtendedAttribute><FieldID>188743731</FieldID><Alias>Activity ID</Alias></ExtendedAttribute></ExtendedAttributes><Calendars>", 1),
			`activities[0].id: id "A\u009f": control character U+009F at character 2`},
		{"MSPDI C1 in name", interchange.MSPDI, mspdiFile("", `<Task><UID>1</UID><Name>a&#x85;</Name></Task>`), `activities[0].name: activity "1": name "a\u0085": control character U+0085`},
		{"XER SOH in name", interchange.XER, xerFile(tasks + "%R\t1\t1\tA\tB\x01\t8\n"), `activities[0].name: activity "A": name "B\x01": control character U+0001 at character 2`},
		{"XER NEL in code", interchange.XER, xerFile(tasks + "%R\t1\t1\tA\u0085\tB\t8\n"), `activities[0].id: id "A\u0085": control character U+0085 at character 2`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, err := interchange.Parse([]byte(tc.in), tc.format)
			if err == nil || s != nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %q", err, tc.want)
			}
		})
	}
}

// hostileText is text the rules accept that is awkward for some format:
// spaces at the ends, XML and XER syntax, Unicode line and paragraph
// separators, a BOM, a literal U+FFFD; descriptions with every kind of line
// break.
func hostileText() *schedule.Schedule {
	return &schedule.Schedule{
		Name: "  Tour « Café » ]]> & <b> %R  ", StartDate: "2026-01-05",
		Activities: []schedule.Activity{
			{ID: " A 1 ", Name: " Pour “slab” – Level 2 ", Description: "one\ttwo\nthree\r\nfour\rfive\n", Duration: "2"},
			{ID: "二階-FS-x", Name: "\u00a0nbsp\u2028sep\u2029para\ufeffbom\ufffd", Description: "\n\tindented\n", Duration: "1"},
			{ID: `q"uo\te|(0||x)`, Name: `<tag attr="v">&amp;</tag> \ back\slash`, Description: "\r", Duration: "0"},
			{ID: "%T", Name: "%E", Description: " ", Duration: "1.5"},
			{ID: "🏗", Name: "emoji 🏗 and 𝄞", Description: "é\u0301 combining", Duration: "3"},
		},
		Relationships: []schedule.Relationship{
			{ID: "R\u00a01", Type: schedule.FS, Predecessor: " A 1 ", Successor: "二階-FS-x", Lag: 1},
			{ID: "  ", Type: schedule.SS, Predecessor: "二階-FS-x", Successor: `q"uo\te|(0||x)`},
			{ID: "%F", Type: schedule.FF, Predecessor: `q"uo\te|(0||x)`, Successor: "%T", Lag: -0.5},
			{ID: "🔗", Type: schedule.SF, Predecessor: "%T", Successor: "🏗", Lag: 2},
		},
	}
}

// What the rules accept survives JSON -> MSPDI -> JSON and JSON -> XER ->
// JSON exactly.
func TestTextRoundTrip(t *testing.T) {
	s := hostileText()
	if err := schedule.Validate(s); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := interchange.WriteJSON(&want, s); err != nil {
		t.Fatal(err)
	}
	start, err := interchange.ParseJSON(want.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []interchange.Format{interchange.MSPDI, interchange.XER} {
		t.Run(string(f), func(t *testing.T) {
			var buf bytes.Buffer
			if err := interchange.Write(&buf, start, f, nil); err != nil {
				t.Fatal(err)
			}
			back, _, err := interchange.Parse(buf.Bytes(), f)
			if err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			var got bytes.Buffer
			if err := interchange.WriteJSON(&got, back); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("round trip differs: %s", firstDifference(back, start))
			}
		})
	}
}
