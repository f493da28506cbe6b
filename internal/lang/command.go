package lang

import "github.com/autoscheduler/autoscheduler/internal/schedule"

// Kind is what a command does.
type Kind string

// The commands the parser understands, and the two it reports.
const (
	Delete      Kind = "delete"       // remove activities (and their links)
	Dissolve    Kind = "dissolve"     // remove activities, tying predecessors to successors
	Add         Kind = "add"          // add one activity, placed by After/Before
	AddScope    Kind = "add_scope"    // "add activities for WORK on LEVEL": one activity ahead of the level's first
	Link        Kind = "link"         // add relationships From → To
	Unlink      Kind = "unlink"       // remove relationships From → To (either way with Either)
	Relink      Kind = "relink"       // To follows From instead of Instead
	SetDuration Kind = "set_duration" // change Targets' duration (Delta: by Days)
	SetLink     Kind = "set_link"     // change the type and/or lag of From → To
	Rename      Kind = "rename"       // give Targets[0] the name Name
	Delay       Kind = "delay"        // start Targets Days later: a lag on the driving link or a start-no-earlier-than (asked)
	Constrain   Kind = "constrain"    // give Targets the constraint Constraint on Date ("" type: asked)
	Unconstrain Kind = "unconstrain"  // take Targets' constraints off (none: every constrained activity's)
	Progress    Kind = "progress"     // report Targets' progress: Started/Finished on Date, Percent, Days remaining
	DataDate    Kind = "data_date"    // move the schedule's data date (status date) to Date
	Copy        Kind = "copy"         // copy the activities on a place (Targets[0]) as a new place (Name), with their logic
	Unsupported Kind = "unsupported"  // understood, but not an edit this planner makes: Reason says what to use
	Unknown     Kind = "unknown"      // not understood
)

// Removal reports whether the command belongs to a round's removals step
// (Relink belongs to both: its old links go in removals, its new ones in
// additions).
func (k Kind) Removal() bool { return k == Delete || k == Dissolve || k == Unlink || k == Relink }

// Addition reports whether the command belongs to the additions step;
// changes, and what the planner only reports on, go there too.
func (k Kind) Addition() bool { return !k.Removal() || k == Relink }

// Ref is a reference to activities as written: "the level 1 slab pour",
// "A039", "painting on levels 2 and 3". Resolver.Resolve maps it to
// activities.
type Ref struct {
	// Text is the words as written (for messages and questions).
	Text string `json:"text"`
	// Words are the corrected lower-case words that are resolved.
	Words string `json:"words"`
	// Inherit names the reference whose trade words fill in a bare level:
	// in "painting on level 4 should follow level 2", level 2 means
	// painting on level 2.
	Inherit *Ref `json:"inherit,omitempty"`
}

// Command is one thing the request asks for, with its slots filled as far
// as the words allow.
type Command struct {
	Kind Kind `json:"kind"`
	// Source is the words of the request the command came from.
	Source string `json:"source"`
	// Targets are the activities deleted, dissolved, changed or renamed.
	Targets []Ref `json:"targets,omitempty"`
	// From and To are a link's predecessor and successor sides.
	From []Ref `json:"from,omitempty"`
	To   []Ref `json:"to,omitempty"`
	// Either: "between X and Y", links either way.
	Either bool `json:"either,omitempty"`
	// Instead is what Relink replaces ("rather than Z"); nil when the
	// request did not say (the planner asks).
	Instead *Ref `json:"instead,omitempty"`
	// Type is the relationship type; "" when not said.
	Type schedule.RelType `json:"type,omitempty"`
	// Lag is the lag in working days when said; LagDelta makes it a
	// change by that much.
	Lag      *float64 `json:"lag,omitempty"`
	LagDelta bool     `json:"lag_delta,omitempty"`
	// Days is a duration in working days when said; DaysDelta makes it a
	// change by that much. Milestone is a zero duration said as such.
	Days      *float64 `json:"days,omitempty"`
	DaysDelta bool     `json:"days_delta,omitempty"`
	Milestone bool     `json:"milestone,omitempty"`
	// Name is a new activity's name (Add), the new name (Rename) or the
	// new place a copy makes (Copy: "level 5").
	Name string `json:"name,omitempty"`
	// After and Before place a new activity.
	After  []Ref `json:"after,omitempty"`
	Before []Ref `json:"before,omitempty"`
	// Date is the date a constraint or progress report names, as
	// written; Constraint the constraint the words say.
	Date       *DateRef                `json:"date,omitempty"`
	Constraint schedule.ConstraintType `json:"constraint,omitempty"`
	// Started and Finished report an actual start or finish (on Date,
	// when said); Percent is the percent complete said.
	Started  bool     `json:"started,omitempty"`
	Finished bool     `json:"finished,omitempty"`
	Percent  *float64 `json:"percent,omitempty"`
	// Reason says, for Unsupported, what cannot be done and what to use
	// instead; for Unknown, what was not understood.
	Reason string `json:"reason,omitempty"`
}
