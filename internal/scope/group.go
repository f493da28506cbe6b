package scope

import (
	"regexp"
	"slices"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// group is a set of activities named by trade and level, as planners say
// it: "fit-outs on floor 4", "drywall on level 3", "the second floor".
// Matching goes through the search vocabulary (embed.Normalize and its
// umbrellas), so "fit-outs" covers drywall, ceilings, joinery, doors,
// painting, tiling, flooring and fixtures, and "floor 4" is "Level 4".
type group struct {
	text  string   // as written, for messages
	trade string   // the words besides the level, as written ("fitouts")
	words []string // their normalised tokens
	level string   // "level_4" (or another place: "pier_3"), or "" for any
	// res, when set, reads names with the schedule's own places (piers,
	// wings); without it levels are the only places.
	res *lang.Resolver
}

var (
	// levelPhrase is a numbered level as Normalize reads it (the lexicon's
	// spellings: "floor 4", "L4", "fl 4", "storey four", "2nd flr").
	levelPhrase    = regexp.MustCompile(`(?i)\s*\b(?:on|at|in|of|for)?\s*(?:the\s+)?` + lexicon.LevelPattern + `\b`)
	leadingFillers = regexp.MustCompile(`(?i)^(?:(?:all|every|the|of|activities|activity)\s+)+`)
)

// groupFillers are words that name no trade in a group phrase.
var groupFillers = map[string]bool{"everything": true, "interior": true, "internal": true, "scope": true, "item": true, "thing": true}

func parseGroup(text string) group {
	g := group{text: strings.TrimSpace(text)}
	for _, t := range embed.Normalize(text) {
		switch {
		case strings.HasPrefix(t, "level_"):
			g.level = t
		case !groupFillers[t]:
			g.words = append(g.words, t)
		}
	}
	g.trade = strings.TrimSpace(leadingFillers.ReplaceAllString(strings.TrimSpace(levelPhrase.ReplaceAllString(g.text, "")), ""))
	if len(g.words) == 0 {
		g.trade = ""
	}
	return g
}

// parseGroupIn is parseGroup with the schedule's places: "wing A" is the
// place wing_a, "pier 1 drilled shafts" the drilled shafts on pier_1.
func parseGroupIn(res *lang.Resolver, text string) group {
	g := parseGroup(text)
	g.res = res
	g.level, g.words = "", nil
	for _, t := range res.Tokens(text) {
		switch {
		case res.IsPlace(t):
			if g.level == "" && !strings.HasSuffix(t, "_*") {
				g.level = t
			}
		case !groupFillers[t]:
			g.words = append(g.words, t)
		}
	}
	if g.level != "" && !strings.HasPrefix(g.level, "level_") {
		label := lang.PlaceLabel(g.level)
		g.trade = strings.TrimSpace(leadingFillers.ReplaceAllString(strings.TrimSpace(caseless(label).ReplaceAllString(g.trade, "")), ""))
	}
	if len(g.words) == 0 {
		g.trade = ""
	}
	return g
}

func caseless(s string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)\s*\b(?:on|at|in|of|for)?\s*(?:the\s+)?` + regexp.QuoteMeta(s) + `\b`)
}

// tokens is a name's tokens as the group reads them.
func (g group) tokens(name string) []string {
	if g.res != nil {
		return g.res.Tokens(name)
	}
	return words(name)
}

// inherit fills a group with no trade from another: in "make fit-outs on
// floor 4 follow floor 2", floor 2 means fit-outs on floor 2.
func (g group) inherit(from group) group {
	if len(g.words) == 0 {
		g.words, g.trade = from.words, from.trade
	}
	return g
}

// String is the group in the words of a command the planner parses back.
func (g group) String() string {
	trade := g.trade
	if trade == "" {
		trade = "activities"
	}
	if g.level == "" {
		return trade
	}
	return trade + " on " + strings.ToLower(lang.PlaceLabel(g.level))
}

// matches reports whether a belongs to the group.
func (g group) matches(a schedule.Activity) bool {
	have := g.tokens(a.Name)
	if g.level != "" && !slices.Contains(have, g.level) {
		return false
	}
	if len(g.words) == 0 {
		return true
	}
	tags := slices.Clone(have)
	for _, t := range have {
		tags = append(tags, embed.Umbrellas(t)...)
	}
	// "MEP" normalises to three trades: any of them, or any building
	// service (HVAC, sprinklers), will do.
	if isServices(g.words) {
		return slices.Contains(tags, "service") || slices.ContainsFunc(g.words, func(w string) bool { return slices.Contains(tags, w) })
	}
	return containsAll(tags, g.words)
}

func isServices(ws []string) bool {
	return len(ws) == 3 && slices.Contains(ws, "mechanical") && slices.Contains(ws, "electrical") && slices.Contains(ws, "plumbing")
}

func (g group) members(acts []schedule.Activity) []schedule.Activity {
	var out []schedule.Activity
	for _, a := range acts {
		if g.matches(a) {
			out = append(out, a)
		}
	}
	return out
}

func (g group) memberSet(acts []schedule.Activity) map[string]bool {
	set := map[string]bool{}
	for _, a := range g.members(acts) {
		set[a.ID] = true
	}
	return set
}

// words is a name's normalised tokens.
func words(name string) []string { return embed.Normalize(name) }

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

func withoutLevel(ws []string) []string {
	return slices.DeleteFunc(slices.Clone(ws), func(w string) bool { return strings.HasPrefix(w, "level_") })
}
