package workflows

import (
	"go.temporal.io/sdk/worker"

	"github.com/autoscheduler/autoscheduler/activities"
)

// Register puts the workflows and acts on a worker: the worker process and
// `autoscheduler dev` register exactly the same things.
func Register(r worker.Registry, acts *activities.Activities) {
	r.RegisterWorkflow(DispatchWorkflow)
	r.RegisterWorkflow(EditWorkflow)
	r.RegisterWorkflow(PortfolioWorkflow)
	r.RegisterActivity(acts)
}
