package web

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"

	"github.com/autoscheduler/autoscheduler/internal/compare"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/internal/versions"
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
	Finish  string // the project finish: a date, or working days
	Updated string
	Open    *workflows.Summary
	Error   string
	// Reachable says the schedule's id can be a web address (ids stored
	// before they were checked, such as "..", cannot); DeleteAction is
	// where its delete form posts.
	Reachable    bool
	DeleteAction string
}

type schedulesData struct {
	base
	Schedules []scheduleRow
	// Import form values, kept when an import is refused.
	ImportID string
	Formats  string
}

func (s *Server) schedulesPage(w http.ResponseWriter, r *http.Request) {
	d := schedulesData{base: s.base(w, r, "Schedules")}
	d.Error = takeRefusal(w, r)
	s.renderSchedules(w, r, http.StatusOK, d)
}

// renderSchedules lists the stored schedules from the summaries kept with
// them (store.Summary): no schedule is loaded or computed, whatever their
// number and size.
func (s *Server) renderSchedules(w http.ResponseWriter, r *http.Request, status int, d schedulesData) {
	ctx := r.Context()
	infos, err := s.stores.Schedules(ctx)
	if err != nil {
		d.Error = cmp.Or(d.Error, "Cannot list the stored schedules: "+err.Error())
	}
	open, err := workflows.ListOpen(ctx, s.temporal)
	if err != nil {
		d.Error = cmp.Or(d.Error, "Cannot list open dispatches (is Temporal up?): "+workflows.RootCause(err))
	}
	bySchedule := map[string]*workflows.Summary{}
	for i := range open {
		bySchedule[open[i].Schedule] = &open[i]
	}
	for _, info := range infos {
		row := scheduleRow{ScheduleInfo: info, Open: bySchedule[info.ID], Reachable: store.CheckScheduleID(info.ID) == nil}
		row.DeleteAction = "/s/" + url.PathEscape(info.ID) + "/delete"
		if !row.Reachable {
			row.DeleteAction = "/s/" + unreachableID + "/delete" // the id goes in the form
		}
		if sum := info.Summary; sum != nil {
			row.Finish, row.Error = summaryFinish(sum)
			if !sum.Updated.IsZero() {
				row.Updated = sum.Updated.Local().Format("2006-01-02 15:04")
			}
		}
		d.Schedules = append(d.Schedules, row)
	}
	d.Formats = ".json,.xml,.xer"
	s.render(w, r, status, "schedules", d)
}

// summaryFinish is a summary's finish as finishText words it, or why
// there is none.
func summaryFinish(sum *store.Summary) (finish, problem string) {
	if sum.FinishError != "" {
		return "", sum.FinishError
	}
	days := render.Days(sum.Finish) + " working days"
	if sum.FinishDate == "" {
		return days, ""
	}
	t, err := time.Parse("2006-01-02T15:04:05", sum.FinishDate)
	if err != nil {
		return days, ""
	}
	return t.Format("Mon 2 Jan 2006") + " (" + days + ")", ""
}

// unreachableID stands in the delete form's address for an id that
// cannot be part of one ("", "." and "..", stored before ids were
// checked); the form carries the id itself. No schedule can have it: an id
// does not start with '-'.
const unreachableID = "-"

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
	refuseWith := func(code int, format string, args ...any) {
		d.Error = fmt.Sprintf(format, args...)
		s.renderSchedules(w, r, code, d)
	}
	refuse := func(format string, args ...any) { refuseWith(http.StatusBadRequest, format, args...) }
	tooLarge := func() {
		refuseWith(http.StatusRequestEntityTooLarge, "Upload refused: the file is too large (%s at most).", usertext.Size(s.cfg.MaxUpload))
	}
	file, header, err := r.FormFile("file")
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		tooLarge()
		return
	case err != nil:
		refuse("Choose a schedule file to import (.json, .xml or .xer).")
		return
	}
	defer file.Close()
	name := filepath.Base(header.Filename)
	if id == "" {
		// The file's name, made an id: "Level 2 (rev B).xer" is
		// "Level-2-rev-B"; "..json" and ".json" give none.
		id = usertext.IDFrom(strings.TrimSuffix(name, filepath.Ext(name)))
		if id == "" {
			refuse("The file name %q gives no schedule id: type one in “Store as” (letters, digits, '.', '_' and '-').", usertext.Terminal(name))
			return
		}
		d.ImportID = id
	}
	if err := store.CheckScheduleID(id); err != nil {
		refuse("Schedule not imported: %v. An id is part of the schedule's web address: use letters, digits, '.', '_' and '-'.", err)
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
		tooLarge()
		return
	}
	read, err := interchange.ParseWith(data, format, interchange.Options{KeepSource: true, Name: name})
	if err != nil {
		refuse("%v", &interchange.FileError{Path: name, Err: err})
		return
	}
	sc := read.Schedule
	replace := r.FormValue("replace") != ""
	if err := s.stores.ImportChecked(r.Context(), id, sc, read.Network, replace, nil); err != nil {
		refuse("Import of %s refused: %v", name, err)
		return
	}
	msg := fmt.Sprintf("Imported %s as %q: %s.", name, id, strings.Join(interchange.Describe(sc).Facts(), "; "))
	if len(read.Warnings) > 0 {
		// A flash lives in a cookie: the warnings are shortened to fit.
		warn, _ := schedule.Truncate(strings.Join(read.Warnings, " "), 1500)
		msg += " Warning: " + warn
	}
	setFlash(w, msg)
	http.Redirect(w, r, "/s/"+url.PathEscape(id), http.StatusSeeOther)
}

// deleteSchedule deletes a stored schedule from both stores, as `schedule
// delete` does, once the form's box is ticked to confirm it. A schedule
// with an open dispatch is not deleted: that dispatch must be reviewed,
// rejected or cancelled first (deleting under it would leave it to apply
// or compensate changes on a schedule that is gone). Deleting a schedule
// that is not stored does nothing. Any stored id can be deleted, even one
// no schedule may be created under any more.
func (s *Server) deleteSchedule(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.PathValue("id")
	if id == unreachableID {
		id = r.FormValue("schedule")
	}
	shown, _ := schedule.Truncate(id, 80)
	back := "/"
	if store.CheckScheduleID(id) == nil {
		back = "/s/" + url.PathEscape(id)
	}
	refuse := func(format string, args ...any) {
		setRefusal(w, fmt.Sprintf(format, args...))
		http.Redirect(w, r, back, http.StatusSeeOther)
	}
	if r.FormValue("confirm") != "yes" {
		refuse("Schedule %q was not deleted: tick the box to confirm it.", shown)
		return
	}
	dispatchID := workflows.DispatchWorkflowID(id)
	desc, err := s.temporal.DescribeWorkflowExecution(ctx, dispatchID, "")
	var missing *serviceerror.NotFound
	switch {
	case errors.As(err, &missing):
	case err != nil:
		refuse("Schedule %q was not deleted: cannot check it for an open dispatch (is Temporal up?): %s", shown, workflows.RootCause(err))
		return
	case desc.GetWorkflowExecutionInfo().GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_RUNNING:
		refuse("Schedule %q was not deleted: dispatch %s is open on it. Review, reject or cancel it first.", shown, dispatchID)
		return
	}
	existed, err := s.stores.Delete(ctx, id)
	if err != nil {
		refuse("Schedule %q was not deleted: %v", shown, err)
		return
	}
	if existed {
		s.log.Info("Schedule deleted in the web app", "Schedule", id, "By", s.name(r))
		setFlash(w, fmt.Sprintf("Deleted schedule %q from both stores.", shown))
	} else {
		setFlash(w, fmt.Sprintf("Schedule %q is not stored: nothing to delete.", shown))
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// activityRow is one line of a schedule's table.
type activityRow struct {
	ID, Name, Duration string
	Start, Finish      string // dates, or working days
	TotalFloat         string
	Critical           bool
	// Group is the row's group in a grouped table; NewGroup says a group
	// (or the page) starts with it. Target: the row the address asked
	// for (?at=).
	Group    string
	NewGroup bool
	Target   bool
}

type scheduleData struct {
	base
	ID, ScheduleName string
	Activities       int
	Relationships    int
	Finish           string
	Critical         int
	// PreviousUpdate is the data date of the last version kept before the
	// current one ("none" for a plan never statused); empty when there
	// is none, and no compare link is shown.
	PreviousUpdate string
	Rows           []activityRow
	// Table is the activity table's view (filters, grouping, page) and
	// View where its page sits; Groupings are the groupings offered.
	// LastChange is the last accepted dispatch, whose changes the
	// "changed" filter keeps (nil: none to filter by).
	Table      activityQuery
	View       tableView
	Groupings  []grouping
	LastChange *historyRow
	// Pages links the table's pages: first, previous, next, last ("" where
	// there is none). GanttQuery carries the view to the Gantt frame.
	FirstPage, PrevPage, NextPage, LastPage string
	// GanttSrc is the Gantt frame's address: the snapshot, the view (for
	// a frame drawn afresh) and the row to open on; built of escaped parts.
	GanttSrc    template.URL
	Query       string
	Hits        []store.Hit
	SearchError string
	History     []historyRow
	Open        *historyRow
	// Undo is the latest accepted dispatch, which the Undo button takes back.
	Undo *historyRow
	// Snapshot fetches the Gantt drawn with this page.
	Snapshot string
	// Checks is the schedule's quality report (DCMA-style, default
	// thresholds); ChecksError says why there is none.
	Checks      []insight.CheckResult
	ChecksError string
	// Offenders are each check's offenders, named and linked (in Checks'
	// order).
	Offenders []linkList
	// NotApplicable are the DCMA points this schedule lacks what for
	// (a data date, a baseline, assignments), each with why.
	NotApplicable []insight.NotApplicablePoint
	// Question and Answer: what was asked of the schedule (?ask=), and
	// the read tools' answer (every number from the CPM engine).
	Question string
	Answer   *insight.Answer
	// AnswerParts are the answer's words with its lists linked, RestsOn
	// the activities it rests on.
	AnswerParts []answerPart
	RestsOn     linkList
	// Source names the P6 or MS Project file the schedule was imported
	// from ("" for none) and SourceFormat its format: export to it gives
	// the file back with only the changes made. Holdings say what the
	// schedule holds (interchange.Describe).
	Source, SourceFormat string
	Holdings             []string
	// Others are the other stored schedules, to compare this one with.
	Others []string
}

// historyRow is one dispatch of a schedule's history.
type historyRow struct {
	workflows.Summary
	UILink string // the execution in the Temporal Web UI
}

func (s *Server) schedulePage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.PathValue("id")
	refused := takeRefusal(w, r)
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
	res := rep.Result
	// A name stored before names had a limit is shown cut to it.
	name, _ := schedule.Truncate(sc.Name, schedule.MaxName)
	d := scheduleData{base: s.base(w, r, cmp.Or(name, id)), ID: id, ScheduleName: name,
		Activities: len(sc.Activities), Relationships: len(sc.Relationships), Finish: finishText(rep)}
	d.Error = refused
	if src := sc.Source; src != nil {
		d.Source, d.SourceFormat = src.Name, src.Format
	}
	d.Holdings = interchange.Describe(sc).Facts()
	// A schedule that cannot list its versions shows no compare link.
	if kept, err := s.stores.Versions(ctx, id); err == nil {
		if v, ok := versions.Previous(kept, sc.DataDate); ok {
			d.PreviousUpdate = versions.DateText(v.DataDate)
		}
	}
	if infos, err := s.stores.Schedules(ctx); err == nil {
		for _, info := range infos {
			if info.ID != id {
				d.Others = append(d.Others, info.ID)
			}
		}
	}
	for i := range sc.Activities {
		if res.Critical(i) {
			d.Critical++
		}
	}
	v, err := insight.NewOf(sc, res)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("Schedule %q: %v", id, err))
		return
	}
	d.Checks, d.ChecksError = checksOf(v)
	relAt := relationshipIndex(sc)
	for _, c := range d.Checks {
		d.Offenders = append(d.Offenders, offenderList(id, sc, c, relAt))
	}
	d.NotApplicable = insight.NotApplicableTo(v)
	if q := strings.TrimSpace(r.URL.Query().Get("ask")); q != "" {
		ans, err := s.ask(ctx, id, sc, v, q)
		if err != nil {
			s.fail(w, r, statusOf(err), fmt.Sprintf("Schedule %q: %v", id, err))
			return
		}
		d.Question, d.Answer = q, &ans
		d.AnswerParts, d.RestsOn = answerParts(id, &ans), idList(id, sc, ans.Activities, 40)
	}
	if q := strings.TrimSpace(r.URL.Query().Get("q")); q != "" {
		d.Query = q
		if d.Hits, err = s.stores.Search(ctx, id, q, 10); err != nil {
			d.SearchError = err.Error()
		}
	}
	list, err := workflows.List(ctx, s.temporal, id)
	if err != nil {
		d.Error = cmp.Or(d.Error, "Cannot read the dispatch history (is Temporal up?): "+workflows.RootCause(err))
	}
	for _, sum := range list {
		row := historyRow{Summary: sum, UILink: s.uiLink(sum.ID, sum.RunID)}
		d.History = append(d.History, row)
		if sum.Open && d.Open == nil {
			d.Open = &d.History[len(d.History)-1]
		}
	}
	for i := range d.History {
		h := &d.History[i]
		if h.Outcome != workflows.StatusAccepted || h.Undone != nil {
			continue
		}
		// The list is the visibility store's, a moment behind an undo
		// that just ended: the run the button would offer is asked.
		if rec, err := workflows.Undone(ctx, s.temporal, h.ID, h.RunID); err == nil && rec != nil {
			h.Undone = rec
			continue
		}
		d.Undo = h
		break
	}
	d.LastChange = d.Undo
	d.Table = activityQueryOf(r.URL.Query())
	d.Groupings = groupingsOf(sc)
	d.View = s.tableView(r, sc, rep, d.Table, d.LastChange)
	d.Rows = tableRows(rep, d.View, d.Table.At)
	d.FirstPage, d.PrevPage, d.NextPage, d.LastPage = pagerLinks(id, d.Table, d.View)
	gq := d.Table.values()
	if d.View.Page > 1 {
		gq.Set("page", strconv.Itoa(d.View.Page))
	}
	// The frame's Gantt is drawn now, from this very load, while the page
	// is: the rows the table keeps (ganttRows).
	ganttRows := d.View.ganttRows(len(sc.Activities), d.Table)
	d.Snapshot = s.snapshots.put(id, func() ([]byte, error) {
		return drawn(ganttOf(rep, ganttRows, d.Table))
	})
	gq.Set("snap", d.Snapshot)
	src := "/s/" + url.PathEscape(id) + "/gantt?" + gq.Encode()
	if d.Table.At != "" {
		src += "#row-" + url.PathEscape(d.Table.At)
	}
	d.GanttSrc = template.URL(src) //nolint:gosec // every part escaped above
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
	// The schedule page's view, as its address gave it to the frame.
	aq := activityQueryOf(r.URL.Query())
	var last *historyRow
	if aq.Changed {
		last = s.lastAccepted(r, id)
	}
	rows := s.tableView(r, sc, report, aq, last).ganttRows(len(sc.Activities), aq)
	s.writeGantt(w, r, ganttOf(report, rows, aq))
}

// ganttOf draws the rows of the table's view: in a grouped view each
// group under its summary bar.
func ganttOf(rep *render.Report, rows []int, aq activityQuery) func(io.Writer) error {
	if aq.Group == "" {
		return func(w io.Writer) error { return render.WriteGanttHTMLRows(w, rep, rows) }
	}
	acts := rep.Schedule.Activities
	return func(w io.Writer) error {
		return render.WriteGanttHTMLGrouped(w, rep, rows, func(i int) []string {
			if aq.Group == "wbs" {
				return render.WBSLevels(acts[i].WBS)
			}
			if key := groupOf(&acts[i], aq.Group); key != "" {
				return []string{key}
			}
			return nil
		})
	}
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

// comparePage compares two stored schedules (?a=ID&b=ID: an update
// imported beside the last one, a copy before a change): what changed,
// why the finish moved along the driving path, critical path changes and
// float erosion, as `autoscheduler compare` reports them.
func (s *Server) comparePage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	a, b := q.Get("a"), q.Get("b")
	var sides [2]*schedule.Schedule
	if id := q.Get("s"); id != "" {
		// Two versions of one schedule: ?s=ID&previous=1, or ?s=ID&at=DATE
		// (against now) or twice.
		var err error
		if sides, a, b, err = s.keptSides(ctx, id, q.Get("previous") != "", q["at"]); err != nil {
			status := statusOf(err)
			if errors.Is(err, store.ErrNoPrevious) {
				status = http.StatusNotFound
			} else if errors.Is(err, errBadVersions) {
				status = http.StatusBadRequest
			}
			s.fail(w, r, status, err.Error()+".")
			return
		}
	} else {
		if a == "" || b == "" {
			s.fail(w, r, http.StatusBadRequest, "Compare needs two stored schedules (/compare?a=ID&b=ID) or two versions of one (/compare?s=ID&previous=1, /compare?s=ID&at=DATE).")
			return
		}
		for i, id := range []string{a, b} {
			sc, err := s.stores.Load(ctx, id)
			if err != nil {
				s.fail(w, r, statusOf(err), fmt.Sprintf("Schedule %q: %v", id, err))
				return
			}
			sides[i] = sc
		}
	}
	rep := compare.Compare(sides[0], sides[1], compare.Options{BeforeLabel: a, AfterLabel: b})
	var buf bytes.Buffer
	if err := compare.WriteHTML(&buf, rep, compare.TextOptions{Limit: 200}); err != nil {
		s.fail(w, r, http.StatusInternalServerError, "Comparing: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes()) //nolint:errcheck // the browser went away
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
	if scheduleID, ok := workflows.ScheduleOf(dispatchID); !ok || scheduleID != id {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a dispatch of schedule %q", dispatchID, id))
		return
	}
	who, ok := s.formWho(w, r)
	if !ok {
		http.Redirect(w, r, "/s/"+url.PathEscape(id), http.StatusSeeOther)
		return
	}
	res, err := workflows.Undo(ctx, s.temporal, s.stores, dispatchID, runID, who)
	if err != nil {
		setRefusal(w, "Undo refused: "+workflows.RootCause(err)+".")
	} else {
		setFlash(w, fmt.Sprintf("Undid dispatch %s (run %s): %d changes taken back.", dispatchID, res.RunID, len(res.Applied)))
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
	infos, err := s.stores.Schedules(r.Context())
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
	case author == "":
		d.Error = nameFirst
	default:
		if err := workflows.CheckText("prompt", d.Prompt); err != nil {
			d.Error = "Prompt not sent: " + err.Error() + "."
		}
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
	run, err := workflows.Start(ctx, s.temporal, workflows.DispatchInput{ScheduleID: d.Schedule, Prompt: d.Prompt, Author: author})
	var open *workflows.OpenError
	if errors.As(err, &open) {
		d.Error, d.OpenID = err.Error()+": review it first.", open.ID
		s.renderPrompt(w, r, http.StatusConflict, d)
		return
	}
	if err != nil {
		d.Error = "Cannot start the dispatch: " + workflows.RootCause(err)
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

// tableView is the activity table's view of sc (computed as rep) for aq;
// last is the dispatch the "changed" filter reads (nil: it keeps nothing).
func (s *Server) tableView(r *http.Request, sc *schedule.Schedule, rep *render.Report, aq activityQuery, last *historyRow) tableView {
	if aq.Group != "" && !slices.ContainsFunc(groupingsOf(sc), func(g grouping) bool { return g.Key == aq.Group }) {
		aq.Group = "" // a grouping the schedule has nothing for
	}
	var changed map[string]bool
	if aq.Changed && last != nil {
		changed = s.changedBy(r, sc, last.ID, last.RunID)
	}
	return viewOf(sc, rep.Result.Critical, changed, aq)
}

// changedBy are the activities an accepted dispatch changed in sc (the
// schedule as stored, its changes in it): those it added or edited, and
// both ends of the links it added or removed — so deleted work shows as
// the activities it was tied to. The graph ledger's inverses of its
// committed ops give the schedule before it.
func (s *Server) changedBy(r *http.Request, sc *schedule.Schedule, id, runID string) map[string]bool {
	out := map[string]bool{}
	det, err := workflows.Describe(r.Context(), s.temporal, id, runID)
	if err != nil {
		return out
	}
	var opIDs []string
	for _, ch := range det.Changes {
		if ch.Round == det.Round && ch.Status == workflows.ChangeCommitted {
			opIDs = append(opIDs, ch.Op.ID)
		}
	}
	before, err := s.stores.Before(r.Context(), det.Schedule, sc, opIDs)
	if err != nil {
		return out
	}
	c := schedule.CompareResults(before, sc, nil, nil)
	for _, a := range c.Added {
		out[a.ID] = true
	}
	for _, a := range c.Changed {
		out[a.ID] = true
	}
	for _, l := range slices.Concat(c.RelationshipsAdded, c.RelationshipsRemoved) {
		out[l.Predecessor], out[l.Successor] = true, true
	}
	return out
}

// lastAccepted is the schedule's latest accepted dispatch not undone
// (nil: none).
func (s *Server) lastAccepted(r *http.Request, id string) *historyRow {
	list, err := workflows.List(r.Context(), s.temporal, id)
	if err != nil {
		return nil
	}
	for _, sum := range list {
		if sum.Outcome != workflows.StatusAccepted || sum.Undone != nil {
			continue
		}
		if rec, err := workflows.Undone(r.Context(), s.temporal, sum.ID, sum.RunID); err == nil && rec != nil {
			continue
		}
		return &historyRow{Summary: sum}
	}
	return nil
}

// tableRows are the table's lines for view: dates when the schedule has
// a start date, else working days; each group's first row (and the
// page's) starts its group.
func tableRows(rep *render.Report, view tableView, at string) []activityRow {
	res, clock, sc := rep.Result, rep.Clock, rep.Schedule
	rows := make([]activityRow, len(view.Rows))
	for n, i := range view.Rows {
		a := &sc.Activities[i]
		row := activityRow{ID: a.ID, Name: a.Name, Duration: a.Duration, TotalFloat: render.Days(res.TotalFloat[i]), Critical: res.Critical(i), Target: a.ID == at}
		row.Start, row.Finish = render.Days(res.ES[i]), render.Days(res.EF[i])
		if clock != nil {
			row.Start = res.At(clock, i, schedule.EarlyStart).Format("2006-01-02")
			if t, err := res.When(clock, i, schedule.EarlyFinish); err == nil {
				row.Finish = t.Format("2006-01-02")
			}
		}
		if view.Groups != nil {
			row.Group = view.Groups[n]
			row.NewGroup = n == 0 || view.Groups[n-1] != row.Group
		}
		rows[n] = row
	}
	return rows
}

// pagerLinks are the addresses of the first, previous, next and last
// pages of the table ("" where there is none).
func pagerLinks(id string, aq activityQuery, v tableView) (first, prev, next, last string) {
	link := func(page int) string {
		q := aq.values()
		if page > 1 {
			q.Set("page", strconv.Itoa(page))
		}
		u := "/s/" + url.PathEscape(id)
		if e := q.Encode(); e != "" {
			u += "?" + e
		}
		return u + "#activities"
	}
	if v.Page > 1 {
		first, prev = link(1), link(v.Page-1)
	}
	if v.Page < v.Pages {
		next, last = link(v.Page+1), link(v.Pages)
	}
	return first, prev, next, last
}
