package interchange_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// fuzzFormat: a reader never panics; it returns a schedule or a non-empty
// error, never both; what it accepts computes, and survives being written
// and read again in the same format.
func fuzzFormat(t *testing.T, f interchange.Format, data []byte) {
	s, _, err := interchange.Parse(data, f)
	if err != nil {
		if s != nil || err.Error() == "" {
			t.Fatalf("bad failure: %v, %v", s, err)
		}
		return
	}
	if _, err := schedule.Analyze(s); err != nil {
		t.Fatalf("accepted schedule does not compute: %v", err)
	}
	var buf bytes.Buffer
	if err := interchange.Write(&buf, s, f, nil); err != nil {
		var rangeErr *schedule.DateRangeError
		if errors.As(err, &rangeErr) && buf.Len() == 0 {
			return // dates past the calendar's range: refused, nothing written
		}
		t.Fatalf("writing an accepted schedule: %v", err)
	}
	back, _, err := interchange.Parse(buf.Bytes(), f)
	if err != nil {
		t.Fatalf("re-reading a written schedule: %v\n%s", err, buf.Bytes())
	}
	if len(back.Activities) != len(s.Activities) || len(back.Relationships) != len(s.Relationships) {
		t.Fatalf("round trip: %d/%d activities, %d/%d relationships", len(back.Activities), len(s.Activities), len(back.Relationships), len(s.Relationships))
	}
	fuzzKeptSource(t, f, data)
}

// fuzzKeptSource: a file kept as the schedule's source (issue 29) is
// written back unchanged byte for byte; with its first activity renamed,
// the patch writer either refuses with an error or writes a file that
// reads back with the new name.
func fuzzKeptSource(t *testing.T, f interchange.Format, data []byte) {
	r, err := interchange.ParseWith(data, f, interchange.Options{KeepSource: true, Name: "fuzz"})
	if err != nil || r.Schedule.Source == nil {
		return
	}
	var same bytes.Buffer
	if err := interchange.Write(&same, r.Schedule, f, nil); err != nil || !bytes.Equal(same.Bytes(), data) {
		t.Fatalf("the unchanged kept file is not written back as it was (%v)", err)
	}
	if len(r.Schedule.Activities) == 0 {
		return
	}
	const name = "Renamed by the fuzzer"
	id := r.Schedule.Activities[0].ID
	r.Schedule.Activities[0].Name = name
	var changed bytes.Buffer
	if err := interchange.Write(&changed, r.Schedule, f, nil); err != nil {
		return // refused whole, with an error: nothing half written counts
	}
	back, _, err := interchange.Parse(changed.Bytes(), f)
	if err != nil {
		t.Fatalf("the patched file does not read back: %v", err)
	}
	if a, ok := back.Activity(id); !ok || a.Name != name {
		t.Fatalf("the patched file lost the rename of %q: %+v", id, a)
	}
}

func seedExport(f *testing.F, format interchange.Format, s *schedule.Schedule) {
	var buf bytes.Buffer
	if err := interchange.Write(&buf, s, format, nil); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
}

func FuzzMSPDI(f *testing.F) {
	for _, name := range []string{"task-links-project2007-mspdi.xml", "mspdirelations.xml"} {
		data, err := os.ReadFile(filepath.Join(mspdiData, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	seedExport(f, interchange.MSPDI, richSchedule())
	f.Add([]byte(mspdiFile(`<Calendar><UID>1</UID><Exceptions><Exception><TimePeriod><FromDate>2026-01-01T00:00:00</FromDate><ToDate>2027-12-31T00:00:00</ToDate></TimePeriod><Type>6</Type><DaysOfWeek>3</DaysOfWeek><Period>2</Period></Exception></Exceptions></Calendar>`,
		task1+`<Task><UID>2</UID><Name>B</Name><Duration>PT4H30M0S</Duration><PredecessorLink><PredecessorUID>1</PredecessorUID><Type>2</Type><LinkLag>-2400</LinkLag><LagFormat>10</LagFormat></PredecessorLink></Task>`)))
	seedExport(f, interchange.MSPDI, hostileText())
	// Hostile inputs of issue 12: huge and NaN values, control characters,
	// Windows-1252 text, dates past the calendar's range.
	link := func(lag string) []byte {
		return []byte(mspdiFile("", task1+`<Task><UID>2</UID><Name>B</Name><PredecessorLink><PredecessorUID>1</PredecessorUID><LinkLag>`+lag+`</LinkLag></PredecessorLink></Task>`))
	}
	f.Add(link("1e308"))
	f.Add(link("NaN"))
	f.Add(link("-47999999"))
	f.Add([]byte(mspdiFile("", `<Task><UID>3</UID><Name>B</Name><Duration>PT800000H</Duration></Task><Task><UID>4</UID><Name>C</Name><Duration>PT800000H</Duration><PredecessorLink><PredecessorUID>3</PredecessorUID></PredecessorLink></Task>`)))
	f.Add([]byte(mspdiFile("", `<Task><UID>1</UID><Name>a&#9;b&#x85;&#0;</Name></Task>`)))
	// Damaged parts read around (TestMSPDIDamagedParts): a bad UID, a
	// repeated one, a dangling or self link, a deadline and a work week.
	f.Add([]byte(mspdiFile(`<Calendar><UID>1</UID><WorkWeeks><WorkWeek><TimePeriod><FromDate>2026-01-05T00:00:00</FromDate><ToDate>2026-01-20T00:00:00</ToDate></TimePeriod><WeekDays><WeekDay><DayType>6</DayType><DayWorking>0</DayWorking></WeekDay></WeekDays></WorkWeek></WorkWeeks></Calendar>`,
		`<Task><UID>x</UID></Task>`+task1+task1+`<Task><UID>2</UID><Name>B</Name><Deadline>2026-01-06T17:00:00</Deadline><OutlineLevel>?</OutlineLevel><PredecessorLink><PredecessorUID>2</PredecessorUID></PredecessorLink><PredecessorLink><PredecessorUID>x</PredecessorUID></PredecessorLink><PredecessorLink><PredecessorUID>1</PredecessorUID><Type>9</Type></PredecessorLink></Task>`)))
	f.Add([]byte(strings.Replace(strings.Replace(mspdiFile("", task1), "UTF-8", "windows-1252", 1), "<Name>A</Name>", "<Name>\x93A\x94 \x96 \x81</Name>", 1)))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormat(t, interchange.MSPDI, data) })
}

func FuzzXER(f *testing.F) {
	seedExport(f, interchange.XER, richSchedule())
	s := richSchedule()
	s.Calendar = nil
	seedExport(f, interchange.XER, s)
	f.Add([]byte(xerFile(xerCal + "%R\t1\tC\t7.5\t(0||CalendarData()((0||DaysOfWeek()((0||2()((0||0(s|08:00|f|12:00)())))))(0||Exceptions()((0||0(d|46016)())))))\n" + xerTasks)))
	seedExport(f, interchange.XER, hostileText())
	// Hostile inputs of issue 12.
	for _, name := range []string{"testdata/windows-1252.xer", "testdata/windows-1250.xer"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	tasks := "%T\tTASK\n%F\ttask_id\tproj_id\ttask_code\ttask_name\ttarget_drtn_hr_cnt\n"
	preds := "%T\tTASKPRED\n%F\ttask_pred_id\ttask_id\tpred_task_id\tproj_id\tpred_proj_id\tpred_type\tlag_hr_cnt\n"
	f.Add([]byte(xerFile("")))                                                                                                   // no TASK table
	f.Add([]byte(xerFile(tasks + "%R\t1\t1\tA\tB\t1e308\n")))                                                                    // huge duration
	f.Add([]byte(xerFile(tasks + "%R\t1\t1\tA\tB\tNaN\n")))                                                                      // NaN duration
	f.Add([]byte(xerFile(xerTasks + preds + "%R\t9\t2\t1\t1\t1\tPR_FS\tNaN\n")))                                                 // NaN lag
	f.Add([]byte(xerFile(tasks + "%R\t1\t1\tA\x00\tB\x01\u0085\t8\n")))                                                          // control characters
	f.Add([]byte(xerFile(tasks + "%R\t1\t1\tA\tB\t640000\n%R\t2\t1\tC\tD\t640000\n" + preds + "%R\t1\t2\t1\t1\t1\tPR_FS\t0\n"))) // past the calendar's range
	f.Add([]byte("\xff\xfeE\x00R\x00M\x00H\x00D\x00R\x00\n\x00"))                                                                // UTF-16
	f.Add([]byte("ERMHDR\t19.12\n%T\tPROJECT\n%F\tproj_id\tproj_short_name\n%R\t1\tCaf\xe9 \x93x\x94\n%E\n"))                    // Windows-1252
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormat(t, interchange.XER, data) })
}
