// Package store holds the persistence ports — GraphStore (topology, the seed
// design's node graph) and VectorStore (documents for semantic search) — and
// the Coordinator that writes both, two-phase and idempotently. Adapters
// live in sub-packages: neo4j/, weaviate/ and embedded/ (one SQLite file).
//
// Ports speak in the schedule's own ids (the ids of the imported file, or
// the UUIDs the planner gave new activities). Inside the databases every
// node and object is keyed by a UUID derived from (schedule, id) — see
// ActivityUUID — so the same schedule imported twice lands on the same keys.
package store

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Meta is what a schedule carries besides its activities and relationships.
type Meta struct {
	Name      string             `json:"name,omitempty"`
	StartDate string             `json:"start_date,omitempty"`
	Calendar  *schedule.Calendar `json:"calendar,omitempty"`
	// The live programme's (issue 28): status date, named calendars and
	// scheduling options; empty for a plain network.
	DataDate  string                        `json:"data_date,omitempty"`
	Calendars map[string]*schedule.Calendar `json:"calendars,omitempty"`
	Options   *schedule.Options             `json:"options,omitempty"`
	// Source is the P6 or MS Project file the schedule was imported from
	// (issue 29): what the model does not use lives there, so export
	// gives the planner's file back whole.
	Source *schedule.Source `json:"source,omitempty"`
}

// MetaOf is the meta of a schedule: every schedule field that is not an
// activity or a relationship.
func MetaOf(s *schedule.Schedule) *Meta {
	return &Meta{Name: s.Name, StartDate: s.StartDate, Calendar: s.Calendar,
		DataDate: s.DataDate, Calendars: s.Calendars, Options: s.Options, Source: s.Source}
}

// setOn gives s the meta's fields (the inverse of MetaOf).
func (m *Meta) setOn(s *schedule.Schedule) {
	s.Name, s.StartDate, s.Calendar = m.Name, m.StartDate, m.Calendar
	s.DataDate, s.Calendars, s.Options, s.Source = m.DataDate, m.Calendars, m.Options, m.Source
}

// Change is the effect of one op on the stored graph, as primitive puts
// (create or replace) and deletes. OpID is the ledger key: a change whose
// OpID a store has already applied is skipped, and the graph store keeps
// the whole change (with the op and its inverse) in its ledger, so a retried
// write can be finished and a committed one undone later.
//
// A compensating change has no OpID (it is not recorded) and names in
// Forget the op IDs it undoes: they leave the ledger, so that a later retry
// of those ops applies them afresh instead of skipping them.
type Change struct {
	OpID                string                  `json:"op_id,omitempty"`
	Op                  *schedule.Op            `json:"op,omitempty"`
	Inverse             []schedule.Op           `json:"inverse,omitempty"`
	Meta                *Meta                   `json:"meta,omitempty"`
	PutActivities       []schedule.Activity     `json:"put_activities,omitempty"`
	DeleteActivities    []string                `json:"delete_activities,omitempty"`
	PutRelationships    []schedule.Relationship `json:"put_relationships,omitempty"`
	DeleteRelationships []string                `json:"delete_relationships,omitempty"`
	Forget              []string                `json:"forget,omitempty"`
	// Committed is set (by Commit, never by Apply) once the change is final.
	Committed *CommitRecord `json:"committed,omitempty"`
	// Summary, when set, is the schedule's summary once the change is
	// applied, stored with it in the same transaction. A change without
	// one that puts or deletes anything (or sets Meta) clears the stored
	// summary, so a summary never describes an older version.
	Summary *Summary `json:"summary,omitempty"`
	// Version, when set, is a version of the schedule to keep in the same
	// transaction (versions.go). The ledger does not hold it.
	Version *VersionWrite `json:"-"`
}

// Touches says whether a change writes the schedule (its meta, an
// activity or a relationship): such a change without a Summary clears the
// stored one.
func (c Change) Touches() bool { return !c.Empty() }

// CommitRecord says who made a change set final, in which dispatch, when.
// It is written once: committing an op again keeps the first record.
type CommitRecord struct {
	Dispatch string    `json:"dispatch"`
	Reviewer string    `json:"reviewer,omitempty"`
	At       time.Time `json:"at"`
}

// ErrNotRecorded is returned when committing an op a ledger does not hold
// (never applied, or compensated).
var ErrNotRecorded = errors.New("op not in the ledger")

// Empty reports whether the change touches nothing.
func (c Change) Empty() bool {
	return c.Meta == nil && len(c.PutActivities)+len(c.DeleteActivities)+len(c.PutRelationships)+len(c.DeleteRelationships) == 0
}

// ScheduleInfo lists a stored schedule. Summary is the summary stored
// with it (Name, Activities and Relationships are then the summary's); nil
// for a schedule stored without one, whose counts the adapter counted.
type ScheduleInfo struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Activities    int      `json:"activities"`
	Relationships int      `json:"relationships"`
	Summary       *Summary `json:"summary,omitempty"`
}

// GraphDump is a canonical, comparable view of a stored graph: nodes and
// edges sorted, in the schedule's own ids. The ledger is not part of it.
type GraphDump struct {
	Meta  Meta            `json:"meta"`
	Nodes []schedule.Node `json:"nodes"`
	Edges []schedule.Edge `json:"edges"`
}

// GraphStore keeps a schedule's topology: the s/intra/e node model, one node
// per relationship, PRECEDES edges, schedule_id on every node.
type GraphStore interface {
	// Apply applies changes in order in one transaction, skipping those
	// already in the ledger, and records the others in it. It returns the
	// op IDs it applied now. Deleting what is not there is not an error.
	// A change's Summary is stored with the schedule; a change that
	// touches the schedule without one clears it. An id CheckScheduleID
	// refuses is refused.
	Apply(ctx context.Context, scheduleID string, changes []Change) (applied []string, err error)
	// Recorded returns the ledger's changes for those of opIDs it holds.
	Recorded(ctx context.Context, scheduleID string, opIDs []string) (map[string]Change, error)
	// Commit marks the ledger's entries for opIDs committed, in one
	// transaction; ErrNotRecorded (and nothing marked) if one is missing.
	Commit(ctx context.Context, scheduleID string, opIDs []string, rec CommitRecord) error
	// Load reads a stored schedule, activities and relationships sorted by
	// id; ErrNotFound if there is none.
	Load(ctx context.Context, scheduleID string) (*schedule.Schedule, error)
	// Schedules lists the stored schedules, by id, with their stored
	// summaries, reading no schedule whole.
	Schedules(ctx context.Context) ([]ScheduleInfo, error)
	// Has reports whether a schedule is stored, without reading it.
	Has(ctx context.Context, scheduleID string) (bool, error)
	// DeleteSchedule removes a schedule and its ledger.
	DeleteSchedule(ctx context.Context, scheduleID string) error
	// Dump returns the canonical view of a schedule's graph.
	Dump(ctx context.Context, scheduleID string) (*GraphDump, error)
	Close(ctx context.Context) error
}

// End is one end of a relationship document: the activity as embedded.
type End struct {
	ActivityID  string `json:"activity_id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Duration    string `json:"duration"`
}

// ActivityDoc is an activity as the vector store holds it.
type ActivityDoc struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Duration    string `json:"duration"`
	// WBS and Codes are where the activity is filed, searchable by
	// keyword and embedded with the rest (embed.FiledActivityText).
	WBS    string            `json:"wbs,omitempty"`
	Codes  map[string]string `json:"codes,omitempty"`
	Vector []float32         `json:"-"`
}

// DocOf is the document of an activity, without its vector.
func DocOf(a schedule.Activity) ActivityDoc {
	return ActivityDoc{ID: a.ID, Name: a.Name, Description: a.Description, Duration: a.Duration, WBS: a.WBS, Codes: a.Codes}
}

// Text is what is embedded for the document.
func (d ActivityDoc) Text() string {
	return embed.FiledActivityText(d.Name, d.Description, d.Duration, d.WBS, d.Codes)
}

// KeywordText is what keyword (BM25) search reads of the document: name
// and description, then the WBS path and the code types and values. For a
// document without WBS or codes it is the name and description alone, as
// before, so stored terms do not change.
func (d ActivityDoc) KeywordText() string {
	text := d.Name + " " + d.Description
	if d.WBS != "" {
		text += " " + d.WBS
	}
	for _, t := range slices.Sorted(maps.Keys(d.Codes)) {
		text += " " + t + " " + d.Codes[t]
	}
	return text
}

// SameText reports whether two documents hold the same text (vectors
// aside).
func (d ActivityDoc) SameText(o ActivityDoc) bool {
	return d.ID == o.ID && d.Name == o.Name && d.Description == o.Description && d.Duration == o.Duration &&
		d.WBS == o.WBS && maps.Equal(d.Codes, o.Codes)
}

// RelationshipDoc is a relationship as the vector store holds it: with both
// ends' text, so a search for "fit-out after drywall" can find it.
type RelationshipDoc struct {
	ID          string           `json:"id"`
	Type        schedule.RelType `json:"type"`
	Lag         float64          `json:"lag"`
	Predecessor End              `json:"predecessor"`
	Successor   End              `json:"successor"`
	Vector      []float32        `json:"-"`
}

// VectorChange is the vector-store side of a Change, with the same OpID
// (recorded in the vector store's own ledger) and Forget.
type VectorChange struct {
	OpID                string            `json:"op_id,omitempty"`
	Forget              []string          `json:"forget,omitempty"`
	PutActivities       []ActivityDoc     `json:"put_activities,omitempty"`
	DeleteActivities    []string          `json:"delete_activities,omitempty"`
	PutRelationships    []RelationshipDoc `json:"put_relationships,omitempty"`
	DeleteRelationships []string          `json:"delete_relationships,omitempty"`
	// Prepared is what a DocumentPreparer made of the puts before the
	// write (the store's own encoding); nil when nothing was prepared.
	Prepared any `json:"-"`
}

// DocumentPreparer is a vector store that can encode a change's documents
// (their text, terms and vectors as it stores them) before writing them:
// the coordinator calls it as it builds the documents, ahead of and beside
// the one writer, so a large import's writer only writes.
type DocumentPreparer interface {
	PrepareDocuments(vc *VectorChange)
}

// Kind says what a search hit is.
type Kind string

// Hit kinds.
const (
	ActivityKind     Kind = "activity"
	RelationshipKind Kind = "relationship"
)

// Query is a hybrid search: BM25 on Text blended with cosine similarity to
// Vector; Alpha 1 is pure vector, 0 pure keyword. Kinds empty means both.
type Query struct {
	Text   string
	Vector []float32
	K      int
	Alpha  float64
	Kinds  []Kind
}

// Hit is one search result; Score is higher for better matches.
type Hit struct {
	Kind  Kind    `json:"kind"`
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// VectorDump is a canonical view of a schedule's documents (vectors left
// out: they are derived from the text).
type VectorDump struct {
	Activities    []ActivityDoc     `json:"activities"`
	Relationships []RelationshipDoc `json:"relationships"`
}

// VectorStore keeps Activity and Relationship documents for semantic search.
type VectorStore interface {
	// Apply applies changes in order, skipping those already in the ledger.
	Apply(ctx context.Context, scheduleID string, changes []VectorChange) (applied []string, err error)
	// Commit marks the ledger's entries for opIDs committed; ErrNotRecorded
	// if one is missing.
	Commit(ctx context.Context, scheduleID string, opIDs []string, rec CommitRecord) error
	// Committed returns the commit records of those of opIDs that have one.
	Committed(ctx context.Context, scheduleID string, opIDs []string) (map[string]CommitRecord, error)
	// Search runs a hybrid search within one schedule.
	Search(ctx context.Context, scheduleID string, q Query) ([]Hit, error)
	// DeleteSchedule removes a schedule's documents and ledger.
	DeleteSchedule(ctx context.Context, scheduleID string) error
	// Dump returns the canonical view of a schedule's documents.
	Dump(ctx context.Context, scheduleID string) (*VectorDump, error)
	Close(ctx context.Context) error
}

// ErrNotFound is returned for a schedule that is not stored.
var ErrNotFound = errors.New("schedule not found")

// ActivityUUID is the database key of an activity of a schedule.
func ActivityUUID(scheduleID, activityID string) string {
	return schedule.DerivedID("activity", scheduleID, activityID)
}

// RelationshipUUID is the database key of a relationship of a schedule.
func RelationshipUUID(scheduleID, relationshipID string) string {
	return schedule.DerivedID("relationship", scheduleID, relationshipID)
}

// SortHits ranks search hits as every adapter returns them: best score
// first, ties by kind then id, so equal scores rank the same in any store.
func SortHits(hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// SortDump puts a graph dump in canonical order: activity nodes by activity
// id (start, intra, end), then relationship nodes by id; edges by from, to.
// Every adapter's Dump ends with it so dumps compare across stores.
func SortDump(d *GraphDump) {
	rank := map[schedule.NodeKind]int{schedule.StartNode: 0, schedule.IntraNode: 1, schedule.EndNode: 2, schedule.RelationshipNode: 3}
	slices.SortFunc(d.Nodes, func(a, b schedule.Node) int {
		ra, rb := rank[a.Kind], rank[b.Kind]
		if (ra == 3) != (rb == 3) {
			return cmp.Compare(ra, rb)
		}
		if ra < 3 {
			if c := cmp.Compare(a.ActivityID, b.ActivityID); c != 0 {
				return c
			}
			return cmp.Compare(ra, rb)
		}
		return cmp.Compare(a.ID, b.ID)
	})
	slices.SortFunc(d.Edges, func(a, b schedule.Edge) int {
		if c := cmp.Compare(a.From, b.From); c != 0 {
			return c
		}
		return cmp.Compare(a.To, b.To)
	})
}

// ScheduleFromDump reads a schedule back from its canonical graph dump:
// every GraphStore's Load is its Dump followed by this. Activities and
// relationships come in id order as a planner reads it (A2 before A10;
// a new activity's id places it after its predecessor, NextActivityID).
func ScheduleFromDump(d *GraphDump) (*schedule.Schedule, error) {
	s, err := schedule.FromGraph(&schedule.Graph{Nodes: d.Nodes, Edges: d.Edges})
	if err != nil {
		return nil, err
	}
	schedule.SortByID(s)
	d.Meta.setOn(s)
	if s.Activities == nil {
		s.Activities = []schedule.Activity{}
	}
	if s.Relationships == nil {
		s.Relationships = []schedule.Relationship{}
	}
	return s, nil
}

// Atomic is a GraphStore that holds the vector side in the same database
// and writes both in one transaction (the embedded store): the Coordinator
// then needs no intent record, since a crash leaves the old version whole.
type Atomic interface {
	// Holds reports whether v is the vector side of the same database.
	Holds(v VectorStore) bool
	// ApplyAtomic applies the graph changes and every batch of vector
	// changes that vectors puts, in one transaction: all or nothing.
	ApplyAtomic(ctx context.Context, scheduleID string, changes []Change, vectors func(put func([]VectorChange) error) error) error
}

// Intent is the durable record of a write to two stores that have no
// common transaction (Neo4j and Weaviate), written before the first store
// is touched and removed after the second is done. An intent that outlives
// its writer marks the schedule as half-written: the next process that
// touches the schedule repairs it (see Coordinator.Settle).
type Intent struct {
	ID         string   `json:"id"`
	ScheduleID string   `json:"schedule_id"`
	Kind       string   `json:"kind"` // IntentWrite or IntentDelete
	OpIDs      []string `json:"op_ids,omitempty"`
	// Fresh is set for an import of a schedule that was not stored: if its
	// graph write did not land, there is nothing to go back to.
	Fresh bool `json:"fresh,omitempty"`
	// Owner names the writing process (host and pid), Started and
	// Heartbeat say when it began and when it last said it was alive.
	Owner     Owner     `json:"owner"`
	Started   time.Time `json:"started"`
	Heartbeat time.Time `json:"heartbeat"`
}

// Intent kinds.
const (
	IntentWrite  = "write"
	IntentDelete = "delete"
)

// Owner identifies a process.
type Owner struct {
	Host string `json:"host"`
	PID  int    `json:"pid"`
}

// IntentLog is a GraphStore that keeps intent records (the Neo4j adapter).
type IntentLog interface {
	// PutIntent creates or replaces an intent (a heartbeat replaces it).
	PutIntent(ctx context.Context, in Intent) error
	// DeleteIntent removes an intent; removing a missing one is no error.
	DeleteIntent(ctx context.Context, scheduleID, id string) error
	// Intents lists a schedule's open intents, oldest first.
	Intents(ctx context.Context, scheduleID string) ([]Intent, error)
}

// ErrBusy is returned for a schedule another live process is writing: its
// reads would see half of that write.
var ErrBusy = errors.New("schedule is being written")
