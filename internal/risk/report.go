package risk

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Report is a simulation result ready to write: the schedule's name and,
// when it has a start date, its clock for finish dates.
type Report struct {
	*Result
	Name  string
	Clock *schedule.Clock // nil: no dates
	// CorrelateBy names the grouping of --correlate ("trade"), "" if none.
	CorrelateBy string

	past     *PastRange // computed once (see PastRange)
	pastDone bool
}

// PastRange says which iterations finish past the calendar's range (see
// schedule.MaxCalendarDays), where the clock gives no date: a wide
// distribution (normal(1,100000)) can run some iterations far past it.
// Their finishes still count, in working days, in every statistic; only
// their dates, and the dates of percentiles among them, cannot be given.
type PastRange struct {
	// Count is how many iterations finish past the range; First the first
	// of them by iteration number (numbered from 0, as the rows of
	// --dump-samples and the streams: iteration i draws from stream i),
	// at most maxListed.
	Count int
	First []int
	// Range is the error for the latest finish: the range's last date
	// and working day.
	Range *schedule.DateRangeError
}

// maxListed bounds the iterations PastRange lists.
const maxListed = 20

// percentiles the report shows.
var shown = []struct {
	Key string
	P   float64
}{{"p10", 10}, {"p50", 50}, {"p80", 80}, {"p90", 90}}

func (r *Report) value(key string) float64 {
	switch key {
	case "p10":
		return r.P10
	case "p50":
		return r.P50
	case "p80":
		return r.P80
	case "p90":
		return r.P90
	}
	return math.NaN()
}

// date is the finish date-time of a working-day offset: on a live
// programme the engine's dates (see Live.dateOf; the deterministic finish
// is its own), else the project clock's.
func (r *Report) date(offset float64) (time.Time, error) {
	if l := r.Live; l != nil {
		if offset == r.Deterministic {
			return l.DeterministicDate, nil
		}
		return l.dateOf(r.Sorted, offset), nil
	}
	return r.Clock.Finish(offset)
}

// hasDates reports whether finishes have dates: a live programme's always
// (the engine dated them), a plain network's with a clock.
func (r *Report) hasDates() bool { return r.Live != nil || r.Clock != nil }

// dated is the finish date of offset, ok false past the calendar's range.
func (r *Report) dated(offset float64) (time.Time, bool) {
	t, err := r.date(offset)
	return t, err == nil
}

// Check is nil: a report is written whatever its finishes; those past
// the calendar's range have no date and PastRange lists their iterations.
// (It used to refuse the whole report for one such iteration.)
func (r *Report) Check() error { return nil }

// PastRange lists the iterations whose finish is past the calendar's
// range; nil when there is no clock or none is.
func (r *Report) PastRange() *PastRange {
	if r.pastDone {
		return r.past
	}
	r.pastDone = true
	if r.Live != nil || r.Clock == nil || len(r.Sorted) == 0 { // the live engine dated every finish
		return nil
	}
	_, err := r.date(r.Max)
	var rangeErr *schedule.DateRangeError
	if !errors.As(err, &rangeErr) {
		return nil
	}
	// Dates are monotone in the offset: the first sorted finish without
	// one is the threshold.
	k := sort.Search(len(r.Sorted), func(i int) bool { _, ok := r.dated(r.Sorted[i]); return !ok })
	threshold := r.Sorted[k]
	p := &PastRange{Range: rangeErr}
	for i, f := range r.Finish {
		if f >= threshold {
			p.Count++
			if len(p.First) < maxListed {
				p.First = append(p.First, i)
			}
		}
	}
	r.past = p
	return p
}

// pastNote is the sentence that says which iterations ran past the range.
func (p *PastRange) note(iterations int) string {
	list := make([]string, len(p.First))
	for i, it := range p.First {
		list[i] = strconv.Itoa(it)
	}
	more := ""
	if p.Count > len(p.First) {
		more = fmt.Sprintf(" and %d more", p.Count-len(p.First))
	}
	return fmt.Sprintf("%d of %d iterations finish past the calendar's range (dates run to %s, working day %s): their finishes count in every figure, in working days, but have no date. Iterations past it (numbered from 0, as the rows of --dump-samples): %s%s.",
		p.Count, iterations, p.Range.End.Format("Mon 2006-01-02"), num(p.Range.Last, 1), strings.Join(list, ", "), more)
}

func num(v float64, places int) string {
	p := math.Pow(10, float64(places))
	v = math.Round(v*p) / p
	if v == 0 {
		v = 0 // no -0
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// WriteJSON writes the machine-readable report:
//
//	{"iterations": N, "seed": S, "deterministic_finish": 167,
//	 "deterministic_percentile": 34.5, "mean": ..., "sd": ...,
//	 "p10": ..., "p50": ..., "p80": ..., "p90": ...,
//	 "criticality": {"A001": 1.0, ...}, "sensitivity": {"A009": 0.41, ...}}
//
// Times are working days from the project start (6 decimals); with a start
// date, deterministic_finish_date and p10_date ... p90_date sit beside them
// (ISO local date-times, as the schedule report writes finishes).
// criticality and sensitivity list every activity in schedule order (4
// decimals; sensitivity leaves out activities it was not computed for, see
// Result.HasSensitivity). With --correlate, "correlate" and "correlation"
// say how. A live programme's dates are the engine's (see Live.dateOf), with
// or without a clock, and "live" gives its data date and the activities
// finished and in progress.
func (r *Report) WriteJSON(w io.Writer) error {
	if err := r.Check(); err != nil {
		return err
	}
	var b strings.Builder
	field := func(k, v string) { fmt.Fprintf(&b, "  %q: %s,\n", k, v) }
	dateField := func(k string, off float64) {
		if r.hasDates() {
			if t, ok := r.dated(off); ok {
				field(k+"_date", strconv.Quote(t.Format(schedule.DateTimeLayout)))
			} else {
				field(k+"_date", "null") // past the calendar's range
			}
		}
	}
	b.WriteString("{\n")
	field("iterations", strconv.Itoa(r.Iterations))
	field("seed", strconv.FormatUint(r.Seed, 10))
	if r.Correlated {
		field("correlate", strconv.Quote(r.CorrelateBy))
		field("correlation", num(r.Correlation, 6))
	}
	field("deterministic_finish", num(r.Deterministic, 6))
	dateField("deterministic_finish", r.Deterministic)
	field("deterministic_percentile", num(r.DeterministicPercentile, 4))
	field("mean", num(r.Mean, 6))
	field("sd", num(r.SD, 6))
	for _, p := range shown {
		field(p.Key, num(r.value(p.Key), 6))
		dateField(p.Key, r.value(p.Key))
	}
	writeMap := func(k string, vals []float64, has []bool, last bool) {
		fmt.Fprintf(&b, "  %q: {", k)
		first := true
		for i, id := range r.IDs {
			if has != nil && !has[i] {
				continue
			}
			if !first {
				b.WriteString(", ")
			}
			first = false
			fmt.Fprintf(&b, "%s: %s", strconv.Quote(id), num(vals[i], 4))
		}
		b.WriteString("}")
		if !last {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	if p := r.PastRange(); p != nil {
		first, _ := json.Marshal(p.First)
		field("past_calendar_range", fmt.Sprintf(`{"iterations": %d, "first": %s, "last_date": %q, "last_working_day": %s}`,
			p.Count, first, p.Range.End.Format(schedule.DateTimeLayout), num(p.Range.Last, 6)))
	}
	if l := r.Live; l != nil {
		field("live", fmt.Sprintf(`{"data_date": %q, "finished": %d, "in_progress": %d}`, l.DataDate, l.Finished, l.InProgress))
	}
	writeMap("criticality", r.Criticality, nil, false)
	writeMap("sensitivity", r.Sensitivity, r.HasSensitivity, true)
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// summary is the opening sentence of the table and the page.
func (r *Report) summary() string {
	s := fmt.Sprintf("%d iterations, seed %d", r.Iterations, r.Seed)
	switch {
	case r.Correlated:
		s += fmt.Sprintf(", durations of one %s correlated (ρ = %s)", r.CorrelateBy, num(r.Correlation, 3))
	case r.CorrelateBy != "":
		s += fmt.Sprintf(", durations independent (no %s has two activities with distributions to correlate)", r.CorrelateBy)
	default:
		s += ", durations independent"
	}
	return s
}

// fixedNote explains what was sampled, and a simulation with nothing
// random in it.
func (r *Report) fixedNote() string {
	note := "Every duration is fixed (no triangular, pert, uniform or normal durations): every iteration is the deterministic schedule, so P10 = P90."
	if r.Random > 0 {
		note = fmt.Sprintf("%d of %d activities have a duration distribution.", r.Random, len(r.IDs))
	}
	if l := r.Live; l != nil {
		note += " " + l.note(r.Random > 0)
	}
	return note
}

// WriteTable writes the human-readable report.
func (r *Report) WriteTable(w io.Writer) error {
	if err := r.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	title := "Schedule risk"
	if r.Name != "" {
		title += ": " + r.Name
	}
	fmt.Fprintf(bw, "%s (%s)\n%s\n\n", title, r.summary(), r.fixedNote())
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "finish\tworking days\t"
	if r.hasDates() {
		head += "date\t"
	}
	fmt.Fprintln(tw, head)
	row := func(label string, v float64, dated bool) {
		line := label + "\t" + num(v, 1) + "\t"
		if r.hasDates() {
			if dated {
				line += r.dateText(v) + "\t"
			} else {
				line += "\t"
			}
		}
		fmt.Fprintln(tw, line)
	}
	row(fmt.Sprintf("deterministic (P%s)", num(r.DeterministicPercentile, 0)), r.Deterministic, true)
	for _, p := range shown {
		row(strings.ToUpper(p.Key), r.value(p.Key), true)
	}
	row("mean", r.Mean, true)
	row("standard deviation", r.SD, false)
	tw.Flush()
	fmt.Fprintf(bw, "\nThe deterministic finish (%s working days) is met in %s%% of iterations.\n",
		num(r.Deterministic, 1), num(r.DeterministicPercentile, 1))
	if p := r.PastRange(); p != nil {
		fmt.Fprintf(bw, "\n%s\n", p.note(r.Iterations))
	}
	drivers := r.Drivers(10)
	if len(drivers) > 0 {
		fmt.Fprintf(bw, "\nTop drivers (sensitivity: Spearman rank correlation of the duration with the finish; criticality: share of iterations critical)\n")
		tw = tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "id\tname\tsensitivity\tcriticality")
		for _, d := range drivers {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s%%\n", r.IDs[d.Index], clip(r.Names[d.Index], 40), num(d.Sensitivity, 2), num(100*d.Criticality, 1))
		}
		tw.Flush()
	}
	return bw.Flush()
}

// dateText is the finish date of v for a table or page, or why there is
// none.
func (r *Report) dateText(v float64) string {
	if t, ok := r.dated(v); ok {
		return t.Format("Mon 2006-01-02")
	}
	return "past the calendar's range"
}

func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}

// SVG geometry of the two charts, in CSS pixels.
const (
	chartW, chartH = 720, 300
	padL, padR     = 56, 20
	padT, padB     = 20, 44
)

// axis maps working days to x.
type axis struct{ lo, hi float64 }

func (a axis) x(v float64) float64 {
	if a.hi <= a.lo {
		return padL + (chartW-padL-padR)/2
	}
	return padL + (v-a.lo)/(a.hi-a.lo)*(chartW-padL-padR)
}

func (r *Report) axis() axis {
	lo, hi := min(r.Min, r.Deterministic), max(r.Max, r.Deterministic)
	if hi-lo < 1 {
		lo, hi = lo-0.5, hi+0.5
	}
	pad := (hi - lo) * 0.03
	return axis{lo - pad, hi + pad}
}

// ticks are about n round values across the axis.
func (a axis) ticks(n int) []float64 {
	span := a.hi - a.lo
	step := math.Pow(10, math.Floor(math.Log10(span/float64(n))))
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(step*m) <= float64(n) {
			step *= m
			break
		}
	}
	var out []float64
	for v := math.Ceil(a.lo/step) * step; v <= a.hi; v += step {
		out = append(out, v)
	}
	return out
}

func f1(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// xAxis draws the axis line, ticks and the label.
func (r *Report) xAxis(b *strings.Builder, a axis) {
	y := chartH - padB
	fmt.Fprintf(b, `<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`, padL, y, chartW-padR, y)
	for _, t := range a.ticks(8) {
		x := f1(a.x(t))
		fmt.Fprintf(b, `<line class="tick" x1="%s" y1="%d" x2="%s" y2="%d"/><text class="tl" x="%s" y="%d">%s</text>`, x, y, x, y+5, x, y+18, num(t, 2))
	}
	fmt.Fprintf(b, `<text class="label" x="%d" y="%d">project finish, working days from the start</text>`, (chartW+padL)/2, chartH-6)
}

// marker draws a vertical line at v with a label.
func (r *Report) marker(b *strings.Builder, a axis, v float64, class, label string, row int) {
	x := f1(a.x(v))
	fmt.Fprintf(b, `<line class="mark %s" x1="%s" y1="%d" x2="%s" y2="%d"><title>%s: %s working days</title></line>`, class, x, padT, x, chartH-padB, html.EscapeString(label), num(v, 2))
	fmt.Fprintf(b, `<text class="ml %s" x="%s" y="%d">%s</text>`, class, f1(a.x(v)+3), padT+10+12*row, html.EscapeString(label))
}

// HistogramSVG is the finish histogram with the deterministic finish, P50
// and P80 marked.
func (r *Report) HistogramSVG() string {
	var b strings.Builder
	a := r.axis()
	fmt.Fprintf(&b, `<svg id="histogram" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="Histogram of the project finish">`, chartW, chartH, chartW, chartH)
	peak := 0
	for _, c := range r.Histogram {
		peak = max(peak, c)
	}
	plotH := float64(chartH - padT - padB - 30)
	for i, c := range r.Histogram {
		lo := r.Min + float64(i)*r.BinWidth
		hi := lo + r.BinWidth
		x0, x1 := a.x(lo), a.x(hi)
		if r.BinWidth == 0 {
			x0, x1 = a.x(lo)-4, a.x(lo)+4
		}
		h := plotH * float64(c) / float64(max(peak, 1))
		fmt.Fprintf(&b, `<rect class="bin" x="%s" y="%s" width="%s" height="%s"><title>%s to %s working days: %d iterations (%s%%)</title></rect>`,
			f1(x0), f1(float64(chartH-padB)-h), f1(max(1, x1-x0-1)), f1(h), num(lo, 2), num(hi, 2), c, num(100*float64(c)/float64(r.Iterations), 2))
	}
	r.xAxis(&b, a)
	r.marker(&b, a, r.Deterministic, "det", "deterministic", 0)
	r.marker(&b, a, r.P50, "p50", "P50", 1)
	r.marker(&b, a, r.P80, "p80", "P80", 2)
	fmt.Fprintf(&b, `<text class="label" x="12" y="%d" transform="rotate(-90 12 %d)">iterations</text>`, chartH/2, chartH/2)
	b.WriteString(`</svg>`)
	return b.String()
}

// SCurveSVG is the cumulative distribution of the finish (the share of
// iterations finishing by each day) with P10/P50/P80/P90 marked.
func (r *Report) SCurveSVG() string {
	var b strings.Builder
	a := r.axis()
	fmt.Fprintf(&b, `<svg id="scurve" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="S-curve: probability of finishing by each day">`, chartW, chartH, chartW, chartH)
	y := func(p float64) float64 { return float64(chartH-padB) - p*float64(chartH-padT-padB) }
	for _, p := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%s" x2="%d" y2="%s"/><text class="yl" x="%d" y="%s">%s%%</text>`, padL, f1(y(p)), chartW-padR, f1(y(p)), padL-6, f1(y(p)+4), num(100*p, 0))
	}
	// At most 400 points: the empirical CDF at evenly spaced quantiles.
	n := len(r.Sorted)
	steps := min(n, 400)
	var pts strings.Builder
	fmt.Fprintf(&pts, "%s,%s", f1(a.x(r.Sorted[0])), f1(y(0)))
	for k := 1; k <= steps; k++ {
		i := k*n/steps - 1
		fmt.Fprintf(&pts, " %s,%s", f1(a.x(r.Sorted[i])), f1(y(float64(i+1)/float64(n))))
	}
	fmt.Fprintf(&b, `<polyline class="cdf" points="%s"><title>share of iterations finishing by each day</title></polyline>`, pts.String())
	r.xAxis(&b, a)
	for i, p := range shown {
		r.marker(&b, a, r.value(p.Key), p.Key, strings.ToUpper(p.Key), i%2)
	}
	r.marker(&b, a, r.Deterministic, "det", fmt.Sprintf("deterministic (P%s)", num(r.DeterministicPercentile, 0)), 2)
	b.WriteString(`</svg>`)
	return b.String()
}

const pageStyle = `body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2430;max-width:1100px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}p.sub{color:#555;margin:0 0 16px}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;border-bottom:1px solid #e3e6ea;text-align:right}
th{background:#f4f6f8}td.l,th.l{text-align:left}
.charts{display:flex;flex-wrap:wrap;gap:24px}figure{margin:0}figcaption{color:#555;font-size:13px}
svg{background:#fff;border:1px solid #dde1e6}
.bin{fill:#6d8fc7}.bin:hover{fill:#3b5f9e}.axis,.tick{stroke:#444}.grid{stroke:#e6e8eb}
.tl,.label{font-size:11px;fill:#333;text-anchor:middle}.yl{font-size:11px;fill:#333;text-anchor:end}
.cdf{fill:none;stroke:#1f4e9c;stroke-width:2}
.mark{stroke-width:1.5;stroke-dasharray:4 3}.ml{font-size:11px;text-anchor:start}
.det{stroke:#c0392b;fill:#c0392b}.p50{stroke:#2e7d32;fill:#2e7d32}.p80{stroke:#ef6c00;fill:#ef6c00}
.p10,.p90{stroke:#7b1fa2;fill:#7b1fa2}text.mark,text.ml{stroke:none}
.bar{display:inline-block;height:10px;background:#c0392b;vertical-align:middle}`

// WriteHTML writes one self-contained page (no scripts, styles, fonts or
// images by URL; the charts are inline SVG): the summary, the histogram,
// the S-curve, the top drivers and every activity's criticality and
// sensitivity. Markup is stable for tests: svg#histogram holds one
// rect.bin per bin, svg#scurve one polyline.cdf.
func (r *Report) WriteHTML(w io.Writer) error {
	if err := r.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	esc := html.EscapeString
	title := "Schedule risk"
	if r.Name != "" {
		title += ": " + r.Name
	}
	fmt.Fprintf(bw, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>%s</title><style>%s</style></head><body>\n", esc(title), pageStyle)
	fmt.Fprintf(bw, "<h1>%s</h1><p class=\"sub\">Monte Carlo CPM: %s. %s</p>\n", esc(title), esc(r.summary()), esc(r.fixedNote()))
	bw.WriteString(`<table id="summary"><tr><th class="l">finish</th><th>working days</th>`)
	if r.hasDates() {
		bw.WriteString(`<th>date</th>`)
	}
	bw.WriteString("</tr>\n")
	row := func(label string, v float64, dated bool) {
		fmt.Fprintf(bw, `<tr><td class="l">%s</td><td>%s</td>`, esc(label), num(v, 1))
		if r.hasDates() {
			d := ""
			if dated {
				d = r.dateText(v)
			}
			fmt.Fprintf(bw, `<td>%s</td>`, d)
		}
		bw.WriteString("</tr>\n")
	}
	row(fmt.Sprintf("deterministic (P%s)", num(r.DeterministicPercentile, 0)), r.Deterministic, true)
	for _, p := range shown {
		row(strings.ToUpper(p.Key), r.value(p.Key), true)
	}
	row("mean", r.Mean, true)
	row("standard deviation", r.SD, false)
	bw.WriteString("</table>\n")
	if p := r.PastRange(); p != nil {
		fmt.Fprintf(bw, "<p id=\"past-range\">%s</p>\n", esc(p.note(r.Iterations)))
	}
	bw.WriteString("<div class=\"charts\">")
	fmt.Fprintf(bw, "<figure>%s<figcaption>Distribution of the project finish over %d iterations.</figcaption></figure>", r.HistogramSVG(), r.Iterations)
	fmt.Fprintf(bw, "<figure>%s<figcaption>S-curve: the probability of finishing by each day.</figcaption></figure></div>\n", r.SCurveSVG())
	if d := r.Drivers(10); len(d) > 0 {
		bw.WriteString(`<h2>Top drivers</h2><table id="drivers"><tr><th class="l">id</th><th class="l">name</th><th>sensitivity</th><th>criticality</th></tr>` + "\n")
		for _, x := range d {
			fmt.Fprintf(bw, `<tr><td class="l">%s</td><td class="l">%s</td><td>%s</td><td>%s%%</td></tr>`+"\n", esc(r.IDs[x.Index]), esc(r.Names[x.Index]), num(x.Sensitivity, 2), num(100*x.Criticality, 1))
		}
		bw.WriteString("</table>\n")
	}
	bw.WriteString(`<h2>Every activity</h2><p class="sub">Criticality: the share of iterations in which the activity is critical (total float 0). Sensitivity: the Spearman rank correlation of its sampled duration with the project finish.</p><table id="activities"><tr><th class="l">id</th><th class="l">name</th><th>criticality</th><th class="l"></th><th>sensitivity</th></tr>` + "\n")
	for i, id := range r.IDs {
		sens := "–"
		if r.HasSensitivity[i] {
			sens = num(r.Sensitivity[i], 2)
		}
		fmt.Fprintf(bw, `<tr><td class="l">%s</td><td class="l">%s</td><td>%s%%</td><td class="l"><span class="bar" style="width:%spx"></span></td><td>%s</td></tr>`+"\n",
			esc(id), esc(r.Names[i]), num(100*r.Criticality[i], 1), num(100*r.Criticality[i], 0), sens)
	}
	bw.WriteString("</table>\n</body></html>\n")
	return bw.Flush()
}
