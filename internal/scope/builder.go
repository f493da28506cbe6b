package scope

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/insight"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// builder accumulates one planning step's ops, notes and first question.
// Both planners use it: every op passes the ops engine on a working copy,
// and every reference is resolved against the schedule or asked about.
type builder struct {
	s       *schedule.Schedule // the snapshot plus the ops planned so far
	in      PlanInput
	answers map[string][]string // slot → the person's answers, in order
	plan    Plan
	source  string // the words the ops being planned came from
	skipped bool   // the last reference was answered "none"
	res     *lang.Resolver
	orig    *schedule.Schedule // the snapshot before this round's ops
	origRes *lang.Resolver     // resolves against orig, built once
	view    *insight.View      // answers questions on s; nil when s changed
	// ctx, when set, stops the planning: the loops over commands and
	// references check it, and the planner returns its error.
	ctx context.Context
	// now is the real time, for words relative to today on a schedule
	// with no data date; nil is the clock's.
	now func() time.Time
}

// stopped reports whether the step's context is done.
func (b *builder) stopped() bool { return b.ctx != nil && b.ctx.Err() != nil }

func newBuilder(s *schedule.Schedule, in PlanInput) *builder {
	answers := map[string][]string{}
	for _, c := range in.Clarifications {
		k := slotKey(c.About)
		answers[k] = append(answers[k], strings.TrimSpace(c.Answer))
	}
	// orig also holds what this round's removals took out, so the additions
	// step can say so of a name they removed.
	orig := s
	for _, op := range in.Removed {
		if op.Kind == schedule.AddActivityOp && op.Activity != nil {
			if orig == s {
				orig = s.Clone()
			}
			orig.Activities = append(orig.Activities, *op.Activity)
		}
	}
	return &builder{s: s.Clone(), in: in, answers: answers, orig: orig}
}

func slotKey(about string) string { return strings.ToLower(strings.TrimSpace(about)) }

// answered is the latest answer about a slot.
func (b *builder) answered(about string) (string, bool) {
	a := b.answers[slotKey(about)]
	if len(a) == 0 {
		return "", false
	}
	return a[len(a)-1], true
}

// add applies op to the working copy (so later commands see it) and keeps
// it; an op the engine refuses is dropped with the reason.
func (b *builder) add(op schedule.Op) bool {
	if op.Source == "" {
		op.Source = b.source
	}
	if _, err := schedule.Apply(b.s, &op); err != nil {
		b.note("dropped: %v", err)
		return false
	}
	b.res, b.view = nil, nil // the names changed
	b.plan.Ops = append(b.plan.Ops, op)
	return true
}

func (b *builder) note(format string, args ...any) {
	n := fmt.Sprintf(format, args...)
	if !slices.Contains(b.plan.Notes, n) {
		b.plan.Notes = append(b.plan.Notes, n)
	}
}

// ask records a question; only the first of a step is asked, the others
// come up again once it is answered.
func (b *builder) ask(about, question string) { b.askChoosing(about, question, false, nil) }

// askChoosing is ask with the answers the question offers (Plan.Choices).
func (b *builder) askChoosing(about, question string, several bool, choices []Choice) {
	if b.plan.Question == "" {
		b.plan.Question, b.plan.About = question, about
		b.plan.Choices, b.plan.Several = choices[:min(len(choices), MaxChoices)], several && len(choices) > 1
	}
}

// activityChoices offer each of acts by name and id; picking one answers
// its id.
func activityChoices(acts []schedule.Activity) []Choice {
	out := make([]Choice, 0, min(len(acts), MaxChoices))
	for _, a := range acts[:min(len(acts), MaxChoices)] {
		out = append(out, activityChoice(a))
	}
	return out
}

// activityChoice offers a by name and id; picking it answers its id.
func activityChoice(a schedule.Activity) Choice {
	return Choice{Label: fmt.Sprintf("%s (%s)", a.Name, a.ID), Answer: a.ID}
}

// offered turns the answers a model's question offers into choices: one
// naming an activity of the schedule (its exact id or name) is offered by
// name and id and answers its id, as activityChoices; any other answers
// itself. Blank and repeated answers are dropped.
func (b *builder) offered(answers []string) []Choice {
	var out []Choice
	for _, text := range answers {
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		c := Choice{Label: text, Answer: text}
		if i := slices.IndexFunc(b.s.Activities, func(a schedule.Activity) bool {
			return a.ID == text || strings.EqualFold(a.Name, text)
		}); i >= 0 {
			c = activityChoice(b.s.Activities[i])
		}
		if !slices.ContainsFunc(out, func(o Choice) bool { return o.Answer == c.Answer }) {
			out = append(out, c)
		}
	}
	return out
}

// linkChoices offer the types of links, once each; picking one answers
// its type.
func linkChoices(links []schedule.Relationship) []Choice {
	var out []Choice
	for _, l := range links {
		if !slices.ContainsFunc(out, func(c Choice) bool { return c.Answer == string(l.Type) }) {
			out = append(out, Choice{Label: fmt.Sprintf("%s%+g (%s)", l.Type, l.Lag, l.ID), Answer: string(l.Type)})
		}
	}
	return out
}

func (b *builder) asking() bool { return b.plan.Question != "" }

func (b *builder) finish() Plan { return b.plan }

// id derives a new activity's or relationship's id from what produced it,
// so a retried step proposes the same ids.
func (b *builder) id(kind string, parts ...string) string {
	return schedule.DerivedID(append([]string{"rules-" + kind, b.in.Prompt, b.in.Feedback, strconv.Itoa(b.in.Round)}, parts...)...)
}

// addNew adds a new activity named a.Name: its id in the schedule's
// own pattern (A148; A117.1 right after its predecessor A117, see
// schedule.NextActivityID), placed after the last of its predecessors in
// id order, or else just before the first of its successors; a derived id
// from parts when the schedule's ids follow no pattern. It returns the
// activity as added.
func (b *builder) addNew(a schedule.Activity, after, before []schedule.Activity, parts ...string) (schedule.Activity, bool) {
	anchor := ""
	for _, p := range after {
		if anchor == "" || schedule.CompareIDs(p.ID, anchor) > 0 {
			anchor = p.ID
		}
	}
	if anchor == "" && len(before) > 0 {
		first := before[0].ID
		for _, s := range before[1:] {
			if schedule.CompareIDs(s.ID, first) < 0 {
				first = s.ID
			}
		}
		anchor = schedule.PrecedingID(b.s, first)
	}
	id, ok := schedule.NextActivityID(b.s, anchor, b.removedIDs()...)
	if !ok {
		id = b.id("activity", parts...)
	}
	a.ID = id
	op := schedule.AddActivity(a)
	op.After = anchor
	return a, b.add(op)
}

// removedIDs are the ids of what this round's removals took out: new
// work must not take them over.
func (b *builder) removedIDs() []string {
	var ids []string
	for _, op := range b.in.Removed {
		for _, id := range []string{op.ActivityID, op.RelationshipID} {
			if id != "" {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// relationshipID is a new relationship's id: the next in the pattern of
// the schedule's relationship ids (R018), else derived from parts.
func (b *builder) relationshipID(parts ...string) string {
	if id, ok := schedule.NextRelationshipID(b.s, b.removedIDs()...); ok {
		return id
	}
	return b.id("relationship", parts...)
}

// resolver resolves against the working copy, indexed once per change.
func (b *builder) resolver() *lang.Resolver {
	if b.res == nil {
		b.res = lang.NewResolver(b.s)
	}
	return b.res
}

// activity resolves a reference to exactly one activity, or asks (the
// LLM manager's single references).
func (b *builder) activity(ref string) (schedule.Activity, bool) {
	acts, ok := b.refActs(lang.Ref{Text: strings.TrimSpace(ref), Words: strings.ToLower(strings.TrimSpace(ref))}, false)
	if !ok {
		return schedule.Activity{}, false
	}
	return acts[0], true
}

var (
	noneAnswer  = regexp.MustCompile(`^(?:none|nothing|neither|no|nope|skip|skip it|cancel|never ?mind|forget it|ignore it|ignore that|leave it|leave it out|drop it|none of them|none of those)\.?$`)
	allAnswer   = regexp.MustCompile(`^(?:all|both|all of them|both of them|every one|everything|each|all of those|all \w+|yes,? all|yes,? both|the lot|them all|all levels|every level)\.?$`)
	indexAnswer = regexp.MustCompile(`^(?:the )?(?:#?(\d+)|(` + lexicon.Pattern(lexicon.OrdinalWords) + `|last))(?: one)?\.?$`)
	manyWords   = regexp.MustCompile(`\b(?:all|both|every|each|everything|and)\b|,`)
)

// refActs resolves a reference to activities: one, or several where many
// is allowed (a group, a list, "all" as an answer). What it cannot resolve
// it asks about, keyed by the reference's words, so the answer fills this
// slot only and the rest of the command stays as written. An answer of
// "none" leaves the reference out (b.skipped).
func (b *builder) refActs(ref lang.Ref, many bool) ([]schedule.Activity, bool) {
	b.skipped = false
	about := ref.Text
	res := b.resolver().Resolve(ref)
	if res.Status == lang.Found && (many || len(res.Acts) == 1) {
		return res.Acts, true
	}
	if res.Status == lang.Missing && b.orig != nil {
		// "delete X; delete X": taken out earlier in this request.
		if b.origRes == nil {
			b.origRes = lang.NewResolver(b.orig)
		}
		if was := b.origRes.Resolve(ref); was.Status == lang.Found && !slices.ContainsFunc(was.Acts, func(a schedule.Activity) bool { _, ok := b.s.Activity(a.ID); return ok }) {
			b.skipped = true
			b.note("%q is already taken out by this request", about)
			return nil, false
		}
	}
	if res.Status != lang.Found && res.Part != "" && res.Part != ref.Text {
		// One part of a list failed: ask about that part alone, so the
		// answer does not stand for the whole list.
		if parts := b.resolver().Split(ref); len(parts) > 1 {
			return b.refsActs(parts, many)
		}
	}
	if res.Status == lang.Found { // a group where one activity is wanted
		res = lang.Resolution{Status: lang.Ambiguous, Candidates: res.Acts}
	}
	cands := res.Candidates
	for _, ans := range b.answers[slotKey(about)] {
		a := strings.ToLower(strings.Trim(strings.TrimSpace(ans), `"'`))
		switch {
		case noneAnswer.MatchString(a):
			b.skipped = true
			b.note("%q: left out, as you answered %q", about, ans)
			return nil, false
		case allAnswer.MatchString(a) && len(cands) > 0:
			if many || len(cands) == 1 {
				return cands, true
			}
			continue
		}
		if m := indexAnswer.FindStringSubmatch(a); m != nil && len(cands) > 0 {
			n, _ := strconv.Atoi(m[1])
			if m[2] == "last" {
				n = len(cands)
			} else if m[2] != "" {
				n, _ = lexicon.Ordinal(m[2])
			}
			if n >= 1 && n <= len(cands) {
				cands = []schedule.Activity{cands[n-1]}
				if !many || len(cands) == 1 {
					return cands, true
				}
			}
			continue
		}
		answerRef := lang.Ref{Text: ans, Words: a}
		// An answer first narrows what the question offered ("level 3"
		// to "which pour?"), else names activities on its own.
		if len(cands) > 0 {
			sub := lang.NewResolver(&schedule.Schedule{Activities: cands}).Resolve(answerRef)
			switch {
			case sub.Status == lang.Found && (len(sub.Acts) == 1 || many && manyWords.MatchString(a)):
				return sub.Acts, true
			case sub.Status == lang.Found:
				cands = sub.Acts
				continue
			case sub.Status == lang.Ambiguous:
				cands = sub.Candidates
				continue
			}
		}
		whole := b.resolver().Resolve(answerRef)
		switch {
		case whole.Status == lang.Found && (many || len(whole.Acts) == 1):
			return whole.Acts, true
		case whole.Status == lang.Found:
			cands = whole.Acts
		case whole.Status == lang.Ambiguous:
			cands = whole.Candidates
		default:
			b.ask(about, fmt.Sprintf("Your answer %q matches no activity. Which activity do you mean by %q? Answer with its name or id, or \"none\" to leave it out.", ans, about))
			return nil, false
		}
	}
	switch {
	case len(cands) == 1:
		// Only a near match: confirmed before anything is done to it.
		b.askChoosing(about, fmt.Sprintf("%q is not quite an activity's name; the nearest is %s. Is that the one? Answer with its name or id, or \"none\".", about, listActivities(cands, 1)), false, activityChoices(cands))
	case len(cands) > 0:
		hint := `, "all"`
		if !many {
			hint = ""
		}
		b.askChoosing(about, fmt.Sprintf("%q matches %d activities: %s — which one? Answer with its name or id%s, or \"none\".", about, len(cands), listActivities(cands, 10), hint), many, activityChoices(cands))
	case res.Status == lang.TooBroad:
		b.ask(about, fmt.Sprintf("%q would take in the whole schedule: which level or trade do you mean? Answer like \"level 2\" or \"drywall on level 3\".", about))
	default:
		b.ask(about, fmt.Sprintf("No activity matches %q: which activity did you mean? Answer with its name or id, or \"none\" to leave it out.", about))
	}
	return nil, false
}

// refsActs resolves several references into one list.
func (b *builder) refsActs(refs []lang.Ref, many bool) ([]schedule.Activity, bool) {
	var out []schedule.Activity
	for _, r := range refs {
		if b.stopped() {
			return nil, false
		}
		acts, ok := b.refActs(r, many)
		if !ok {
			if b.skipped {
				continue
			}
			return nil, false
		}
		for _, a := range acts {
			if !slices.ContainsFunc(out, func(x schedule.Activity) bool { return x.ID == a.ID }) {
				out = append(out, a)
			}
		}
	}
	return out, len(out) > 0
}

func listActivities(acts []schedule.Activity, max int) string {
	var sb strings.Builder
	for i, a := range acts {
		if i == max {
			fmt.Fprintf(&sb, ", … (%d more)", len(acts)-max)
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%s (%s)", a.Name, a.ID)
	}
	return sb.String()
}

func typeLabel(t schedule.RelType) string {
	if t == "" {
		return ""
	}
	return string(t) + " "
}

// links lists the relationships from a member of from to a member of to
// (either way with either), of type typ when it is set.
func (b *builder) links(from, to []schedule.Activity, typ schedule.RelType, either bool) []schedule.Relationship {
	in := func(acts []schedule.Activity, id string) bool {
		return slices.ContainsFunc(acts, func(a schedule.Activity) bool { return a.ID == id })
	}
	var out []schedule.Relationship
	for _, r := range b.s.Relationships {
		forward := in(from, r.Predecessor) && in(to, r.Successor)
		backward := either && in(to, r.Predecessor) && in(from, r.Successor)
		if (forward || backward) && (typ == "" || r.Type == typ) {
			out = append(out, r)
		}
	}
	return out
}

// removeLink removes the one relationship between two named activities
// (the LLM manager's delete_relationship), asking for the type when they
// are linked several ways.
func (b *builder) removeLink(typ schedule.RelType, from, to string, either bool) {
	a, ok1 := b.activity(from)
	c, ok2 := b.activity(to)
	if !ok1 || !ok2 {
		return
	}
	about := "type of " + from + " -> " + to
	if ans, ok := b.answered(about); ok && typ == "" {
		typ = schedule.ReadRelType(ans)
	}
	links := b.links([]schedule.Activity{a}, []schedule.Activity{c}, typ, either)
	switch len(links) {
	case 0:
		b.note("no %srelationship links %q to %q: nothing deleted", typeLabel(typ), a.Name, c.Name)
	case 1:
		b.add(schedule.RemoveRelationship(links[0].ID))
	default:
		b.askChoosing(about, fmt.Sprintf("%q and %q are linked %d ways, %s: which one? Answer with the type (FS, SS, FF or SF).", a.Name, c.Name, len(links), describeLinks(links)), false, linkChoices(links))
	}
}

func describeLinks(links []schedule.Relationship) string {
	var kinds []string
	for _, l := range links {
		kinds = append(kinds, fmt.Sprintf("%s%+g (%s)", l.Type, l.Lag, l.ID))
	}
	return strings.Join(kinds, ", ")
}

func formatDays(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// answer answers a question asked beside the changes ("delete X, and what
// drives Y?") with the read tools (internal/insight), from the schedule
// the step plans on: a review note, so nothing asked is dropped.
func (b *builder) answer(question string) (string, bool) {
	if b.view == nil {
		v, err := insight.New(b.s)
		if err != nil {
			return "", false
		}
		b.view = v
	}
	ans, ok := insight.AnswerIfQuestion(b.view, question)
	if !ok || !ans.Understood {
		return "", false
	}
	return ans.Answer, true
}
