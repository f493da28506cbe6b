package compare

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

// sentence says the finish's move and its causes in one paragraph, e.g.
// "The finish moved 5 working days later (Fri 2027-03-05 -> Fri
// 2027-03-12): Piling +5 d (duration 12 -> 17) drove it through Pile caps
// -> Ground beams -> Handover."
func sentence(fm *FinishMove) string {
	var b strings.Builder
	when := ""
	if fm.Before != "" && fm.After != "" {
		if fm.Direction == "unchanged" {
			when = " (" + shortDate(fm.After) + ")"
		} else {
			when = " (" + shortDate(fm.Before) + " -> " + shortDate(fm.After) + ")"
		}
	}
	var pos, neg []Cause
	for _, c := range fm.Causes {
		if c.Days > 0 {
			pos = append(pos, c)
		} else {
			neg = append(neg, c)
		}
	}
	switch fm.Direction {
	case "unchanged":
		b.WriteString("The finish did not move" + when + ".")
		if len(fm.Causes) > 0 {
			b.WriteString(" On its driving path " + phrases(fm.Causes) + " offset each other.")
		}
	case "later":
		fmt.Fprintf(&b, "The finish moved %s later%s: ", workingDays(fm.Days), when)
		if len(pos) == 0 {
			b.WriteString("no change on its driving path explains it.")
			break
		}
		b.WriteString(phrases(pos))
		b.WriteString(" drove it")
		if rest := pathAfter(fm.Path, pos[0].At, pos[0].Kind == "relationship"); rest != "" {
			b.WriteString(" through " + rest)
		}
		b.WriteString(".")
		if absorbed := sumDays(neg); absorbed < 0 {
			fmt.Fprintf(&b, " Float the path had before took up %s d of it.", days2(-absorbed))
		}
	case "earlier":
		fmt.Fprintf(&b, "The finish moved %s earlier%s: on the path that drove the old finish", workingDays(-fm.Days), when)
		if len(fm.Path) > 0 {
			b.WriteString(" (" + pathAfter(fm.Path, "", false) + ")")
		}
		if len(neg) == 0 {
			b.WriteString(", no change explains it.")
			break
		}
		b.WriteString(", " + phrases(neg) + ".")
		if later := sumDays(pos); later > 0 {
			fmt.Fprintf(&b, " Other logic gave %s d of that back: %s.", days2(later), phrases(pos))
		}
	}
	return b.String()
}

func sumDays(cs []Cause) float64 {
	t := 0.0
	for _, c := range cs {
		t += c.Days
	}
	return schedule.RoundDays(round3(t))
}

// maxPhrases is how many causes a sentence names; the rest are counted
// (the report's causes list has every one).
const maxPhrases = 4

// phrases words causes as a list: "Piling +5 d (duration 12 -> 17) and
// the link A -FS-> B was removed (logic cut, -3 d)". Beyond maxPhrases it
// names the largest (by how far each moved the finish), in path order, and
// sums up the others.
func phrases(cs []Cause) string {
	keep := make([]bool, len(cs))
	if len(cs) > maxPhrases {
		order := make([]int, len(cs))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(math.Abs(cs[b].Days), math.Abs(cs[a].Days)) })
		for _, i := range order[:maxPhrases] {
			keep[i] = true
		}
	}
	parts := []string{}
	rest, restDays := 0, 0.0
	for i, c := range cs {
		if len(cs) > maxPhrases && !keep[i] {
			rest++
			restDays += c.Days
			continue
		}
		parts = append(parts, phrase(c))
	}
	if rest > 0 {
		d := signedDays(schedule.RoundDays(round3(restDays)))
		if rest == 1 {
			parts = append(parts, "1 more step ("+d+")")
		} else {
			parts = append(parts, fmt.Sprintf("%d more steps (%s together)", rest, d))
		}
	}
	if len(parts) > 1 {
		return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	return strings.Join(parts, "")
}

func phrase(c Cause) string {
	d := signedDays(c.Days)
	switch {
	case c.Kind == "relationship" && c.Why == "new link":
		return "the new link " + c.Name + " " + d
	case c.Kind == "relationship" && c.Why == "link removed (logic cut)":
		return "the link " + c.Name + " was removed (logic cut, " + d + ")"
	case c.Kind == "relationship":
		return "the link " + c.Name + " " + d + why(c.Why)
	case c.Kind == "start":
		return c.Name + "'s start " + d + why(c.Why)
	case c.Kind == "end":
		return d + " (" + c.Why + ")"
	}
	return c.Name + " " + d + why(c.Why)
}

func why(w string) string {
	if w == "" {
		return ""
	}
	return " (" + w + ")"
}

func signedDays(v float64) string {
	if v > 0 {
		return "+" + days2(v) + " d"
	}
	return days2(v) + " d"
}

func workingDays(v float64) string {
	if v == 1 {
		return "1 working day"
	}
	return days2(v) + " working days"
}

// pathAfter names the path's activities after the one with id at (from it
// with inclusive; "": all), "A -> B -> C -> … -> X -> Y -> Z" when there
// are many.
func pathAfter(path []PathStep, at string, inclusive bool) string {
	from := 0
	if at != "" {
		for i, p := range path {
			if p.ID == at {
				from = i + 1
				if inclusive {
					from = i
				}
				break
			}
		}
	}
	names := make([]string, 0, len(path)-from)
	for _, p := range path[from:] {
		names = append(names, nameOr(p.Name, p.ID))
	}
	if len(names) > 7 {
		names = append(append(names[:3:3], "…"), names[len(names)-3:]...)
	}
	return strings.Join(names, " -> ")
}

func nameOr(name, id string) string {
	if name == "" {
		return id
	}
	return name
}

// shortDate turns a date-time into "Fri 2027-03-05"; "" stays "".
func shortDate(dateTime string) string {
	t, err := time.Parse(schedule.DateTimeLayout, dateTime)
	if err != nil {
		return dateTime
	}
	return t.Format("Mon 2006-01-02")
}

// TextOptions shape the text and HTML forms.
type TextOptions struct {
	// Limit caps each list at that many entries and says how many more
	// there are; 0 shows everything.
	Limit int
}

// WriteText writes the report for a terminal: the versions, the finish
// and why it moved, then what changed, critical path changes and float
// erosion. Names are escaped so none can steer the terminal.
func WriteText(w io.Writer, rep *Report, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	t := usertext.Terminal
	shown := func(n int) int {
		if opts.Limit > 0 && n > opts.Limit {
			return opts.Limit
		}
		return n
	}
	more := func(n int) {
		if k := n - shown(n); k > 0 {
			fmt.Fprintf(bw, "  … and %d more\n", k)
		}
	}
	fmt.Fprintf(bw, "Comparing %s with %s (activities matched by id)\n", t(sideLabel(rep.Before, "A")), t(sideLabel(rep.After, "B")))
	for _, s := range []struct {
		tag string
		sd  Side
	}{{"A", rep.Before}, {"B", rep.After}} {
		fmt.Fprintf(bw, "  %s: %s\n", s.tag, t(sideSummary(s.sd)))
	}
	fmt.Fprintln(bw)
	if fm := rep.Finish; fm != nil {
		fmt.Fprintln(bw, "Finish")
		fmt.Fprintf(bw, "  %s\n", t(fm.Text))
		if len(fm.Path) > 0 {
			whose := "B"
			if fm.PathOf == "before" {
				whose = "A"
			}
			fmt.Fprintf(bw, "  Driving path of %s (%d activities; finish moved, working days):\n", whose, len(fm.Path))
			steps := fm.Path
			if n := shown(len(steps)); n < len(steps) {
				// The end of the path is where the finish is.
				steps = steps[len(steps)-n:]
				fmt.Fprintf(bw, "    … %d before\n", len(fm.Path)-n)
			}
			for _, p := range steps {
				moved := "new"
				if fm.PathOf == "before" {
					moved = "removed"
				}
				if p.Moved != nil {
					moved = signedDays(*p.Moved)
				}
				fmt.Fprintf(bw, "    %s (%s)  %s\n", t(nameOr(p.Name, p.ID)), t(p.ID), moved)
			}
		}
		fmt.Fprintln(bw)
	} else if rep.CPMError != "" {
		fmt.Fprintf(bw, "Finish: not compared: %s\n\n", t(rep.CPMError))
	}

	if len(rep.Project)+len(rep.Calendars) > 0 {
		fmt.Fprintln(bw, "Project and calendars")
		for _, f := range rep.Project {
			fmt.Fprintf(bw, "  ~ %s %s -> %s\n", strings.ReplaceAll(f.Field, "_", " "), t(orDash(f.Before)), t(orDash(f.After)))
		}
		for _, c := range rep.Calendars {
			line := fmt.Sprintf("  ~ calendar %s %s", t(c.Name), c.Change)
			if len(c.Details) > 0 {
				line += ": " + t(strings.Join(c.Details, "; "))
			}
			fmt.Fprintln(bw, line)
		}
		fmt.Fprintln(bw)
	}

	fmt.Fprintf(bw, "Activities: %d added, %d removed, %d changed\n", len(rep.ActivitiesAdded), len(rep.ActivitiesRemoved), len(rep.ActivitiesChanged))
	for _, a := range rep.ActivitiesAdded[:shown(len(rep.ActivitiesAdded))] {
		fmt.Fprintf(bw, "  + %s (%s, %s d)\n", t(a.Name), t(a.ID), t(a.Duration))
	}
	more(len(rep.ActivitiesAdded))
	for _, a := range rep.ActivitiesRemoved[:shown(len(rep.ActivitiesRemoved))] {
		fmt.Fprintf(bw, "  - %s (%s, %s d)\n", t(a.Name), t(a.ID), t(a.Duration))
	}
	more(len(rep.ActivitiesRemoved))
	for _, c := range rep.ActivitiesChanged[:shown(len(rep.ActivitiesChanged))] {
		fmt.Fprintf(bw, "  ~ %s (%s): %s\n", t(c.Name), t(c.ID), t(fieldChanges(c.Changes)))
	}
	more(len(rep.ActivitiesChanged))

	fmt.Fprintf(bw, "Relationships: %d added, %d removed, %d changed\n", len(rep.RelationshipsAdded), len(rep.RelationshipsRemoved), len(rep.RelationshipsChanged))
	for _, r := range rep.RelationshipsAdded[:shown(len(rep.RelationshipsAdded))] {
		fmt.Fprintf(bw, "  + %s\n", t(r.Text))
	}
	more(len(rep.RelationshipsAdded))
	for _, r := range rep.RelationshipsRemoved[:shown(len(rep.RelationshipsRemoved))] {
		fmt.Fprintf(bw, "  - %s\n", t(r.Text))
	}
	more(len(rep.RelationshipsRemoved))
	for _, r := range rep.RelationshipsChanged[:shown(len(rep.RelationshipsChanged))] {
		fmt.Fprintf(bw, "  ~ %s\n", t(r.Text))
	}
	more(len(rep.RelationshipsChanged))

	if rep.Finish != nil {
		fmt.Fprintf(bw, "Critical path: %d became critical, %d no longer critical (critical activities %d -> %d)\n",
			len(rep.BecameCritical), len(rep.NoLongerCritical), rep.Before.Critical, rep.After.Critical)
		for _, a := range rep.BecameCritical[:shown(len(rep.BecameCritical))] {
			fmt.Fprintf(bw, "  + %s (%s)\n", t(a.Name), t(a.ID))
		}
		more(len(rep.BecameCritical))
		for _, a := range rep.NoLongerCritical[:shown(len(rep.NoLongerCritical))] {
			fmt.Fprintf(bw, "  - %s (%s)\n", t(a.Name), t(a.ID))
		}
		more(len(rep.NoLongerCritical))
		fmt.Fprintf(bw, "Float erosion: %d activities lost total float\n", len(rep.FloatErosion))
		if n := shown(len(rep.FloatErosion)); n > 0 {
			tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  ID\tActivity\tFloat before\tafter\tdrop")
			for _, f := range rep.FloatErosion[:n] {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", t(f.ID), t(clip(f.Name, 50)), days2(f.Before), days2(f.After), days2(f.Drop))
			}
			tw.Flush()
		}
		more(len(rep.FloatErosion))
	}
	return bw.Flush()
}

func sideLabel(s Side, def string) string {
	switch {
	case s.Label != "":
		return s.Label
	case s.Name != "":
		return s.Name
	}
	return def
}

// sideSummary is one line about a version.
func sideSummary(s Side) string {
	parts := []string{}
	if s.Name != "" {
		parts = append(parts, s.Name)
	}
	parts = append(parts, fmt.Sprintf("%d activities, %d relationships", s.Activities, s.Relationships))
	if s.DataDate != "" {
		parts = append(parts, "data date "+s.DataDate)
	}
	fin := "finish day " + days2(s.FinishDays)
	if s.Finish != "" {
		fin = "finish " + shortDate(s.Finish) + " (day " + days2(s.FinishDays) + ")"
	}
	parts = append(parts, fin, fmt.Sprintf("%d critical", s.Critical))
	return strings.Join(parts, ", ")
}

// fieldChanges is "duration 12 -> 17; constraint none -> start on 2026-03-02".
func fieldChanges(cs []schedule.FieldChange) string {
	parts := make([]string, len(cs))
	for i, f := range cs {
		parts[i] = strings.ReplaceAll(f.Field, "_", " ") + " " + clip(orDash(f.Before), 60) + " -> " + clip(orDash(f.After), 60)
	}
	return strings.Join(parts, "; ")
}

// clip shortens s to n runes so one long value cannot widen a table.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
