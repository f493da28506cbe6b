package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/config/configtest"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// Dispatches through the real dev server on Neo4j + Weaviate: an accepted
// change lands in both, a rejected one leaves both exactly as they were.
func TestDispatchOnConfiguredServers(t *testing.T) {
	stores := configtest.Servers(t)
	t.Setenv("OPENAI_API_KEY", "")
	dir := t.TempDir()
	ctx := context.Background()
	c, err := stores.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	id := fmt.Sprintf("servers-%08x", rand.Uint32())
	t.Cleanup(func() { _ = c.DeleteSchedule(context.Background(), id) })
	if code, _, errOut := runCLI(t, "import", "../examples/building.json", "--schedule", id); code != 0 {
		t.Fatalf("import into the servers: %s", errOut)
	}
	dumps := func() string { return storetest.Dumps(t, c, id) }
	dev := startDev(t, dir, &devOptions{stores: &stores})
	cli := func(args ...string) (int, string, string) {
		return runCLI(t, append(args, "--temporal-address", dev.frontend)...)
	}

	before := dumps()
	if code, out, errOut := cli("prompt", "delete activity Snagging inspection", "--schedule", id, "--no-wait"); code != 0 {
		t.Fatalf("prompt: %s%s", out, errOut)
	}
	waitAwaiting(t, cli, "dispatch-"+id)
	if dumps() == before {
		t.Fatal("the proposal was not applied provisionally")
	}
	if code, out, errOut := cli("review", "dispatch-"+id, "reject"); code != 0 || !strings.Contains(out, "rejected") {
		t.Fatalf("review: %s%s", out, errOut)
	}
	if dumps() != before {
		t.Fatal("a rejected dispatch left Neo4j or Weaviate changed")
	}
	if code, out, errOut := cli("prompt", "delete activity Final cleaning", "--schedule", id, "--yes"); code != 0 || !strings.Contains(out, "accepted") {
		t.Fatalf("prompt --yes: %s%s", out, errOut)
	}
	s, err := c.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, still := s.Activity("A143"); still || len(s.Activities) != 146 {
		t.Fatal("the accepted change is not in Neo4j")
	}
	if drift, err := c.Verify(ctx, id); err != nil || len(drift) > 0 {
		t.Fatalf("Neo4j and Weaviate disagree: %v %v", drift, err)
	}
	if err := dev.stop(); err != nil {
		t.Fatal(err)
	}
}

// waitAwaiting polls `dispatch show` until the proposal awaits review.
func waitAwaiting(t *testing.T, cli func(...string) (int, string, string), id string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if _, out, _ := cli("dispatch", "show", id); strings.Contains(out, "awaiting review") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never awaited review", id)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
