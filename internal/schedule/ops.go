package schedule

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// OpKind names a change op; the names are the stable `op` values of DESIGN.
type OpKind string

// The change ops.
const (
	AddActivityOp        OpKind = "add_activity"
	RemoveActivityOp     OpKind = "remove_activity"
	UpdateActivityOp     OpKind = "update_activity"
	DissolveActivityOp   OpKind = "dissolve_activity"
	AddRelationshipOp    OpKind = "add_relationship"
	RemoveRelationshipOp OpKind = "remove_relationship"
	UpdateRelationshipOp OpKind = "update_relationship"
	// SetDataDateOp moves the schedule's data date (status date): the
	// monthly update's "status the programme to 1 March".
	SetDataDateOp OpKind = "set_data_date"
)

// Op is one change to a schedule. Which fields matter depends on Kind: add
// and update carry the whole Activity or Relationship, removals and dissolve
// carry only the id. Position, set on the inverses Apply returns, re-inserts
// a removed item where it was, so undo restores the schedule exactly.
type Op struct {
	ID             string        `json:"id"`
	Kind           OpKind        `json:"op"`
	Call           string        `json:"call,omitempty"`
	ActivityID     string        `json:"activity_id,omitempty"`
	RelationshipID string        `json:"relationship_id,omitempty"`
	Activity       *Activity     `json:"activity,omitempty"`
	Relationship   *Relationship `json:"relationship,omitempty"`
	Position       *int          `json:"position,omitempty"`
	// DataDate is a set_data_date's new data date ("" clears it).
	DataDate string `json:"data_date,omitempty"`
	// After, on an add, places the new activity right after this one (its
	// predecessor, as the planner named it) instead of at the end; an id
	// no longer in the schedule places it at the end.
	After string `json:"after,omitempty"`
	// Source is the words of the request the op came from, for the
	// review screen; it is not part of the op's identity.
	Source string `json:"source,omitempty"`
	// Task is the ID of the task of a multi-part prompt the op belongs to
	// ("" when the prompt was one request); not part of its identity.
	Task string `json:"task,omitempty"`
}

// SetDataDate moves the schedule's data date to date (a day, or a day
// and time: 2027-03-01, 2027-03-01T08:00); "" clears it.
func SetDataDate(date string) Op { return Op{Kind: SetDataDateOp, DataDate: date} }

// AddActivity adds a to the end of the schedule.
func AddActivity(a Activity) Op {
	return Op{Kind: AddActivityOp, ActivityID: a.ID, Activity: &a}
}

// RemoveActivity removes an activity and every relationship it is part of.
func RemoveActivity(id string) Op { return Op{Kind: RemoveActivityOp, ActivityID: id} }

// UpdateActivity replaces the name, description and duration of a.ID.
func UpdateActivity(a Activity) Op {
	return Op{Kind: UpdateActivityOp, ActivityID: a.ID, Activity: &a}
}

// DissolveActivity removes an activity and links each of its predecessors to
// each of its successors, with the successor link's type and lag.
func DissolveActivity(id string) Op { return Op{Kind: DissolveActivityOp, ActivityID: id} }

// AddRelationship adds r to the end of the schedule.
func AddRelationship(r Relationship) Op {
	return Op{Kind: AddRelationshipOp, RelationshipID: r.ID, Relationship: &r}
}

// RemoveRelationship removes one relationship.
func RemoveRelationship(id string) Op { return Op{Kind: RemoveRelationshipOp, RelationshipID: id} }

// UpdateRelationship replaces the type and lag of r.ID (its ends stay).
func UpdateRelationship(r Relationship) Op {
	return Op{Kind: UpdateRelationshipOp, RelationshipID: r.ID, Relationship: &r}
}

// WithScope gives the op its deterministic ID: a hash of the scope (say a
// dispatch and round) and the op's content, so a retried planning step yields
// the same IDs and store ledgers can refuse to apply an op twice.
func (o Op) WithScope(scope string) Op {
	source, task := o.Source, o.Task
	o.ID, o.Call, o.Source, o.Task = "", "", "", ""
	body, _ := json.Marshal(o) // Op holds only strings, numbers and pointers to them
	o.ID = DerivedID("op", scope, string(body))
	o.Source, o.Task = source, task
	return o
}

// ErrInvalidOp marks every refusal by the ops engine (errors.Is), so callers
// can tell a bad op (not worth retrying) from a failure.
var ErrInvalidOp = errors.New("invalid op")

// OpError says which op was refused and why; Unwrap gives ErrInvalidOp and,
// for circular logic, the *CycleError.
type OpError struct {
	Op     Op
	Reason string
	Err    error
}

func (e *OpError) Error() string {
	label := e.Op.Call
	if label == "" {
		label = string(e.Op.Kind)
	}
	return fmt.Sprintf("%s: %s", label, e.Reason)
}

func (e *OpError) Unwrap() []error { return []error{ErrInvalidOp, e.Err} }

func refuse(op Op, format string, args ...any) error {
	return &OpError{Op: op, Reason: fmt.Sprintf(format, args...)}
}

// Apply validates op against s, then mutates s and returns the inverse ops:
// applying them in reverse order (see Undo) restores s exactly. On error s is
// unchanged. Apply fills op.ID (from its content, if empty) and op.Call.
func Apply(s *Schedule, op *Op) ([]Op, error) {
	if op.ID == "" {
		*op = op.WithScope("")
	}
	op.Call = describe(s, *op)
	switch op.Kind {
	case AddActivityOp:
		return applyAddActivity(s, *op)
	case RemoveActivityOp:
		return applyRemoveActivity(s, *op)
	case UpdateActivityOp:
		return applyUpdateActivity(s, *op)
	case DissolveActivityOp:
		return applyDissolve(s, *op)
	case AddRelationshipOp:
		return applyAddRelationship(s, *op)
	case RemoveRelationshipOp:
		return applyRemoveRelationship(s, *op)
	case UpdateRelationshipOp:
		return applyUpdateRelationship(s, *op)
	case SetDataDateOp:
		return applySetDataDate(s, *op)
	}
	return nil, refuse(*op, "unknown op %q", op.Kind)
}

// ApplyAll applies ops in order, all or nothing: if one is refused, the ones
// before it are undone and s is as it was. It returns the ops as applied
// (IDs and calls filled) and the inverses of all of them.
func ApplyAll(s *Schedule, ops []Op) (applied, inverses []Op, err error) {
	applied = make([]Op, 0, len(ops))
	for i := range ops {
		op := ops[i]
		inv, err := Apply(s, &op)
		if err != nil {
			if undoErr := Undo(s, inverses); undoErr != nil {
				return nil, nil, errors.Join(err, fmt.Errorf("undo after failure: %w", undoErr))
			}
			return nil, nil, fmt.Errorf("op %d of %d: %w", i+1, len(ops), err)
		}
		applied = append(applied, op)
		inverses = append(inverses, inv...)
	}
	return applied, inverses, nil
}

// Undo applies inverse ops in reverse order.
func Undo(s *Schedule, inverses []Op) error {
	for i := len(inverses) - 1; i >= 0; i-- {
		op := inverses[i]
		if _, err := Apply(s, &op); err != nil {
			return err
		}
	}
	return nil
}

// Before is after as it was before the ops whose inverses (in application
// order, as ApplyAll returns them) are given: they are undone on a copy,
// after is left as it is.
func Before(after *Schedule, inverses []Op) (*Schedule, error) {
	before := after.Clone()
	if err := Undo(before, inverses); err != nil {
		return nil, fmt.Errorf("undoing the round on a copy: %w", err)
	}
	return before, nil
}

// CompensatingOps is the batch that takes back ops whose inverses (in
// application order) are given: the inverses reversed, each with an ID
// scoped to scopeName and its position, so applying the batch again (a
// retry) changes nothing.
func CompensatingOps(scopeName string, inverses []Op) []Op {
	ops := make([]Op, 0, len(inverses))
	for i := len(inverses) - 1; i >= 0; i-- {
		ops = append(ops, inverses[i].WithScope(fmt.Sprintf("%s/compensate/%d", scopeName, len(ops))))
	}
	return ops
}

// UndoOps is the batch that takes back the accepted dispatch dispatchID's
// run runID, given the inverses its committed ops kept: CompensatingOps
// scoped to that run's undo, so a second undo of it changes nothing.
func UndoOps(dispatchID, runID string, inverses []Op) []Op {
	return CompensatingOps("undo/"+dispatchID+"/"+runID, inverses)
}

// inverseOf finishes inverse ops: deterministic IDs derived from the forward
// op's ID, and calls written against s (which still holds every name used).
func inverseOf(s *Schedule, forward Op, inv ...Op) []Op {
	for i := range inv {
		inv[i].ID = DerivedID("inverse", forward.ID, strconv.Itoa(i))
		inv[i].Call = describe(s, inv[i])
	}
	return inv
}

func at(i int) *int { return &i }

// checkActivity checks the activity an add or update brings in. The content
// rules (text, MaxDays) apply to what the op changes: a field an update
// leaves as it is, and an add restoring a removed activity (Position set,
// as only the inverses Apply returns carry), are not checked again, so an
// activity stored under older rules can still be edited and undo always
// restores it.
func checkActivity(op Op, old *Activity) error {
	a := op.Activity
	if a == nil {
		return refuse(op, "missing activity")
	}
	if op.Kind == AddActivityOp && op.Position != nil {
		return nil
	}
	if old == nil {
		if err := CheckID(a.ID); err != nil {
			return refuse(op, "activity %v", err)
		}
	}
	if strings.TrimSpace(a.Name) == "" {
		return refuse(op, "activity %q has no name", a.ID)
	}
	if old == nil || a.Name != old.Name {
		if err := CheckName(a.Name); err != nil {
			return refuse(op, "activity %q: %v", a.ID, err)
		}
	}
	if old == nil || a.Description != old.Description {
		if err := CheckDescription(a.Description); err != nil {
			return refuse(op, "activity %q: %v", a.ID, err)
		}
	}
	if old == nil || a.Duration != old.Duration {
		if _, err := ParseDuration(a.Duration); err != nil {
			return &OpError{Op: op, Reason: fmt.Sprintf("activity %q: %v", a.ID, err), Err: err}
		}
	}
	return nil
}

func applyAddActivity(s *Schedule, op Op) ([]Op, error) {
	if err := checkActivity(op, nil); err != nil {
		return nil, err
	}
	// A copy of its own: the schedule must not share the op's constraints
	// or codes, or changing the op (or a later op's activity) would
	// change the schedule and the inverses kept for it.
	a := op.Activity.Clone()
	if a.ID == "" {
		return nil, refuse(op, "missing activity id")
	}
	if s.activityIndex(a.ID) >= 0 || s.relationshipIndex(a.ID) >= 0 {
		return nil, refuse(op, "id %q is already in use", a.ID)
	}
	pos := len(s.Activities)
	if op.Position != nil {
		if *op.Position < 0 || *op.Position > pos {
			return nil, refuse(op, "position %d is outside 0..%d", *op.Position, pos)
		}
		pos = *op.Position
	} else if anchor := s.activityIndex(op.After); op.After != "" && anchor >= 0 {
		// After the anchor and what already sits between it and the new
		// id, so the order is the one a stored schedule is read in.
		pos = anchor + 1
		for pos < len(s.Activities) && CompareIDs(op.After, s.Activities[pos].ID) < 0 && CompareIDs(s.Activities[pos].ID, a.ID) < 0 {
			pos++
		}
	}
	inv := inverseOf(s, op, RemoveActivity(a.ID))
	inv[0].Call = fmt.Sprintf("delete_activity(name=%s)", quote(a.Name))
	s.Activities = slices.Insert(s.Activities, pos, a)
	return inv, nil
}

func applySetDataDate(s *Schedule, op Op) ([]Op, error) {
	if op.DataDate != "" {
		if _, err := ParseStart(op.DataDate); err != nil {
			return nil, refuse(op, "data date %q: %v", op.DataDate, err)
		}
	}
	if op.DataDate == s.DataDate {
		return nil, refuse(op, "the data date is %s already", cmp.Or(s.DataDate, "not set"))
	}
	inv := inverseOf(s, op, SetDataDate(s.DataDate))
	s.DataDate = op.DataDate
	return inv, nil
}

func applyRemoveActivity(s *Schedule, op Op) ([]Op, error) {
	i := s.activityIndex(op.ActivityID)
	if i < 0 {
		return nil, refuse(op, "unknown activity %q", op.ActivityID)
	}
	removed := s.Activities[i]
	restore := restoreLinksOf(s, removed.ID)
	restore = append(restore, Op{Kind: AddActivityOp, ActivityID: removed.ID, Activity: &removed, Position: at(i)})
	inv := inverseOf(s, op, restore...)
	dropLinksOf(s, removed.ID)
	s.Activities = slices.Delete(s.Activities, i, i+1)
	return inv, nil
}

// restoreLinksOf builds the ops that put back an activity's links, highest
// position first, so that applied in reverse they go back in ascending order.
func restoreLinksOf(s *Schedule, id string) []Op {
	var ops []Op
	for j := len(s.Relationships) - 1; j >= 0; j-- {
		r := s.Relationships[j]
		if r.Predecessor == id || r.Successor == id {
			ops = append(ops, Op{Kind: AddRelationshipOp, RelationshipID: r.ID, Relationship: &r, Position: at(j)})
		}
	}
	return ops
}

func dropLinksOf(s *Schedule, id string) {
	s.Relationships = slices.DeleteFunc(s.Relationships, func(r Relationship) bool {
		return r.Predecessor == id || r.Successor == id
	})
}

func applyUpdateActivity(s *Schedule, op Op) ([]Op, error) {
	if op.Activity == nil {
		return nil, refuse(op, "missing activity")
	}
	i := s.activityIndex(op.Activity.ID)
	if i < 0 {
		return nil, refuse(op, "unknown activity %q", op.Activity.ID)
	}
	old := s.Activities[i]
	if err := checkActivity(op, &old); err != nil {
		return nil, err
	}
	inv := inverseOf(s, op, UpdateActivity(old))
	inv[0].Call = describeUpdate(*op.Activity, old)
	s.Activities[i] = op.Activity.Clone() // shares nothing with the op, as in add
	return inv, nil
}

func applyDissolve(s *Schedule, op Op) ([]Op, error) {
	i := s.activityIndex(op.ActivityID)
	if i < 0 {
		return nil, refuse(op, "unknown activity %q", op.ActivityID)
	}
	id := op.ActivityID
	var into, outOf []Relationship
	type triple struct {
		pred, succ string
		typ        RelType
	}
	existing := make(map[triple]bool, len(s.Relationships))
	for _, r := range s.Relationships {
		existing[triple{r.Predecessor, r.Successor, r.Type}] = true
		switch id {
		case r.Successor:
			into = append(into, r)
		case r.Predecessor:
			outOf = append(outOf, r)
		}
	}
	// Bridges cannot close a cycle: each p -> q replaces an existing path p -> A -> q.
	var bridges []Relationship
	for _, in := range into {
		for _, out := range outOf {
			key := triple{in.Predecessor, out.Successor, out.Type}
			if existing[key] {
				continue
			}
			existing[key] = true
			bridges = append(bridges, Relationship{
				ID:          DerivedID("dissolve", op.ID, in.ID, out.ID),
				Type:        out.Type,
				Predecessor: in.Predecessor,
				Successor:   out.Successor,
				Lag:         out.Lag,
			})
		}
	}
	removed := s.Activities[i]
	restore := restoreLinksOf(s, id)
	restore = append(restore, Op{Kind: AddActivityOp, ActivityID: id, Activity: &removed, Position: at(i)})
	for _, b := range bridges {
		restore = append(restore, RemoveRelationship(b.ID))
	}
	// Calls of the bridge removals need the bridges' names: describe them
	// while the bridges are visible.
	dropLinksOf(s, id)
	s.Activities = slices.Delete(s.Activities, i, i+1)
	s.Relationships = append(s.Relationships, bridges...)
	names := func(aid string) string {
		if aid == id {
			return removed.Name
		}
		return s.activityName(aid)
	}
	inv := make([]Op, len(restore))
	for k, r := range restore {
		r.ID = DerivedID("inverse", op.ID, strconv.Itoa(k))
		r.Call = describeWith(s, names, r)
		inv[k] = r
	}
	return inv, nil
}

func applyAddRelationship(s *Schedule, op Op) ([]Op, error) {
	r := op.Relationship
	if r == nil {
		return nil, refuse(op, "missing relationship")
	}
	if r.ID == "" {
		return nil, refuse(op, "missing relationship id")
	}
	if s.relationshipIndex(r.ID) >= 0 || s.activityIndex(r.ID) >= 0 {
		return nil, refuse(op, "id %q is already in use", r.ID)
	}
	if !r.Type.Valid() {
		return nil, refuse(op, "type %q must be one of FS, SS, FF, SF", r.Type)
	}
	if op.Position == nil { // not restoring a removed link (see checkActivity)
		if err := CheckID(r.ID); err != nil {
			return nil, refuse(op, "relationship %v", err)
		}
		if err := CheckLag(r.Lag); err != nil {
			return nil, refuse(op, "relationship %q: %v", r.ID, err)
		}
	}
	for _, end := range []string{r.Predecessor, r.Successor} {
		if s.activityIndex(end) < 0 {
			return nil, refuse(op, "unknown activity %q", end)
		}
	}
	if r.Predecessor == r.Successor {
		return nil, refuse(op, "self-link: %s cannot precede itself", quote(s.activityName(r.Predecessor)))
	}
	for _, x := range s.Relationships {
		if x.Predecessor == r.Predecessor && x.Successor == r.Successor && x.Type == r.Type {
			return nil, refuse(op, "duplicate link: %q already links them %s", x.ID, x.Type)
		}
	}
	if cyc := pathBetween(s, r.Successor, r.Predecessor); cyc != nil {
		cycle := &CycleError{}
		for _, id := range append([]string{r.Predecessor}, cyc...) {
			cycle.IDs = append(cycle.IDs, id)
			a, _ := s.Activity(id)
			cycle.Names = append(cycle.Names, a.Name)
		}
		return nil, &OpError{Op: op, Reason: cycle.Error(), Err: cycle}
	}
	pos := len(s.Relationships)
	if op.Position != nil {
		if *op.Position < 0 || *op.Position > pos {
			return nil, refuse(op, "position %d is outside 0..%d", *op.Position, pos)
		}
		pos = *op.Position
	}
	inv := inverseOf(s, op, RemoveRelationship(r.ID))
	inv[0].Call = describeRelationship("delete_relationship", s.activityName, *r)
	s.Relationships = slices.Insert(s.Relationships, pos, *r)
	return inv, nil
}

// pathBetween returns the activities on a logic path from -> ... -> to
// (breadth first, so the shortest), or nil when there is none.
func pathBetween(s *Schedule, from, to string) []string {
	next := make(map[string][]string, len(s.Activities))
	for _, r := range s.Relationships {
		next[r.Predecessor] = append(next[r.Predecessor], r.Successor)
	}
	parent := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if v == to {
			var path []string
			for ; v != ""; v = parent[v] {
				path = append(path, v)
			}
			slices.Reverse(path)
			return path
		}
		for _, w := range next[v] {
			if _, seen := parent[w]; !seen {
				parent[w] = v
				queue = append(queue, w)
			}
		}
	}
	return nil
}

func applyRemoveRelationship(s *Schedule, op Op) ([]Op, error) {
	j := s.relationshipIndex(op.RelationshipID)
	if j < 0 {
		return nil, refuse(op, "unknown relationship %q", op.RelationshipID)
	}
	r := s.Relationships[j]
	inv := inverseOf(s, op, Op{Kind: AddRelationshipOp, RelationshipID: r.ID, Relationship: &r, Position: at(j)})
	s.Relationships = slices.Delete(s.Relationships, j, j+1)
	return inv, nil
}

func applyUpdateRelationship(s *Schedule, op Op) ([]Op, error) {
	r := op.Relationship
	if r == nil {
		return nil, refuse(op, "missing relationship")
	}
	j := s.relationshipIndex(r.ID)
	if j < 0 {
		return nil, refuse(op, "unknown relationship %q", r.ID)
	}
	old := s.Relationships[j]
	if r.Predecessor != old.Predecessor || r.Successor != old.Successor {
		return nil, refuse(op, "an update cannot move a relationship to other activities: delete it and add a new one")
	}
	if !r.Type.Valid() {
		return nil, refuse(op, "type %q must be one of FS, SS, FF, SF", r.Type)
	}
	if err := CheckLag(r.Lag); err != nil && r.Lag != old.Lag {
		return nil, refuse(op, "relationship %q: %v", r.ID, err)
	}
	for _, x := range s.Relationships {
		if x.ID != r.ID && x.Predecessor == r.Predecessor && x.Successor == r.Successor && x.Type == r.Type {
			return nil, refuse(op, "duplicate link: %q already links them %s", x.ID, x.Type)
		}
	}
	inv := inverseOf(s, op, UpdateRelationship(old))
	inv[0].Call = describeRelationshipUpdate(s.activityName, old, *r)
	s.Relationships[j] = *r
	return inv, nil
}
