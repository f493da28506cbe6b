package scope

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Rules is the offline planner, the default when no LLM is configured: a
// deterministic parser for the command grammar README documents and for the
// seed design's example prompts. It never guesses: a name that matches
// several activities or none becomes a Question; a command it cannot parse
// becomes a Note saying so.
//
// Commands (one or more, separated by ";", a new line, ". " or "and then"):
//
//	add activity "NAME" N days [after|before REF]
//	add activities for WORK on LEVEL [for N days]
//	delete activity REF              (also: remove; "delete REF")
//	dissolve activity REF
//	add [TYPE] relationship from REF to REF [with lag N]   (or REF -> REF)
//	delete [TYPE] relationship from REF to REF              (or between REF and REF)
//	delete|dissolve all [TRADE] activities on LEVEL
//	delete relationships from GROUP to GROUP
//	make GROUP follow|come after GROUP instead of GROUP
//
// REF is an activity id or name (quotes optional; "the pour" works when it
// names one activity). LEVEL is "level 2", "floor 2", "L2", "the second
// floor"; TRADE and GROUP use the search vocabulary ("fit-outs on floor 4",
// "drywall on level 3"). TYPE is FS, SS, FF, SF or finish-to-start etc.
type Rules struct{}

var _ Planner = Rules{}

// NotUnderstood ends the Note for a command the rules planner cannot parse.
const NotUnderstood = "not understood by the offline planner; configure an LLM (OPENAI_API_KEY or OPENAI_BASE_URL) for free-form prompts"

// DefaultNewDuration is the duration, in working days, the rules planner
// gives new scope when the prompt names none (it says so in a note).
const DefaultNewDuration = "5"

var (
	partSep = regexp.MustCompile(`(?i)\s*;\s*|\s*\n\s*|\.\s+|\s+and\s+then\s+|\.$`)

	typeWords = `(FS|SS|FF|SF|finish[- ]to[- ]start|start[- ]to[- ]start|finish[- ]to[- ]finish|start[- ]to[- ]finish)`
	lagWords  = `(?:\s+with\s+(?:a\s+)?lag\s+(?:of\s+)?([+-]?\d+(?:\.\d+)?)(?:\s+(?:working\s+)?days?)?)?`

	reMakeFollow   = regexp.MustCompile(`(?i)^make\s+(.+?)\s+(?:follow|come\s+after|go\s+after|start\s+after)\s+(.+?)\s+instead\s+of\s+(.+)$`)
	reAddActivity  = regexp.MustCompile(`(?i)^(?:add|insert|create)\s+(?:an?\s+)?(?:new\s+)?activity\s+(?:called\s+|named\s+)?(.+?),?\s+(?:of\s+|lasting\s+|for\s+|taking\s+|with\s+(?:a\s+)?duration\s+(?:of\s+)?)?(\d+(?:\.\d+)?)\s+(?:working\s+)?days?(?:\s+(after|before)\s+(.+))?$`)
	reAddScope     = regexp.MustCompile(`(?i)^(?:add|insert|create)\s+(?:new\s+)?(?:activities|scope|work|tasks)\s+for\s+(.+?)(?:\s+(?:for|lasting|of)\s+(\d+(?:\.\d+)?)\s+(?:working\s+)?days?)?$`)
	reAddRel       = regexp.MustCompile(`(?i)^(?:add|insert|create|link)\s+(?:an?\s+)?(?:` + typeWords + `\s+)?(?:relationship|link|dependency)\s+(?:from\s+)?(.+?)\s+(?:to|->)\s+(.+?)` + lagWords + `$`)
	reLink         = regexp.MustCompile(`(?i)^link\s+(.+?)\s+(?:to|->)\s+(.+?)(?:\s+(?:as\s+|with\s+)?` + typeWords + `)?` + lagWords + `$`)
	reRelink       = regexp.MustCompile(`(?i)^add\s+relationships\s+from\s+(.+?)\s+to\s+(.+?)\s+in\s+place\s+of\s+those\s+from\s+(.+)$`)
	reDeleteRels   = regexp.MustCompile(`(?i)^(?:delete|remove)\s+(?:all\s+)?(?:the\s+)?(?:` + typeWords + `\s+)?(?:relationships|links|dependencies)\s+(?:from\s+(.+?)\s+to\s+(.+)|between\s+(.+?)\s+and\s+(.+))$`)
	reDeleteRel    = regexp.MustCompile(`(?i)^(?:delete|remove)\s+(?:the\s+)?(?:` + typeWords + `\s+)?(?:relationship|link|dependency)\s+(?:from\s+(.+?)\s+to\s+(.+)|between\s+(.+?)\s+and\s+(.+)|(.+?)\s*->\s*(.+))$`)
	reGroupRemove  = regexp.MustCompile(`(?i)^(delete|remove|dissolve)\s+(?:all|every|everything)\b\s*(.*)$`)
	reDeleteAct    = regexp.MustCompile(`(?i)^(?:delete|remove)\s+(?:the\s+)?activity\s+(.+)$`)
	reDissolveAct  = regexp.MustCompile(`(?i)^dissolve\s+(?:the\s+)?(?:activity\s+)?(.+)$`)
	reDeleteAny    = regexp.MustCompile(`(?i)^(?:delete|remove)\s+(.+)$`)
	removalVerb    = regexp.MustCompile(`(?i)^(?:delete|remove|dissolve|unlink)\b`)
	additionVerb   = regexp.MustCompile(`(?i)^(?:add|insert|create|link)\b`)
	levelPhrase    = regexp.MustCompile(`(?i)\s*\b(?:on|at|in|of|for)?\s*(?:the\s+)?(?:(?:level|floor|storey|story|lvl)\s*\d+|l\d+|(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+(?:floor|level|storey|story))\b`)
	leadingFillers = regexp.MustCompile(`(?i)^(?:(?:all|every|the|of|activities|activity)\s+)+`)
)

// splitParts splits text into trimmed, non-empty commands.
func splitParts(text string) []string {
	var out []string
	for _, p := range partSep.Split(text, -1) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// separate splits text into removal and addition commands. "make X follow
// Y instead of Z" becomes one of each, as the seed design separates it.
func separate(text string) (removals, additions []string) {
	for _, p := range splitParts(text) {
		if m := reMakeFollow.FindStringSubmatch(p); m != nil {
			x := parseGroup(m[1])
			y, z := parseGroup(m[2]).inherit(x), parseGroup(m[3]).inherit(x)
			removals = append(removals, fmt.Sprintf("delete relationships from %s to %s", z, x))
			additions = append(additions, fmt.Sprintf("add relationships from %s to %s in place of those from %s", y, x, z))
			continue
		}
		if removalVerb.MatchString(p) {
			removals = append(removals, p)
		} else {
			additions = append(additions, p)
		}
	}
	return removals, additions
}

// Separate splits the prompt by intent.
func (Rules) Separate(_ context.Context, prompt string) (Separation, error) {
	rem, add := separate(prompt)
	return Separation{Removals: strings.Join(rem, "; "), Additions: strings.Join(add, "; ")}, nil
}

// commandsFor picks the commands to plan: the feedback's of the wanted
// kind if it has any (the reviewer said what to do instead), else the
// prompt's.
func commandsFor(in PlanInput, removals bool) []string {
	pick := func(text string) []string {
		rem, add := separate(text)
		if removals {
			return rem
		}
		return add
	}
	if fb := pick(in.Feedback); len(fb) > 0 {
		return fb
	}
	return pick(in.Prompt)
}

// PlanRemovals plans delete, dissolve and relationship removals.
func (Rules) PlanRemovals(_ context.Context, snap Snapshot, in PlanInput) (Plan, error) {
	p := newBuilder(snap.Schedule, in)
	for _, part := range commandsFor(in, true) {
		p.removal(part)
	}
	return p.finish(), nil
}

// PlanAdditions plans new activities and relationships.
func (Rules) PlanAdditions(_ context.Context, snap Snapshot, in PlanInput) (Plan, error) {
	p := newBuilder(snap.Schedule, in)
	for i, part := range commandsFor(in, false) {
		p.addition(i, part)
	}
	return p.finish(), nil
}

// builder accumulates one step's ops, notes and first question.
type builder struct {
	s       *schedule.Schedule // the snapshot plus the ops planned so far
	in      PlanInput
	answers map[string]string
	plan    Plan
}

func newBuilder(s *schedule.Schedule, in PlanInput) *builder {
	answers := map[string]string{}
	for _, c := range in.Clarifications {
		answers[strings.ToLower(strings.TrimSpace(c.About))] = strings.TrimSpace(c.Answer)
	}
	return &builder{s: s.Clone(), in: in, answers: answers}
}

// add applies op to the working copy (so later commands see it) and keeps
// it; an op the engine refuses is dropped with the reason.
func (p *builder) add(op schedule.Op) bool {
	if _, err := schedule.Apply(p.s, &op); err != nil {
		p.note("dropped: %v", err)
		return false
	}
	p.plan.Ops = append(p.plan.Ops, op)
	return true
}

func (p *builder) note(format string, args ...any) {
	p.plan.Notes = append(p.plan.Notes, fmt.Sprintf(format, args...))
}

// ask records a question; only the first of a step is asked, the others
// come up again once it is answered.
func (p *builder) ask(about, question string) {
	if p.plan.Question == "" {
		p.plan.Question, p.plan.About = question, about
	}
}

func (p *builder) finish() Plan { return p.plan }

func (p *builder) notUnderstood(part string) {
	p.note("%q: %s", part, NotUnderstood)
}

// id derives a new activity's or relationship's id from what produced it,
// so a retried step proposes the same ids.
func (p *builder) id(kind string, parts ...string) string {
	return schedule.DerivedID(append([]string{"rules-" + kind, p.in.Prompt, p.in.Feedback, strconv.Itoa(p.in.Round)}, parts...)...)
}

func (p *builder) removal(part string) {
	if m := reDeleteRels.FindStringSubmatch(part); m != nil {
		typ := relType(m[1])
		if m[2] != "" {
			p.removeLinks(typ, parseGroup(m[2]), parseGroup(m[3]), false)
		} else {
			p.removeLinks(typ, parseGroup(m[4]), parseGroup(m[5]), true)
		}
		return
	}
	if m := reDeleteRel.FindStringSubmatch(part); m != nil {
		typ := relType(m[1])
		switch {
		case m[2] != "":
			p.removeLink(typ, m[2], m[3], false)
		case m[4] != "":
			p.removeLink(typ, m[4], m[5], true)
		default:
			p.removeLink(typ, m[6], m[7], false)
		}
		return
	}
	if m := reGroupRemove.FindStringSubmatch(part); m != nil {
		p.removeGroup(strings.ToLower(m[1]) == "dissolve", parseGroup(m[2]))
		return
	}
	if m := reDeleteAct.FindStringSubmatch(part); m != nil {
		if a, ok := p.activity(m[1]); ok {
			p.add(schedule.RemoveActivity(a.ID))
		}
		return
	}
	if m := reDissolveAct.FindStringSubmatch(part); m != nil {
		if a, ok := p.activity(m[1]); ok {
			p.add(schedule.DissolveActivity(a.ID))
		}
		return
	}
	if m := reDeleteAny.FindStringSubmatch(part); m != nil {
		if a, ok := p.activity(m[1]); ok {
			p.add(schedule.RemoveActivity(a.ID))
		}
		return
	}
	p.notUnderstood(part)
}

func (p *builder) addition(i int, part string) {
	if m := reRelink.FindStringSubmatch(part); m != nil {
		to := parseGroup(m[2])
		p.relink(parseGroup(m[1]).inherit(to), to, parseGroup(m[3]).inherit(to))
		return
	}
	if m := reAddRel.FindStringSubmatch(part); m != nil {
		p.addLink(i, relType(m[1]), m[2], m[3], m[4])
		return
	}
	if m := reLink.FindStringSubmatch(part); m != nil {
		p.addLink(i, relType(m[3]), m[1], m[2], m[4])
		return
	}
	if m := reAddActivity.FindStringSubmatch(part); m != nil {
		p.addActivity(i, unquote(m[1]), m[2], strings.ToLower(m[3]), m[4])
		return
	}
	if m := reAddScope.FindStringSubmatch(part); m != nil {
		p.addScope(i, m[1], m[2])
		return
	}
	p.notUnderstood(part)
}

// relType reads a relationship type phrase; "" when none was given.
func relType(words string) schedule.RelType {
	w := strings.ToUpper(strings.NewReplacer("-", " ").Replace(strings.TrimSpace(words)))
	switch w {
	case "FS", "FINISH TO START":
		return schedule.FS
	case "SS", "START TO START":
		return schedule.SS
	case "FF", "FINISH TO FINISH":
		return schedule.FF
	case "SF", "START TO FINISH":
		return schedule.SF
	}
	return ""
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	for _, q := range []string{`"`, "'", "“"} {
		if strings.HasPrefix(s, q) {
			s = strings.TrimSpace(strings.Trim(s, `"'“”`))
			break
		}
	}
	return s
}

// activity resolves a reference to exactly one activity, or asks.
func (p *builder) activity(ref string) (schedule.Activity, bool) {
	ref = unquote(ref)
	// An answer stands for the phrase asked about; an answer that was
	// itself unclear was asked about in turn.
	for range len(p.answers) {
		ans, ok := p.answers[strings.ToLower(ref)]
		if !ok {
			break
		}
		ref = unquote(ans)
	}
	hits := resolve(p.s.Activities, ref)
	switch len(hits) {
	case 1:
		return hits[0], true
	case 0:
		p.ask(ref, fmt.Sprintf("No activity matches %q: which activity did you mean? Answer with its name or id.", ref))
		return schedule.Activity{}, false
	}
	p.ask(ref, fmt.Sprintf("%q matches %d activities: %s — which one? Answer with its name or id.", ref, len(hits), listActivities(hits, 8)))
	return schedule.Activity{}, false
}

// resolve finds the activities ref names: an exact id, else exact names
// (ignoring case), else the activities whose normalised name holds every
// normalised word of ref — narrowed to those with no other words, if any.
func resolve(acts []schedule.Activity, ref string) []schedule.Activity {
	var named []schedule.Activity
	for _, a := range acts {
		if a.ID == ref {
			return []schedule.Activity{a}
		}
		if strings.EqualFold(a.Name, ref) {
			named = append(named, a)
		}
	}
	if len(named) > 0 {
		return named
	}
	want := words(ref)
	if len(want) == 0 {
		return nil
	}
	var hits, exact []schedule.Activity
	for _, a := range acts {
		have := words(a.Name)
		if containsAll(have, want) {
			hits = append(hits, a)
			if len(have) == len(want) {
				exact = append(exact, a)
			}
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return hits
}

func listActivities(acts []schedule.Activity, max int) string {
	var b strings.Builder
	for i, a := range acts {
		if i == max {
			fmt.Fprintf(&b, ", … (%d more)", len(acts)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%s)", a.Name, a.ID)
	}
	return b.String()
}

func (p *builder) removeLink(typ schedule.RelType, from, to string, either bool) {
	a, ok1 := p.activity(from)
	b, ok2 := p.activity(to)
	if !ok1 || !ok2 {
		return
	}
	about := from + " -> " + to
	if ans, ok := p.answers[strings.ToLower(about)]; ok && typ == "" {
		typ = relType(ans)
	}
	var links []schedule.Relationship
	for _, r := range p.s.Relationships {
		forward := r.Predecessor == a.ID && r.Successor == b.ID
		backward := either && r.Predecessor == b.ID && r.Successor == a.ID
		if (forward || backward) && (typ == "" || r.Type == typ) {
			links = append(links, r)
		}
	}
	switch len(links) {
	case 0:
		p.note("no %srelationship links %q to %q: nothing deleted", typeLabel(typ), a.Name, b.Name)
	case 1:
		p.add(schedule.RemoveRelationship(links[0].ID))
	default:
		var kinds []string
		for _, l := range links {
			kinds = append(kinds, fmt.Sprintf("%s%+g (%s)", l.Type, l.Lag, l.ID))
		}
		p.ask(about, fmt.Sprintf("%q and %q are linked %d ways, %s: which one? Answer with the type (FS, SS, FF or SF).", a.Name, b.Name, len(links), strings.Join(kinds, ", ")))
	}
}

func typeLabel(t schedule.RelType) string {
	if t == "" {
		return ""
	}
	return string(t) + " "
}

// removeLinks removes every relationship from a member of g1 to a member
// of g2 (either way with either).
func (p *builder) removeLinks(typ schedule.RelType, g1, g2 group, either bool) {
	m1, m2 := g1.memberSet(p.s.Activities), g2.memberSet(p.s.Activities)
	if len(m1) == 0 || len(m2) == 0 {
		p.note("no activities are %s", map[bool]string{true: g1.String(), false: g2.String()}[len(m1) == 0])
		return
	}
	var ids []string
	for _, r := range p.s.Relationships {
		forward := m1[r.Predecessor] && m2[r.Successor]
		backward := either && m2[r.Predecessor] && m1[r.Successor]
		if (forward || backward) && (typ == "" || r.Type == typ) {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		p.note("no %srelationships from %s to %s", typeLabel(typ), g1, g2)
	}
	for _, id := range ids {
		p.add(schedule.RemoveRelationship(id))
	}
}

// removeGroup deletes or dissolves every member of g; g must name a level,
// so that "delete all painting" cannot empty a whole building by accident.
func (p *builder) removeGroup(dissolve bool, g group) {
	if ans, ok := p.answers[strings.ToLower(g.text)]; ok && g.level == "" {
		g.level = parseGroup(ans).level
	}
	if g.level == "" {
		p.ask(g.text, fmt.Sprintf("Which level do you mean by %q? Answer like \"level 2\" (the offline planner removes groups one level at a time).", strings.TrimSpace("all "+g.text)))
		return
	}
	members := g.members(p.s.Activities)
	if len(members) == 0 {
		p.note("no activities are %s", g)
		return
	}
	for _, a := range members {
		if dissolve {
			p.add(schedule.DissolveActivity(a.ID))
		} else {
			p.add(schedule.RemoveActivity(a.ID))
		}
	}
	if !dissolve {
		p.note("deleting the %d activities (%s) drops their relationships; say \"dissolve all …\" to keep the logic through them", len(members), g)
	}
}

// relink re-creates, from the counterparts in from, the links into to
// that this round removed from prev (or, said on its own, that exist now).
func (p *builder) relink(from, to, prev group) {
	inTo, inPrev := to.memberSet(p.s.Activities), prev.memberSet(p.s.Activities)
	var old []schedule.Relationship
	for _, op := range p.in.Removed {
		if op.Kind == schedule.AddRelationshipOp && op.Relationship != nil {
			old = append(old, *op.Relationship)
		}
	}
	if len(old) == 0 {
		old = p.s.Relationships
	}
	names := map[string]schedule.Activity{}
	for _, a := range p.s.Activities {
		names[a.ID] = a
	}
	for _, op := range p.in.Removed { // removed activities still name ends
		if op.Kind == schedule.AddActivityOp && op.Activity != nil {
			names[op.Activity.ID] = *op.Activity
		}
	}
	sources := from.members(p.s.Activities)
	found := false
	for _, r := range old {
		pred, ok := names[r.Predecessor]
		if !ok || !inTo[r.Successor] || (!inPrev[r.Predecessor] && !prev.matches(pred)) {
			continue
		}
		found = true
		counterpart, ok := sameTrade(sources, pred)
		if !ok {
			p.note("no counterpart of %q %s: its link to %q is not re-created", pred.Name, from, names[r.Successor].Name)
			continue
		}
		if p.linked(counterpart.ID, r.Successor, r.Type) {
			continue
		}
		p.add(schedule.AddRelationship(schedule.Relationship{
			ID:          p.id("relationship", counterpart.ID, r.Successor, string(r.Type)),
			Type:        r.Type,
			Predecessor: counterpart.ID,
			Successor:   r.Successor,
			Lag:         r.Lag,
		}))
	}
	if !found {
		p.note("no relationships from %s to %s to re-create from %s", prev, to, from)
	}
}

// sameTrade finds the activity among candidates whose name is a's with a
// different level.
func sameTrade(candidates []schedule.Activity, a schedule.Activity) (schedule.Activity, bool) {
	want := withoutLevel(words(a.Name))
	for _, c := range candidates {
		if slices.Equal(withoutLevel(words(c.Name)), want) {
			return c, true
		}
	}
	return schedule.Activity{}, false
}

func (p *builder) linked(pred, succ string, typ schedule.RelType) bool {
	for _, r := range p.s.Relationships {
		if r.Predecessor == pred && r.Successor == succ && r.Type == typ {
			return true
		}
	}
	return false
}

func (p *builder) addLink(i int, typ schedule.RelType, from, to, lag string) {
	a, ok1 := p.activity(from)
	b, ok2 := p.activity(to)
	if !ok1 || !ok2 {
		return
	}
	if typ == "" {
		typ = schedule.FS
	}
	r := schedule.Relationship{ID: p.id("relationship", strconv.Itoa(i), a.ID, b.ID, string(typ)), Type: typ, Predecessor: a.ID, Successor: b.ID}
	if lag != "" {
		r.Lag, _ = strconv.ParseFloat(lag, 64) // the pattern admits only numbers
	}
	p.add(schedule.AddRelationship(r))
}

func (p *builder) addActivity(i int, name, days, where, ref string) {
	var anchor schedule.Activity
	if where != "" {
		var ok bool
		if anchor, ok = p.activity(ref); !ok {
			return
		}
	}
	a := schedule.Activity{ID: p.id("activity", strconv.Itoa(i), name), Name: name, Duration: days}
	if !p.add(schedule.AddActivity(a)) {
		return
	}
	link := schedule.Relationship{ID: p.id("relationship", strconv.Itoa(i), name, anchor.ID), Type: schedule.FS}
	switch where {
	case "after":
		link.Predecessor, link.Successor = anchor.ID, a.ID
	case "before":
		link.Predecessor, link.Successor = a.ID, anchor.ID
	default:
		return
	}
	p.add(schedule.AddRelationship(link))
}

// addScope adds one activity for the work on a level ("add activities for
// excavation on floor 1"), placed ahead of the level's first activity: it
// follows that activity's predecessors and precedes it.
func (p *builder) addScope(i int, what, days string) {
	g := parseGroup(what)
	if g.level == "" || g.trade == "" {
		p.notUnderstood("add activities for " + what)
		return
	}
	name := titleCase(g.trade) + " " + levelName(g.level)
	if hits := resolve(p.s.Activities, name); len(hits) > 0 {
		p.note("%s exists already (%s): nothing added", hits[0].Name, hits[0].ID)
		return
	}
	if days == "" {
		days = DefaultNewDuration
		p.note("%s takes %s days, the offline planner's default: say \"… for N days\" to set it", name, days)
	}
	first, linked := p.firstOf(group{level: g.level})
	a := schedule.Activity{ID: p.id("activity", strconv.Itoa(i), name), Name: name, Duration: days}
	if !p.add(schedule.AddActivity(a)) {
		return
	}
	if !linked {
		p.note("%s has no other activities: %s is not linked", levelName(g.level), name)
		return
	}
	for _, r := range slices.Clone(p.s.Relationships) {
		if r.Successor == first.ID {
			p.add(schedule.AddRelationship(schedule.Relationship{ID: p.id("relationship", a.ID, r.Predecessor), Type: schedule.FS, Predecessor: r.Predecessor, Successor: a.ID}))
		}
	}
	p.add(schedule.AddRelationship(schedule.Relationship{ID: p.id("relationship", a.ID, first.ID), Type: schedule.FS, Predecessor: a.ID, Successor: first.ID}))
}

// firstOf is the member of g with the earliest early start (schedule
// order breaks ties).
func (p *builder) firstOf(g group) (schedule.Activity, bool) {
	res, err := schedule.Analyze(p.s)
	if err != nil {
		return schedule.Activity{}, false
	}
	best, found := schedule.Activity{}, false
	bestES := 0.0
	for _, a := range g.members(p.s.Activities) {
		i, ok := res.Net.Index(a.ID)
		if !ok {
			continue
		}
		if es := res.ES[i]; !found || es < bestES {
			best, bestES, found = a, es, true
		}
	}
	return best, found
}

func titleCase(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func levelName(token string) string {
	return "Level " + strings.TrimPrefix(token, "level_")
}
