package weaviate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-openapi/strfmt"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/graphql"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// Batch sizes: objects per import request (a document with a 384-float
// vector is a few KB), ids per delete filter, and import requests in flight.
const (
	putBatch      = 500
	deleteBatch   = 500
	putsInFlight  = 2
	deleteOutput  = "minimal"
	maxDeleteLoop = 1000
)

// docOp is the net effect of a batch of changes on one document: the
// object to put, or nil to delete it.
type docOp struct {
	class string
	uuid  string
	put   *models.Object
}

// Apply applies changes in order, skipping those whose OpID the ledger
// holds, and records the others. Weaviate has no transactions, so the
// changes are folded into their net effect on each document (later changes
// win, as they would applied one by one), written as batch deletes and
// batch upserts, and only then recorded in the ledger: an error leaves the
// ledger as it was, and the Coordinator puts back the documents.
func (s *Store) Apply(ctx context.Context, scheduleID string, changes []store.VectorChange) ([]string, error) {
	if err := store.CheckScheduleID(scheduleID); err != nil {
		return nil, err
	}
	if err := graphQLSafe(scheduleID); err != nil {
		return nil, err
	}
	var asked []string
	for _, c := range changes {
		if c.OpID != "" {
			asked = append(asked, c.OpID)
		}
		asked = append(asked, c.Forget...)
	}
	recorded, err := s.recorded(ctx, scheduleID, asked)
	if err != nil {
		return nil, err
	}
	docs := map[string]*docOp{} // by uuid
	var order []string          // uuids, first-touch order, for stable batches
	set := func(op *docOp) {
		if _, ok := docs[op.uuid]; !ok {
			order = append(order, op.uuid)
		}
		docs[op.uuid] = op
	}
	ledger := map[string]bool{} // op ID → recorded after this Apply
	var ledgerOrder []string
	mark := func(opID string, held bool) {
		if _, ok := ledger[opID]; !ok {
			ledgerOrder = append(ledgerOrder, opID)
		}
		ledger[opID] = held
		recorded[opID] = held
	}
	var applied []string
	for _, c := range changes {
		if c.OpID != "" && recorded[c.OpID] {
			continue
		}
		for _, id := range c.DeleteRelationships {
			set(&docOp{class: RelationshipClass, uuid: store.RelationshipUUID(scheduleID, id)})
		}
		for _, id := range c.DeleteActivities {
			set(&docOp{class: ActivityClass, uuid: store.ActivityUUID(scheduleID, id)})
		}
		for _, a := range c.PutActivities {
			set(&docOp{class: ActivityClass, uuid: store.ActivityUUID(scheduleID, a.ID), put: s.activityObject(scheduleID, a)})
		}
		for _, r := range c.PutRelationships {
			set(&docOp{class: RelationshipClass, uuid: store.RelationshipUUID(scheduleID, r.ID), put: s.relationshipObject(scheduleID, r)})
		}
		for _, op := range c.Forget {
			mark(op, false)
		}
		if c.OpID != "" {
			mark(c.OpID, true)
			applied = append(applied, c.OpID)
		}
	}

	var puts []*models.Object
	deletes := map[string][]string{} // class → uuids
	for _, id := range order {
		op := docs[id]
		if op.put != nil {
			puts = append(puts, op.put)
		} else {
			deletes[op.class] = append(deletes[op.class], op.uuid)
		}
	}
	for _, class := range []string{RelationshipClass, ActivityClass} {
		if err := s.deleteByID(ctx, class, deletes[class]); err != nil {
			return nil, err
		}
	}
	if err := s.put(ctx, puts); err != nil {
		return nil, err
	}

	var ledgerPuts []*models.Object
	var ledgerDeletes []string
	for _, opID := range ledgerOrder {
		id := ledgerUUID(scheduleID, opID)
		if ledger[opID] {
			ledgerPuts = append(ledgerPuts, ledgerObject(scheduleID, opID, ""))
		} else {
			ledgerDeletes = append(ledgerDeletes, id)
		}
	}
	if err := s.deleteByID(ctx, LedgerClass, ledgerDeletes); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	if err := s.put(ctx, ledgerPuts); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	return applied, nil
}

// ledgerUUID keys a ledger entry by (schedule, op).
func ledgerUUID(scheduleID, opID string) string {
	return schedule.DerivedID("vector-ledger", scheduleID, opID)
}

// recorded says which of opIDs the ledger holds for the schedule.
func (s *Store) recorded(ctx context.Context, scheduleID string, opIDs []string) (map[string]bool, error) {
	entries, err := s.ledgerEntries(ctx, scheduleID, opIDs)
	if err != nil {
		return nil, err
	}
	held := make(map[string]bool, len(entries))
	for op := range entries {
		held[op] = true
	}
	return held, nil
}

// ledgerEntries returns, for those of opIDs the ledger holds, the commit
// record's text ("" while uncommitted). The lookup filters on object ids,
// which are derived UUIDs: no user text reaches the query.
func (s *Store) ledgerEntries(ctx context.Context, scheduleID string, opIDs []string) (map[string]string, error) {
	held := map[string]string{}
	byUUID := map[string]string{}
	for _, op := range opIDs {
		byUUID[ledgerUUID(scheduleID, op)] = op
	}
	uuids := make([]string, 0, len(byUUID))
	for id := range byUUID {
		uuids = append(uuids, id)
	}
	slices.Sort(uuids)
	for chunk := range slices.Chunk(uuids, deleteBatch) {
		resp, err := s.client.GraphQL().Get().
			WithClassName(LedgerClass).
			WithWhere(idsFilter(chunk)).
			WithLimit(len(chunk)).
			WithFields(graphql.Field{Name: "committed"}, additional("id")).
			Do(ctx)
		rows, err := rowsOf(resp, err, LedgerClass)
		if err != nil {
			return nil, fmt.Errorf("weaviate at %s: reading the ledger: %w", s.url, err)
		}
		for _, row := range rows {
			if op, ok := byUUID[additionalString(row, "id")]; ok {
				held[op] = str(row, "committed")
			}
		}
	}
	return held, nil
}

// ledgerObject is a ledger entry as a Weaviate object.
func ledgerObject(scheduleID, opID, committed string) *models.Object {
	props := map[string]any{
		"schedule_id": scheduleID,
		"op_id":       opID,
		"store":       ledgerStore,
	}
	if committed != "" {
		props["committed"] = committed
	}
	return &models.Object{Class: LedgerClass, ID: strfmt.UUID(ledgerUUID(scheduleID, opID)), Properties: props}
}

// Commit marks the ledger entries of opIDs committed, keeping earlier
// records. Every entry is checked before any is written, so a missing one
// marks nothing.
func (s *Store) Commit(ctx context.Context, scheduleID string, opIDs []string, rec store.CommitRecord) error {
	if err := graphQLSafe(scheduleID); err != nil {
		return err
	}
	entries, err := s.ledgerEntries(ctx, scheduleID, opIDs)
	if err != nil {
		return err
	}
	text, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	var puts []*models.Object
	for _, op := range opIDs {
		committed, ok := entries[op]
		if !ok {
			return fmt.Errorf("weaviate: schedule %q: %w: %s", scheduleID, store.ErrNotRecorded, op)
		}
		if committed == "" {
			puts = append(puts, ledgerObject(scheduleID, op, string(text)))
		}
	}
	if err := s.put(ctx, puts); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

// Committed returns the commit records of those of opIDs that have one.
func (s *Store) Committed(ctx context.Context, scheduleID string, opIDs []string) (map[string]store.CommitRecord, error) {
	if err := graphQLSafe(scheduleID); err != nil {
		return nil, err
	}
	entries, err := s.ledgerEntries(ctx, scheduleID, opIDs)
	if err != nil {
		return nil, err
	}
	out := map[string]store.CommitRecord{}
	for op, text := range entries {
		if text == "" {
			continue
		}
		var rec store.CommitRecord
		if err := json.Unmarshal([]byte(text), &rec); err != nil {
			return nil, fmt.Errorf("weaviate: ledger entry %s: commit record: %w", op, err)
		}
		out[op] = rec
	}
	return out, nil
}

// activityObject is an activity document as a Weaviate object.
func (s *Store) activityObject(scheduleID string, a store.ActivityDoc) *models.Object {
	props := map[string]any{
		"schedule_id": scheduleID,
		"activity_id": a.ID,
		"name":        a.Name,
		"description": a.Description,
		"duration":    a.Duration,
	}
	// Only when set, so an activity without them is the object it was.
	if a.WBS != "" {
		props["wbs"] = a.WBS
	}
	if len(a.Codes) > 0 {
		codes, _ := json.Marshal(a.Codes) // a map of strings always marshals
		props["codes"] = string(codes)
	}
	if s.tokenize != nil {
		props["terms"] = strings.Join(s.tokenize(a.KeywordText()), " ")
	}
	return &models.Object{Class: ActivityClass, ID: strfmt.UUID(store.ActivityUUID(scheduleID, a.ID)), Properties: props, Vector: a.Vector}
}

// relationshipObject is a relationship document as a Weaviate object; its
// BM25 text is both ends' names and descriptions, as in the embedded store.
func (s *Store) relationshipObject(scheduleID string, r store.RelationshipDoc) *models.Object {
	props := map[string]any{
		"schedule_id":             scheduleID,
		"relationship_id":         r.ID,
		"type":                    string(r.Type),
		"lag":                     r.Lag,
		"predecessor_id":          r.Predecessor.ActivityID,
		"predecessor_name":        r.Predecessor.Name,
		"predecessor_description": r.Predecessor.Description,
		"predecessor_duration":    r.Predecessor.Duration,
		"successor_id":            r.Successor.ActivityID,
		"successor_name":          r.Successor.Name,
		"successor_description":   r.Successor.Description,
		"successor_duration":      r.Successor.Duration,
	}
	if s.tokenize != nil {
		text := fmt.Sprintf("%s %s %s %s", r.Predecessor.Name, r.Predecessor.Description, r.Successor.Name, r.Successor.Description)
		props["terms"] = strings.Join(s.tokenize(text), " ")
	}
	return &models.Object{Class: RelationshipClass, ID: strfmt.UUID(store.RelationshipUUID(scheduleID, r.ID)), Properties: props, Vector: r.Vector}
}

// put upserts objects with the client's batcher, a few batches in flight,
// and turns the per-object errors of the batch response into one error.
func (s *Store) put(ctx context.Context, objects []*models.Object) error {
	if len(objects) == 0 {
		return nil
	}
	chunks := slices.Collect(slices.Chunk(objects, putBatch))
	errs := make([]error, len(chunks))
	sem := make(chan struct{}, putsInFlight)
	var wg sync.WaitGroup
	for i, chunk := range chunks {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = s.putBatch(ctx, chunk)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (s *Store) putBatch(ctx context.Context, objects []*models.Object) error {
	resp, err := s.client.Batch().ObjectsBatcher().WithObjects(objects...).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate at %s: batch import: %w", s.url, err)
	}
	var failed []string
	count := 0
	for i, r := range resp {
		if r.Result == nil || r.Result.Errors == nil || len(r.Result.Errors.Error) == 0 {
			continue
		}
		count++
		if len(failed) < 5 {
			msgs := make([]string, 0, len(r.Result.Errors.Error))
			for _, e := range r.Result.Errors.Error {
				msgs = append(msgs, e.Message)
			}
			id := r.ID
			if id == "" && i < len(objects) {
				id = objects[i].ID
			}
			failed = append(failed, fmt.Sprintf("%s %s: %s", r.Class, id, strings.Join(msgs, "; ")))
		}
	}
	if count > 0 {
		err := fmt.Errorf("weaviate at %s: batch import: %d of %d objects failed: %s", s.url, count, len(objects), strings.Join(failed, "; "))
		return fmt.Errorf("%w%s", err, dimensionsHint(err))
	}
	if len(resp) != len(objects) {
		return fmt.Errorf("weaviate at %s: batch import: %d results for %d objects", s.url, len(resp), len(objects))
	}
	return nil
}

// idsFilter matches objects by id. The values are UUIDs we derive.
func idsFilter(uuids []string) *filters.WhereBuilder {
	return filters.Where().WithPath([]string{"_id"}).WithOperator(filters.ContainsAny).WithValueText(uuids...)
}

// scheduleFilter matches a schedule's objects.
func scheduleFilter(scheduleID string) *filters.WhereBuilder {
	return filters.Where().WithPath([]string{"schedule_id"}).WithOperator(filters.Equal).WithValueText(scheduleID)
}

// deleteByID deletes objects of a class; missing ones are no error.
func (s *Store) deleteByID(ctx context.Context, class string, uuids []string) error {
	for chunk := range slices.Chunk(uuids, deleteBatch) {
		if _, _, err := s.deleteWhere(ctx, class, idsFilter(chunk)); err != nil {
			return err
		}
	}
	return nil
}

// deleteWhere batch-deletes what a filter matches and returns how many
// objects it matched and the most one request deletes. The filter travels
// as JSON, not GraphQL.
func (s *Store) deleteWhere(ctx context.Context, class string, where *filters.WhereBuilder) (matched, limit int64, err error) {
	resp, err := s.client.Batch().ObjectsBatchDeleter().
		WithClassName(class).
		WithOutput(deleteOutput).
		WithWhere(where).
		Do(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("weaviate at %s: batch delete in %s: %w", s.url, class, err)
	}
	if resp.Results == nil {
		return 0, 0, nil
	}
	if resp.Results.Failed > 0 {
		var msgs []string
		for _, o := range resp.Results.Objects {
			if o.Errors != nil {
				for _, e := range o.Errors.Error {
					msgs = append(msgs, fmt.Sprintf("%s: %s", o.ID, e.Message))
				}
			}
			if len(msgs) >= 5 {
				break
			}
		}
		return resp.Results.Matches, resp.Results.Limit, fmt.Errorf("weaviate at %s: batch delete in %s: %d of %d failed: %s", s.url, class, resp.Results.Failed, resp.Results.Matches, strings.Join(msgs, "; "))
	}
	return resp.Results.Matches, resp.Results.Limit, nil
}

// DeleteSchedule removes a schedule's documents and ledger. A batch delete
// removes at most the server's QUERY_MAXIMUM_RESULTS objects, so a
// collection is deleted from again while a request hits that limit.
func (s *Store) DeleteSchedule(ctx context.Context, scheduleID string) error {
	for _, class := range []string{RelationshipClass, ActivityClass, LedgerClass, PreferencesClass} {
		for range maxDeleteLoop {
			matched, limit, err := s.deleteWhere(ctx, class, scheduleFilter(scheduleID))
			if err != nil {
				return err
			}
			if matched == 0 || (limit > 0 && matched < limit) {
				break
			}
		}
	}
	return nil
}

// relationshipName is how a relationship reads in search results, as in
// the embedded store: "Pour slab -FS 2d-> Cure slab".
func relationshipName(pred string, relType string, lag float64, succ string) string {
	l := ""
	if lag != 0 {
		l = " " + strconv.FormatFloat(lag, 'f', -1, 64) + "d"
	}
	return fmt.Sprintf("%s -%s%s-> %s", pred, relType, l, succ)
}
