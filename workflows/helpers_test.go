package workflows_test

import (
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/client"
)

var mockAny = mock.Anything

func clientStartOptions() client.StartWorkflowOptions {
	return client.StartWorkflowOptions{ID: "dispatch-building", TaskQueue: "autoscheduler"}
}
