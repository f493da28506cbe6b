package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// render executes a page into memory first: a template error is a clean
// 500, never half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, page string, data any) {
	t := s.pages[page]
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", data); err != nil {
		s.log.Error("Rendering a page", "Page", page, "Error", err)
		http.Error(w, "500 internal error: the page could not be drawn", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes()) //nolint:errcheck // the browser went away
}

type errorData struct {
	base
	Status int
}

// fail shows an error page that says what was wrong.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if status >= 500 {
		s.log.Warn("Request failed", "Method", r.Method, "Path", r.URL.Path, "Status", status, "Error", msg)
	}
	d := errorData{base: base{Title: http.StatusText(status), CSRF: s.csrfToken(sessionOf(r)), Name: s.name(r), Error: msg}, Status: status}
	s.render(w, r, status, "error", d)
}

// funcs are the templates' helpers.
var funcs = template.FuncMap{
	"days": render.Days,
	"signed": func(v float64) string {
		if v > 0 {
			return "+" + render.Days(v)
		}
		return render.Days(v)
	},
	"stage": stageText,
	"when":  func(t time.Time) string { return t.Local().Format("2006-01-02 15:04") },
	"date": func(dt string) string {
		if t, err := time.Parse(schedule.DateTimeLayout, dt); err == nil {
			return t.Format("Mon 2 Jan 2006")
		}
		return dt
	},
	// first keeps a long list short; more counts the rest.
	"first": func(n int, list []schedule.ComparedActivity) []schedule.ComparedActivity {
		return list[:min(n, len(list))]
	},
	"more":     func(n int, list []schedule.ComparedActivity) int { return max(len(list)-n, 0) },
	"firstIDs": func(n int, ids []string) []string { return ids[:min(n, len(ids))] },
	"moreIDs":  func(n int, ids []string) int { return max(len(ids)-n, 0) },
	"decision": func(d workflows.Decision) string { return d.Summary() },
	"path":     url.PathEscape,
	"query":    url.QueryEscape,
	"usage": func(st workflows.Status) string {
		u := st.TokenUsage
		if u.Calls == 0 {
			return "no model calls (offline planner)"
		}
		return fmt.Sprintf("%d model calls, %d prompt + %d completion tokens", u.Calls, u.PromptTokens, u.CompletionTokens)
	},
	"roundChanges": func(changes []workflows.ChangeRecord, round int) []workflows.ChangeRecord {
		var out []workflows.ChangeRecord
		for _, c := range changes {
			if c.Round == round {
				out = append(out, c)
			}
		}
		return out
	},
	"opKind": func(k schedule.OpKind) string { return strings.ReplaceAll(string(k), "_", " ") },
	// taskChanges are the changes of one task of a multi-part prompt.
	"taskChanges": func(changes []workflows.ChangeRecord, task string) []workflows.ChangeRecord {
		var out []workflows.ChangeRecord
		for _, c := range changes {
			if c.Op.Task == task {
				out = append(out, c)
			}
		}
		return out
	},
	"join": strings.Join,
	"add": func(a ...int) int {
		n := 0
		for _, v := range a {
			n += v
		}
		return n
	},
	"taskFeedback": func() string { return scope.TaskFeedbackHint },
}

// stageText is a dispatch stage in words.
func stageText(stage string) string {
	switch stage {
	case workflows.StageSeparating:
		return "reading the prompt"
	case workflows.StagePlanningRemovals:
		return "planning removals"
	case workflows.StageApplyingRemovals:
		return "applying removals"
	case workflows.StagePlanningAdditions:
		return "planning additions"
	case workflows.StageApplyingAdditions:
		return "applying additions"
	case workflows.StageAwaitingClarification:
		return "waiting for your answer"
	case workflows.StageAwaitingReview:
		return "waiting for review"
	case workflows.StageCommitting:
		return "committing"
	case workflows.StageCompensating:
		return "taking the changes back"
	case workflows.StageDone:
		return "done"
	case "":
		return "starting"
	}
	return strings.ReplaceAll(stage, "_", " ")
}

// ganttPolicy is the Content-Security-Policy of the Gantt pages: their
// one inline script allowed by hash, nothing else.
func ganttPolicy() (string, error) {
	sc := &schedule.Schedule{Name: "probe", Activities: []schedule.Activity{{ID: "A", Name: "A", Duration: "1"}, {ID: "B", Name: "B", Duration: "2"}},
		Relationships: []schedule.Relationship{{ID: "R", Type: schedule.FS, Predecessor: "A", Successor: "B"}}}
	rep, err := render.NewReport(sc)
	if err != nil {
		return "", err
	}
	var page bytes.Buffer
	if err := render.WriteGanttHTML(&page, rep); err != nil {
		return "", err
	}
	if err := render.WriteGanttDiffHTML(&page, rep, rep); err != nil {
		return "", err
	}
	hashes := map[string]bool{}
	for _, m := range inlineScript.FindAllSubmatch(page.Bytes(), -1) {
		sum := sha256.Sum256(m[1])
		hashes["'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'"] = true
	}
	var srcs []string
	for h := range hashes {
		srcs = append(srcs, h)
	}
	if len(srcs) == 0 {
		srcs = []string{"'none'"}
	}
	return "default-src 'none'; script-src " + strings.Join(srcs, " ") + "; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'", nil
}

// inlineScript matches an executable inline script (not a JSON data block).
var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
