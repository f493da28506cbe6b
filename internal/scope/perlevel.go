package scope

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// eachLevel is "on each level", "every floor", "per storey", "on all
// levels", "each flr" (the lexicon's level words) in a placement: one new
// activity a level is meant.
var eachLevel = regexp.MustCompile(`(?i)\b(?:each|every|all|per)\s+(?:of\s+the\s+)?` + lexicon.Pattern(lexicon.LevelWordsApart, lexicon.LevelPlurals) + `\b`)

// addPerLevel adds one activity per level when the placement says "on each
// level" ("add a 2 day fire-stopping after drywall board on each level"):
// "Fire-stopping Level 1" after "Drywall board Level 1", and so on for
// every level the placement's activities are on. It reports whether it
// did; a placement whose activities are not on two or more levels is
// added once, as written.
func (b *builder) addPerLevel(key string, c lang.Command) bool {
	if c.Name == "" || !placedOnEachLevel(c) {
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
	byLevel := map[string][]schedule.Activity{}
	var levels []string
	for _, a := range slices.Concat(after, before) {
		lv := lang.LevelOf(a.Name)
		if lv == "" {
			continue
		}
		if _, seen := byLevel[lv]; !seen {
			levels = append(levels, lv)
		}
		byLevel[lv] = append(byLevel[lv], a)
	}
	if len(levels) < 2 {
		return false
	}
	slices.SortFunc(levels, func(x, y string) int { return levelNumber(x) - levelNumber(y) })
	for _, lv := range levels {
		per := c
		per.Name = c.Name + " Level " + strings.TrimPrefix(lv, "level_")
		per.After, per.Before = refsOnLevel(after, lv), refsOnLevel(before, lv)
		b.addActivity(key+"/"+lv, per)
		if b.asking() {
			return true
		}
	}
	return true
}

func placedOnEachLevel(c lang.Command) bool {
	for _, r := range slices.Concat(c.After, c.Before) {
		if eachLevel.MatchString(r.Text) {
			return true
		}
	}
	return eachLevel.MatchString(c.Source) && len(c.After)+len(c.Before) > 0
}

// refsOnLevel are refs, by exact name, to the activities of acts on level lv.
func refsOnLevel(acts []schedule.Activity, lv string) []lang.Ref {
	var out []lang.Ref
	for _, a := range acts {
		if lang.LevelOf(a.Name) == lv {
			out = append(out, lang.Ref{Text: a.Name, Words: strings.ToLower(a.Name)})
		}
	}
	return out
}

func levelNumber(lv string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(lv, "level_"))
	return n
}
