package scope

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// How the rules planner applies a schedule's preferences (PlanInput.
// Preferences); with none it plans exactly as before:
//
//   - a new link whose request states no type or lag gets the default
//     for its successor's name (a scoped default — "FS+1 for new
//     inspections" — wins over the general one); a stated type keeps the
//     default's lag only when the default is of that type;
//   - a new activity whose request states no duration gets the default
//     duration for its name instead of the question "how long?" (or the
//     planner's 5 days for new scope), with a note saying so;
//   - a new activity's name with a trade and a level is written by the
//     naming pattern ("drywall on level 3" → "Drywall Level 3");
//   - the trade vocabulary's words join typo correction, and a synonym in
//     the request is read as the word the schedule uses for that trade
//     (or the trade's own word when the schedule uses none);
//   - a round planned from feedback changes the previous proposal as the
//     preferences are now: a preference saved with that very feedback
//     ("remember: use FS+1 for new inspections") applies to the links and
//     durations the proposal's words left to the defaults
//     (currentDefaults), as it would on a redo.

// linkDefault is the type and lag of a new link into succ when the
// request said typ ("" none) and lag (nil none).
func (b *builder) linkDefault(succ string, typ schedule.RelType, lag *float64) (schedule.RelType, float64) {
	l := 0.0
	if lag != nil {
		l = *lag
	}
	d, ok := b.in.Preferences.LinkDefaultFor(succ)
	dt, dl := d.Type, d.Lag
	if ok && (typ == "" || lag == nil && typ == dt) {
		b.note("%s: link %s, the schedule's preference (state a type and lag to use another)", d.Label(), prefs.FormatLink(dt, dl))
	}
	switch {
	case !ok:
	case typ == "" && lag == nil:
		return dt, dl
	case typ == "":
		typ = dt
	case lag == nil && typ == dt:
		l = dl
	}
	if typ == "" {
		typ = schedule.FS
	}
	return typ, l
}

func (b *builder) hasDefaultDuration(name string) bool {
	_, ok := b.defaultDuration(name)
	return ok
}

// defaultDuration is the preferred duration of a new activity, if any.
func (b *builder) defaultDuration(name string) (string, bool) {
	return b.in.Preferences.DurationFor(name)
}

// preferredName writes a new activity's name by the naming pattern when
// it reads as a trade on a level.
func (b *builder) preferredName(name string) string {
	if b.in.Preferences == nil || b.in.Preferences.Naming == "" {
		return name
	}
	level, trade := lang.LevelOf(name), lang.TradeOf(name)
	if level == "" || trade == "" || len(strings.Fields(trade)) > 4 {
		return name // not a trade on a level: a name as the person wrote it
	}
	if n, ok := b.in.Preferences.Name(trade, strings.TrimPrefix(level, "level_")); ok {
		return n
	}
	return name
}

// scopeName is the name of new scope for a trade on a level (level a
// lang level token, "" for none).
func (b *builder) scopeName(trade, level string) string {
	if n, ok := b.in.Preferences.Name(trade, strings.TrimPrefix(level, "level_")); ok {
		return n
	}
	if level == "" {
		return sentence(trade)
	}
	return sentence(trade) + " " + levelName(level)
}

// withTradeWords reads a request's trade synonyms as the schedule's own
// word for each trade: the one word of the trade's group (its name and
// synonyms) the schedule's names use, or the trade's name when they use
// none. A group the schedule uses several words of is left as written.
func withTradeWords(text string, p *prefs.Preferences, s *schedule.Schedule) string {
	if p == nil || len(p.Trades) == 0 || text == "" {
		return text
	}
	var names strings.Builder
	for _, a := range s.Activities {
		names.WriteString(strings.ToLower(a.Name))
		names.WriteString("\n")
	}
	all := names.String()
	text = fixTradeTypos(text, p, all)
	for _, t := range p.Trades {
		group := append([]string{t.Name}, t.Synonyms...)
		var used []string
		for _, w := range group {
			if wordsRE(w).MatchString(all) {
				used = append(used, w)
			}
		}
		target := t.Name
		switch len(used) {
		case 0:
		case 1:
			target = used[0]
		default:
			continue
		}
		// Longer words first, so "gypsum board" goes before "board".
		others := slices.DeleteFunc(slices.Clone(group), func(w string) bool { return w == target })
		slices.SortStableFunc(others, func(a, b string) int { return len(b) - len(a) })
		for _, w := range others {
			if strings.Contains(target, w) {
				continue // rewriting "board" inside "drywall board" would loop
			}
			text = wordsRE(w).ReplaceAllString(text, target)
		}
	}
	return text
}

// wordsRE matches words as whole words, any case, plural or not.
func wordsRE(w string) *regexp.Regexp {
	parts := strings.Fields(w)
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return regexp.MustCompile(`(?i)\b` + strings.Join(parts, `\s+`) + `s?\b`)
}

var wordRE = regexp.MustCompile(`\p{L}+`)

// fixTradeTypos corrects a misspelt trade-vocabulary word ("plasterbord")
// that is not a word of the schedule's names: within edit distance 1 (2
// from nine letters) of exactly one vocabulary word of five letters or
// more, as the parser corrects typos to the schedule's own words.
func fixTradeTypos(text string, p *prefs.Preferences, names string) string {
	var vocab []string
	for _, w := range p.Vocabulary() {
		if len(w) >= 5 {
			vocab = append(vocab, w)
		}
	}
	if len(vocab) == 0 {
		return text
	}
	known := map[string]bool{}
	for _, w := range wordRE.FindAllString(names, -1) {
		known[w] = true
	}
	return wordRE.ReplaceAllStringFunc(text, func(tok string) string {
		low := strings.ToLower(tok)
		if len(low) < 5 || known[low] || slices.Contains(vocab, low) {
			return tok
		}
		limit := 1
		if len(low) >= 9 {
			limit = 2
		}
		match := ""
		for _, w := range vocab {
			if editDistance(low, w) <= limit {
				if match != "" {
					return tok // two candidates: leave it
				}
				match = w
			}
		}
		if match == "" {
			return tok
		}
		return match
	})
}

// editDistance is the Levenshtein distance between two words.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// daysLabel is a duration with its unit: "1 day", "3 days".
func daysLabel(d string) string {
	if d == "1" {
		return "1 day"
	}
	return d + " days"
}

// currentDefaults is the previous proposal of a feedback round with its
// defaults as the schedule's preferences are now. The step's prompt is
// planned afresh (no feedback, no answers); where that plans the same
// changes as the previous proposal's ops of this step — the same kinds on
// the same activities, in the same order — each of those ops takes the
// fresh one's link type and lag, and a new activity its duration: what
// the words left to the defaults, which a preference saved since (with
// the feedback itself: "make it 3 days. remember: use FS+1 for new
// inspections") changes. Otherwise the previous ops stay as they were.
// notes are the fresh plan's notes on the preferences it applied, when
// they changed something.
func currentDefaults(ctx context.Context, snap Snapshot, in PlanInput, removals bool) (previous []schedule.Op, notes []string) {
	previous = in.Previous
	var mine []int // the indexes of this step's ops in previous
	for i, op := range previous {
		if removalOp(op) == removals {
			mine = append(mine, i)
		}
	}
	if len(mine) == 0 {
		return previous, nil
	}
	fresh := planRules(ctx, snap, PlanInput{Prompt: in.Prompt, Round: in.Round, Removed: in.Removed, Preferences: in.Preferences}, removals)
	if fresh.Question != "" || len(fresh.Ops) != len(mine) || ctx.Err() != nil {
		return previous, nil
	}
	name := opNames(snap.Schedule, previous, fresh.Ops)
	for k, i := range mine {
		if !sameChange(previous[i], fresh.Ops[k], name) {
			return previous, nil
		}
	}
	var out []schedule.Op
	changed := false
	for k, i := range mine {
		op, f := previous[i], fresh.Ops[k]
		switch {
		case op.Relationship != nil && f.Relationship != nil && (op.Relationship.Type != f.Relationship.Type || op.Relationship.Lag != f.Relationship.Lag):
			r := *op.Relationship
			r.Type, r.Lag = f.Relationship.Type, f.Relationship.Lag
			op.Relationship = &r
		case op.Kind == schedule.AddActivityOp && op.Activity != nil && f.Activity != nil && op.Activity.Duration != f.Activity.Duration:
			a := *op.Activity
			a.Duration = f.Activity.Duration
			op.Activity = &a
		default:
			continue
		}
		if out == nil {
			out = slices.Clone(previous)
		}
		out[i], changed = op, true
	}
	if !changed {
		return previous, nil
	}
	for _, n := range fresh.Notes {
		if strings.Contains(n, "the schedule's preference") || strings.Contains(n, "the schedule's default") {
			notes = append(notes, n)
		}
	}
	return out, notes
}

// opNames names activities by id: the schedule's, and those ops add.
func opNames(s *schedule.Schedule, opss ...[]schedule.Op) func(id string) string {
	added := map[string]string{}
	for _, ops := range opss {
		for _, op := range ops {
			if op.Kind == schedule.AddActivityOp && op.Activity != nil {
				added[op.Activity.ID] = op.Activity.Name
			}
		}
	}
	return func(id string) string {
		if n, ok := added[id]; ok {
			return "new:" + strings.ToLower(n)
		}
		if a, ok := s.Activity(id); ok {
			return "id:" + a.ID
		}
		return "?" + id
	}
}

// sameChange reports whether two ops make the same change but for their
// ids, link type and lag, and a new activity's duration.
func sameChange(a, b schedule.Op, name func(string) string) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch {
	case a.Kind == schedule.AddActivityOp:
		return a.Activity != nil && b.Activity != nil && strings.EqualFold(a.Activity.Name, b.Activity.Name)
	case a.Kind == schedule.AddRelationshipOp:
		return a.Relationship != nil && b.Relationship != nil &&
			name(a.Relationship.Predecessor) == name(b.Relationship.Predecessor) && name(a.Relationship.Successor) == name(b.Relationship.Successor)
	case a.Relationship != nil || b.Relationship != nil:
		return a.Relationship != nil && b.Relationship != nil && *a.Relationship == *b.Relationship
	case a.Activity != nil || b.Activity != nil:
		return a.Activity != nil && b.Activity != nil && a.Activity.ID == b.Activity.ID && a.Activity.Name == b.Activity.Name && a.Activity.Duration == b.Activity.Duration
	}
	return a.ActivityID == b.ActivityID && a.RelationshipID == b.RelationshipID
}
