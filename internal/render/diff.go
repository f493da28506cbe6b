package render

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// riskMove says how a percentile finish moved.
func riskMove(change float64) string {
	switch {
	case change > 0:
		return "later by " + workingDays(change)
	case change < 0:
		return "earlier by " + workingDays(-change)
	}
	return "unchanged"
}

// shortDate turns a finish date-time into "Mon 2006-01-02" for the text
// form ("" stays "").
func shortDate(dateTime string) string {
	t, err := time.Parse(schedule.DateTimeLayout, dateTime)
	if err != nil {
		return ""
	}
	return t.Format("Mon 2006-01-02")
}

// DiffOptions shapes the text form.
type DiffOptions struct {
	Color bool // ANSI colours, for a terminal
	// Limit caps each list (activities added, removed, …) at that many
	// lines and says how many more there are; 0 shows everything.
	Limit int
	// Rating is the change's risk rating, when it has one: a finish that
	// moves earlier only because logic was cut is then a warning, never
	// good news. WriteRiskRating writes the rating itself.
	Rating *schedule.RiskRating
}

// WriteRiskRating writes a change's risk rating for a terminal, to come
// before everything else about the change: its level, each reason with
// its level, and the dissolve it offers instead of a deletion that cut
// logic. A nil rating (a change recorded before ratings) writes nothing.
func WriteRiskRating(w io.Writer, r *schedule.RiskRating, opts DiffOptions) error {
	if r == nil {
		return nil
	}
	bw := bufio.NewWriter(w)
	paint := func(level schedule.RiskLevel, s string) string {
		color := ""
		switch level {
		case schedule.RiskCritical, schedule.RiskHigh:
			color = ansiBold + ansiRed
		case schedule.RiskMedium:
			color = ansiYellow
		}
		if !opts.Color || color == "" {
			return s
		}
		return color + s + ansiReset
	}
	head := "Risk: " + strings.ToUpper(string(r.Level))
	if len(r.Reasons) == 0 {
		head += " — " + textOf(r.Summary)
	}
	fmt.Fprintln(bw, paint(r.Level, head))
	for _, x := range r.Reasons {
		fmt.Fprintf(bw, "  %s  %s\n", paint(x.Level, fmt.Sprintf("%-8s", x.Level)), textOf(x.Text))
	}
	if len(r.DissolveInstead) > 0 {
		names := make([]string, len(r.DissolveInstead))
		for i, it := range r.DissolveInstead {
			names[i] = textOf(it.Name) + " (" + textOf(it.ID) + ")"
		}
		them := "them"
		if len(names) == 1 {
			them = "it"
		}
		fmt.Fprintf(bw, "  Instead: dissolve %s, keeping the logic through %s — reject with feedback %q.\n",
			strings.Join(names, ", "), them, r.DissolveFeedback)
	}
	return bw.Flush()
}

// WriteChangeDiff writes the change from before to after
// (schedule.Compare) as text for a terminal: activities added (+), removed (-) and changed (~, old -> new),
// relationships added and removed ("Pred -FS+2-> Succ"), then the CPM
// impact: the project finish before and after, activities that became or
// are no longer critical, and how many activities' total float changed.
// A nil schedule counts as empty.
func WriteChangeDiff(w io.Writer, before, after *schedule.Schedule, opts DiffOptions) error {
	return WriteComparison(w, schedule.Compare(before, after), opts)
}

// ANSI colours of the text form.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
)

// WriteComparison writes d as WriteChangeDiff does.
func WriteComparison(w io.Writer, d *schedule.Comparison, opts DiffOptions) error {
	bw := bufio.NewWriter(w)
	paint := func(color, s string) string {
		if !opts.Color || color == "" {
			return s
		}
		return color + s + ansiReset
	}
	section := func(title string) { fmt.Fprintln(bw, paint(ansiBold, title)) }
	// shown says how many of n items to print; more prints the rest's count.
	shown := func(n int) int {
		if opts.Limit > 0 && n > opts.Limit {
			return opts.Limit
		}
		return n
	}
	more := func(name string, n int) {
		if k := n - shown(n) + d.Omitted[name]; k > 0 {
			fmt.Fprintf(bw, "    … and %d more\n", k)
		}
	}

	if len(d.Added)+len(d.Removed)+len(d.Changed) > 0 {
		section("Activities")
		for _, a := range d.Added[:shown(len(d.Added))] {
			fmt.Fprintln(bw, paint(ansiGreen, "  + "+activityText(a)))
		}
		more("added", len(d.Added))
		for _, a := range d.Removed[:shown(len(d.Removed))] {
			fmt.Fprintln(bw, paint(ansiRed, "  - "+activityText(a)))
		}
		more("removed", len(d.Removed))
		for _, c := range d.Changed[:shown(len(d.Changed))] {
			parts := make([]string, len(c.Changes))
			for i, f := range c.Changes {
				switch f.Field {
				case "duration":
					parts[i] = "duration " + textOf(f.Before) + " -> " + textOf(f.After) + " d"
				default:
					parts[i] = f.Field + " " + strconv.QuoteToGraphic(clip(f.Before, 60)) + " -> " + strconv.QuoteToGraphic(clip(f.After, 60))
				}
			}
			fmt.Fprintln(bw, paint(ansiYellow, "  ~ "+textOf(c.Name)+" ("+textOf(c.ID)+"): "+strings.Join(parts, "; ")))
		}
		more("changed", len(d.Changed))
	}
	if len(d.RelationshipsAdded)+len(d.RelationshipsRemoved) > 0 {
		section("Relationships")
		for _, r := range d.RelationshipsAdded[:shown(len(d.RelationshipsAdded))] {
			fmt.Fprintln(bw, paint(ansiGreen, "  + "+textOf(r.Text)))
		}
		more("relationships_added", len(d.RelationshipsAdded))
		for _, r := range d.RelationshipsRemoved[:shown(len(d.RelationshipsRemoved))] {
			fmt.Fprintln(bw, paint(ansiRed, "  - "+textOf(r.Text)))
		}
		more("relationships_removed", len(d.RelationshipsRemoved))
	}
	if len(d.Added)+len(d.Removed)+len(d.Changed)+len(d.RelationshipsAdded)+len(d.RelationshipsRemoved) == 0 {
		fmt.Fprintln(bw, "No changes to activities or relationships.")
	}

	section("CPM impact")
	im := d.Impact
	if im == nil {
		fmt.Fprintln(bw, paint(ansiRed, "  "+textOf(d.ImpactError)))
		return bw.Flush()
	}
	finish := "  Project finish: " + Days(im.FinishBefore) + " -> " + Days(im.FinishAfter) + " working days"
	// From the exported fields, so a diff that went through JSON (a
	// workflow's history) prints the same.
	if b, a := shortDate(im.FinishDateBefore), shortDate(im.FinishDateAfter); b != "" && a != "" {
		finish += " (" + b + " -> " + a + ")"
	}
	var moves, color string
	switch {
	case im.FinishChange > 0:
		moves, color = "finish moves later by "+workingDays(im.FinishChange), ansiRed
	case im.FinishChange < 0 && opts.Rating != nil && opts.Rating.FinishFromCutLogic:
		moves, color = "finish earlier only because logic was cut (by "+workingDays(-im.FinishChange)+"): not an improvement, see the risk", ansiRed
	case im.FinishChange < 0:
		moves, color = "finish moves earlier by "+workingDays(-im.FinishChange), ansiGreen
	default:
		moves = "finish unchanged"
	}
	fmt.Fprintln(bw, finish+": "+paint(color, moves))
	if r := im.Risk; r != nil {
		p80 := "  P80 finish: " + Days(r.P80Before) + " -> " + Days(r.P80After) + " working days"
		if b, a := shortDate(r.P80DateBefore), shortDate(r.P80DateAfter); b != "" && a != "" {
			p80 += " (" + b + " -> " + a + ")"
		}
		fmt.Fprintf(bw, "%s: %s (P50 %s -> %s; Monte Carlo, %d iterations, seed %d)\n", p80, riskMove(r.P80Change),
			Days(r.P50Before), Days(r.P50After), r.Iterations, r.Seed)
	}
	list := func(title, color, name string, as []schedule.ComparedActivity) {
		if len(as) == 0 {
			return
		}
		omitted := d.Omitted[name]
		names := make([]string, 0, shown(len(as))+1)
		for _, a := range as[:shown(len(as))] {
			names = append(names, textOf(a.Name)+" ("+textOf(a.ID)+")")
		}
		if k := len(as) - shown(len(as)) + omitted; k > 0 {
			names = append(names, fmt.Sprintf("… and %d more", k))
		}
		fmt.Fprintf(bw, "  %s (%d): %s\n", title, len(as)+omitted, paint(color, strings.Join(names, ", ")))
	}
	list("Became critical", ansiRed, "became_critical", im.BecameCritical)
	list("No longer critical", ansiGreen, "no_longer_critical", im.NoLongerCritical)
	switch im.FloatChanged {
	case 0:
		fmt.Fprintln(bw, "  Total float unchanged on every activity in both versions")
	case 1:
		fmt.Fprintln(bw, "  Total float changed on 1 activity")
	default:
		fmt.Fprintf(bw, "  Total float changed on %d activities\n", im.FloatChanged)
	}
	return bw.Flush()
}

func activityText(a schedule.ComparedActivity) string {
	s := textOf(a.Name) + " (" + textOf(a.ID) + ", " + textOf(a.Duration) + " d"
	if a.Critical {
		s += ", critical"
	}
	return s + ")"
}

func workingDays(v float64) string {
	if v == 1 {
		return "1 working day"
	}
	return Days(v) + " working days"
}

// textOf keeps names from steering the terminal: text with control
// characters (an escape sequence, a newline) or invalid UTF-8 is quoted.
func textOf(s string) string {
	for _, r := range s {
		if r == unicode.ReplacementChar || !unicode.IsGraphic(r) && r != ' ' {
			return strconv.QuoteToGraphic(s)
		}
	}
	return s
}
