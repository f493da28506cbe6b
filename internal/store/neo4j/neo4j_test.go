package neo4j_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
	neo4jstore "github.com/autoscheduler/autoscheduler/internal/store/neo4j"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// config reads the server from NEO4J_URI (and NEO4J_USER, NEO4J_PASSWORD,
// NEO4J_DATABASE). Without it the tests skip, except in CI, where a
// missing server is a failure.
func config(t testing.TB) neo4jstore.Config {
	t.Helper()
	uri := os.Getenv("NEO4J_URI")
	if uri == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but NEO4J_URI is not set")
		}
		t.Skip("NEO4J_URI is not set; set it (e.g. bolt://127.0.0.1:7687) to test against Neo4j")
	}
	return neo4jstore.Config{URI: uri, User: os.Getenv("NEO4J_USER"), Password: os.Getenv("NEO4J_PASSWORD"), Database: os.Getenv("NEO4J_DATABASE")}
}

func open(t testing.TB) *neo4jstore.Store {
	t.Helper()
	s, err := neo4jstore.Open(context.Background(), config(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

func openEmbedded(t *testing.T) *embedded.Store {
	t.Helper()
	e, err := embedded.Open(context.Background(), filepath.Join(t.TempDir(), "autoscheduler.db"), embedded.Options{Tokenize: embed.Normalize})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

func TestContract(t *testing.T) {
	graph := open(t)
	storetest.Run(t, func(t *testing.T) (store.GraphStore, store.VectorStore) {
		return graph, openEmbedded(t).Vectors()
	})
}

// scheduleID is unique per run, deleted after the test.
func scheduleID(t testing.TB, s store.GraphStore, prefix string) string {
	id := fmt.Sprintf("%s-%08x", prefix, rand.Uint32())
	t.Cleanup(func() { _ = s.DeleteSchedule(context.Background(), id) })
	return id
}

// BenchmarkImport5000 applies the import of a 5,000-activity schedule
// (about 10,000 relationships: 25,000 nodes, 30,000 edges), loads it back
// and deletes it.
func BenchmarkImport5000(b *testing.B) {
	ctx := context.Background()
	s := open(b)
	sc := schedule.Synthetic(5000, 2, 1)
	for b.Loop() {
		id := scheduleID(b, s, "bench")
		start := time.Now()
		if _, err := s.Apply(ctx, id, []store.Change{{OpID: "import", Meta: &store.Meta{Name: sc.Name}, PutActivities: sc.Activities, PutRelationships: sc.Relationships}}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "apply-ms")
		start = time.Now()
		if _, err := s.Load(ctx, id); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "load-ms")
		start = time.Now()
		if err := s.DeleteSchedule(ctx, id); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "delete-ms")
	}
}

func TestSchemaExistsAfterOpen(t *testing.T) {
	cfg := config(t)
	open(t)
	open(t) // a second Open finds everything in place
	auth := neo4j.NoAuth()
	if cfg.User != "" || cfg.Password != "" {
		auth = neo4j.BasicAuth(cfg.User, cfg.Password, "")
	}
	ctx := context.Background()
	driver, err := neo4j.NewDriverWithContext(cfg.URI, auth)
	if err != nil {
		t.Fatal(err)
	}
	defer driver.Close(ctx)
	db := cmp(cfg.Database, "neo4j")
	show := func(cypher string) map[string]string {
		res, err := neo4j.ExecuteQuery(ctx, driver, cypher, nil, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(db))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, rec := range res.Records {
			name, _ := rec.Get("name")
			labels, _ := rec.Get("labelsOrTypes")
			props, _ := rec.Get("properties")
			kind, _ := rec.Get("type")
			out[name.(string)] = fmt.Sprintf("%v %v %v", kind, labels, props)
		}
		return out
	}
	constraints := show("SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties")
	for name, want := range map[string]string{
		"node_uuid":        "UNIQUENESS [Node] [uuid]",
		"node_schedule_id": "UNIQUENESS [Node] [schedule_id id]",
		"schedule_id":      "UNIQUENESS [Schedule] [id]",
		"ledger_op":        "UNIQUENESS [LedgerEntry] [schedule_id op_id]",
		"version_key":      "UNIQUENESS [Version] [schedule_id id]",
	} {
		if constraints[name] != want {
			t.Errorf("constraint %s: %q, want %q", name, constraints[name], want)
		}
	}
	indexes := show("SHOW INDEXES YIELD name, type, labelsOrTypes, properties")
	for name, want := range map[string]string{
		"node_schedule":   "RANGE [Node] [schedule_id]",
		"ledger_schedule": "RANGE [LedgerEntry] [schedule_id]",
	} {
		if indexes[name] != want {
			t.Errorf("index %s: %q, want %q", name, indexes[name], want)
		}
	}
}

func cmp(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func TestOpenNamesTheServerNotThePassword(t *testing.T) {
	ctx := context.Background()
	_, err := neo4jstore.Open(ctx, neo4jstore.Config{URI: "bolt://127.0.0.1:1", User: "neo4j", Password: "s3cret-pw"})
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	if !strings.Contains(err.Error(), "bolt://127.0.0.1:1") || strings.Contains(err.Error(), "s3cret-pw") {
		t.Fatalf("error %q should name the URI and not the password", err)
	}
	_, err = neo4jstore.Open(ctx, neo4jstore.Config{URI: "bolt://neo4j:s3cret-pw@127.0.0.1:1"})
	if err == nil || strings.Contains(err.Error(), "s3cret-pw") {
		t.Fatalf("error %q should not show the password in the URI", err)
	}
}

// TestAwkwardValuesStayValues writes ids and names that break naively
// built Cypher straight through the port (schedule ids are plain:
// usertext.ID refuses the rest), and checks they come back as written and
// that nothing else in the database moved.
func TestAwkwardValuesStayValues(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	bystander := scheduleID(t, s, "bystander")
	if _, err := s.Apply(ctx, bystander, []store.Change{{OpID: "b1", PutActivities: []schedule.Activity{{ID: "A", Name: "A", Duration: "1"}}}}); err != nil {
		t.Fatal(err)
	}
	for i, text := range storetest.Awkward {
		// Schedule ids are refused unless plain (usertext.ID); every other
		// value carries the awkward text.
		id := scheduleID(t, s, fmt.Sprintf("awkward-%d", i))
		a := schedule.Activity{ID: text, Name: text, Description: storetest.Awkward[(i+1)%len(storetest.Awkward)], Duration: "2"}
		b := schedule.Activity{ID: "b" + text, Name: "b", Duration: "1"}
		r := schedule.Relationship{ID: "r" + text, Type: schedule.SF, Predecessor: a.ID, Successor: b.ID, Lag: -1.5}
		change := store.Change{OpID: text, Meta: &store.Meta{Name: text, StartDate: "2026-01-05"}, PutActivities: []schedule.Activity{a, b}, PutRelationships: []schedule.Relationship{r}}
		if _, err := s.Apply(ctx, id, []store.Change{change}); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		got, err := s.Load(ctx, id)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		want := &schedule.Schedule{Name: text, StartDate: "2026-01-05", Activities: []schedule.Activity{a, b}, Relationships: []schedule.Relationship{r}}
		slices.SortFunc(want.Activities, func(x, y schedule.Activity) int { return strings.Compare(x.ID, y.ID) })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q did not round-trip:\n%+v\n%+v", text, got, want)
		}
		rec, err := s.Recorded(ctx, id, []string{text})
		if err != nil || !reflect.DeepEqual(rec[text], change) {
			t.Fatalf("%q: ledger holds %+v, %v", text, rec, err)
		}
	}
	if got, err := s.Load(ctx, bystander); err != nil || len(got.Activities) != 1 {
		t.Fatalf("another schedule changed: %+v %v", got, err)
	}
}

// TestMatchesEmbedded applies the same changes, edge cases of the ledger
// included, to this store and the reference store and compares what they
// report and hold.
func TestMatchesEmbedded(t *testing.T) {
	ctx := context.Background()
	n := open(t)
	e := openEmbedded(t).Graph()
	id := scheduleID(t, n, "match")
	cal := &schedule.Calendar{}
	if b := storetest.Building(t); b.Calendar != nil {
		cal = b.Calendar
	}
	act := func(id, name string) schedule.Activity {
		return schedule.Activity{ID: id, Name: name, Description: "about " + name, Duration: "3"}
	}
	rounds := [][]store.Change{
		// An empty change creates the schedule with no meta.
		{{}},
		{{OpID: "import", Meta: &store.Meta{Name: "Match", StartDate: "2026-02-02", Calendar: cal},
			PutActivities:    []schedule.Activity{act("A", "Alpha"), act("B", "Beta"), act("C", "Gamma")},
			PutRelationships: []schedule.Relationship{{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B"}, {ID: "R2", Type: schedule.SS, Predecessor: "B", Successor: "C", Lag: 2}}}},
		// Retried, plus a new op twice in one call, plus an unrecorded one.
		{
			{OpID: "import"},
			{OpID: "retype", PutRelationships: []schedule.Relationship{{ID: "R1", Type: schedule.FF, Predecessor: "A", Successor: "C", Lag: 1}}},
			{OpID: "retype", PutActivities: []schedule.Activity{act("X", "never")}},
			{PutActivities: []schedule.Activity{act("D", "Delta")}, DeleteRelationships: []string{"missing"}, DeleteActivities: []string{"missing"}},
		},
		// Compensation: forget and undo, and the forgotten op applies again.
		{
			{Forget: []string{"retype"}, PutRelationships: []schedule.Relationship{{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B"}}},
			{OpID: "retype", DeleteActivities: []string{"C"}, DeleteRelationships: []string{"R2"}},
			{OpID: "meta", Meta: &store.Meta{Name: "Renamed"}},
		},
	}
	for i, changes := range rounds {
		got, err := n.Apply(ctx, id, changes)
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		want, err := e.Apply(ctx, id, changes)
		if err != nil {
			t.Fatalf("round %d, embedded: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: applied %q, the embedded store %q", i, got, want)
		}
		gd, err := n.Dump(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		wd, _ := e.Dump(ctx, id)
		if !reflect.DeepEqual(gd, wd) {
			t.Fatalf("round %d: dump\n%+v\nthe embedded store's\n%+v", i, gd, wd)
		}
		ops := []string{"import", "retype", "meta", "missing"}
		gr, err := n.Recorded(ctx, id, ops)
		if err != nil {
			t.Fatal(err)
		}
		wr, _ := e.Recorded(ctx, id, ops)
		if !reflect.DeepEqual(gr, wr) {
			t.Fatalf("round %d: ledger\n%+v\nthe embedded store's\n%+v", i, gr, wr)
		}
	}
	gs, err := n.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := e.Load(ctx, id)
	if !reflect.DeepEqual(gs, ws) {
		t.Fatalf("load\n%+v\nthe embedded store's\n%+v", gs, ws)
	}
	list, err := n.Schedules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(list, func(info store.ScheduleInfo) bool { return info.ID == id })
	if i < 0 || list[i] != (store.ScheduleInfo{ID: id, Name: "Renamed", Activities: 3, Relationships: 1}) {
		t.Fatalf("schedules: %+v", list)
	}
	if err := n.DeleteSchedule(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := n.DeleteSchedule(ctx, id); err != nil {
		t.Fatalf("deleting a deleted schedule: %v", err)
	}
	if rec, err := n.Recorded(ctx, id, []string{"import"}); err != nil || len(rec) != 0 {
		t.Fatalf("the ledger outlived its schedule: %v %v", rec, err)
	}
}

// TestCypherIsConstant checks, on the source, that every statement the
// adapter runs is a constant of the package: values can only travel as
// parameters. A Run call (or a call of a helper taking a cypher argument)
// must pass a package constant, a helper's own cypher parameter, or an
// element of schemaStatements, which must list constants.
func TestCypherIsConstant(t *testing.T) {
	fset := token.NewFileSet()
	paths, _ := filepath.Glob("*.go")
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	consts := map[string]bool{}
	helpers := map[string]int{} // function name -> index of its cypher parameter
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for _, name := range vs.Names {
						if d.Tok == token.CONST {
							consts[name.Name] = true
						}
					}
				}
			case *ast.FuncDecl:
				i := 0
				for _, field := range d.Type.Params.List {
					for _, name := range field.Names {
						if name.Name == "cypher" {
							helpers[d.Name.Name] = i
						}
						i++
					}
				}
			}
		}
	}
	// schemaStatements must be a list of constants.
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "schemaStatements" {
				return true
			}
			for _, el := range vs.Values[0].(*ast.CompositeLit).Elts {
				if id, ok := el.(*ast.Ident); !ok || !consts[id.Name] {
					t.Errorf("%s: schemaStatements holds a non-constant", fset.Position(el.Pos()))
				}
			}
			return false
		})
	}
	runs := 0
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			_, isHelper := helpers[fn.Name.Name]
			rangeVars := map[string]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if r, ok := n.(*ast.RangeStmt); ok {
					if x, ok := r.X.(*ast.Ident); ok && x.Name == "schemaStatements" {
						if v, ok := r.Value.(*ast.Ident); ok {
							rangeVars[v.Name] = true
						}
					}
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				at := -1
				switch fun := call.Fun.(type) {
				case *ast.SelectorExpr:
					if fun.Sel.Name == "Run" {
						at = 1
						runs++
					}
				case *ast.Ident:
					if i, ok := helpers[fun.Name]; ok {
						at = i
					}
				}
				if at < 0 || at >= len(call.Args) {
					return true
				}
				id, ok := call.Args[at].(*ast.Ident)
				if !ok || !(consts[id.Name] || rangeVars[id.Name] || (isHelper && id.Name == "cypher")) {
					t.Errorf("%s: %s runs a statement that is not a package constant", fset.Position(call.Pos()), fn.Name.Name)
				}
				return true
			})
		}
	}
	if runs == 0 {
		t.Fatal("found no Run calls: the check is not looking at the adapter")
	}
}
