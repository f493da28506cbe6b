package schedule

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// NodeKind is the role of a node in the seed design's graph.
type NodeKind string

// Node kinds: an activity is start -> intra -> end; a relationship is one node.
const (
	StartNode        NodeKind = "start"
	IntraNode        NodeKind = "intra"
	EndNode          NodeKind = "end"
	RelationshipNode NodeKind = "relationship"
)

// Node prefixes of an activity's three nodes.
const (
	startPrefix = "s-"
	intraPrefix = "i-"
	endPrefix   = "e-"
)

// Node is one vertex of the graph as the stores persist it. Weight is the
// node's duration: "0" on start and end nodes, the activity's duration string
// on its intra node, the lag on a relationship node. Activity nodes carry the
// activity id and name so a graph browser is readable; the intra node also
// carries the description, and Live the activity's live fields, so the graph
// alone gives the schedule back.
type Node struct {
	ID          string   `json:"id"`
	Kind        NodeKind `json:"kind"`
	Weight      string   `json:"weight"`
	ActivityID  string   `json:"activity_id,omitempty"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	// Live is, on an intra node, the activity's fields beyond id, name,
	// description and duration (type, calendar, constraints, progress,
	// manual dates, WBS, codes) as the activity's own JSON object; "" for
	// a plain activity, so a plain network stores exactly as before.
	Live string `json:"live,omitempty"`
}

// Edge is a PRECEDES edge between two nodes.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Graph is the seed design's node graph of a schedule.
type Graph struct {
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
}

// StartNodeID is the id of an activity's start node.
func StartNodeID(activityID string) string { return startPrefix + activityID }

// IntraNodeID is the id of the node that carries an activity's duration.
func IntraNodeID(activityID string) string { return intraPrefix + activityID }

// EndNodeID is the id of an activity's end node.
func EndNodeID(activityID string) string { return endPrefix + activityID }

// RelationshipEnds gives the nodes a relationship links: FS e->s, SS s->s,
// FF e->e, SF s->e.
func RelationshipEnds(r Relationship) (from, to string) {
	from, to = EndNodeID(r.Predecessor), EndNodeID(r.Successor)
	if r.Type.fromStart() {
		from = StartNodeID(r.Predecessor)
	}
	if r.Type.toStart() {
		to = StartNodeID(r.Successor)
	}
	return from, to
}

// ActivityNodes returns the three nodes and two edges of one activity.
func ActivityNodes(a Activity) ([3]Node, [2]Edge) {
	s, i, e := StartNodeID(a.ID), IntraNodeID(a.ID), EndNodeID(a.ID)
	return [3]Node{
			{ID: s, Kind: StartNode, Weight: "0", ActivityID: a.ID, Name: a.Name},
			{ID: i, Kind: IntraNode, Weight: a.Duration, ActivityID: a.ID, Name: a.Name, Description: a.Description, Live: liveJSON(a)},
			{ID: e, Kind: EndNode, Weight: "0", ActivityID: a.ID, Name: a.Name},
		}, [2]Edge{
			{From: s, To: i},
			{From: i, To: e},
		}
}

// RelationshipNodes returns the node and two edges of one relationship.
func RelationshipNodes(r Relationship) (Node, [2]Edge) {
	from, to := RelationshipEnds(r)
	return Node{ID: r.ID, Kind: RelationshipNode, Weight: formatDays(r.Lag)},
		[2]Edge{{From: from, To: r.ID}, {From: r.ID, To: to}}
}

// ToGraph builds the node graph of s: activity nodes in activity order, then
// relationship nodes in relationship order.
func ToGraph(s *Schedule) (*Graph, error) {
	g := &Graph{
		Nodes: make([]Node, 0, 3*len(s.Activities)+len(s.Relationships)),
		Edges: make([]Edge, 0, 2*len(s.Activities)+2*len(s.Relationships)),
	}
	ids := make(map[string]bool, cap(g.Nodes))
	add := func(n Node) error {
		if ids[n.ID] {
			return fmt.Errorf("node id %q is used twice; relationship ids must not look like activity node ids", n.ID)
		}
		ids[n.ID] = true
		g.Nodes = append(g.Nodes, n)
		return nil
	}
	for _, a := range s.Activities {
		nodes, edges := ActivityNodes(a)
		for _, n := range nodes {
			if err := add(n); err != nil {
				return nil, err
			}
		}
		g.Edges = append(g.Edges, edges[:]...)
	}
	for _, r := range s.Relationships {
		n, edges := RelationshipNodes(r)
		if err := add(n); err != nil {
			return nil, err
		}
		g.Edges = append(g.Edges, edges[:]...)
	}
	return g, nil
}

// FromGraph reads a schedule back from its node graph: activities from intra
// nodes, relationships from relationship nodes, the type of each link from
// which ends (start or end) it joins. The graph must be well formed.
func FromGraph(g *Graph) (*Schedule, error) {
	byID := make(map[string]*Node, len(g.Nodes))
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if byID[n.ID] != nil {
			return nil, fmt.Errorf("graph: node %q appears twice", n.ID)
		}
		byID[n.ID] = n
	}
	into := make(map[string][]string, len(g.Nodes))
	outOf := make(map[string][]string, len(g.Nodes))
	for _, e := range g.Edges {
		for _, end := range []string{e.From, e.To} {
			if byID[end] == nil {
				return nil, fmt.Errorf("graph: edge %q -> %q: unknown node %q", e.From, e.To, end)
			}
		}
		outOf[e.From] = append(outOf[e.From], e.To)
		into[e.To] = append(into[e.To], e.From)
	}
	s := &Schedule{}
	for _, n := range g.Nodes {
		switch n.Kind {
		case IntraNode:
			a := Activity{ID: n.ActivityID, Name: n.Name, Description: n.Description, Duration: n.Weight}
			if err := readLive(n.Live, &a); err != nil {
				return nil, fmt.Errorf("graph: activity %q: live fields: %w", a.ID, err)
			}
			if !hasOnly(into[n.ID], StartNodeID(a.ID)) || !hasOnly(outOf[n.ID], EndNodeID(a.ID)) {
				return nil, fmt.Errorf("graph: activity %q: want edges %s -> %s -> %s", a.ID, StartNodeID(a.ID), n.ID, EndNodeID(a.ID))
			}
			s.Activities = append(s.Activities, a)
		case RelationshipNode:
			if len(into[n.ID]) != 1 || len(outOf[n.ID]) != 1 {
				return nil, fmt.Errorf("graph: relationship node %q: want one edge in and one out, got %d and %d", n.ID, len(into[n.ID]), len(outOf[n.ID]))
			}
			r, err := relationshipFromEnds(n, byID[into[n.ID][0]], byID[outOf[n.ID][0]])
			if err != nil {
				return nil, err
			}
			s.Relationships = append(s.Relationships, r)
		case StartNode, EndNode:
		default:
			return nil, fmt.Errorf("graph: node %q: unknown kind %q", n.ID, n.Kind)
		}
	}
	return s, nil
}

// plainKeys are the activity's JSON keys the nodes carry in their own
// fields; every other key is a live field.
var plainKeys = []string{"id", "name", "description", "duration"}

// liveJSON is the Live text of an activity's intra node: its JSON without
// the plain keys, so a field added to Activity is stored without a change
// here. "" when the activity is plain (Equal to its plain fields alone).
func liveJSON(a Activity) string {
	fields := liveFields(a)
	if len(fields) == 0 {
		return ""
	}
	live, err := json.Marshal(fields) // keys sorted: equal activities, equal text
	if err != nil {
		return ""
	}
	return string(live)
}

// liveFields are the activity's live fields that are set, by JSON key,
// each as its JSON value; none for a plain activity.
func liveFields(a Activity) map[string]json.RawMessage {
	if a.Equal(Activity{ID: a.ID, Name: a.Name, Description: a.Description, Duration: a.Duration}) {
		return nil
	}
	// Marshalling an Activity fails only on a NaN or infinite percent,
	// which Check refuses; the store's ledger, which marshals the same
	// activity, then fails the write loudly.
	whole, err := json.Marshal(a)
	if err != nil {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(whole, &fields); err != nil {
		return nil
	}
	for _, k := range plainKeys {
		delete(fields, k)
	}
	return fields
}

// readLive sets the live fields of a from an intra node's Live text.
func readLive(live string, a *Activity) error {
	if live == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(live))
	dec.DisallowUnknownFields() // a key this version does not know would be lost
	return dec.Decode(a)
}

func hasOnly(list []string, want string) bool { return len(list) == 1 && list[0] == want }

func relationshipFromEnds(n Node, from, to *Node) (Relationship, error) {
	lag, err := strconv.ParseFloat(n.Weight, 64)
	if err != nil {
		return Relationship{}, fmt.Errorf("graph: relationship node %q: lag %q is not a number", n.ID, n.Weight)
	}
	var t RelType
	switch {
	case from.Kind == EndNode && to.Kind == StartNode:
		t = FS
	case from.Kind == StartNode && to.Kind == StartNode:
		t = SS
	case from.Kind == EndNode && to.Kind == EndNode:
		t = FF
	case from.Kind == StartNode && to.Kind == EndNode:
		t = SF
	default:
		return Relationship{}, fmt.Errorf("graph: relationship node %q joins %s node %q to %s node %q; want start or end nodes", n.ID, from.Kind, from.ID, to.Kind, to.ID)
	}
	return Relationship{ID: n.ID, Type: t, Predecessor: from.ActivityID, Successor: to.ActivityID, Lag: lag}, nil
}
