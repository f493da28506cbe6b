package interchange_test

import (
	"bytes"
	"os"
	"path/filepath"
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
		t.Fatalf("writing an accepted schedule: %v", err)
	}
	back, _, err := interchange.Parse(buf.Bytes(), f)
	if err != nil {
		t.Fatalf("re-reading a written schedule: %v\n%s", err, buf.Bytes())
	}
	if len(back.Activities) != len(s.Activities) || len(back.Relationships) != len(s.Relationships) {
		t.Fatalf("round trip: %d/%d activities, %d/%d relationships", len(back.Activities), len(s.Activities), len(back.Relationships), len(s.Relationships))
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
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormat(t, interchange.MSPDI, data) })
}

func FuzzXER(f *testing.F) {
	seedExport(f, interchange.XER, richSchedule())
	s := richSchedule()
	s.Calendar = nil
	seedExport(f, interchange.XER, s)
	f.Add([]byte(xerFile(xerCal + "%R\t1\tC\t7.5\t(0||CalendarData()((0||DaysOfWeek()((0||2()((0||0(s|08:00|f|12:00)())))))(0||Exceptions()((0||0(d|46016)())))))\n" + xerTasks)))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzFormat(t, interchange.XER, data) })
}
