package risk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/render/rendertest"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// simulate runs iters iterations of s with seed 1.
func simulate(t *testing.T, s *schedule.Schedule, iters int) *Result {
	t.Helper()
	m, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Run(Options{Iterations: iters, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func buildingReport(t *testing.T, iters int) *Report {
	t.Helper()
	s, _, err := interchange.Load("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	r := simulate(t, s, iters)
	rep := &Report{Result: r, Name: s.Name}
	if s.StartDate != "" {
		if rep.Clock, err = schedule.NewClock(s.StartDate, s.Calendar); err != nil {
			t.Fatal(err)
		}
	}
	return rep
}

func TestWriteJSON(t *testing.T) {
	rep := buildingReport(t, 2000)
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	keys := []string{"iterations", "seed", "deterministic_finish", "deterministic_percentile", "mean", "sd", "p10", "p50", "p80", "p90", "criticality", "sensitivity"}
	if rep.Clock != nil {
		keys = append(keys, "deterministic_finish_date", "p10_date", "p50_date", "p80_date", "p90_date")
	}
	for _, k := range keys {
		if _, ok := got[k]; !ok {
			t.Errorf("no %q in %s", k, buf.String())
		}
	}
	if len(got) != len(keys) {
		t.Errorf("%d keys, want %d: %s", len(got), len(keys), buf.String())
	}
	if got["iterations"].(float64) != 2000 || got["seed"].(float64) != 1 {
		t.Errorf("iterations/seed: %v %v", got["iterations"], got["seed"])
	}
	crit := got["criticality"].(map[string]any)
	if len(crit) != len(rep.IDs) {
		t.Errorf("criticality has %d activities, want %d", len(crit), len(rep.IDs))
	}
	p := []float64{got["p10"].(float64), got["p50"].(float64), got["p80"].(float64), got["p90"].(float64)}
	if !(p[0] <= p[1] && p[1] <= p[2] && p[2] <= p[3]) {
		t.Errorf("percentiles out of order: %v", p)
	}
	if rep.Clock != nil {
		if d, _ := got["p50_date"].(string); !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$`).MatchString(d) {
			t.Errorf("p50_date %q", d)
		}
	}
}

func TestWriteTable(t *testing.T) {
	rep := buildingReport(t, 500)
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"P10", "P50", "P80", "P90", "mean", "standard deviation", "Top drivers", "500 iterations, seed 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	// All durations fixed: the table says so.
	m, _ := Compile(chain("F", "3", "4"))
	r, _ := m.Run(Options{Iterations: 10, Seed: 1})
	buf.Reset()
	(&Report{Result: r}).WriteTable(&buf)
	if !strings.Contains(buf.String(), "Every duration is fixed") || !strings.Contains(buf.String(), "P10 = P90") {
		t.Errorf("fixed schedule table:\n%s", buf.String())
	}
}

// TestHTMLSelfContained: the page loads nothing from anywhere: no src or
// href attributes, no url(), no @import; only the SVG namespace is a URL.
func TestHTMLSelfContained(t *testing.T) {
	rep := buildingReport(t, 1000)
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{" src=", " href=", "url(", "@import", "<script src", "<link"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if got := strings.Count(page, `class="bin"`); got != len(rep.Histogram) {
		t.Errorf("%d bins drawn, histogram has %d", got, len(rep.Histogram))
	}
	if strings.Count(page, `class="cdf"`) != 1 {
		t.Error("no S-curve")
	}
	// Names are escaped.
	rep.Names[0] = `<script>alert(1)</script>`
	buf.Reset()
	rep.WriteHTML(&buf)
	if strings.Contains(buf.String(), "<script>alert") {
		t.Error("activity name not escaped")
	}
}

// chromium finds a headless-capable Chromium (CI must have one).
func chromium(t *testing.T) string {
	t.Helper()
	return rendertest.Chromium(t, "the risk page's browser test")
}

// TestHTMLInChromium loads the page in headless Chromium (chromedp): both
// SVGs render with a non-empty bounding box, every histogram bin and the
// S-curve have geometry, and the console shows no error or exception
// (a console.error probe at the end proves the listener hears them).
func TestHTMLInChromium(t *testing.T) {
	bin := chromium(t)
	rep := buildingReport(t, 2000)
	dir := t.TempDir()
	path := filepath.Join(dir, "risk.html")
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(dir, "profile")
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(profile), chromedp.WindowSize(1400, 1000))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	defer cancelTab()
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	var mu sync.Mutex
	var problems []string
	note := func(s string) { mu.Lock(); problems = append(problems, s); mu.Unlock() }
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value))
				}
				note(fmt.Sprintf("console.%s %s", e.Type, strings.Join(parts, " ")))
			}
		case *runtime.EventExceptionThrown:
			note("exception " + e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError {
				note("log error " + e.Entry.Text)
			}
		}
	}); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.ToSlash(path))); err != nil {
		t.Fatal(err)
	}
	type box struct {
		ID             string
		W, H           float64
		Bins, Drawn    int
		CurveW, CurveH float64
	}
	boxes, err := chromedp.Run(ctx, chromedp.Evaluate[[]box](`Array.from(document.querySelectorAll("svg")).map(s => {
		const r = s.getBoundingClientRect();
		const bins = Array.from(s.querySelectorAll("rect.bin"));
		const c = s.querySelector("polyline.cdf");
		const cb = c ? c.getBBox() : {width: 0, height: 0};
		return {ID: s.id, W: r.width, H: r.height, Bins: bins.length,
			Drawn: bins.filter(b => { const x = b.getBBox(); return x.width > 0 && x.height > 0 }).length,
			CurveW: cb.width, CurveH: cb.height};
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if len(boxes) != 2 {
		t.Fatalf("%d SVGs in the page, want 2: %+v", len(boxes), boxes)
	}
	for _, b := range boxes {
		t.Logf("%+v", b)
		if b.W <= 0 || b.H <= 0 {
			t.Errorf("svg#%s has an empty box %vx%v", b.ID, b.W, b.H)
		}
		switch b.ID {
		case "histogram":
			nonEmpty := 0
			for _, c := range rep.Histogram {
				if c > 0 {
					nonEmpty++
				}
			}
			if b.Bins != len(rep.Histogram) || b.Drawn != nonEmpty {
				t.Errorf("histogram: %d bins, %d drawn; want %d, %d", b.Bins, b.Drawn, len(rep.Histogram), nonEmpty)
			}
		case "scurve":
			if b.CurveW <= 0 || b.CurveH <= 0 {
				t.Errorf("S-curve box %vx%v", b.CurveW, b.CurveH)
			}
		default:
			t.Errorf("unexpected svg %q", b.ID)
		}
	}
	mu.Lock()
	if len(problems) > 0 {
		t.Errorf("console: %v", problems)
	}
	mu.Unlock()
	// Control: a console.error is heard.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`console.error("probe")`)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		heard := len(problems) > 0
		mu.Unlock()
		if heard {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the console listener did not hear a console.error probe")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
