package render_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func writeDOT(t *testing.T, s *schedule.Schedule) string {
	t.Helper()
	rep, err := render.NewReport(s)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render.WriteDOT(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// awkwardIDs are ids and names a DOT writer gets wrong: quotes, a trailing
// backslash (which would escape the closing quote), newlines, unicode,
// control characters, invalid UTF-8, and pairs that only differ in how
// they would be escaped.
var awkwardIDs = []string{
	`say "hi"`, `ends with \`, `\"`, `"`, `\n`, "new\nline", "Étage — 二階 🏗", "tab\tbell\x07",
	"bad \xff utf8", "-> { } ; [ ] = , digraph", "", "plain",
}

func awkwardSchedule() *schedule.Schedule {
	s := &schedule.Schedule{Name: `Tricky "project" \ name`}
	for i, id := range awkwardIDs {
		s.Activities = append(s.Activities, schedule.Activity{ID: id, Name: "name of " + id, Duration: strconv.Itoa(i % 3)})
	}
	types := []schedule.RelType{schedule.FS, schedule.SS, schedule.FF, schedule.SF}
	for i := 1; i < len(awkwardIDs); i++ {
		s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R" + strconv.Itoa(i), Type: types[i%4],
			Predecessor: awkwardIDs[i-1], Successor: awkwardIDs[i], Lag: float64(i%3 - 1)})
	}
	return s
}

// dotStatement is one node or edge statement of the writer's output, its
// ids unescaped the way WriteDOT escapes them.
type dotStatement struct {
	ids   []string // one for a node, two for an edge
	attrs string
}

// parseDOT reads the statements inside the digraph with the DOT lexer's
// rule for quoted strings (a backslash takes the next byte with it).
func parseDOT(t *testing.T, dot string) []dotStatement {
	t.Helper()
	open := strings.Index(dot, "{\n")
	if open < 0 || !strings.HasSuffix(dot, "}\n") || !strings.HasPrefix(dot[strings.Index(dot, "\n")+1:], "digraph \"") {
		t.Fatalf("not a digraph:\n%s", dot)
	}
	body := dot[open+2 : len(dot)-2]
	var stmts []dotStatement
	for len(body) > 0 {
		body = strings.TrimLeft(body, " \n")
		if body == "" {
			break
		}
		if strings.HasPrefix(body, "graph [") || strings.HasPrefix(body, "node [") || strings.HasPrefix(body, "edge [") {
			body = body[skipStatement(t, body):]
			continue
		}
		var st dotStatement
		for {
			id, n := readQuoted(t, body)
			st.ids = append(st.ids, id)
			body = body[n:]
			if !strings.HasPrefix(body, " -> ") {
				break
			}
			body = body[4:]
		}
		n := skipStatement(t, body)
		st.attrs, body = body[:n], body[n:]
		stmts = append(stmts, st)
	}
	return stmts
}

func readQuoted(t *testing.T, s string) (string, int) {
	t.Helper()
	if !strings.HasPrefix(s, `"`) {
		t.Fatalf("want a quoted id at %.40q", s)
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return b.String(), i + 1
		case '\\':
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 'x':
				v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
				if err != nil {
					t.Fatalf("bad \\x escape at %.20q", s[i:])
				}
				b.WriteByte(byte(v))
				i += 2
			default:
				b.WriteByte(s[i])
			}
		case '\n':
			t.Fatalf("raw newline in a quoted id at %.40q", s)
		default:
			b.WriteByte(s[i])
		}
	}
	t.Fatalf("unterminated string: %.40q", s)
	return "", 0
}

// skipStatement returns the length of s up to and including the ";" that
// ends the statement, skipping quoted strings.
func skipStatement(t *testing.T, s string) int {
	t.Helper()
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			_, n := readQuoted(t, s[i:])
			i += n - 1
		case ';':
			return i + 1
		case '\n':
			t.Fatalf("statement runs over a line: %.80q", s[:i])
		}
	}
	t.Fatalf("statement without ;: %.80q", s)
	return 0
}

func TestDOTStructureWithAwkwardIDs(t *testing.T) {
	s := awkwardSchedule()
	dot := writeDOT(t, s)
	stmts := parseDOT(t, dot)
	var nodes []string
	var edges [][2]string
	for _, st := range stmts {
		switch len(st.ids) {
		case 1:
			nodes = append(nodes, st.ids[0])
			if !strings.Contains(st.attrs, "label=") {
				t.Errorf("node %q without a label", st.ids[0])
			}
		case 2:
			edges = append(edges, [2]string{st.ids[0], st.ids[1]})
		default:
			t.Errorf("statement with %d ids", len(st.ids))
		}
	}
	if !slices.Equal(nodes, awkwardIDs) {
		t.Errorf("node ids round-trip as\n%q\nwant\n%q", nodes, awkwardIDs)
	}
	if len(edges) != len(s.Relationships) {
		t.Fatalf("%d edges, want %d", len(edges), len(s.Relationships))
	}
	for i, e := range edges {
		if r := s.Relationships[i]; e != [2]string{r.Predecessor, r.Successor} {
			t.Errorf("edge %d = %q, want %q -> %q", i, e, r.Predecessor, r.Successor)
		}
	}
	for _, want := range []string{"rankdir=LR", `digraph "Tricky \"project\" \\ name" {`, `label="name of ends with \\\nends with \\ · 1 d\n`} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %s", want)
		}
	}
}

func TestDOTHighlightsCriticalAndLabelsLinks(t *testing.T) {
	s := &schedule.Schedule{
		Activities: []schedule.Activity{
			{ID: "A", Name: "Dig", Duration: "5"}, {ID: "B", Name: "Pour", Duration: "3"},
			{ID: "C", Name: "Fence", Duration: "1"}, {ID: "M", Name: "Done", Duration: "0"},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B"},
			{ID: "R2", Type: schedule.SS, Predecessor: "A", Successor: "C", Lag: 2},
			{ID: "R3", Type: schedule.FS, Predecessor: "B", Successor: "M"},
			{ID: "R4", Type: schedule.FF, Predecessor: "C", Successor: "M", Lag: -1.5},
		},
	}
	dot := writeDOT(t, s)
	for _, want := range []string{
		`"A" [label="Dig\nA · 5 d\nES 0  EF 5  TF 0", tooltip="LS 0  LF 5  FF 0", color="#d62728", fillcolor="#fde2e2", penwidth=2];`,
		`"C" [label="Fence\nC · 1 d\nES 2  EF 3  TF 5", tooltip="LS 7  LF 8  FF 5"];`,
		`"M" [label="Done\nM · 0 d\nES 8  EF 8  TF 0", tooltip="LS 8  LF 8  FF 0", style="filled,diagonals", color="#d62728", fillcolor="#fde2e2", penwidth=2];`,
		`"A" -> "B" [color="#d62728", penwidth=2];`,
		`"A" -> "C" [label="SS+2"];`,
		`"B" -> "M" [color="#d62728", penwidth=2];`,
		`"C" -> "M" [label="FF-1.5"];`,
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %s\n%s", want, dot)
		}
	}
}

// With Graphviz installed, dot itself must accept the output and see every
// activity as its own node.
func TestDOTParsesWithGraphviz(t *testing.T) {
	dotBin, err := exec.LookPath("dot")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("graphviz (dot) is not on PATH: this test must run in CI (.ci/run installs Debian's graphviz with apt-get)")
		}
		t.Skip("graphviz (dot) is not installed")
	}
	for name, s := range map[string]*schedule.Schedule{"awkward": awkwardSchedule(), "building": building(t)} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, dotBin, "-Tjson")
		cmd.Stdin = strings.NewReader(writeDOT(t, s))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if err != nil || stderr.Len() > 0 {
			t.Fatalf("%s: dot: %v: %s", name, err, stderr.String())
		}
		var g struct {
			Objects []struct{ Name string }
			Edges   []struct{}
		}
		if err := json.Unmarshal(out, &g); err != nil {
			t.Fatalf("%s: dot -Tjson: %v", name, err)
		}
		seen := map[string]bool{}
		for _, o := range g.Objects {
			seen[o.Name] = true
		}
		if len(g.Objects) != len(s.Activities) || len(seen) != len(s.Activities) || len(g.Edges) != len(s.Relationships) {
			t.Errorf("%s: dot sees %d nodes (%d distinct), %d edges; want %d, %d", name, len(g.Objects), len(seen), len(g.Edges),
				len(s.Activities), len(s.Relationships))
		}
	}
}
