package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Intent timing: a writer refreshes its intent every HeartbeatEvery; an
// intent not refreshed for IntentLease belongs to a writer that is gone
// (or hung), and may be repaired by anyone. On the writer's own host a
// dead pid says so at once, without waiting for the lease.
var (
	HeartbeatEvery = 2 * time.Second
	IntentLease    = 30 * time.Second
)

// RequestID returns a new random id for one write request (an import run, a
// direct write): op ids derived from it are unique to the request, so only
// a retry of that same request can look applied to a ledger.
func RequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b[:])
}

var (
	selfOnce sync.Once
	self     Owner
)

// Self is this process as an intent's owner.
func Self() Owner {
	selfOnce.Do(func() {
		host, _ := os.Hostname()
		self = Owner{Host: host, PID: os.Getpid()}
	})
	return self
}

// alive reports whether an intent's writer may still be at work.
func (in Intent) alive(now time.Time) bool {
	if in.Owner == Self() {
		return true // this process: its own write is under way
	}
	if now.Sub(in.Heartbeat) > IntentLease {
		return false
	}
	if host := Self().Host; host != "" && host == in.Owner.Host && in.Owner.PID > 0 {
		// Signal 0 checks for the process without touching it.
		if err := syscall.Kill(in.Owner.PID, 0); errors.Is(err, syscall.ESRCH) {
			return false
		}
	}
	return true
}

// BusyError says which live write holds a schedule.
type BusyError struct{ Intent Intent }

func (e *BusyError) Error() string {
	return fmt.Sprintf("schedule %q is being written (pid %d on %s, since %s); try again when it ends, or run `autoscheduler verify --repair` if that process is gone",
		e.Intent.ScheduleID, e.Intent.Owner.PID, e.Intent.Owner.Host, e.Intent.Started.Format(time.RFC3339))
}

func (e *BusyError) Unwrap() error { return ErrBusy }

// Settle makes a schedule safe to read or write: a write another live
// process has under way is ErrBusy (a *BusyError); one whose writer is gone
// is repaired first. Stores with one transaction for both sides (Atomic)
// and stores without an intent log have nothing to settle.
func (c *Coordinator) Settle(ctx context.Context, scheduleID string) error {
	_, err := c.settle(ctx, scheduleID, false)
	return err
}

// settle is Settle; with force, live intents are repaired too (the caller
// vouches that no writer is left: `verify --repair`). It returns how many
// intents it repaired.
func (c *Coordinator) settle(ctx context.Context, scheduleID string, force bool) (int, error) {
	log, ok := c.intentLog()
	if !ok {
		return 0, nil
	}
	intents, err := log.Intents(ctx, scheduleID)
	if err != nil || len(intents) == 0 {
		return 0, err
	}
	now := time.Now()
	for _, in := range intents {
		if in.Owner == Self() {
			continue // this process's own write, under way in another goroutine
		}
		if !force && in.alive(now) {
			return 0, &BusyError{Intent: in}
		}
	}
	repaired := 0
	for _, in := range intents {
		if in.Owner == Self() {
			continue
		}
		if err := c.repairPatiently(context.WithoutCancel(ctx), log, in); err != nil {
			return repaired, fmt.Errorf("repairing schedule %q after an interrupted write: %w", scheduleID, err)
		}
		repaired++
	}
	return repaired, nil
}

// intentLog returns the graph store's intent log when writes need one.
func (c *Coordinator) intentLog() (IntentLog, bool) {
	if _, ok := c.atomic(); ok {
		return nil, false
	}
	log, ok := c.Graph.(IntentLog)
	return log, ok
}

// atomic returns the graph store as an Atomic one when it holds the
// vector side too.
func (c *Coordinator) atomic() (Atomic, bool) {
	a, ok := c.Graph.(Atomic)
	if !ok || !a.Holds(c.Vectors) {
		return nil, false
	}
	return a, true
}

// repairPatiently repairs, trying again for a few seconds when the repair
// fails: a writer killed as it committed may leave its transaction still
// committing on the graph server, and a read meanwhile (Neo4j reads at
// read-committed) can see a mix of the two versions. The repair is
// idempotent.
func (c *Coordinator) repairPatiently(ctx context.Context, log IntentLog, in Intent) error {
	err := c.repair(ctx, log, in)
	for wait := 100 * time.Millisecond; err != nil && wait <= 3200*time.Millisecond; wait *= 2 {
		time.Sleep(wait)
		err = c.repair(ctx, log, in)
	}
	return err
}

// repair finishes an interrupted write. The graph store writes in one
// transaction, so it holds either the old version or the new one; the
// vector store is brought to match it (forward if the graph write landed,
// back if not), and its ledger to agree with the graph's. A delete, or a
// fresh import whose graph write did not land, is finished as a delete.
func (c *Coordinator) repair(ctx context.Context, log IntentLog, in Intent) error {
	recorded, err := c.Graph.Recorded(ctx, in.ScheduleID, in.OpIDs)
	if err != nil {
		return err
	}
	landed := len(recorded) == len(in.OpIDs)
	if in.Kind == IntentDelete || (in.Fresh && !landed) {
		if err := c.deleteBoth(ctx, in.ScheduleID); err != nil {
			return err
		}
		return log.DeleteIntent(ctx, in.ScheduleID, in.ID)
	}
	if err := c.syncVectors(ctx, in.ScheduleID); err != nil {
		return err
	}
	// The vector ledger follows the graph's: ops the graph holds are
	// recorded (a commit needs them in both), the others forgotten.
	var ledger []VectorChange
	var forget []string
	for _, op := range in.OpIDs {
		if _, ok := recorded[op]; ok {
			ledger = append(ledger, VectorChange{OpID: op})
		} else {
			forget = append(forget, op)
		}
	}
	if len(forget) > 0 {
		ledger = append(ledger, VectorChange{Forget: forget})
	}
	if len(ledger) > 0 {
		if _, err := c.Vectors.Apply(ctx, in.ScheduleID, ledger); err != nil {
			return err
		}
	}
	return log.DeleteIntent(ctx, in.ScheduleID, in.ID)
}

// Repair settles a schedule even if an intent's writer looks alive, then
// brings the vector store to match the graph store, which is the source of
// truth. It returns the number of interrupted writes it finished and the
// drift it mended (as Verify words it).
func (c *Coordinator) Repair(ctx context.Context, scheduleID string) (intents int, mended []string, err error) {
	intents, err = c.settle(ctx, scheduleID, true)
	if err != nil {
		return intents, nil, err
	}
	// Settled above: compare the stores without settling again.
	s, err := c.Graph.Load(ctx, scheduleID)
	if err != nil {
		return intents, nil, err
	}
	docs, err := c.Vectors.Dump(ctx, scheduleID)
	if err != nil {
		return intents, nil, err
	}
	if mended, _ = compare(s, docs); len(mended) == 0 {
		return intents, nil, nil
	}
	return intents, mended, c.syncVectors(ctx, scheduleID)
}

// syncVectors writes the documents the graph says a schedule has and
// deletes the others; a schedule the graph does not hold loses its
// documents.
func (c *Coordinator) syncVectors(ctx context.Context, scheduleID string) error {
	s, err := c.Graph.Load(ctx, scheduleID)
	if errors.Is(err, ErrNotFound) {
		return c.Vectors.DeleteSchedule(ctx, scheduleID)
	}
	if err != nil {
		return err
	}
	docs, err := c.Vectors.Dump(ctx, scheduleID)
	if err != nil {
		return err
	}
	_, fix := compare(s, docs)
	if fix.Empty() {
		return nil
	}
	return c.streamDocuments(ctx, []Change{fix}, []*schedule.Schedule{s}, s, nil, func(vcs []VectorChange) error {
		_, err := c.Vectors.Apply(ctx, scheduleID, vcs)
		return err
	})
}

// withIntent runs write under a durable intent (when the stores need one),
// refreshed every HeartbeatEvery while it runs. The intent is removed when
// write succeeds or reports that it put everything back (keep false); an
// intent left behind is repaired by the next process.
func (c *Coordinator) withIntent(ctx context.Context, in Intent, write func() (keep bool, err error)) error {
	log, ok := c.intentLog()
	if !ok {
		_, err := write()
		return err
	}
	now := time.Now()
	in.ID, in.Owner, in.Started, in.Heartbeat = RequestID(), Self(), now, now
	if err := log.PutIntent(ctx, in); err != nil {
		return fmt.Errorf("recording the write's intent: %w", err)
	}
	stop := make(chan struct{})
	beats := sync.WaitGroup{}
	beats.Go(func() {
		tick := time.NewTicker(HeartbeatEvery)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case t := <-tick.C:
				beat := in
				beat.Heartbeat = t
				_ = log.PutIntent(context.WithoutCancel(ctx), beat) // a missed beat only shortens the lease
			}
		}
	})
	keep, err := write()
	close(stop)
	beats.Wait()
	if keep {
		return err
	}
	if derr := log.DeleteIntent(context.WithoutCancel(ctx), in.ScheduleID, in.ID); derr != nil && err == nil {
		return fmt.Errorf("removing the write's intent: %w", derr)
	}
	return err
}
