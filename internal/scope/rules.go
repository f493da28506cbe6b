package scope

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Rules is the offline planner, the default when no LLM is configured. It
// reads requests with the language layer (internal/lang) — synonyms,
// relationship phrasings, durations, placement, levels, lists, typos
// resolved against the schedule's names — and turns each command into
// ops. It never guesses: a reference that names several activities or
// none becomes a question about that one slot; what it understands but
// does not do, and what it does not understand, become notes that say so.
type Rules struct{}

var _ Planner = Rules{}

// NotUnderstood ends the note for a part of a request the rules planner
// cannot read.
const NotUnderstood = "not understood by the offline planner: say it like \"delete activity NAME\", \"dissolve NAME\", \"add a 3 day NAME after X\", \"link X to Y SS with 2 days lag\", \"X can't start until Y finishes\", \"set the duration of X to 5 days\" or \"X should follow Y instead of Z\"; or configure an LLM (OPENAI_API_KEY or OPENAI_BASE_URL) for free-form prompts"

// DefaultNewDuration is the duration, in working days, the rules planner
// gives new scope added by "add activities for WORK on LEVEL" when the
// prompt names none (it says so in a note).
const DefaultNewDuration = "5"

// Separate splits the prompt into its removal commands and the rest, each
// as the person wrote it, and a prompt of several requests into its tasks
// (Decompose), from one reading of the prompt. Re-sequencing goes in
// both: its old links are removed in one step and its new ones added in
// the other.
//
// Each planning step reads its part again, against the schedule as the
// step finds it: typo correction to the schedule's names and where a name
// ends (lang.Options) depend on it, and a step's new IDs derive from its
// words.
//
// A prompt over MaxPrompt is refused (ErrTooLong); a cancelled ctx stops
// it with ctx's error.
func (Rules) Separate(ctx context.Context, prompt string) (Separation, error) {
	if err := CheckPrompt("prompt", prompt); err != nil {
		return Separation{}, err
	}
	// The requests' commands are lang.Parse's, in order: a request is
	// one command and the clauses an ellipsis adds to it.
	reqs := lang.Requests(prompt, lang.Options{Context: ctx})
	if err := ctx.Err(); err != nil {
		return Separation{}, err
	}
	var rem, add []string
	for _, r := range reqs {
		for _, c := range r.Commands {
			if c.Kind.Removal() {
				rem = append(rem, c.Source)
			}
			if c.Kind.Addition() {
				add = append(add, c.Source)
			}
		}
	}
	return Separation{Removals: strings.Join(rem, "; "), Additions: strings.Join(add, "; "), Tasks: decompose(reqs)}, nil
}

// PlanRemovals plans the removals step. An input over MaxPrompt is
// refused (ErrTooLong); a cancelled ctx stops it with ctx's error.
func (Rules) PlanRemovals(ctx context.Context, snap Snapshot, in PlanInput) (Plan, error) {
	return planStep(ctx, snap, in, true)
}

// PlanAdditions plans the additions step, as PlanRemovals does.
func (Rules) PlanAdditions(ctx context.Context, snap Snapshot, in PlanInput) (Plan, error) {
	return planStep(ctx, snap, in, false)
}

func planStep(ctx context.Context, snap Snapshot, in PlanInput, removals bool) (Plan, error) {
	if err := in.Check(); err != nil {
		return Plan{}, err
	}
	if err := ctx.Err(); err != nil {
		return Plan{}, err
	}
	var notes []string
	if in.Feedback != "" && len(in.Previous) > 0 {
		in.Previous, notes = currentDefaults(ctx, snap, in, removals)
	}
	plan := planRules(ctx, snap, in, removals)
	if err := ctx.Err(); err != nil {
		return Plan{}, err // stopped part way: what was planned is not the step's plan
	}
	for _, n := range notes {
		if !slices.Contains(plan.Notes, n) {
			plan.Notes = append(plan.Notes, n)
		}
	}
	return plan, nil
}

func planRules(ctx context.Context, snap Snapshot, in PlanInput, removals bool) Plan {
	if in.Preferences != nil {
		// The trade vocabulary's synonyms read as the schedule's words.
		in.Prompt = withTradeWords(in.Prompt, in.Preferences, snap.Schedule)
		in.Feedback = withTradeWords(in.Feedback, in.Preferences, snap.Schedule)
	}
	b := newBuilder(snap.Schedule, in)
	b.ctx = ctx
	opt := b.options()
	if in.Feedback != "" && len(in.Previous) > 0 {
		b.feedback(lang.ParseFeedback(in.Feedback, opt), removals)
		return b.finish()
	}
	if in.Feedback != "" {
		// No earlier proposal to change: the feedback's commands of this
		// step's kind replace the prompt's.
		fb := lang.Parse(in.Feedback, opt)
		for _, c := range fb {
			if c.Kind == lang.Relink || c.Kind.Removal() == removals && c.Kind != lang.Unknown && c.Kind != lang.Unsupported {
				b.commands(fb, removals, true)
				return b.finish()
			}
		}
	}
	b.commands(lang.Parse(in.Prompt, opt), removals, false)
	return b.finish()
}

// options fits the parser to the snapshot: its names for typo correction,
// its calendar for weeks and hours.
func (b *builder) options() lang.Options {
	res := b.resolver()
	vocab := res.Vocabulary()
	var removed []schedule.Activity // what this round's removals took out still names words
	for _, op := range b.in.Removed {
		if op.Activity != nil {
			removed = append(removed, *op.Activity)
		}
	}
	if len(removed) > 0 {
		vocab = maps.Clone(vocab)
		maps.Copy(vocab, lang.NewResolver(&schedule.Schedule{Activities: removed}).Vocabulary())
	}
	if words := b.in.Preferences.Vocabulary(); len(words) > 0 { // the trade vocabulary
		vocab = maps.Clone(vocab)
		for _, w := range words {
			vocab[w] = true
		}
	}
	opt := lang.Options{Vocabulary: vocab, Resolves: func(words string) bool {
		return res.Resolve(lang.Ref{Text: words, Words: words}).Status != lang.Missing
	}, Context: b.ctx}
	if cal := b.s.Calendar; cal != nil {
		if len(cal.Workdays) > 0 {
			opt.DaysPerWeek = float64(len(cal.Workdays))
		}
		if wt, err := cal.Compile(); err == nil {
			opt.HoursPerDay = wt.MinutesPerDay() / 60
		}
	}
	return opt
}

// commands plans each command of the step in order, until one asks.
// Relink is split between the steps; everything else the step was given
// is its own (Separate put it there).
func (b *builder) commands(cmds []lang.Command, removals, onlyOwnKind bool) {
	for i, c := range cmds {
		if b.asking() || b.stopped() {
			return
		}
		if onlyOwnKind && c.Kind != lang.Relink && c.Kind.Removal() != removals {
			continue
		}
		b.source = c.Source
		b.command(i, c, removals)
	}
}

// command plans one command, all or nothing: when the engine refuses one
// of its ops (a link that would close a loop), the ops it planned before
// are taken back too, so no command is ever half done.
func (b *builder) command(i int, c lang.Command, removals bool) {
	before, ops, notes := b.s.Clone(), len(b.plan.Ops), len(b.plan.Notes)
	b.plan1(i, c, removals)
	var refused []string
	for _, n := range b.plan.Notes[notes:] {
		if reason, ok := strings.CutPrefix(n, "dropped: "); ok {
			refused = append(refused, reason)
		}
	}
	if len(refused) == 0 {
		return
	}
	b.s, b.res, b.view = before, nil, nil
	b.plan.Ops = b.plan.Ops[:ops]
	b.plan.Notes = b.plan.Notes[:notes]
	b.note("%q is not changed: %s", c.Source, strings.Join(refused, "; "))
}

func (b *builder) plan1(i int, c lang.Command, removals bool) {
	key := strconv.Itoa(i) + "/" + c.Source
	switch c.Kind {
	case lang.Delete, lang.Dissolve:
		b.removeActivities(c)
	case lang.Unlink:
		b.unlink(c)
	case lang.Relink:
		if removals {
			b.relinkRemove(c)
		} else {
			b.relinkAdd(key, c)
		}
	case lang.Link:
		b.link(key, c)
	case lang.SetLink:
		b.setLink(c)
	case lang.SetDuration:
		b.setDuration(c)
	case lang.Rename:
		b.rename(c)
	case lang.Delay:
		b.delay(c)
	case lang.Constrain:
		b.constrainCmd(c)
	case lang.Unconstrain:
		b.unconstrainCmd(c)
	case lang.Progress:
		b.progress(c)
	case lang.DataDate:
		b.dataDateCmd(c)
	case lang.Add:
		b.addActivity(key, c)
	case lang.AddScope:
		b.addScope(key, c)
	case lang.Copy:
		b.copyPlace(key, c)
	case lang.Unsupported:
		if answer, ok := b.answer(c.Source); ok {
			if len(b.in.Removed) > 0 || len(b.plan.Ops) > 0 {
				answer = "(on the schedule with the changes planned so far) " + answer
			}
			b.note("%q: %s", c.Source, answer)
			return
		}
		b.note("%q: %s", c.Source, c.Reason)
	default:
		reason := NotUnderstood
		if c.Reason != "" && c.Reason != "not understood" {
			reason = c.Reason + "; " + NotUnderstood
		}
		b.note("%q: %s", c.Source, reason)
	}
}

func (b *builder) removeActivities(c lang.Command) {
	acts, ok := b.refsActs(c.Targets, true)
	if !ok {
		return
	}
	for _, a := range acts {
		if c.Kind == lang.Dissolve {
			b.add(schedule.DissolveActivity(a.ID))
		} else {
			b.add(schedule.RemoveActivity(a.ID))
		}
	}
	if c.Kind == lang.Delete && len(acts) > 1 {
		b.note("deleting the %d activities of %q (%s) drops their relationships; say \"dissolve …\" or \"… but keep the logic\" to tie their predecessors to their successors", len(acts), c.Source, listActivities(acts, 20))
	}
}

// singularLink reports whether the words name one link ("the link
// between"), where the logic, links or relationships mean all of them.
func singularLink(source string) bool {
	s := " " + strings.ToLower(source) + " "
	for _, w := range []string{" link ", " relationship ", " dependency ", " tie ", " connection ", " relation "} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func (b *builder) unlink(c lang.Command) {
	// An end left out is any activity ("delete all links into X").
	from, to := b.s.Activities, b.s.Activities
	var ok bool
	if len(c.From) > 0 {
		if from, ok = b.refsActs(c.From, true); !ok {
			return
		}
	}
	if len(c.To) > 0 {
		if to, ok = b.refsActs(c.To, true); !ok {
			return
		}
	}
	typ := c.Type
	about := "type of " + c.Source
	if ans, ok := b.answered(about); ok && typ == "" {
		typ = schedule.ReadRelType(ans)
	}
	links := b.links(from, to, typ, c.Either)
	switch {
	case len(links) == 0:
		if len(c.From) > 0 && len(c.To) > 0 {
			b.note("%q: no %srelationship links %s to %s: nothing deleted", c.Source, typeLabel(typ), names(from), names(to))
		} else {
			b.note("%q: no %srelationship there: nothing deleted", c.Source, typeLabel(typ))
		}
		return
	case len(links) > 1 && typ == "" && len(from) == 1 && len(to) == 1 && singularLink(c.Source):
		b.askChoosing(about, fmt.Sprintf("%s and %s are linked %d ways, %s: which one? Answer with the type (FS, SS, FF or SF), or \"all\".", names(from), names(to), len(links), describeLinks(links)), false,
			append(linkChoices(links), Choice{Label: "all of them", Answer: "all"}))
		return
	}
	for _, r := range links {
		b.add(schedule.RemoveRelationship(r.ID))
	}
}

func names(acts []schedule.Activity) string {
	if len(acts) > 3 {
		return fmt.Sprintf("%q and %d more", acts[0].Name, len(acts)-1)
	}
	var q []string
	for _, a := range acts {
		q = append(q, strconv.Quote(a.Name))
	}
	return strings.Join(q, " and ")
}

func (b *builder) link(key string, c lang.Command) {
	from, to, ok := b.linkEnds(c)
	if !ok {
		return
	}
	if len(from) > 1 && len(to) > 1 && b.wholePlaces(c.From) && b.wholePlaces(c.To) {
		// "link span 1 to span 2": the one place follows the other, its
		// first activities after the other's last, not every pair.
		from, to = ends(b.s, from, false), ends(b.s, to, true)
		b.note("%q: %s follow %s", c.Source, names(to), names(from))
	} else if pairs, ok := counterpartPairs(b.resolver(), from, to); ok {
		// "fit-outs on floor 4 should follow floor 2": each trade follows
		// its own on the other place, not every pair.
		for _, p := range pairs {
			typ, lag := b.linkDefault(p[1].Name, c.Type, c.Lag)
			b.addLink(key, p[0], p[1], typ, lag)
		}
		return
	}
	for _, f := range from {
		for _, t := range to {
			typ, lag := b.linkDefault(t.Name, c.Type, c.Lag)
			// "X should follow Y" where Y already drives X another way
			// (SS+5): the words do not say to change or add to that.
			if existing := b.links([]schedule.Activity{f}, []schedule.Activity{t}, "", false); c.Type == "" && len(existing) > 0 && existing[0].Type != typ {
				b.note("%q already precedes %q %s%+g: nothing added; to make it %s say \"change the link from %s to %s to %s\"", f.Name, t.Name, existing[0].Type, existing[0].Lag, typ, f.Name, t.Name, typ)
				continue
			}
			b.addLink(key, f, t, typ, lag)
		}
	}
}

// linkEnds resolves both ends of a link command, from first; ok is false
// when either names nothing clear (it is asked about).
func (b *builder) linkEnds(c lang.Command) (from, to []schedule.Activity, ok bool) {
	if from, ok = b.refsActs(c.From, true); !ok {
		return nil, nil, false
	}
	to, ok = b.refsActs(c.To, true)
	return from, to, ok
}

// addLink adds f → t unless that link exists already.
func (b *builder) addLink(key string, f, t schedule.Activity, typ schedule.RelType, lag float64) {
	for _, r := range b.s.Relationships {
		if r.Predecessor == f.ID && r.Successor == t.ID && r.Type == typ {
			if r.Lag == lag {
				b.note("%q already precedes %q %s%+g: nothing to add", f.Name, t.Name, r.Type, r.Lag)
			} else {
				b.note("%q already precedes %q %s%+g: to change the lag say \"change the lag from %s to %s to %s days\"", f.Name, t.Name, r.Type, r.Lag, f.Name, t.Name, formatDays(lag))
			}
			return
		}
	}
	b.add(schedule.AddRelationship(schedule.Relationship{ID: b.relationshipID(key, f.ID, t.ID, string(typ)), Type: typ, Predecessor: f.ID, Successor: t.ID, Lag: lag}))
}

func (b *builder) setLink(c lang.Command) {
	if c.Type == "" && c.Lag == nil {
		b.note("%q: %s", c.Source, NotUnderstood)
		return
	}
	from, to, ok := b.linkEnds(c)
	if !ok {
		return
	}
	links := b.links(from, to, "", c.Either)
	about := "type of " + c.Source
	if len(links) > 1 && c.Type != "" && c.Lag != nil {
		// "set the lag on X to Y SS to 4 days": the type names the link.
		if same := slices.DeleteFunc(slices.Clone(links), func(r schedule.Relationship) bool { return r.Type != c.Type }); len(same) == 1 {
			links = same
		}
	}
	if len(links) > 1 {
		if ans, ok := b.answered(about); ok && schedule.ReadRelType(ans) != "" {
			links = slices.DeleteFunc(links, func(r schedule.Relationship) bool { return r.Type != schedule.ReadRelType(ans) })
		}
	}
	switch {
	case len(links) == 0:
		b.note("%q: no relationship links %s to %s, so there is no lag or type to change; to add one say \"link %s to %s\"", c.Source, names(from), names(to), from[0].Name, to[0].Name)
		return
	case len(links) > 1 && len(from) == 1 && len(to) == 1:
		b.ask(about, fmt.Sprintf("%s and %s are linked %d ways, %s: which one do you mean? Answer with the type (FS, SS, FF or SF).", names(from), names(to), len(links), describeLinks(links)))
		return
	}
	for _, r := range links {
		next := r
		if c.Type != "" {
			next.Type = c.Type
		}
		if c.Lag != nil {
			if c.LagDelta {
				next.Lag += *c.Lag
			} else {
				next.Lag = *c.Lag
			}
		}
		if next == r {
			b.note("%q is already %s%+g from %q: nothing to change", b.nameOf(r.Successor), r.Type, r.Lag, b.nameOf(r.Predecessor))
			continue
		}
		b.add(schedule.UpdateRelationship(next))
	}
}

func (b *builder) nameOf(id string) string {
	if a, ok := b.s.Activity(id); ok {
		return a.Name
	}
	return id
}

func (b *builder) setDuration(c lang.Command) {
	acts, ok := b.refsActs(c.Targets, true)
	if !ok {
		return
	}
	if len(acts) > 1 {
		b.note("%q takes in %d activities: %s", c.Source, len(acts), listActivities(acts, 20))
	}
	for _, a := range acts {
		next := a
		if c.DaysDelta {
			old, err := strconv.ParseFloat(strings.TrimSpace(a.Duration), 64)
			if err != nil {
				b.note("%q: %s's duration is %s, so a change by a number of days is not clear: say \"set the duration of %s to …\"", c.Source, a.Name, a.Duration, a.Name)
				continue
			}
			if old+*c.Days < 0 {
				b.note("%q: %s lasts %s days and cannot be shortened by %s", c.Source, a.Name, a.Duration, formatDays(-*c.Days))
				continue
			}
			next.Duration = formatDays(old + *c.Days)
		} else {
			next.Duration = formatDays(*c.Days)
		}
		if next.Duration == a.Duration {
			b.note("%s already lasts %s days: nothing to change", a.Name, a.Duration)
			continue
		}
		if a.ActualStart != "" && a.ActualFinish == "" && a.Remaining != "" {
			b.note("%s is in progress with %s days remaining, which is what places the rest of it: say \"N days remaining on %s\" to change that", a.Name, a.Remaining, a.Name)
		}
		b.add(schedule.UpdateActivity(next))
	}
}

func (b *builder) rename(c lang.Command) {
	acts, ok := b.refsActs(c.Targets, false)
	if !ok {
		return
	}
	next := acts[0]
	next.Name = c.Name
	b.add(schedule.UpdateActivity(next))
}

// addActivity adds one new activity and the links that place it. What the
// request leaves out that a planner must decide — the name, the duration —
// is asked for.
func (b *builder) addActivity(key string, c lang.Command) {
	if b.addPerLevel(key, c) {
		return
	}
	name := c.Name
	if name == "" {
		about := "name of the new activity in " + c.Source
		ans, ok := b.answered(about)
		if !ok || noneAnswer.MatchString(strings.ToLower(ans)) {
			if ok {
				b.note("%q: left out, as you answered %q", c.Source, ans)
				return
			}
			b.ask(about, fmt.Sprintf("What should the new activity in %q be called?", c.Source))
			return
		}
		name = strings.TrimSpace(strings.Trim(ans, `"'`))
	}
	if named := b.preferredName(name); named != name {
		b.note("%q is named %q, by the schedule's naming pattern", name, named)
		name = named
	}
	// "add Tiling Level 2 after Painting Level 2" names an activity the
	// schedule has: the planner means the link.
	if existing := b.exactName(name); existing != nil && (len(c.After) > 0 || len(c.Before) > 0) {
		b.note("%q exists already (%s): linked, not added again", existing.Name, existing.ID)
		after, ok := b.refsActs(c.After, true)
		if !ok && len(c.After) > 0 {
			return
		}
		before, ok := b.refsActs(c.Before, true)
		if !ok && len(c.Before) > 0 {
			return
		}
		for _, a := range after {
			typ, lag := b.linkDefault(existing.Name, "", nil)
			b.addLink(key, a, *existing, typ, lag)
		}
		for _, a := range before {
			typ, lag := b.linkDefault(a.Name, "", nil)
			b.addLink(key, *existing, a, typ, lag)
		}
		return
	} else if existing != nil {
		b.note("%q exists already (%s): nothing added", existing.Name, existing.ID)
		return
	}
	var days string
	switch {
	case c.Days != nil:
		days = formatDays(*c.Days)
	case b.hasDefaultDuration(name):
		days, _ = b.defaultDuration(name)
		b.note("%s takes %s, the schedule's default for new activities: say \"… for N days\" to set it", name, daysLabel(days))
	default:
		about := "duration of " + name
		ans, ok := b.answered(about)
		if !ok {
			b.ask(about, fmt.Sprintf("How many working days does %q take? Answer like \"3 days\", \"2 weeks\" or \"milestone\".", name))
			return
		}
		d, ok := answerDays(ans, b.options())
		if !ok {
			b.ask(about, fmt.Sprintf("Your answer %q is not a duration. How many working days does %q take? Answer like \"3 days\", \"2 weeks\" or \"milestone\".", ans, name))
			return
		}
		days = d
	}
	after, ok := b.refsActs(c.After, true)
	if !ok && len(c.After) > 0 && !b.skipped {
		return
	}
	before, ok := b.refsActs(c.Before, true)
	if !ok && len(c.Before) > 0 && !b.skipped {
		return
	}
	a, added := b.addNew(schedule.Activity{Name: name, Duration: days}, after, before, key, name)
	if !added {
		return
	}
	typ, lag := b.linkDefault(a.Name, c.Type, c.Lag)
	for _, p := range after {
		b.addLink(key, p, a, typ, lag)
	}
	for _, s := range before {
		st, sl := b.linkDefault(s.Name, "", nil)
		b.addLink(key, a, s, st, sl)
	}
	for _, p := range after {
		for _, s := range before {
			if l := b.links([]schedule.Activity{p}, []schedule.Activity{s}, "", false); len(l) > 0 {
				b.note("the existing link %s → %s stays: delete it if %s should be the only thing between them", p.Name, s.Name, name)
			}
		}
	}
	if len(after)+len(before) == 0 {
		b.note("%s is not linked to anything, so it starts at the project start: say \"add … after X\" to place it", name)
	}
}

// answerDays reads an answer to "how long?".
func answerDays(ans string, opt lang.Options) (string, bool) {
	a := strings.ToLower(strings.TrimSpace(ans))
	if strings.Contains(a, "milestone") {
		return "0", true
	}
	if v, err := strconv.ParseFloat(a, 64); err == nil && v >= 0 {
		return formatDays(v), true
	}
	cmds := lang.Parse("set the duration of X to "+a, opt)
	if len(cmds) == 1 && cmds[0].Kind == lang.SetDuration && cmds[0].Days != nil && *cmds[0].Days >= 0 {
		return formatDays(*cmds[0].Days), true
	}
	return "", false
}

func (b *builder) exactName(name string) *schedule.Activity {
	for i, a := range b.s.Activities {
		if strings.EqualFold(strings.TrimSpace(a.Name), strings.TrimSpace(name)) {
			return &b.s.Activities[i]
		}
	}
	return nil
}

// addScope adds one activity for the work on a level ("add activities for
// excavation on floor 1"), placed ahead of the level's first activity: it
// follows that activity's predecessors and precedes it.
func (b *builder) addScope(key string, c lang.Command) {
	what := c.Targets[0].Text
	level := lang.LevelOf(what)
	trade := lang.TradeOf(what)
	if level == "" || trade == "" {
		b.addActivity(key, lang.Command{Kind: lang.Add, Source: c.Source, Name: sentence(trade), Days: c.Days})
		return
	}
	name := b.scopeName(trade, level)
	if existing := b.exactName(name); existing != nil {
		b.note("%s exists already (%s): nothing added", existing.Name, existing.ID)
		return
	}
	days := DefaultNewDuration
	if c.Days != nil {
		days = formatDays(*c.Days)
	} else if d, ok := b.defaultDuration(name); ok {
		days = d
		b.note("%s takes %s, the schedule's default for new activities: say \"… for N days\" to set it", name, daysLabel(days))
	} else {
		b.note("%s takes %s days, the offline planner's default: say \"… for N days\" to set it", name, days)
	}
	first, linked := b.firstOf(group{level: level})
	var anchors []schedule.Activity
	if linked {
		anchors = []schedule.Activity{first}
	}
	a, added := b.addNew(schedule.Activity{Name: name, Duration: days}, nil, anchors, key, name)
	if !added {
		return
	}
	if !linked {
		b.note("%s has no other activities: %s is not linked", levelName(level), name)
		return
	}
	for _, r := range slices.Clone(b.s.Relationships) {
		if r.Successor == first.ID {
			typ, lag := b.linkDefault(a.Name, "", nil)
			b.add(schedule.AddRelationship(schedule.Relationship{ID: b.relationshipID(a.ID, r.Predecessor), Type: typ, Predecessor: r.Predecessor, Successor: a.ID, Lag: lag}))
		}
	}
	typ, lag := b.linkDefault(first.Name, "", nil)
	b.add(schedule.AddRelationship(schedule.Relationship{ID: b.relationshipID(a.ID, first.ID), Type: typ, Predecessor: a.ID, Successor: first.ID, Lag: lag}))
}

// firstOf is the member of g with the earliest early start (schedule
// order breaks ties).
func (b *builder) firstOf(g group) (schedule.Activity, bool) {
	res, err := schedule.Analyze(b.s)
	if err != nil {
		return schedule.Activity{}, false
	}
	best, found := schedule.Activity{}, false
	bestES := 0.0
	for _, a := range g.members(b.s.Activities) {
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

func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func levelName(token string) string {
	return "Level " + strings.TrimPrefix(token, "level_")
}
