package lang

import (
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lazyre"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Feedback is a reviewer's reason for rejecting a proposal, read as what
// to do to it: whole commands ("only delete the drywall board on level
// 2"), or changes to the proposal ("not the taping", "use SS", "with 2 days
// lag", "make it 4 days", "keep the logic").
type Feedback struct {
	// Commands are whole commands said; with Also they add to the
	// proposal, otherwise they replace its part of the same kind.
	Commands []Command
	Only     bool // "only …", "just …"
	Also     bool // "also …", "… as well"
	// Exclude drops what the proposal does to these ("not X", "keep X").
	Exclude []Ref
	// Keep restricts the proposal to these ("only X").
	Keep []Ref
	// More does to these what the proposal does ("and X too").
	More []Ref
	// Type, Lag and Days change the proposal's links and durations.
	Type schedule.RelType
	Lag  *float64
	Days *float64
	// Name renames the activity the proposal adds ("call it X").
	Name string
	// Dissolve turns deletions into dissolves ("keep the logic"), Delete
	// the other way ("delete it outright").
	Dissolve, Delete bool
	// Unknown are the parts not understood.
	Unknown []Command
}

// Understood reports whether anything in the feedback was understood.
func (f Feedback) Understood() bool {
	return len(f.Commands) > 0 || len(f.Exclude) > 0 || len(f.Keep) > 0 || len(f.More) > 0 || f.Type != "" || f.Lag != nil || f.Name != "" ||
		f.Days != nil || f.Dissolve || f.Delete
}

var (
	fbOnly      = lazyre.New(`^(?:only|just|solely|merely)\b ?`)
	fbOnlyTail  = lazyre.New(` (?:only|alone)$`)
	fbAlso      = lazyre.New(`^(?:and also|also|additionally|in addition|plus|and)\b ?`)
	fbAlsoTail  = lazyre.New(` (?:as well|too|also)$`)
	fbOpeners   = lazyre.New(`^(?:(?:wrong one|not that one|not quite|too much|too many|too far|that is too much|thats too much|thats wrong|that is wrong|go with|no|nope|wrong|close|almost|good|fine|ok|okay|yes|but|however|actually|sorry|hmm|instead|rather|do|try|,)\b ?)+`)
	fbNoLag     = lazyre.New(`^(?:no|zero|without|without a|without any|delete the|delete|drop the|with no|with zero) (?:lag|delay|gap)$`)
	fbExclude   = lazyre.New(`^(?:not|except|excluding|exclude|except for|apart from|but not|leave|leave out|keep|skip|without|spare|cannot delete|dont delete|cannot touch|dont touch|cannot|dont) (?P<x>.+?)(?: alone| out| in place| in| as it is| as is| please)?$`)
	fbDissolve  = lazyre.New(`^(?:dissolve (?:it|them|instead|those|these)(?: instead)?|dissolve|dissolve instead)$`)
	fbDelete    = lazyre.New(`^(?:delete (?:it|them|those|these) (?:outright|instead|completely)|delete instead|delete outright|cannot keep the logic|dont keep the logic|drop the logic)$`)
	fbSlotStart = lazyre.New(`^(?:(?:make|change|set|use|it should be|they should be|should be|it is|as|with|an?|the|it|them|that|the link|the links|the lag|the type|the duration|to|be|instead|please)(?: |$))*`)
	fbDays      = lazyre.New(`^(?:(?:it|they) (?:should )?(?:take|takes|last|lasts) )?(-?\d+(?:\.\d+)? (?:days|weeks|hours))(?: long| each| duration)?$`)
	fbName      = lazyre.New(`^(?:call|name|rename|title) (?:it|that|this|the new activity|the new one|the activity|the new task) (?:to |as |instead )?(?P<x>.+?)(?: instead)?$`)
	fbMeant     = lazyre.New(`^(?:i meant|i mean|meant|i said|it should be|it was) (?P<x>.+)$`)
	// fbCorrection is the old value a correction names after the new one:
	// "3 days, not 2", "FS+1 instead of FS", "2 days lag rather than 1".
	fbCorrection = lazyre.New(` ?,? (?:not|instead of|instead|rather than|vs|versus) (?:of )?(?:the )?(?:-?\d+(?:\.\d+)?(?: (?:days|weeks|hours))?|fs|ss|ff|sf)(?: (?:days|weeks|hours|lag))?$`)
)

// ParseFeedback reads feedback on a proposal.
func ParseFeedback(src string, opt Options) Feedback {
	var f Feedback
	p := newParser(src, opt)
	for _, cl := range p.clauses() {
		if opt.stopped() {
			break
		}
		c := cl
		if fbNoLag.MatchString(strings.TrimSuffix(stripPolite(c).s, " please")) {
			zero := 0.0
			f.Lag = &zero
			continue
		}
		if m := fbOpeners.FindStringIndex(c.s); m != nil && m[1] > 0 {
			c = c.without(0, m[1])
		}
		if m := fbOnly.FindStringIndex(c.s); m != nil {
			f.Only, c = true, c.without(0, m[1])
		} else if m := fbAlso.FindStringIndex(c.s); m != nil {
			f.Also, c = true, c.without(0, m[1])
		}
		if m := fbOnlyTail.FindStringIndex(c.s); m != nil {
			f.Only, c = true, c.without(m[0], m[1])
		} else if m := fbAlsoTail.FindStringIndex(c.s); m != nil {
			f.Also, c = true, c.without(m[0], m[1])
		}
		c = stripPolite(c)
		if m := fbCorrection.FindStringIndex(c.s); m != nil && m[0] > 0 {
			c = c.without(m[0], m[1])
		}
		if c.s == "" {
			continue
		}
		if cc, keep := modifier(c, keepLogicRe); keep && strings.TrimSpace(strings.Trim(cc.s, ", ")) == "" {
			f.Dissolve = true
			continue
		}
		switch {
		case fbDissolve.MatchString(c.s):
			f.Dissolve = true
			continue
		case fbDelete.MatchString(c.s):
			f.Delete = true
			continue
		}
		// Slot-only feedback: "SS", "with 2 days lag", "make it 4 days".
		if rest, typ, lag, hasLag := p.linkPhrases(c); typ != "" || hasLag {
			r := fbSlotStart.ReplaceAllString(rest.s, "")
			if strings.Trim(r, " ,") == "" || r == "instead" || r == "link" || r == "links" {
				if typ != "" {
					f.Type = typ
				}
				if hasLag {
					f.Lag = &lag
				}
				continue
			}
		}
		if r := fbSlotStart.ReplaceAllString(c.s, ""); fbDays.MatchString(r) {
			if d, ok := p.duration(fbDays.FindStringSubmatch(r)[1]); ok {
				f.Days = &d
				continue
			}
		}
		if g := fbExclude.FindStringSubmatchIndex(c.s); g != nil && !strings.HasPrefix(c.s, "keep the logic") {
			i := fbExclude.SubexpIndex("x")
			f.Exclude = append(f.Exclude, c.refOf(c.tokens(g[2*i], g[2*i+1])))
			continue
		}
		if g := fbName.FindStringSubmatchIndex(c.s); g != nil {
			i := fbName.SubexpIndex("x")
			f.Name = sentenceCase(unquote(c.t.span(c.tokens(g[2*i], g[2*i+1])[0], c.tokens(g[2*i], g[2*i+1])[len(c.tokens(g[2*i], g[2*i+1]))-1]+1)))
			continue
		}
		if g := fbMeant.FindStringSubmatchIndex(c.s); g != nil {
			i := fbMeant.SubexpIndex("x")
			f.Keep = append(f.Keep, c.refOf(c.tokens(g[2*i], g[2*i+1])))
			continue
		}
		cmd := p.command(c)
		if cmd.Kind == Unknown && (f.Only || p.opt.Resolves != nil && p.opt.Resolves(c.refOf(c.idx).Words)) {
			// "only the drywall board": a restriction of the proposal;
			// "and Hoarding removal": more of the same.
			if f.Also && !f.Only {
				f.More = append(f.More, c.refOf(c.idx))
			} else {
				f.Keep = append(f.Keep, c.refOf(c.idx))
			}
			continue
		}
		if cmd.Kind == Unknown || cmd.Kind == Unsupported {
			cmd.Source = cl.source()
			f.Unknown = append(f.Unknown, cmd)
			continue
		}
		f.Commands = append(f.Commands, cmd)
	}
	return f
}
