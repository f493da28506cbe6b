package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// WriteDOT writes r as a Graphviz digraph, left to right: a box per
// activity labelled with its name, id, duration, ES/EF and total float (and
// its early dates when the schedule has a start date), an edge per
// relationship labelled with its type and lag unless it is FS with no lag.
// Critical activities and the driving links between them are red and bold;
// milestones have cut corners. Render it with `dot -Tsvg file.dot`.
//
// Node names are the activity ids in DOT quoted strings: backslashes and
// double quotes are escaped, newlines written \n, other control characters
// and invalid UTF-8 bytes \xNN, so distinct ids stay distinct nodes.
func WriteDOT(w io.Writer, r *Report) error {
	res := r.Result
	s := r.Schedule
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "// %s: %d activities, %d relationships, project duration %s working days.\n",
		dotComment(r.title()), len(s.Activities), len(s.Relationships), Days(res.ProjectDuration))
	fmt.Fprintf(bw, "digraph %s {\n", dotID(r.title()))
	fmt.Fprintf(bw, "  graph [rankdir=LR, labelloc=t, fontname=\"Helvetica\", fontsize=14, label=%s];\n",
		dotLabel(r.title()+" — "+Days(res.ProjectDuration)+" working days"))
	bw.WriteString("  node [shape=box, style=\"rounded,filled\", color=\"#4e79a7\", fillcolor=\"#eef3fb\", fontname=\"Helvetica\", fontsize=10];\n")
	bw.WriteString("  edge [color=\"#8c959f\", fontname=\"Helvetica\", fontsize=9];\n")
	for i := range s.Activities {
		a := &s.Activities[i]
		lines := []string{a.Name,
			a.ID + " · " + Days(res.EF[i]-res.ES[i]) + " d",
			"ES " + Days(res.ES[i]) + "  EF " + Days(res.EF[i]) + "  TF " + Days(res.TotalFloat[i])}
		if c := r.Clock; c != nil {
			lines = append(lines, res.At(c, i, schedule.EarlyStart).Format("2006-01-02")+" – "+res.At(c, i, schedule.EarlyFinish).Format("2006-01-02"))
		}
		fmt.Fprintf(bw, "  %s [label=%s, tooltip=%s", dotID(a.ID), dotLabel(lines...),
			dotLabel("LS "+Days(res.LS[i])+"  LF "+Days(res.LF[i])+"  FF "+Days(res.FreeFloat[i])))
		milestone := res.EF[i]-res.ES[i] <= schedule.Epsilon
		if milestone {
			bw.WriteString(`, style="filled,diagonals"`)
		}
		if res.Critical(i) {
			bw.WriteString(`, color="#d62728", fillcolor="#fde2e2", penwidth=2`)
		}
		bw.WriteString("];\n")
	}
	for _, l := range scheduleLinks(s, res) {
		fmt.Fprintf(bw, "  %s -> %s", dotID(l.rel.Predecessor), dotID(l.rel.Successor))
		var attrs []string
		if tl := typeLag(l.rel.Type, l.rel.Lag); tl != "FS" {
			attrs = append(attrs, "label="+dotLabel(tl))
		}
		if l.critical {
			attrs = append(attrs, `color="#d62728"`, "penwidth=2")
		}
		if len(attrs) > 0 {
			bw.WriteString(" [" + strings.Join(attrs, ", ") + "]")
		}
		bw.WriteString(";\n")
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// dotID quotes s as a DOT id. Graphviz keeps a quoted id's escapes as they
// are written, so the mapping only has to be one-to-one and lexically safe.
func dotID(s string) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' || c == '"':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20 || c == 0x7f:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		default:
			b = append(b, c)
		}
		i++
	}
	return string(append(b, '"'))
}

// dotLabel quotes lines as a DOT label (an escString): each line centred,
// backslashes and quotes shown as themselves, control characters dropped
// and invalid UTF-8 shown as U+FFFD.
func dotLabel(lines ...string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, line := range lines {
		if i > 0 {
			b.WriteString(`\n`)
		}
		for _, r := range strings.ToValidUTF8(line, "\uFFFD") {
			switch {
			case r == '\\' || r == '"':
				b.WriteByte('\\')
				b.WriteRune(r)
			case r == '\n':
				b.WriteString(`\n`)
			case r < 0x20 || r == 0x7f:
				b.WriteByte(' ')
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// dotComment keeps a name on its comment line.
func dotComment(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}
