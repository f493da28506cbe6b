package render_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/render/rendertest"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// chromium finds a headless-capable Chromium (CI must have one).
func chromium(t *testing.T) string {
	t.Helper()
	return rendertest.Chromium(t, "the Gantt browser test")
}

// runChromium runs one headless Chromium command with a fresh profile.
// Headless Chromium can hang, so it gets a deadline, and WaitDelay stops
// Wait from blocking on children that keep its output open.
func runChromium(t *testing.T, bin string, args ...string) (string, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	profile, err := os.MkdirTemp(t.TempDir(), "profile")
	if err != nil {
		t.Fatal(err)
	}
	args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--no-default-browser-check", "--disable-extensions", "--user-data-dir=" + profile}, args...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("chromium %v: timed out after %v\n%s", args, took, stderr.String())
	}
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.String(), took
}

func writePage(t *testing.T, dir string, s *schedule.Schedule) (path string, rep *render.Report, page string) {
	t.Helper()
	rep, page = ganttReport(t, s)
	path = filepath.Join(dir, "gantt.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, rep, page
}

func criticalCount(res *schedule.Result) int {
	n := 0
	for i := range res.ES {
		if res.Critical(i) {
			n++
		}
	}
	return n
}

var (
	linkD  = regexp.MustCompile(`<path class="link[^"]*" data-p="\d+" data-s="\d+" data-t="..?" d="([^"]*)"`)
	barX   = regexp.MustCompile(`<(?:rect|path) class="bar[^"]*" (?:rx="2" x="[^"]*" y="[^"]*" width="[^"]*"|d="[^"]*")`)
	zoomK  = regexp.MustCompile(`"k":([0-9.]+)`)
	scaled = regexp.MustCompile(`id="zoom-level">[0-9.]+ px per working day<`)
)

// TestGanttInChromium loads the example building's page in headless
// Chromium: after the page's script has run, the DOM has one bar per
// activity and one critical bar per critical activity; re-laid out by the
// script at the page's own zoom it matches the Go layout exactly; fitted to
// the window it still has every bar; and a screenshot renders.
func TestGanttInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	path, rep, page := writePage(t, dir, building(t))
	url := "file://" + filepath.ToSlash(path)
	nAct, nCrit := len(rep.Schedule.Activities), criticalCount(rep.Result)

	dom, took := runChromium(t, bin, "--dump-dom", url)
	t.Logf("%d activities: page %d bytes, chromium --dump-dom %v", nAct, len(page), took)
	if !scaled.MatchString(dom) {
		t.Fatal("the page's script did not run (no zoom level shown)")
	}
	if got := countClasses(dom, "bar"); got != nAct {
		t.Errorf("DOM has %d bars, want %d activities", got, nAct)
	}
	if got := countClasses(dom, "bar", "critical"); got != nCrit {
		t.Errorf("DOM has %d critical bars, want %d critical activities", got, nCrit)
	}

	// The script's layout at the opening zoom is the Go layout.
	k := zoomK.FindStringSubmatch(page)[1]
	dom, _ = runChromium(t, bin, "--dump-dom", url+"#zoom="+k)
	for name, re := range map[string]*regexp.Regexp{"link": linkD, "bar": barX} {
		want, got := re.FindAllString(page, -1), re.FindAllString(dom, -1)
		if len(want) == 0 || len(got) != len(want) {
			t.Fatalf("%s geometry: %d elements in the DOM, %d in the page", name, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s %d laid out by the script:\n%s\nby Go:\n%s", name, i, got[i], want[i])
			}
		}
	}

	dom, _ = runChromium(t, bin, "--window-size=1600,1200", "--dump-dom", url+"#fit")
	if got := countClasses(dom, "bar"); got != nAct || countClasses(dom, "bar", "critical") != nCrit || countClasses(dom, "link") != len(rep.Schedule.Relationships) {
		t.Errorf("fitted page: %d bars, %d critical, %d links", got, countClasses(dom, "bar", "critical"), countClasses(dom, "link"))
	}

	// Hovering over a bar shows its times: a probe appended to a copy of
	// the page fires the mouseover and records the tooltip.
	probe := strings.Replace(page, "</body>", `<script>
var bar = document.querySelector('.bar.critical[data-id="A002"]');
bar.dispatchEvent(new MouseEvent("mouseover", {bubbles: true, clientX: 400, clientY: 300}));
var tip = document.getElementById("tip");
document.body.setAttribute("data-probe", (tip.hidden ? "hidden" : "shown") + "|" + tip.textContent.replace(/\n/g, "/"));
</script></body>`, 1)
	probePath := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(probePath, []byte(probe), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, _ = runChromium(t, bin, "--dump-dom", "file://"+filepath.ToSlash(probePath))
	want := `data-probe="shown|Mobilisation (A002)/Duration 5 d, critical/ES 0  EF 5/LS 0  LF 5/TF 0  FF 0/Start Mon 2026-01-05 08:00/Finish Fri 2026-01-09 17:00"`
	if !strings.Contains(dom, want) {
		t.Errorf("tooltip: want %s in\n%s", want, regexp.MustCompile(`data-probe="[^"]*"`).FindString(dom))
	}

	png := filepath.Join(dir, "gantt.png")
	_, took = runChromium(t, bin, "--screenshot="+png, "--window-size=1600,1200", url)
	b, err := os.ReadFile(png)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || len(b) < 50_000 {
		t.Errorf("screenshot is %d bytes (PNG header %v); want a real picture", len(b), bytes.HasPrefix(b, []byte("\x89PNG")))
	}
	t.Logf("screenshot %d bytes in %v", len(b), took)
}

// TestGanttInChromium5000 checks the page of a 5,000-activity schedule
// loads in a browser with every bar, and logs how long that takes.
func TestGanttInChromium5000(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	bin := chromium(t)
	s := schedule.Synthetic(5000, 2, 1)
	s.StartDate = "2026-01-05"
	path, rep, page := writePage(t, t.TempDir(), s)
	dom, took := runChromium(t, bin, "--window-size=1600,1200", "--dump-dom", "file://"+filepath.ToSlash(path)+"#fit")
	t.Logf("5000 activities, %d relationships: page %s, chromium --dump-dom (fit) %v", len(s.Relationships), mb(len(page)), took)
	if got, want := countClasses(dom, "bar"), len(s.Activities); got != want {
		t.Errorf("DOM has %d bars, want %d", got, want)
	}
	if got, want := countClasses(dom, "bar", "critical"), criticalCount(rep.Result); got != want {
		t.Errorf("DOM has %d critical bars, want %d", got, want)
	}
}

func mb(n int) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
