package web

import (
	"cmp"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// reviewData is the review page of one dispatch run.
type reviewData struct {
	base
	ID, RunID, Schedule string
	Prompt, Author      string
	Open                bool
	Stage               string
	Round               int
	// AwaitingReview and Question: what the dispatch waits for.
	AwaitingReview bool
	Question       string
	Proposal       *workflows.Proposal
	Diff           *schedule.Comparison
	// Rating is the round's risk rating (the proposal's, or for a closed
	// dispatch the last round's it was decided on).
	Rating    *schedule.RiskRating
	Decisions []workflows.Decision
	// Changes are the records of every round (the proposal's round first
	// on the page, in Proposal).
	Changes []workflows.ChangeRecord
	Usage   workflows.Status
	Result  *workflows.DispatchResult
	Outcome string
	Failure string
	UILink  string
	// Refused is why the last decision sent from this browser was refused
	// (another reviewer decided first).
	Refused string
	Reviews []workflows.Review
	// WorseChecks are the schedule checks the proposal makes worse
	// (ChecksDone: they were compared; ChecksError: why not).
	WorseChecks []insight.CheckResult
	// NewOffenders are each worse check's new offenders, linked.
	NewOffenders []linkList
	ChecksDone   bool
	ChecksError  string
	// Snapshot fetches the before/after Gantt drawn with this page.
	Snapshot string
	// Undone says an accepted run was taken back since (who, when).
	Undone *workflows.UndoRecord
	// State is the outcome shown: Outcome, or "undone".
	State string
}

// reviewPage shows a dispatch: its live stage while planning, then the
// proposal with Accept / Reject / Reject with feedback, or the question.
// Everything comes from Temporal (queries and the history), so a closed
// browser loses nothing: the page comes back to the same state.
func (s *Server) reviewPage(w http.ResponseWriter, r *http.Request) {
	if d, ok := s.loadReview(w, r, "Review "); ok {
		s.render(w, r, http.StatusOK, "review", d)
	}
}

// summaryPage is a proposal on one printed page, for an approver to
// attach to an e-mail: its risk, its CPM impact, its changes and the
// before/after Gantt of the changed rows (the review page's evidence,
// without the forms). Chromium prints it to one A4 or Letter page.
func (s *Server) summaryPage(w http.ResponseWriter, r *http.Request) {
	d, ok := s.loadReview(w, r, "Summary of ")
	if !ok {
		return
	}
	sum := summaryData{reviewData: d, Run: r.URL.Query().Get("run"), Pending: d.Open}
	sum.Open = false // no forms on paper (the risk card's "Dissolve instead")
	if p := d.Proposal; p != nil && d.AwaitingReview {
		sum.Ops, sum.OpsOmitted = p.Changes, p.ChangesOmitted
	} else {
		for _, ch := range d.Changes {
			if ch.Round == d.Round {
				sum.Ops = append(sum.Ops, ch)
			}
		}
	}
	if len(sum.Ops) > summaryOps {
		sum.OpsOmitted += len(sum.Ops) - summaryOps
		sum.Ops = sum.Ops[:summaryOps]
	}
	s.render(w, r, http.StatusOK, "summary", sum)
}

// summaryOps is the most changes the summary lists (the rest are counted).
const summaryOps = 12

// summaryData is the summary page: the review's data, and the run the
// address named ("" for the latest).
type summaryData struct {
	reviewData
	Run string
	// Pending: the proposal still awaits its decision. Ops are the
	// round's changes listed, OpsOmitted those counted only.
	Pending    bool
	Ops        []workflows.ChangeRecord
	OpsOmitted int
}

// loadReview gathers what the review page of the request's dispatch
// shows (titled title + its id); false when it has already answered with
// an error page.
func (s *Server) loadReview(w http.ResponseWriter, r *http.Request, title string) (reviewData, bool) {
	ctx := r.Context()
	id := r.PathValue("id")
	if _, ok := workflows.ScheduleOf(id); !ok {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("%q is not a dispatch id (dispatch-<schedule>)", id))
		return reviewData{}, false
	}
	det, err := workflows.Describe(ctx, s.temporal, id, r.URL.Query().Get("run"))
	if err != nil {
		s.fail(w, r, http.StatusNotFound, workflows.RootCause(err))
		return reviewData{}, false
	}
	d := reviewData{
		base: s.base(w, r, title+id), ID: det.ID, RunID: det.RunID, Schedule: det.Schedule,
		Prompt: det.Prompt, Author: det.Author, Open: det.Open, Stage: det.Stage, Round: det.Round,
		Changes: det.Changes, Result: det.Result, Outcome: det.Outcome, Failure: det.Failure,
		UILink: s.uiLink(det.ID, det.RunID), Reviews: det.Reviews, Undone: det.Undone, State: det.State(),
	}
	d.Refused = takeRefusal(w, r)
	if det.QueryError != "" {
		d.Error = "The dispatch did not answer its queries (is a worker running?): " + det.QueryError
	}
	if st := det.Status; st != nil {
		d.Usage, d.Decisions = *st, st.Decisions
		d.AwaitingReview, d.Question = st.AwaitingReview, st.Question
		if st.AwaitingReview || st.AwaitingClarification {
			var p workflows.Proposal
			if err := workflows.Query(ctx, s.temporal, det.ID, det.RunID, workflows.ProposalQuery, &p); err != nil {
				d.Error = cmp.Or(d.Error, "Cannot read the proposal: "+workflows.RootCause(err))
			} else {
				d.Proposal = &p
				if p.Impact != nil {
					d.Diff, d.Rating = p.Impact.Diff, p.Impact.RiskRating
				}
				if st.AwaitingReview {
					s.compareRound(r, &d, det, p.Round)
				}
			}
		}
	}
	if d.Result != nil {
		d.Decisions = d.Result.Decisions
		d.Usage.TokenUsage = d.Result.TokenUsage
	}
	if !det.Open {
		// A closed dispatch keeps the evidence it was decided on: the
		// impact its last round recorded, that round's Gantt and checks.
		if det.Impact != nil {
			d.Diff, d.Rating = det.Impact.Diff, det.Impact.RiskRating
		}
		if hasRound(det.Changes, det.Round) {
			rb, ra, err := s.closedReports(r, det)
			s.compare(&d, det.ID, rb, ra, err)
		}
	}
	return d, true
}

// hasRound says whether changes hold any of round's.
func hasRound(changes []workflows.ChangeRecord, round int) bool {
	return slices.ContainsFunc(changes, func(ch workflows.ChangeRecord) bool { return ch.Round == round })
}

// closedReports are the schedule before and after the last round of a
// closed dispatch, drawn on the stored schedule as it is now: when its
// changes stand (accepted, not undone) the store is the after and the
// ledger's inverses give the before; otherwise (rejected, cancelled,
// undone) the store is the before and the round's ops, applied again on a
// copy, give the after.
func (s *Server) closedReports(r *http.Request, det *workflows.Detail) (before, after *render.Report, err error) {
	if det.Outcome == workflows.StatusAccepted && det.Undone == nil {
		var opIDs []string
		for _, ch := range det.Changes {
			if ch.Round == det.Round && ch.Status == workflows.ChangeCommitted {
				opIDs = append(opIDs, ch.Op.ID)
			}
		}
		return s.reportsOf(r, det.Schedule, opIDs)
	}
	sb, err := s.stores.Load(r.Context(), det.Schedule)
	if err != nil {
		return nil, nil, err
	}
	sa := sb.Clone()
	for _, ch := range det.Changes {
		if ch.Round != det.Round {
			continue
		}
		op := ch.Op
		if _, err := schedule.Apply(sa, &op); err != nil {
			return nil, nil, fmt.Errorf("the round's changes no longer apply to the schedule as it is now: %w", err)
		}
	}
	return reports(sb, sa)
}

// reports computes before and after.
func reports(sb, sa *schedule.Schedule) (before, after *render.Report, err error) {
	if before, err = render.NewReport(sb); err != nil {
		return nil, nil, fmt.Errorf("CPM before the change: %w", err)
	}
	if after, err = render.NewReport(sa); err != nil {
		return nil, nil, fmt.Errorf("CPM after the change: %w", err)
	}
	return before, after, nil
}

// review sends a decision made on the round the page showed; the dispatch
// refuses one on a round already decided, and the page then says who
// decided first.
func (s *Server) review(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	who, ok := s.formWho(w, r)
	if !ok {
		http.Redirect(w, r, reviewURL(id, ""), http.StatusSeeOther)
		return
	}
	review := workflows.Review{Reviewer: who, Feedback: strings.TrimSpace(r.FormValue("feedback"))}
	switch r.FormValue("decision") {
	case "accept":
		review.Decision = workflows.DecisionAccept
		review.Feedback = ""
	case "reject":
		review.Decision = workflows.DecisionReject
		review.Feedback = ""
	case "feedback":
		review.Decision = workflows.DecisionReject
		if review.Feedback == "" {
			setRefusal(w, "Reject with feedback needs some feedback: say what the next round should do differently.")
			http.Redirect(w, r, reviewURL(id, ""), http.StatusSeeOther)
			return
		}
	case workflows.DecisionRedo, workflows.DecisionBack, workflows.DecisionCancel:
		// The review actions: the dispatch checks they apply (back not on
		// round 1, redo and back not at the round limit).
		review.Decision = r.FormValue("decision")
		review.Feedback = ""
	default:
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("decision %q: want accept, reject, feedback, redo, back or cancel", r.FormValue("decision")))
		return
	}
	round, err := strconv.Atoi(r.FormValue("round"))
	if err != nil || round < 1 {
		s.fail(w, r, http.StatusBadRequest, "the decision does not say which round it is on")
		return
	}
	review.Round = round
	if err := workflows.SendReview(r.Context(), s.temporal, id, review); err != nil {
		if st, ok := s.asking(r, id); ok {
			// The planner waits for an answer, not a review: reject and
			// cancel end the dispatch as cancel does at any stage.
			if review.Decision == workflows.DecisionCancel || review.Decision == workflows.DecisionReject && review.Feedback == "" {
				s.cancelDispatch(w, r, id, 0, review.Reviewer)
				return
			}
			setRefusal(w, fmt.Sprintf("Your decision was not taken: round %d is not awaiting review, the planner waits for an answer to its question. Answer it, or cancel the dispatch.", st.Round))
			http.Redirect(w, r, reviewURL(id, ""), http.StatusSeeOther)
			return
		}
		setRefusal(w, fmt.Sprintf("Your decision on round %d was not taken: %s.", round, s.refusalReason(r, id, round, err)))
	} else {
		setFlash(w, fmt.Sprintf("Round %d: %s sent as %s.", round, decisionText(review), review.Reviewer))
	}
	http.Redirect(w, r, reviewURL(id, ""), http.StatusSeeOther)
}

// asking says whether the dispatch's latest run waits for an answer to a
// question, with its status.
func (s *Server) asking(r *http.Request, id string) (workflows.Status, bool) {
	var st workflows.Status
	err := workflows.Query(r.Context(), s.temporal, id, "", workflows.StatusQuery, &st)
	return st, err == nil && st.AwaitingClarification
}

// cancel ends an open dispatch at any stage: planning, applying, a
// question awaiting its answer, a proposal awaiting review. What the
// round applied is taken back and the dispatch ends cancelled.
func (s *Server) cancel(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, ok := workflows.ScheduleOf(id); !ok {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("%q is not a dispatch id (dispatch-<schedule>)", id))
		return
	}
	round := 0 // the dispatch's current round
	if v := r.FormValue("round"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("round %q is not a round number", v))
			return
		}
		round = n // the round the page showed: refused when another reviewer decided it first
	}
	who, ok := s.formWho(w, r)
	if !ok {
		http.Redirect(w, r, reviewURL(id, ""), http.StatusSeeOther)
		return
	}
	s.cancelDispatch(w, r, id, round, who)
}

// formWho is who sends a form (formName); a browser that has not said
// who its person is gets a refusal asking for the name instead, and false:
// decisions are recorded with who made them, never as "unknown".
func (s *Server) formWho(w http.ResponseWriter, r *http.Request) (string, bool) {
	if who := s.formName(w, r); who != "" {
		return who, true
	}
	setRefusal(w, nameFirst)
	return "", false
}

// nameFirst asks a browser with no name for one.
const nameFirst = "Say who you are first: type your name in “Who are you?” at the top of the page and save it. Every decision is recorded with who made it."

// cancelDispatch sends a cancel as who, at whatever stage the dispatch is:
// the review's cancel decision, which names who cancelled (a run from
// before cancel at any stage is cancelled by Temporal's cancellation
// instead; workflows.SendReview falls back to it). round > 0 is the round
// the page showed: refused when another reviewer decided it first.
func (s *Server) cancelDispatch(w http.ResponseWriter, r *http.Request, id string, round int, who string) {
	err := workflows.SendReview(r.Context(), s.temporal, id, workflows.Review{Decision: workflows.DecisionCancel, Round: round, Reviewer: who})
	if err == nil {
		s.log.Info("Dispatch cancelled in the web app", "Dispatch", id, "By", who)
		setFlash(w, fmt.Sprintf("Cancel sent as %s: the dispatch takes back what it applied and ends cancelled.", who))
	} else {
		what := "Your cancel was not taken"
		if round > 0 {
			what = fmt.Sprintf("Your cancel of round %d was not taken", round)
		}
		setRefusal(w, fmt.Sprintf("%s: %s.", what, s.refusalReason(r, id, round, err)))
	}
	http.Redirect(w, r, reviewURL(id, ""), http.StatusSeeOther)
}

// refusalReason says why a decision was refused. An open dispatch says it
// itself; one that has ended since the page was drawn cannot, so its
// result says who decided the round.
func (s *Server) refusalReason(r *http.Request, id string, round int, err error) string {
	det, derr := workflows.Describe(r.Context(), s.temporal, id, "")
	if derr == nil && !det.Open && det.Result != nil {
		for _, d := range det.Result.Decisions {
			if d.Round == round {
				return fmt.Sprintf("round %d was already decided: %s; the dispatch ended %s", round, d.Summary(), det.Result.Status)
			}
		}
		return fmt.Sprintf("the dispatch has already ended (%s)", det.Outcome)
	}
	return workflows.RootCause(err)
}

func decisionText(r workflows.Review) string {
	switch {
	case r.Decision == workflows.DecisionAccept:
		return "accept"
	case r.Decision == workflows.DecisionRedo:
		return "redo"
	case r.Decision == workflows.DecisionBack:
		return fmt.Sprintf("back to round %d", r.Round-1)
	case r.Decision == workflows.DecisionCancel:
		return "cancel"
	case r.Feedback != "":
		return "reject with feedback"
	}
	return "reject"
}

// clarify answers the planner's question from the page's form: the
// answer typed, else the choices picked (joined with ", ", as a question
// that takes several reads them).
func (s *Server) clarify(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	answer := strings.TrimSpace(r.FormValue("answer"))
	if answer == "" {
		var picked []string
		for _, c := range r.Form["choice"] {
			if c = strings.TrimSpace(c); c != "" {
				picked = append(picked, c)
			}
		}
		answer = strings.Join(picked, ", ")
	}
	who, ok := s.formWho(w, r)
	if !ok {
		http.Redirect(w, r, reviewURL(id, ""), http.StatusSeeOther)
		return
	}
	if answer == "" {
		setRefusal(w, "The answer is empty: pick one of the choices or say it in your words.")
	} else if err := workflows.SendAnswer(r.Context(), s.temporal, id, answer, who); err != nil {
		setRefusal(w, "Your answer was not taken: "+workflows.RootCause(err)+".")
	} else {
		setFlash(w, "Answer sent: the round goes on.")
	}
	http.Redirect(w, r, reviewURL(id, ""), http.StatusSeeOther)
}

// diffGanttPage is the before/after Gantt of the round awaiting review
// (the stored schedule holds the proposal, after; the graph ledger's
// inverses of the round's applied ops give the before), or of a closed
// dispatch's last round (closedReports).
func (s *Server) diffGanttPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.PathValue("id")
	scheduleID, ok := workflows.ScheduleOf(id)
	if !ok {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("%q is not a dispatch id", id))
		return
	}
	changedOnly := r.URL.Query().Get("rows") == "changed"
	if !changedOnly && s.sendSnapshot(w, r, id) {
		return
	}
	det, err := workflows.Describe(ctx, s.temporal, id, r.URL.Query().Get("run"))
	switch {
	case err != nil:
		s.fail(w, r, http.StatusNotFound, workflows.RootCause(err))
		return
	case det.Open && det.Status == nil:
		s.fail(w, r, http.StatusBadGateway, det.QueryError)
		return
	case !det.Open && !hasRound(det.Changes, det.Round):
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("dispatch %s ended %s with no changes to draw", id, det.State()))
		return
	}
	var rb, ra *render.Report
	if det.Open {
		rb, ra, err = s.roundReports(r, scheduleID, det.Round, det.Changes)
	} else {
		// A closed dispatch: its last round, drawn on the schedule now.
		rb, ra, err = s.closedReports(r, det)
	}
	if err != nil {
		s.fail(w, r, statusOf(err), err.Error())
		return
	}
	if changedOnly {
		// The summary's chart: the changed rows, as many as fit a page.
		s.writeGantt(w, r, func(w io.Writer) error {
			return render.WriteGanttDiffHTMLWith(w, rb, ra, render.GanttDiffOptions{ChangedOnly: true, MaxRows: summaryGanttRows})
		})
		return
	}
	s.writeGantt(w, r, func(w io.Writer) error { return render.WriteGanttDiffHTML(w, rb, ra) })
}

// summaryGanttRows is the most rows the summary's Gantt draws: with the
// risk, the impact and the changes, what fits one printed page.
const summaryGanttRows = 12

// compareRound fills in what the review page shows of the round awaiting
// review beyond its proposal: the checks it makes worse, and its
// before/after Gantt, drawn from the same load and CPM for the page's
// frame to fetch.
func (s *Server) compareRound(r *http.Request, d *reviewData, det *workflows.Detail, round int) {
	rb, ra, err := s.roundReports(r, det.Schedule, round, det.Changes)
	s.compare(d, det.ID, rb, ra, err)
}

// compare fills in the checks going from rb to ra makes worse and the
// before/after Gantt drawn for the page's frame (err: why there is none).
func (s *Server) compare(d *reviewData, id string, rb, ra *render.Report, err error) {
	var before []insight.CheckResult
	if err == nil {
		d.WorseChecks, before, err = worseChecks(rb, ra)
	}
	if err == nil {
		// What each check made worse gained: its new offenders, linked to
		// their rows on the schedule page.
		relAt := relationshipIndex(ra.Schedule)
		for _, c := range d.WorseChecks {
			d.NewOffenders = append(d.NewOffenders, offenderList(d.Schedule, ra.Schedule, newOffenders(c, before), relAt))
		}
	}
	if err != nil {
		d.ChecksError = err.Error()
		return
	}
	d.ChecksDone = true
	d.Snapshot = s.snapshots.put(id, func() ([]byte, error) {
		return drawn(func(w io.Writer) error { return render.WriteGanttDiffHTML(w, rb, ra) })
	})
}

// roundReports are the stored schedule before and after the round's
// applied changes, computed: the store holds the proposal (after); the
// graph ledger's inverses of the round's ops, undone on a copy, give the
// before.
func (s *Server) roundReports(r *http.Request, scheduleID string, round int, changes []workflows.ChangeRecord) (before, after *render.Report, err error) {
	var opIDs []string
	for _, ch := range changes {
		if ch.Round == round && ch.Status == workflows.ChangeApplied {
			opIDs = append(opIDs, ch.Op.ID)
		}
	}
	return s.reportsOf(r, scheduleID, opIDs)
}

// reportsOf are the stored schedule (after) and the schedule before the
// ops opIDs (the graph ledger's inverses, undone on a copy), computed.
func (s *Server) reportsOf(r *http.Request, scheduleID string, opIDs []string) (before, after *render.Report, err error) {
	sa, err := s.stores.Load(r.Context(), scheduleID)
	if err != nil {
		return nil, nil, err
	}
	sb, err := s.stores.Before(r.Context(), scheduleID, sa, opIDs)
	if err != nil {
		return nil, nil, err
	}
	return reports(sb, sa)
}

// newOffenders is c with only the offenders the same check of before
// did not have.
func newOffenders(c insight.CheckResult, before []insight.CheckResult) insight.CheckResult {
	had := map[string]bool{}
	for _, b := range before {
		if b.ID == c.ID {
			for _, id := range b.Offenders {
				had[id] = true
			}
		}
	}
	out := c
	out.Offenders, out.OffenderNames = nil, nil
	for n, id := range c.Offenders {
		if !had[id] {
			out.Offenders = append(out.Offenders, id)
			if n < len(c.OffenderNames) {
				out.OffenderNames = append(out.OffenderNames, c.OffenderNames[n])
			}
		}
	}
	return out
}

// worseChecks are the schedule checks going from before to after makes
// worse (a check that now fails, or has more offenders), and every check
// of before.
func worseChecks(before, after *render.Report) (worse, of []insight.CheckResult, err error) {
	var reports [2][]insight.CheckResult
	for i, rep := range []*render.Report{before, after} {
		v, err := insight.NewOf(rep.Schedule, rep.Result)
		if err != nil {
			return nil, nil, err
		}
		if reports[i], err = insight.RunChecks(v, insight.DefaultThresholds()); err != nil {
			return nil, nil, err
		}
	}
	return insight.Worse(reports[0], reports[1]), reports[0], nil
}

// A refusal is shown once, like a flash, but as an error.
const refusalCookie = "as_refused"

func setRefusal(w http.ResponseWriter, msg string) { setOnce(w, refusalCookie, msg) }

func takeRefusal(w http.ResponseWriter, r *http.Request) string { return takeOnce(w, r, refusalCookie) }
