package insight

import (
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Link is one relationship seen from one of its ends: the activity at the
// other end, and how far the link is from binding.
type Link struct {
	RelationshipID string           `json:"relationship_id"`
	Type           schedule.RelType `json:"type"`
	Lag            float64          `json:"lag"`
	// ActivityID and ActivityName are the other end: the predecessor in a
	// list of predecessors, the successor in a list of successors.
	ActivityID   string `json:"activity_id"`
	ActivityName string `json:"activity_name"`
	// Slack is the relationship free float (View.Slack): how many working
	// days the predecessor's end could move before the link moves the
	// successor. Driving is Slack 0: the link sets the successor's early
	// start (FS, SS) or early finish (FF, SF).
	Slack   float64 `json:"slack"`
	Driving bool    `json:"driving"`
}

// Details is one activity with its logic.
type Details struct {
	Activity    Row    `json:"activity"`
	Description string `json:"description,omitempty"`
	// DurationText is the duration as written ("5", "triangular(3,5,9)").
	DurationText string `json:"duration_text"`
	// Predecessors and Successors in the schedule's relationship order.
	Predecessors []Link `json:"predecessors"`
	Successors   []Link `json:"successors"`
	// DrivenBy are the predecessors' driving links (relationship ids);
	// none means the activity starts at the project start (day 0) with no
	// link holding it there, or every link has slack.
	DrivenBy []string `json:"driven_by"`
	// Drives are the successors this activity drives (activity ids).
	Drives []string `json:"drives"`
}

// Details reports activity id with its predecessors and successors (type,
// lag, relationship free float, which link drives it), its CPM times and
// dates, floats and criticality.
func (v *View) Details(id string) (*Details, error) {
	i, ok := v.Index(id)
	if !ok {
		return nil, fmt.Errorf("no activity %q", id)
	}
	a := v.Activity(i)
	d := &Details{
		Activity: v.row(i), Description: a.Description, DurationText: a.Duration,
		Predecessors: []Link{}, Successors: []Link{}, DrivenBy: []string{}, Drives: []string{},
	}
	for _, k := range v.Preds(i) {
		l := v.link(k, v.S.Relationships[k].Predecessor)
		d.Predecessors = append(d.Predecessors, l)
		if l.Driving {
			d.DrivenBy = append(d.DrivenBy, l.RelationshipID)
		}
	}
	for _, k := range v.Succs(i) {
		l := v.link(k, v.S.Relationships[k].Successor)
		d.Successors = append(d.Successors, l)
		if l.Driving && !contains(d.Drives, l.ActivityID) {
			d.Drives = append(d.Drives, l.ActivityID)
		}
	}
	return d, nil
}

// link is relationship k seen from the end that is not other.
func (v *View) link(k int, other string) Link {
	rel := &v.S.Relationships[k]
	name := other
	if j, ok := v.Index(other); ok {
		name = v.Activity(j).Name
	}
	return Link{
		RelationshipID: rel.ID, Type: rel.Type, Lag: rel.Lag,
		ActivityID: other, ActivityName: name,
		Slack: schedule.RoundDays(max(0, v.Slack(k))), Driving: v.Drives(k),
	}
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
