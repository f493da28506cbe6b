package scope

import (
	"regexp"
	"slices"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// eachLevel is "on each level", "every floor", "per storey", "on all
// levels", "each flr" (the lexicon's level words) in a placement: one new
// activity a level is meant.
var eachLevel = regexp.MustCompile(`(?i)\b(?:each|every|all|per)\s+(?:of\s+the\s+)?` + lexicon.Pattern(lexicon.LevelWordsApart, lexicon.LevelPlurals) + `\b`)

// addPerLevel adds one activity per place when the placement says "on
// each level" ("add a 2 day fire-stopping after drywall board on each
// level"), or on each place of another kind the schedule's names use ("on
// every span"): "Fire-stopping Level 1" after "Drywall board Level 1",
// and so on for every place the placement's activities are on, named as
// the schedule names that kind ("Span 1 inspection"). It reports whether
// it did; a placement whose activities are not on two or more places is
// added once, as written.
func (b *builder) addPerLevel(key string, c lang.Command) bool {
	if c.Name == "" {
		return false
	}
	res := b.resolver()
	kind, ok := placedOnEach(c, res)
	if !ok {
		return false
	}
	after, ok := b.refsActs(c.After, true)
	if !ok && len(c.After) > 0 {
		return false
	}
	before, ok := b.refsActs(c.Before, true)
	if !ok && len(c.Before) > 0 {
		return false
	}
	var places []string
	for _, a := range slices.Concat(after, before) {
		if p := placeOfKind(res, a.Name, kind); p != "" && !slices.Contains(places, p) {
			places = append(places, p)
		}
	}
	if len(places) < 2 {
		return false
	}
	slices.SortFunc(places, func(x, y string) int {
		a, _ := placeOrdinal(x)
		b, _ := placeOrdinal(y)
		return a - b
	})
	first := res.PlaceFirst(kind)
	for _, p := range places {
		per := c
		per.Name = c.Name + " " + lang.PlaceLabel(p)
		if first {
			r := []rune(c.Name)
			per.Name = lang.PlaceLabel(p) + " " + strings.ToLower(string(r[:1])) + string(r[1:])
		}
		per.After, per.Before = refsOnPlace(res, after, p), refsOnPlace(res, before, p)
		b.addActivity(key+"/"+p, per)
		if b.asking() {
			return true
		}
	}
	return true
}

// placedOnEach is the kind of place the placement says "each" of: level
// for "on each level", a kind of the schedule's for "on every span".
func placedOnEach(c lang.Command, res *lang.Resolver) (string, bool) {
	texts := []string{}
	for _, r := range slices.Concat(c.After, c.Before) {
		texts = append(texts, r.Text)
	}
	if len(c.After)+len(c.Before) > 0 {
		texts = append(texts, c.Source)
	}
	for _, t := range texts {
		if eachLevel.MatchString(t) {
			return "level", true
		}
		for _, k := range res.PlaceKinds() {
			if eachPlace(k).MatchString(t) {
				return k, true
			}
		}
	}
	return "", false
}

// eachPlace is eachLevel for another kind of place.
func eachPlace(kind string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:each|every|all|per)\s+(?:of\s+the\s+)?` + regexp.QuoteMeta(kind) + `(?:s|es)?\b`)
}

// refsOnPlace are refs, by exact name, to the activities of acts on place p.
func refsOnPlace(res *lang.Resolver, acts []schedule.Activity, p string) []lang.Ref {
	var out []lang.Ref
	for _, a := range acts {
		if res.OnPlace(a.Name, p) {
			out = append(out, lang.Ref{Text: a.Name, Words: strings.ToLower(a.Name)})
		}
	}
	return out
}
