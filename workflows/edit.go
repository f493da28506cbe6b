package workflows

import (
	"fmt"
	"strings"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// EditWorkflow applies direct edits (no planner, no review) through the
// same ApplyOps activity as a dispatch, so they land in both stores' ledgers
// the same way. Ops without an ID get one scoped to this workflow, so a
// retried activity or a replay derives the same IDs.
func EditWorkflow(ctx workflow.Context, in EditInput) (*EditResult, error) {
	if strings.TrimSpace(in.ScheduleID) == "" || len(in.Ops) == 0 {
		return nil, temporal.NewNonRetryableApplicationError("an edit needs a schedule id and at least one op", ErrTypeInvalidInput, nil)
	}
	info := workflow.GetInfo(ctx).WorkflowExecution
	id := info.ID + "/" + info.RunID // a reused workflow ID must not reuse op IDs
	ops := make([]schedule.Op, len(in.Ops))
	for i, op := range in.Ops {
		if op.ID == "" {
			op = op.WithScope(fmt.Sprintf("%s/edit/%d", id, i))
		}
		ops[i] = op
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, ScheduleIDAttribute.ValueSet(in.ScheduleID)); err != nil {
		workflow.GetLogger(ctx).Warn("Cannot set the ScheduleID search attribute", "Error", err)
	}
	var res activities.ApplyResult
	if err := workflow.ExecuteActivity(storeOptions(ctx), a.ApplyOps, activities.ApplyInput{
		ScheduleID: in.ScheduleID, Ops: ops,
	}).Get(ctx, &res); err != nil {
		return nil, fmt.Errorf("applying the edit: %w", err)
	}
	return &EditResult{Applied: res.Applied, Inverses: res.Inverses}, nil
}
