package workflows

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// UndoWorkflowID is the ID of the EditWorkflow that takes back the
// accepted run runID of dispatch id. One ID per run: a second undo of the
// run finds the first (Temporal refuses to start it again unless the
// first failed), and `dispatch list` and the web app find it to show the
// run undone.
func UndoWorkflowID(id, runID string) string { return "undo-" + id + "-" + runID }

// undoPrefix starts every UndoWorkflowID (a visibility query's prefix).
const undoPrefix = "undo-dispatch-"

// The memo fields of an undo's EditWorkflow: which dispatch run it takes
// back, and who asked.
const (
	memoUndoes    = "undoes"
	memoUndoesRun = "undoes_run"
	memoAuthor    = "author"
)

// UndoRecord says a dispatch run was undone: the EditWorkflow that took
// it back, who asked for it and when it finished.
type UndoRecord struct {
	Edit string    `json:"edit"`
	By   string    `json:"by,omitempty"`
	At   time.Time `json:"at,omitzero"`
}

// AlreadyUndoneError refuses a second undo of a dispatch run: nothing is
// changed. Record is nil when the ledger alone says so (an undo from
// before undos were recorded, or one whose execution Temporal no longer
// keeps).
type AlreadyUndoneError struct {
	ID, RunID string
	Record    *UndoRecord
}

func (e *AlreadyUndoneError) Error() string {
	msg := fmt.Sprintf("dispatch %s (run %s) was already undone", e.ID, e.RunID)
	if r := e.Record; r != nil {
		if r.By != "" {
			msg += " by " + r.By
		}
		if !r.At.IsZero() {
			msg += " at " + r.At.Local().Format("2006-01-02 15:04:05")
		}
		msg += " (edit " + r.Edit + ")"
	}
	return msg + ": nothing changed"
}

// UndoRunningError refuses an undo while another undo of the same run is
// still running.
type UndoRunningError struct{ ID, RunID, Edit string }

func (e *UndoRunningError) Error() string {
	return fmt.Sprintf("dispatch %s (run %s) is being undone by %s: wait for it to finish", e.ID, e.RunID, e.Edit)
}

// UndoResult is what an undo took back.
type UndoResult struct {
	Edit    string        `json:"edit"`
	RunID   string        `json:"run_id"`
	Applied []schedule.Op `json:"applied"`
}

// Undo takes back the accepted run runID ("" for the latest) of dispatch
// id in by's name: the inverses UndoOps reads, applied by an EditWorkflow
// with the ID UndoWorkflowID and a memo naming the run. A run already
// undone is an *AlreadyUndoneError (its undo's execution, or the ledger,
// says so), one being undone an *UndoRunningError: nothing is applied
// twice, and the op IDs UndoOps derives make even a race apply once.
func Undo(ctx context.Context, c client.Client, stores *store.Coordinator, id, runID, by string) (UndoResult, error) {
	if err := checkName("author", by); err != nil {
		return UndoResult{}, err
	}
	ops, run, err := UndoOps(ctx, c, stores, id, runID)
	if err != nil {
		return UndoResult{RunID: run}, err
	}
	if err := undoneYet(ctx, c, stores, id, run, ops); err != nil {
		return UndoResult{RunID: run}, err
	}
	scheduleID, _ := ScheduleOf(id)
	edit := UndoWorkflowID(id, run)
	started, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: edit, TaskQueue: TaskQueue,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		// A failed undo (a later change conflicts) may be tried again; a
		// completed one may not.
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
		Memo:                  map[string]any{memoUndoes: id, memoUndoesRun: run, memoAuthor: by},
	}, EditWorkflow, EditInput{ScheduleID: scheduleID, Ops: ops, Author: by})
	var dup *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &dup) {
		if err := undoneYet(ctx, c, stores, id, run, ops); err != nil {
			return UndoResult{RunID: run}, err
		}
	}
	if err != nil {
		return UndoResult{RunID: run}, fmt.Errorf("undo of dispatch %s: %w", id, err)
	}
	res := UndoResult{Edit: edit, RunID: run}
	var out EditResult
	if err := started.Get(ctx, &out); err != nil {
		return res, fmt.Errorf("%s: %w", edit, err)
	}
	res.Applied = out.Applied
	return res, nil
}

// undoneYet refuses an undo of run that happened or is happening: its
// undo execution completed or runs, or the ledger holds every undo op.
func undoneYet(ctx context.Context, c client.Client, stores *store.Coordinator, id, run string, ops []schedule.Op) error {
	rec, running, err := undoOf(ctx, c, id, run)
	switch {
	case err != nil:
		return err
	case running:
		return &UndoRunningError{ID: id, RunID: run, Edit: UndoWorkflowID(id, run)}
	case rec != nil:
		return &AlreadyUndoneError{ID: id, RunID: run, Record: rec}
	}
	scheduleID, _ := ScheduleOf(id)
	ids := make([]string, len(ops))
	for i, op := range ops {
		ids[i] = op.ID
	}
	recorded, err := stores.Graph.Recorded(ctx, scheduleID, ids)
	if err != nil {
		return fmt.Errorf("dispatch %s: reading the ledger: %w", id, err)
	}
	if len(ops) > 0 && len(recorded) == len(ids) {
		return &AlreadyUndoneError{ID: id, RunID: run}
	}
	return nil
}

// Undone says whether the run runID of dispatch id was undone: its undo's
// record, nil when it was not (or its undo failed or still runs).
func Undone(ctx context.Context, c client.Client, id, runID string) (*UndoRecord, error) {
	rec, _, err := undoOf(ctx, c, id, runID)
	return rec, err
}

// undoOf describes the undo execution of run: its record once completed,
// or running.
func undoOf(ctx context.Context, c client.Client, id, run string) (rec *UndoRecord, running bool, err error) {
	edit := UndoWorkflowID(id, run)
	desc, err := c.DescribeWorkflowExecution(ctx, edit, "")
	var missing *serviceerror.NotFound
	if errors.As(err, &missing) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("dispatch %s: looking for its undo %s: %w", id, edit, err)
	}
	info := desc.GetWorkflowExecutionInfo()
	switch info.GetStatus() {
	case enums.WORKFLOW_EXECUTION_STATUS_RUNNING:
		return nil, true, nil
	case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		r := &UndoRecord{Edit: edit, By: payloadString(info.GetMemo().GetFields()[memoAuthor])}
		if info.GetCloseTime() != nil {
			r.At = info.GetCloseTime().AsTime()
		}
		return r, false, nil
	}
	return nil, false, nil
}

// CommittedOps are the op IDs an accepted dispatch run (runID "" for the
// latest) committed to its schedule, with the schedule and the run read;
// what names the caller's purpose in the refusals ("undo", "compare").
func CommittedOps(ctx context.Context, c client.Client, id, runID, what string) (scheduleID, run string, opIDs []string, err error) {
	scheduleID, ok := ScheduleOf(id)
	if !ok {
		return "", "", nil, fmt.Errorf("%s: %q is not a dispatch id (dispatch-<schedule>)", what, id)
	}
	wf := c.GetWorkflow(ctx, id, runID)
	var res DispatchResult
	if err := wf.Get(ctx, &res); err != nil {
		return "", "", nil, fmt.Errorf("dispatch %s: %s", id, RootCause(err))
	}
	run = wf.GetRunID()
	if res.Status != StatusAccepted {
		return "", run, nil, fmt.Errorf("dispatch %s (run %s) ended %s: only an accepted dispatch has changes to %s", id, run, res.Status, what)
	}
	for _, ch := range res.Changes {
		if ch.Status == ChangeCommitted {
			opIDs = append(opIDs, ch.Op.ID)
		}
	}
	return scheduleID, run, opIDs, nil
}

// UndoOps are the ops that take back an accepted dispatch run (runID ""
// for the latest): the inverses the graph ledger kept for its committed
// ops (store.Coordinator.Inverses), in reverse order, with op IDs scoped to
// this run's undo so a second undo of it changes nothing (schedule.UndoOps).
// It also returns the run it read.
func UndoOps(ctx context.Context, c client.Client, stores *store.Coordinator, id, runID string) (ops []schedule.Op, run string, err error) {
	scheduleID, run, opIDs, err := CommittedOps(ctx, c, id, runID, "undo")
	if err != nil {
		return nil, run, err
	}
	inverses, err := stores.Inverses(ctx, scheduleID, opIDs, true)
	if err != nil {
		return nil, run, fmt.Errorf("dispatch %s: %w", id, err)
	}
	if len(inverses) == 0 {
		return nil, run, fmt.Errorf("dispatch %s (run %s) committed no changes", id, run)
	}
	return schedule.UndoOps(id, run, inverses), run, nil
}
