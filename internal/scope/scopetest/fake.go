// Package scopetest holds a scripted stand-in for the LLM behind the scope
// manager: an OpenAI-compatible server (llmtest) whose answers are computed
// from the requests the manager sends, so that tests and the token
// benchmark can run whole dispatches with no model. It understands the
// seed design's example prompts and the rules planner's command grammar,
// nothing more — it is a test fixture, not a planner.
package scopetest

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/llm/llmtest"
	"github.com/autoscheduler/autoscheduler/internal/scope"
)

// Model is a fake model's server and what it saw.
type Model struct {
	*llmtest.Server
	mu         sync.Mutex
	candidates int // table rows shown in decision and scope requests
}

// Candidates is how many candidate rows the manager showed the model.
func (m *Model) Candidates() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.candidates
}

// NewModel starts the fake model.
func NewModel(t testing.TB) *Model {
	m := &Model{}
	m.Server = llmtest.NewResponder(t, m.respond)
	return m
}

var (
	rowRE     = regexp.MustCompile(`(?m)^(?:\s*"alias": "|)([ar]\d+)(?:\||",)`)
	tableRow  = regexp.MustCompile(`(?m)^([ar]\d+)\|(.*)$`)
	jsonAlias = regexp.MustCompile(`"alias": "([ar]\d+)"`)
	jsonName  = regexp.MustCompile(`"name": "([^"]*)"`)
	removedRE = regexp.MustCompile(`add_relationship\(type="(\w+)", predecessor="([^"]*)", successor="([^"]*)", lag=(-?[\d.]+)\)`)
	deleteOne = regexp.MustCompile(`(?i)^(delete|remove|dissolve)\s+(?:the\s+)?activity\s+(.+)$`)
	fromTo    = regexp.MustCompile(`(?i)from\s+(.+?)\s+to\s+(.+?)(?:\s+in place of.*)?$`)
)

func (m *Model) respond(req llmtest.Request) llmtest.Step {
	user := ""
	for _, msg := range req.Messages {
		if msg.Role == llm.User {
			user = msg.Content
		}
	}
	request := firstLine(strings.TrimPrefix(user, "Request: "))
	switch {
	case req.ResponseFormat == "separation":
		if mm := makeFollow.FindStringSubmatch(user); mm != nil {
			// What a model answers: the seed's split of a re-sequencing.
			x := parse(mm[1])
			y, z := mm[2], mm[3]
			if len(parse(y).words) == 0 {
				y = x.trade + " on " + y
			}
			if len(parse(z).words) == 0 {
				z = x.trade + " on " + z
			}
			return llmtest.JSON(map[string]string{"removals": "delete relationships from " + z + " to " + mm[1], "additions": "add relationships from " + y + " to " + mm[1] + " in place of those from " + z})
		}
		sep, _ := scope.Rules{}.Separate(context.Background(), user)
		return llmtest.JSON(map[string]string{"removals": sep.Removals, "additions": sep.Additions})
	case slices.Contains(req.Tools, "remove_scope"):
		if mm := deleteOne.FindStringSubmatch(request); mm != nil {
			tool := "delete_activity"
			if strings.EqualFold(mm[1], "dissolve") {
				tool = "dissolve_activity"
			}
			return llmtest.Calls(llmtest.Call(tool, map[string]string{"activity": mm[2]}))
		}
		return llmtest.Calls(llmtest.Call("remove_scope", map[string]string{"description": request}))
	case slices.Contains(req.Tools, "add_scope"):
		return llmtest.Calls(llmtest.Call("add_scope", map[string]string{"description": request}))
	case req.ResponseFormat == "removal_decision":
		rows := m.rows(user)
		var remove []string
		from, to, linkwise := groups(request)
		for _, r := range rows {
			if r.relationship {
				if linkwise && from.matches(r.pred) && to.matches(r.succ) {
					remove = append(remove, r.alias)
				}
			} else if !linkwise && from.matches(r.name) {
				remove = append(remove, r.alias)
			}
		}
		return llmtest.JSON(map[string]any{"remove": orEmpty(remove)})
	case req.ResponseFormat == "scope_proposal":
		return m.propose(user, request)
	}
	return llmtest.Text("I cannot help with that.")
}

func (m *Model) propose(user, request string) llmtest.Step {
	rows := m.rows(user)
	byName := map[string]string{}
	for _, r := range rows {
		if !r.relationship {
			byName[strings.ToLower(r.name)] = r.alias
		}
	}
	type link struct {
		Predecessor string  `json:"predecessor"`
		Successor   string  `json:"successor"`
		Type        string  `json:"type"`
		Lag         float64 `json:"lag"`
	}
	type activity struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Duration    string `json:"duration"`
	}
	out := struct {
		Activities []activity `json:"activities"`
		Links      []link     `json:"links"`
	}{Activities: []activity{}, Links: []link{}}
	if removed := removedRE.FindAllStringSubmatch(user, -1); len(removed) > 0 {
		// "… follow Y instead of Z": re-create each removed link from the
		// counterpart of its predecessor in the from-group.
		from, _, _ := groups(request)
		for _, r := range removed {
			for _, row := range rows {
				if !row.relationship && from.matches(row.name) && sameTrade(row.name, r[2]) {
					if succ, ok := byName[strings.ToLower(r[3])]; ok {
						lag, _ := strconv.ParseFloat(r[4], 64)
						out.Links = append(out.Links, link{row.alias, succ, r[1], lag})
					}
				}
			}
		}
		return llmtest.JSON(out)
	}
	// "add activities for WORK on LEVEL": one activity ahead of the level.
	g := parse(request)
	if g.level == "" {
		return llmtest.JSON(out)
	}
	name := strings.ToUpper(g.trade[:1]) + g.trade[1:] + " Level " + strings.TrimPrefix(g.level, "level_")
	out.Activities = append(out.Activities, activity{Name: name, Description: "Added for: " + request, Duration: "5"})
	for _, r := range rows {
		if !r.relationship && slices.Contains(embed.Normalize(r.name), g.level) {
			out.Links = append(out.Links, link{name, r.alias, "FS", 0})
			break
		}
	}
	return llmtest.JSON(out)
}

type row struct {
	alias, name, pred, succ string
	relationship            bool
}

// rows reads the candidate table of a request (compact or JSON) and
// counts it.
func (m *Model) rows(user string) []row {
	var out []row
	for _, mm := range tableRow.FindAllStringSubmatch(user, -1) {
		cells := strings.Split(mm[2], "|")
		if mm[1][0] == 'a' {
			out = append(out, row{alias: mm[1], name: cells[0]})
		} else if len(cells) == 3 {
			out = append(out, row{alias: mm[1], pred: cells[0], succ: cells[2], relationship: true})
		}
	}
	if len(out) == 0 {
		// The naive baseline's JSON: one object per candidate; an activity
		// carries its name, a relationship its ends' names.
		aliases := jsonAlias.FindAllStringSubmatchIndex(user, -1)
		for i, a := range aliases {
			end := len(user)
			if i+1 < len(aliases) {
				end = aliases[i+1][0]
			}
			alias := user[a[2]:a[3]]
			names := jsonName.FindAllStringSubmatch(user[a[1]:end], -1)
			if alias[0] == 'a' && len(names) > 0 {
				out = append(out, row{alias: alias, name: names[0][1]})
			} else if len(names) >= 2 {
				out = append(out, row{alias: alias, pred: names[0][1], succ: names[1][1], relationship: true})
			}
		}
	}
	m.mu.Lock()
	m.candidates += len(rowRE.FindAllString(user, -1))
	m.mu.Unlock()
	return out
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// group is a trade on a level, as the fake reads it.
type group struct {
	trade string
	words []string
	level string
}

var fillers = map[string]bool{"delete": true, "remove": true, "dissolve": true, "add": true, "relationship": true,
	"everything": true, "interior": true, "make": true, "place": true, "those": true, "sure": true, "follow": true}

var makeFollow = regexp.MustCompile(`(?i)^make\s+(.+?)\s+(?:follow|come\s+after)\s+(.+?)\s+instead\s+of\s+(.+)$`)

func parse(text string) group {
	var g group
	var raw []string
	for _, t := range embed.Normalize(text) {
		switch {
		case strings.HasPrefix(t, "level_"):
			g.level = t
		case !fillers[t]:
			g.words = append(g.words, t)
			raw = append(raw, t)
		}
	}
	g.trade = strings.Join(raw, " ")
	return g
}

// groups reads "… from G1 to G2 …" (a link-wise request) or one group.
func groups(request string) (from, to group, linkwise bool) {
	if mm := fromTo.FindStringSubmatch(request); mm != nil {
		from, to = parse(mm[1]), parse(mm[2])
		if len(from.words) == 0 {
			from.words = to.words
		}
		return from, to, true
	}
	return parse(request), group{}, false
}

func (g group) matches(name string) bool {
	have := embed.Normalize(name)
	if g.level != "" && !slices.Contains(have, g.level) {
		return false
	}
	tags := slices.Clone(have)
	for _, t := range have {
		tags = append(tags, embed.Umbrellas(t)...)
	}
	for _, w := range g.words {
		if !slices.Contains(tags, w) {
			return false
		}
	}
	return true
}

func sameTrade(a, b string) bool {
	strip := func(s string) []string {
		return slices.DeleteFunc(embed.Normalize(s), func(t string) bool { return strings.HasPrefix(t, "level_") })
	}
	return slices.Equal(strip(a), strip(b))
}
