package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// clusterUnderTest is the cluster of scripts/cluster.sh that .ci/run
// starts (with its workers): its frontend and TLS directory.
func clusterUnderTest(t *testing.T) (address, tlsDir string) {
	address, tlsDir = os.Getenv("AUTOSCHEDULER_TEST_CLUSTER"), os.Getenv("AUTOSCHEDULER_TEST_CLUSTER_TLS")
	if address == "" || tlsDir == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("AUTOSCHEDULER_TEST_CLUSTER and AUTOSCHEDULER_TEST_CLUSTER_TLS are not set: .ci/run starts the cluster (scripts/cluster.sh up)")
		}
		t.Skip("no cluster: eval \"$(scripts/cluster.sh up)\" and set AUTOSCHEDULER_TEST_CLUSTER=127.0.0.1:7333 AUTOSCHEDULER_TEST_CLUSTER_TLS=.cluster/tls")
	}
	return address, tlsDir
}

// The frontend admits the cluster's client certificate or its API key,
// as Temporal Cloud does, and nothing else; no key shows in an error.
func TestClusterAdmitsMTLSAndAPIKeyOnly(t *testing.T) {
	address, dir := clusterUnderTest(t)
	key, err := os.ReadFile(filepath.Join(dir, "api-key"))
	if err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(dir, "ca.pem")
	mtls := config.Temporal{Address: address, Namespace: "default", CACert: ca,
		ClientCert: filepath.Join(dir, "client.pem"), ClientKey: filepath.Join(dir, "client-key.pem")}
	apiKey := config.Temporal{Address: address, Namespace: "default", CACert: ca}.WithAPIKey(strings.TrimSpace(string(key)))
	for _, tc := range []struct {
		name  string
		cfg   config.Temporal
		admit bool
	}{
		{"mTLS", mtls, true},
		{"API key", apiKey, true},
		{"wrong API key", config.Temporal{Address: address, Namespace: "default", CACert: ca}.WithAPIKey("not-the-key-0123456789"), false},
		{"TLS without credentials", config.Temporal{Address: address, Namespace: "default", CACert: ca}, false},
		{"plaintext", config.Temporal{Address: address, Namespace: "default"}, false},
		{"an unknown CA", config.Temporal{Address: address, Namespace: "default", TLS: true}.WithAPIKey(strings.TrimSpace(string(key))), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c, err := tc.cfg.Dial(quietLogger())
			if err == nil {
				defer c.Close()
				_, err = workflows.List(ctx, c, "no-such-schedule")
			}
			switch {
			case tc.admit && err != nil:
				t.Fatalf("refused: %v", err)
			case !tc.admit && err == nil:
				t.Fatal("admitted")
			case err != nil && strings.Contains(err.Error(), strings.TrimSpace(string(key))):
				t.Fatalf("the API key shows in the error: %v", err)
			}
		})
	}
}

// Dispatches of every kind of review run through the cluster's workers
// (scripts/cluster.sh starts them on Neo4j and Weaviate) and leave exactly
// the expected schedule, with no drift.
func TestClusterDispatchesEveryReviewKind(t *testing.T) {
	address, dir := clusterUnderTest(t)
	ctx := context.Background()
	storesCfg := config.StoresFromEnv()
	if storesCfg.Neo4jURI == "" || storesCfg.WeaviateURL == "" {
		t.Fatal("NEO4J_URI and WEAVIATE_URL are not set (the cluster's workers use scripts/services.sh's)")
	}
	stores, err := storesCfg.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer stores.Close(ctx)
	base, err := interchange.ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	target := fmt.Sprintf("test%d", time.Now().UnixNano()%1e6)
	ids := scheduleIDs(target, 2)
	if err := importSchedules(ctx, stores, base, ids); err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, id := range ids {
			_ = stores.DeleteSchedule(ctx, id)
		}
	}()
	tc := config.Temporal{Address: address, Namespace: "default", CACert: filepath.Join(dir, "ca.pem"),
		ClientCert: filepath.Join(dir, "client.pem"), ClientKey: filepath.Join(dir, "client-key.pem")}
	c, err := tc.Dial(quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The cluster's workers must be polling (they exit if they cannot
	// open the stores): say so instead of waiting on dispatches.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Second) {
		tq, err := c.DescribeTaskQueue(ctx, workflows.TaskQueue, enums.TASK_QUEUE_TYPE_ACTIVITY)
		if err == nil && len(tq.GetPollers()) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no worker polls the cluster's task queue (%v): see .cluster/log/worker-*.log", err)
		}
	}
	runCtx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	// 2 schedules x 5 dispatches: every kind on each.
	r, outcomes := load(runCtx, c, ids, 10, nil)
	verify(ctx, stores, base, ids, outcomes, r)
	for _, k := range []kind{accept, reject, feedback, clarify} {
		if r.Kinds[k.String()] == 0 {
			t.Errorf("no %s dispatch ran: %v", k, r.Kinds)
		}
	}
	if r.failed() || len(r.Problems) > 0 {
		t.Fatalf("lost %d, lost writes %d, duplicated %d, unexpected %d, drift %d:\n%s",
			r.Lost, r.LostWrites, r.Duplicated, r.Unexpected, r.Drift, strings.Join(r.Problems, "\n"))
	}
}
