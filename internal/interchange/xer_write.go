package interchange

// P6 XER export (the format and what is written: see xer.go).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// WriteXER writes s as a P6 XER file (version 19.12 layout). s must be
// valid.
//
// The file is UTF-8, without a byte order mark, as it always was. P6 itself
// writes its machine's Windows code page, but Windows-1252 cannot hold most
// of what a name may (二階, ≥, emoji), so writing it would lose text, while
// UTF-8 comes back exactly through ParseXER (valid UTF-8 is read as UTF-8).
// ASCII text, most schedules, is the same bytes in both.
func WriteXER(w io.Writer, s *schedule.Schedule) error { return writeXER(w, s, nil) }

// xerText makes a value safe for a tab-separated line.
func xerText(v string) string {
	return strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ").Replace(v)
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func writeXER(w io.Writer, s *schedule.Schedule, progress func(done, total int)) error {
	if _, err := schedule.Check(s); err != nil {
		return err
	}
	work, err := s.Calendar.Compile()
	if err != nil {
		return err
	}
	hpd := work.MinutesPerDay() / 60
	num := func(v float64) string { return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64) }
	bw := bufio.NewWriterSize(w, 1<<16)
	table := func(name string, fields ...string) {
		bw.WriteString("%T\t" + name + "\n%F\t" + strings.Join(fields, "\t") + "\n")
	}
	row := func(values ...string) {
		for i, v := range values {
			values[i] = xerText(v)
		}
		bw.WriteString("%R\t" + strings.Join(values, "\t") + "\n")
	}
	start := ""
	if s.StartDate != "" {
		if t, err := schedule.ParseStart(s.StartDate); err == nil { // checked above
			start = t.Format("2006-01-02 15:04")
		}
	}
	short := s.Name
	if short == "" {
		short = "Autoscheduler"
	}
	bw.WriteString("ERMHDR\t19.12\t" + time.Now().UTC().Format(time.DateOnly) + "\tProject\tadmin\tAutoscheduler\tdbxDatabaseNoName\tProject Management\tUSD\n")

	table("CALENDAR", "clndr_id", "default_flag", "clndr_name", "proj_id", "base_clndr_id", "clndr_type", "day_hr_cnt", "week_hr_cnt", "month_hr_cnt", "year_hr_cnt", "clndr_data")
	days := workdayCount(work)
	calName := "Project calendar"
	if s.Calendar == nil {
		calName = "Standard"
	}
	row("1", "Y", calName, "", "", "CA_Base", num(hpd), num(hpd*float64(days)), num(hpd*float64(days)*52/12), num(hpd*float64(days)*52), xerClndrData(s.Calendar))

	table("PROJECT", "proj_id", "proj_short_name", "clndr_id", "plan_start_date", "def_duration_type", "sum_base_proj_id")
	row("1", short, "1", start, "DT_FixedDUR2", "")

	table("PROJWBS", "wbs_id", "proj_id", "obs_id", "seq_num", "proj_node_flag", "sum_data_flag", "status_code", "wbs_short_name", "wbs_name", "parent_wbs_id")
	row("1", "1", "", "0", "Y", "N", "WS_Open", short, s.Name, "")

	table("TASK", "task_id", "proj_id", "wbs_id", "clndr_id", "task_type", "duration_type", "status_code", "task_code", "task_name", "target_drtn_hr_cnt", "remain_drtn_hr_cnt")
	index := make(map[string]int, len(s.Activities))
	for i, a := range s.Activities {
		if progress != nil && i%1000 == 0 {
			progress(i, len(s.Activities))
		}
		index[a.ID] = i + 1
		d, _ := schedule.DurationDays(a.Duration)
		typ := "TT_Task"
		if d == 0 {
			typ = "TT_FinMile"
		}
		hours := num(d * hpd)
		row(strconv.Itoa(i+1), "1", "1", "1", typ, "DT_FixedDUR2", "TK_NotStart", a.ID, a.Name, hours, hours)
	}

	table("TASKPRED", "task_pred_id", "task_id", "pred_task_id", "proj_id", "pred_proj_id", "pred_type", "lag_hr_cnt")
	relIDs := map[int]map[string]string{}
	for i, r := range s.Relationships {
		succ := index[r.Successor]
		row(strconv.Itoa(i+1), strconv.Itoa(succ), strconv.Itoa(index[r.Predecessor]), "1", "1", "PR_"+string(r.Type), num(r.Lag*hpd))
		if relIDs[succ] == nil {
			relIDs[succ] = map[string]string{}
		}
		relIDs[succ][r.Predecessor+"|"+string(r.Type)] = r.ID
	}

	table("UDFTYPE", "udf_type_id", "table_name", "udf_type_name", "udf_type_label", "logical_data_type", "super_flag")
	labels := []string{"Description", aliasDuration, aliasRelIDs}
	for i, l := range labels {
		row(strconv.Itoa(i+1), "TASK", "user_field_"+strconv.Itoa(i+1), l, "FT_TEXT", "N")
	}
	table("UDFVALUE", "udf_type_id", "fk_id", "proj_id", "udf_text")
	for i, a := range s.Activities {
		id := strconv.Itoa(i + 1)
		if a.Description != "" {
			row("1", id, "1", jsonText(a.Description))
		}
		if d, err := schedule.DurationDays(a.Duration); err == nil && formatDays(roundDays(d)) != a.Duration {
			row("2", id, "1", jsonText(a.Duration))
		}
		if ids := relIDs[i+1]; ids != nil {
			row("3", id, "1", jsonText(ids))
		}
	}
	bw.WriteString("%E\n")
	if progress != nil {
		progress(len(s.Activities), len(s.Activities))
	}
	return bw.Flush()
}

// xerClndrData writes a calendar in P6's clndr_data notation.
func xerClndrData(cal *schedule.Calendar) string {
	c, week, hours := exportWeek(cal)
	periods := func(b *strings.Builder, hs []string) {
		for i, h := range hs {
			p, _ := schedule.ParsePeriod(h)
			fmt.Fprintf(b, "(0||%d(s|%s|f|%s)())", i, clockTime(p.From), clockTime(p.To%(24*60)))
		}
	}
	var b strings.Builder
	b.WriteString("(0||CalendarData()((0||DaysOfWeek()(")
	for d := time.Sunday; d <= time.Saturday; d++ {
		fmt.Fprintf(&b, "(0||%d()(", int(d)+1)
		periods(&b, week[d])
		b.WriteString("))")
	}
	b.WriteString("))(0||VIEW(ShowTotal|Y)())(0||Exceptions()(")
	n := 0
	serial := func(day time.Time) int { return int(day.Sub(xerEpoch).Hours() / 24) }
	for _, h := range c.Holidays {
		day, _ := schedule.ParseDate(h)
		fmt.Fprintf(&b, "(0||%d(d|%d)())", n, serial(day))
		n++
	}
	for _, e := range c.Exceptions {
		from, _ := schedule.ParseDate(e.From)
		to := from
		if e.To != "" {
			to, _ = schedule.ParseDate(e.To)
		}
		for day := from; !day.After(to); day = day.AddDate(0, 0, 1) {
			fmt.Fprintf(&b, "(0||%d(d|%d)(", n, serial(day))
			if e.Working {
				h := e.Hours
				if h == nil {
					h = hours
				}
				periods(&b, h)
			}
			b.WriteString("))")
			n++
		}
	}
	b.WriteString("))))")
	return b.String()
}

func clockTime(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }
