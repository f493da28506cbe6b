package neo4j

import (
	"encoding/json"
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// liveProperty is one of an activity's live fields (issue 28) as a
// property of its intra node: text, a number or a boolean as itself, so
// Cypher can filter on them (n.wbs STARTS WITH 'Site/Block A'); a
// constraint or the codes as JSON text. An empty field is no property
// (null), so a plain activity's node is as it was.
type liveProperty struct {
	name string
	get  func(a *schedule.Activity) (any, error)
	set  func(a *schedule.Activity, v any) error
}

// liveProperties lists every live field. cypherPutActivities sets and
// cypherNodes reads each of them by name; writeLive refuses an activity
// with a field this list misses, so a field added to Activity cannot be
// dropped silently.
var liveProperties = []liveProperty{
	textProperty("type", func(a *schedule.Activity) *string { return (*string)(&a.Type) }),
	textProperty("calendar", func(a *schedule.Activity) *string { return &a.Calendar }),
	jsonTextProperty("constraint", func(a *schedule.Activity) **schedule.Constraint { return &a.Constraint }),
	jsonTextProperty("secondary_constraint", func(a *schedule.Activity) **schedule.Constraint { return &a.SecondaryConstraint }),
	textProperty("actual_start", func(a *schedule.Activity) *string { return &a.ActualStart }),
	textProperty("actual_finish", func(a *schedule.Activity) *string { return &a.ActualFinish }),
	textProperty("remaining", func(a *schedule.Activity) *string { return &a.Remaining }),
	{
		name: "percent_complete",
		get: func(a *schedule.Activity) (any, error) {
			if a.PercentComplete == 0 {
				return nil, nil
			}
			return a.PercentComplete, nil
		},
		set: func(a *schedule.Activity, v any) error {
			f, ok := v.(float64)
			if !ok {
				return fmt.Errorf("percent_complete is %T, want a number", v)
			}
			a.PercentComplete = f
			return nil
		},
	},
	{
		name: "manual",
		get: func(a *schedule.Activity) (any, error) {
			if !a.Manual {
				return nil, nil
			}
			return true, nil
		},
		set: func(a *schedule.Activity, v any) error {
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("manual is %T, want a boolean", v)
			}
			a.Manual = b
			return nil
		},
	},
	textProperty("start", func(a *schedule.Activity) *string { return &a.Start }),
	textProperty("finish", func(a *schedule.Activity) *string { return &a.Finish }),
	textProperty("wbs", func(a *schedule.Activity) *string { return &a.WBS }),
	jsonTextProperty("codes", func(a *schedule.Activity) *map[string]string { return &a.Codes }),
	jsonTextProperty("assignments", func(a *schedule.Activity) *[]schedule.Assignment { return &a.Assignments }),
	textProperty("baseline_start", func(a *schedule.Activity) *string { return &a.BaselineStart }),
	textProperty("baseline_finish", func(a *schedule.Activity) *string { return &a.BaselineFinish }),
	textProperty("baseline_duration", func(a *schedule.Activity) *string { return &a.BaselineDuration }),
}

func textProperty(name string, field func(*schedule.Activity) *string) liveProperty {
	return liveProperty{
		name: name,
		get: func(a *schedule.Activity) (any, error) {
			return nonEmpty(*field(a)), nil
		},
		set: func(a *schedule.Activity, v any) error {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("%s is %T, want text", name, v)
			}
			*field(a) = s
			return nil
		},
	}
}

// jsonTextProperty is a field held as JSON text: a pointer or a map, nil
// when unset. (An empty map of codes is no property, and reads back as
// none: Activity.Equal holds them the same.)
func jsonTextProperty[T any](name string, field func(*schedule.Activity) *T) liveProperty {
	return liveProperty{
		name: name,
		get: func(a *schedule.Activity) (any, error) {
			b, err := json.Marshal(*field(a))
			if err != nil || string(b) == "null" || string(b) == "{}" {
				return nil, err
			}
			return string(b), nil
		},
		set: func(a *schedule.Activity, v any) error {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("%s is %T, want JSON text", name, v)
			}
			if err := json.Unmarshal([]byte(s), field(a)); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			return nil
		},
	}
}

// writeLive adds the activity's live properties to its row. intraLive is
// the domain's Live text of the activity's intra node: the properties,
// read back, must give exactly that, or a field would be lost.
func writeLive(row map[string]any, a schedule.Activity, intraLive string) error {
	for _, p := range liveProperties {
		v, err := p.get(&a)
		if err != nil {
			return fmt.Errorf("activity %q: %s: %w", a.ID, p.name, err)
		}
		row[p.name] = v
	}
	if intraLive == "" {
		return nil
	}
	back, err := readLive(a.ID, row)
	if err != nil {
		return err
	}
	if back != intraLive {
		return fmt.Errorf("activity %q: a live field has no Neo4j property (stored %s, want %s)", a.ID, back, intraLive)
	}
	return nil
}

// readLive is the Live text of an intra node from its live properties
// (a map of name to value, null for none), as schedule.ActivityNodes
// writes it.
func readLive(activityID string, props map[string]any) (string, error) {
	a := schedule.Activity{ID: activityID}
	for _, p := range liveProperties {
		v := props[p.name]
		if v == nil {
			continue
		}
		if err := p.set(&a, v); err != nil {
			return "", fmt.Errorf("activity %q: %w", activityID, err)
		}
	}
	nodes, _ := schedule.ActivityNodes(a)
	return nodes[1].Live, nil
}
