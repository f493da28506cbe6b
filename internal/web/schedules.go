package web

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/dispatches"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// base is what every page's layout needs.
type base struct {
	Title string
	CSRF  string
	Name  string // who the forms are sent as
	Flash string // what the last action did
	Error string // what went wrong, shown at the top
}

func (s *Server) base(w http.ResponseWriter, r *http.Request, title string) base {
	return base{Title: title, CSRF: s.csrfToken(sessionOf(r)), Name: s.name(r), Flash: takeFlash(w, r)}
}

// scheduleRow is one stored schedule on the schedules page.
type scheduleRow struct {
	store.ScheduleInfo
	Finish string // the project finish: a date, or working days
	Open   *dispatches.Summary
	Error  string
}

type schedulesData struct {
	base
	Schedules []scheduleRow
	// Import form values, kept when an import is refused.
	ImportID string
	Formats  string
}

func (s *Server) schedulesPage(w http.ResponseWriter, r *http.Request) {
	s.renderSchedules(w, r, http.StatusOK, schedulesData{base: s.base(w, r, "Schedules")})
}

func (s *Server) renderSchedules(w http.ResponseWriter, r *http.Request, status int, d schedulesData) {
	ctx := r.Context()
	infos, err := s.stores.Graph.Schedules(ctx)
	if err != nil {
		d.Error = cmp.Or(d.Error, "Cannot list the stored schedules: "+err.Error())
	}
	open, err := dispatches.ListOpen(ctx, s.temporal)
	if err != nil {
		d.Error = cmp.Or(d.Error, "Cannot list open dispatches (is Temporal up?): "+dispatches.RootCause(err))
	}
	bySchedule := map[string]*dispatches.Summary{}
	for i := range open {
		bySchedule[open[i].Schedule] = &open[i]
	}
	for _, info := range infos {
		row := scheduleRow{ScheduleInfo: info, Open: bySchedule[info.ID]}
		if sc, err := s.stores.Load(ctx, info.ID); err != nil {
			row.Error = err.Error()
		} else if rep, err := render.NewReport(sc); err != nil {
			row.Error = err.Error()
		} else {
			row.Finish = finishText(rep)
		}
		d.Schedules = append(d.Schedules, row)
	}
	d.Formats = ".json,.xml,.xer"
	s.render(w, r, status, "schedules", d)
}

// finishText is the project finish as a date when the schedule has a start
// date, else in working days.
func finishText(rep *render.Report) string {
	days := render.Days(rep.Result.ProjectDuration) + " working days"
	if rep.Clock == nil {
		return days
	}
	t, err := rep.Clock.Finish(rep.Result.ProjectDuration)
	if err != nil {
		return days
	}
	return t.Format("Mon 2 Jan 2006") + " (" + days + ")"
}

// importFile stores an uploaded schedule file, validated as `import` does.
func (s *Server) importFile(w http.ResponseWriter, r *http.Request) {
	d := schedulesData{base: s.base(w, r, "Schedules")}
	id := strings.TrimSpace(r.FormValue("schedule"))
	d.ImportID = id
	refuse := func(format string, args ...any) {
		d.Error = fmt.Sprintf(format, args...)
		s.renderSchedules(w, r, http.StatusBadRequest, d)
	}
	file, header, err := r.FormFile("file")
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		refuse("The file is too large: the limit is %d MB.", s.cfg.MaxUpload>>20)
		return
	case err != nil:
		refuse("Choose a schedule file to import (.json, .xml or .xer).")
		return
	}
	defer file.Close()
	name := filepath.Base(header.Filename)
	if id == "" {
		id = strings.TrimSuffix(name, filepath.Ext(name))
	}
	if err := schedule.CheckID(id); err != nil {
		refuse("Schedule %v", err)
		return
	}
	if strings.ContainsAny(id, "/?#") {
		refuse("Schedule id %q: it may not contain /, ? or # (it is part of the schedule's web address).", id)
		return
	}
	format, err := interchange.FormatOf(name)
	if err != nil {
		refuse("%v", err)
		return
	}
	data, err := io.ReadAll(io.LimitReader(file, s.cfg.MaxUpload+1))
	if err != nil {
		refuse("Reading the upload: %v", err)
		return
	}
	if int64(len(data)) > s.cfg.MaxUpload {
		refuse("The file is too large: the limit is %d MB.", s.cfg.MaxUpload>>20)
		return
	}
	sc, _, err := interchange.Parse(data, format)
	if err != nil {
		refuse("%v", &interchange.FileError{Path: name, Err: err})
		return
	}
	replace := r.FormValue("replace") != ""
	if err := s.stores.Import(r.Context(), id, sc, replace, nil); err != nil {
		refuse("Import of %s refused: %v", name, err)
		return
	}
	setFlash(w, fmt.Sprintf("Imported %s as %q: %d activities, %d relationships.", name, id, len(sc.Activities), len(sc.Relationships)))
	http.Redirect(w, r, "/s/"+url.PathEscape(id), http.StatusSeeOther)
}

// activityRow is one line of a schedule's table.
type activityRow struct {
	ID, Name, Duration string
	Start, Finish      string // dates, or working days
	TotalFloat         string
	Critical           bool
}

type scheduleData struct {
	base
	ID, ScheduleName string
	Activities       int
	Relationships    int
	Finish           string
	Critical         int
	Rows             []activityRow
	Query            string
	Hits             []store.Hit
	SearchError      string
	History          []historyRow
	Open             *historyRow
	// Undo is the latest accepted dispatch, which the Undo button takes back.
	Undo *historyRow
	// Snapshot fetches the Gantt drawn with this page.
	Snapshot string
	// Checks is the schedule's quality report (DCMA-style, default
	// thresholds); ChecksError says why there is none.
	Checks      []insight.CheckResult
	ChecksError string
	// Question and Answer: what was asked of the schedule (?ask=), and
	// the read tools' answer (every number from the CPM engine).
	Question string
	Answer   *insight.Answer
}

// historyRow is one dispatch of a schedule's history.
type historyRow struct {
	dispatches.Summary
	UILink string // the execution in the Temporal Web UI
}

func (s *Server) schedulePage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.PathValue("id")
	sc, err := s.stores.Load(ctx, id)
	if err != nil {
		s.fail(w, r, statusOf(err), fmt.Sprintf("Schedule %q: %v", id, err))
		return
	}
	rep, err := render.NewReport(sc)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("Schedule %q cannot be computed: %v", id, err))
		return
	}
	res, clock := rep.Result, rep.Clock
	// The frame's Gantt is drawn now, from this very load, while the page is.
	snap := s.snapshots.put(id, func() ([]byte, error) {
		return drawn(func(w io.Writer) error { return render.WriteGanttHTML(w, rep) })
	})
	d := scheduleData{Snapshot: snap, base: s.base(w, r, cmp.Or(sc.Name, id)), ID: id, ScheduleName: sc.Name,
		Activities: len(sc.Activities), Relationships: len(sc.Relationships), Finish: finishText(rep)}
	d.Rows = make([]activityRow, len(sc.Activities))
	for i := range sc.Activities {
		a := &sc.Activities[i]
		j, _ := res.Net.Index(a.ID)
		row := activityRow{ID: a.ID, Name: a.Name, Duration: a.Duration, TotalFloat: render.Days(res.TotalFloat[j]), Critical: res.Critical(j)}
		row.Start, row.Finish = render.Days(res.ES[j]), render.Days(res.EF[j])
		if clock != nil {
			row.Start = clock.StartAt(res.ES[j]).Format("2006-01-02")
			if t, err := clock.Finish(res.EF[j]); err == nil {
				row.Finish = t.Format("2006-01-02")
			}
		}
		if row.Critical {
			d.Critical++
		}
		d.Rows[i] = row
	}
	v, err := insight.NewOf(sc, res)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("Schedule %q: %v", id, err))
		return
	}
	d.Checks, d.ChecksError = checksOf(v)
	if q := strings.TrimSpace(r.URL.Query().Get("ask")); q != "" {
		ans := insight.Ask(v, q)
		d.Question, d.Answer = q, &ans
	}
	if q := strings.TrimSpace(r.URL.Query().Get("q")); q != "" {
		d.Query = q
		if d.Hits, err = s.stores.Search(ctx, id, q, 10); err != nil {
			d.SearchError = err.Error()
		}
	}
	list, err := dispatches.List(ctx, s.temporal, id)
	if err != nil {
		d.Error = "Cannot read the dispatch history (is Temporal up?): " + dispatches.RootCause(err)
	}
	for _, sum := range list {
		row := historyRow{Summary: sum, UILink: s.uiLink(sum.ID, sum.RunID)}
		d.History = append(d.History, row)
		if sum.Open && d.Open == nil {
			d.Open = &d.History[len(d.History)-1]
		}
	}
	for i := range d.History {
		if d.History[i].Outcome == workflows.StatusAccepted {
			d.Undo = &d.History[i]
			break
		}
	}
	s.render(w, r, http.StatusOK, "schedule", d)
}

// checksOf is the schedule's quality report with the default thresholds.
func checksOf(v *insight.View) ([]insight.CheckResult, string) {
	checks, err := insight.RunChecks(v, insight.DefaultThresholds())
	if err != nil {
		return nil, err.Error()
	}
	return checks, ""
}

// uiLink is the execution's page in the Temporal Web UI ("" without one).
func (s *Server) uiLink(id, runID string) string {
	if s.cfg.TemporalUI == "" {
		return ""
	}
	return s.cfg.TemporalUI + "/namespaces/" + url.PathEscape(s.cfg.Namespace) + "/workflows/" + url.PathEscape(id) + "/" + url.PathEscape(runID) + "/history"
}

// ganttPage is the stored schedule's interactive Gantt (internal/render),
// shown in the schedule page's frame: the snapshot drawn with the page
// (?snap=), else the schedule as stored now.
func (s *Server) ganttPage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if s.sendSnapshot(w, r, id) {
		return
	}
	sc, err := s.stores.Load(r.Context(), id)
	if err != nil {
		s.fail(w, r, statusOf(err), fmt.Sprintf("Schedule %q: %v", id, err))
		return
	}
	report, err := render.NewReport(sc)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("Schedule %q cannot be computed: %v", id, err))
		return
	}
	s.writeGantt(w, r, func(w io.Writer) error { return render.WriteGanttHTML(w, report) })
}

// drawn is a page write draws, in memory.
func drawn(write func(io.Writer) error) ([]byte, error) {
	var buf bytes.Buffer
	err := write(&buf)
	return buf.Bytes(), err
}

// sendSnapshot sends the Gantt drawn under the request's ?snap= for owner
// (a schedule or a dispatch id); false when there is none to send.
func (s *Server) sendSnapshot(w http.ResponseWriter, r *http.Request, owner string) bool {
	page, err, ok := s.snapshots.get(r.Context(), owner, r.URL.Query().Get("snap"))
	switch {
	case !ok:
		return false
	case err != nil:
		s.fail(w, r, http.StatusInternalServerError, "Drawing the Gantt: "+err.Error())
	default:
		s.sendGantt(w, page)
	}
	return true
}

// writeGantt renders a Gantt page into memory first, so a failure is a
// clean error page rather than half a chart.
func (s *Server) writeGantt(w http.ResponseWriter, r *http.Request, write func(io.Writer) error) {
	page, err := drawn(write)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "Drawing the Gantt: "+err.Error())
		return
	}
	s.sendGantt(w, page)
}

// sendGantt sends a drawn Gantt page with its own policy (its inline
// script allowed by hash).
func (s *Server) sendGantt(w http.ResponseWriter, page []byte) {
	w.Header().Set("Content-Security-Policy", s.ganttCSP)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(page) //nolint:errcheck // the browser went away
}

// export sends the stored schedule as a file download.
func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	format, err := interchange.ParseFormat(r.PathValue("format"))
	if err != nil {
		s.fail(w, r, http.StatusNotFound, err.Error())
		return
	}
	sc, err := s.stores.Load(r.Context(), id)
	if err != nil {
		s.fail(w, r, statusOf(err), fmt.Sprintf("Schedule %q: %v", id, err))
		return
	}
	var buf bytes.Buffer
	if err := interchange.Write(&buf, sc, format, nil); err != nil {
		s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("Exporting %q: %v", id, err))
		return
	}
	types := map[interchange.Format]string{interchange.JSON: "application/json", interchange.MSPDI: "application/xml", interchange.XER: "text/plain; charset=utf-8"}
	w.Header().Set("Content-Type", types[format])
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": id + format.Extension()}))
	w.Write(buf.Bytes()) //nolint:errcheck // the browser went away
}

// undo takes back the latest accepted dispatch, as `dispatch undo` does.
func (s *Server) undo(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.PathValue("id")
	dispatchID, runID := r.FormValue("dispatch"), r.FormValue("run")
	if scheduleID, ok := dispatches.ScheduleOf(dispatchID); !ok || scheduleID != id {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a dispatch of schedule %q", dispatchID, id))
		return
	}
	ops, run, err := dispatches.UndoOps(ctx, s.temporal, s.stores.Graph, dispatchID, runID)
	if err == nil {
		var res workflows.EditResult
		_, res, err = dispatches.Edit(ctx, s.temporal, id, s.name(r), ops)
		if err == nil && len(res.Applied) == 0 {
			setFlash(w, fmt.Sprintf("Dispatch %s (run %s) was already undone: nothing changed.", dispatchID, run))
		} else if err == nil {
			setFlash(w, fmt.Sprintf("Undid dispatch %s (run %s): %d changes taken back.", dispatchID, run, len(res.Applied)))
		}
	}
	if err != nil {
		setFlash(w, "Undo refused: "+dispatches.RootCause(err))
	}
	http.Redirect(w, r, "/s/"+url.PathEscape(id), http.StatusSeeOther)
}

type promptData struct {
	base
	Schedules []store.ScheduleInfo
	Schedule  string
	Prompt    string
	OpenID    string // the schedule's open dispatch, when that refused the prompt
}

func (s *Server) promptPage(w http.ResponseWriter, r *http.Request) {
	d := promptData{base: s.base(w, r, "New prompt"), Schedule: r.URL.Query().Get("schedule")}
	s.renderPrompt(w, r, http.StatusOK, d)
}

func (s *Server) renderPrompt(w http.ResponseWriter, r *http.Request, status int, d promptData) {
	infos, err := s.stores.Graph.Schedules(r.Context())
	if err != nil {
		d.Error = cmp.Or(d.Error, "Cannot list the stored schedules: "+err.Error())
	}
	d.Schedules = infos
	s.render(w, r, status, "prompt", d)
}

// submitPrompt starts a dispatch and goes to its review page.
func (s *Server) submitPrompt(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	d := promptData{base: s.base(w, r, "New prompt"), Schedule: r.FormValue("schedule"), Prompt: strings.TrimSpace(r.FormValue("prompt"))}
	author := s.formName(w, r)
	d.Name = author
	switch {
	case d.Schedule == "":
		d.Error = "Choose a schedule."
	case d.Prompt == "":
		d.Error = "The prompt is empty: say what to change."
	}
	if d.Error == "" {
		sc, err := s.stores.Load(ctx, d.Schedule)
		if err != nil {
			d.Error = fmt.Sprintf("Schedule %q: %v", d.Schedule, err)
		} else if v, err := insight.New(sc); err == nil {
			// A question is answered from the schedule, not planned as a change.
			if _, ok := insight.AnswerIfQuestion(v, d.Prompt); ok {
				http.Redirect(w, r, "/s/"+url.PathEscape(d.Schedule)+"?ask="+url.QueryEscape(d.Prompt)+"#answer", http.StatusSeeOther)
				return
			}
		}
	}
	if d.Error != "" {
		s.renderPrompt(w, r, http.StatusBadRequest, d)
		return
	}
	run, err := dispatches.Start(ctx, s.temporal, workflows.DispatchInput{ScheduleID: d.Schedule, Prompt: d.Prompt, Author: author})
	var open *dispatches.OpenError
	if errors.As(err, &open) {
		d.Error, d.OpenID = err.Error()+": review it first.", open.ID
		s.renderPrompt(w, r, http.StatusConflict, d)
		return
	}
	if err != nil {
		d.Error = "Cannot start the dispatch: " + dispatches.RootCause(err)
		s.renderPrompt(w, r, http.StatusBadGateway, d)
		return
	}
	http.Redirect(w, r, reviewURL(run.GetID(), run.GetRunID()), http.StatusSeeOther)
}

// formName is the name a form was sent with (remembered for the next
// one), else the browser's name.
func (s *Server) formName(w http.ResponseWriter, r *http.Request) string {
	if n := strings.TrimSpace(r.FormValue("name")); n != "" {
		if n != s.name(r) {
			rememberName(w, n)
		}
		return n
	}
	return s.name(r)
}

// setName remembers the reviewer's name and goes back where they were.
func (s *Server) setName(w http.ResponseWriter, r *http.Request) {
	s.formName(w, r)
	http.Redirect(w, r, localPath(r.FormValue("back"), "/"), http.StatusSeeOther)
}

func reviewURL(id, runID string) string {
	u := "/d/" + url.PathEscape(id)
	if runID != "" {
		u += "?run=" + url.QueryEscape(runID)
	}
	return u
}

// Flash messages and refusals live one redirect long in a cookie.
const flashCookie = "as_flash"

func setFlash(w http.ResponseWriter, msg string) { setOnce(w, flashCookie, msg) }

func takeFlash(w http.ResponseWriter, r *http.Request) string { return takeOnce(w, r, flashCookie) }

func setOnce(w http.ResponseWriter, name, msg string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: url.QueryEscape(msg), Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Expires: time.Now().Add(time.Minute)})
}

func takeOnce(w http.ResponseWriter, r *http.Request, name string) string {
	c, err := r.Cookie(name)
	if err != nil {
		return ""
	}
	http.SetCookie(w, &http.Cookie{Name: name, Path: "/", MaxAge: -1})
	msg, _ := url.QueryUnescape(c.Value)
	return msg
}

// statusOf is the HTTP status of a store error.
func statusOf(err error) int {
	if errors.Is(err, store.ErrNotFound) {
		return http.StatusNotFound
	}
	return http.StatusInternalServerError
}
