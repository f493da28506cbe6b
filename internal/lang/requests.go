package lang

import (
	"slices"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lazyre"
)

// Request is one request of a multi-part prompt ("delete the level 4
// ceilings, add … on each level, then make the roof start after …"): the
// commands it reads as (one, or more when an ellipsis continues it:
// "delete painting on level 2, then level 3") and whether the prompt put
// it after the request before ("then …", "after that …").
type Request struct {
	Source    string    `json:"source"`
	Commands  []Command `json:"commands"`
	Sequenced bool      `json:"sequenced,omitempty"`
}

// Requests splits a prompt into its requests, in the order written, read
// without a schedule as Classify does (opt serves for its Context only).
// Their commands are Parse's.
func Requests(src string, opt Options) []Request {
	p := newParser(src, Options{Context: opt.Context})
	var out []Request
	var first []int // each request's first token
	for _, cl := range p.clauses() {
		if opt.stopped() {
			break
		}
		cmd := p.command(cl)
		if cmd.Kind == Unknown && len(out) > 0 {
			last := &out[len(out)-1]
			prev := &last.Commands[len(last.Commands)-1]
			if prev.Kind == Unsupported || prev.Kind == Unknown {
				// Read here without the schedule's words ("CRAH" is no
				// "crash" there): places alone after it stay in its words,
				// for the reading with them.
				if e, ok := p.ellipsis(cl, Command{Kind: Delete, Targets: []Ref{{Text: "x", Words: "x"}}}); ok && p.elliptic(e) {
					last.Source = p.t.span(first[len(first)-1], cl.idx[len(cl.idx)-1]+1)
					prev.Source = last.Source
					continue
				}
			}
			if inherited, ok := p.ellipsis(cl, *prev); ok {
				last.Commands = append(last.Commands, inherited)
				// The words from the request's first clause to this one,
				// "then" included.
				last.Source = p.t.span(first[len(first)-1], cl.idx[len(cl.idx)-1]+1)
				continue
			}
		}
		if len(out) > 0 && len(cmd.Targets) == 1 && pronouns[cmd.Targets[0].Words] {
			// "X can't start before 1 Sept. It must finish by 30 Sept":
			// one request, about what the one before named.
			last := &out[len(out)-1]
			if prev := last.Commands[len(last.Commands)-1]; len(prev.Targets) > 0 {
				cmd.Targets = slices.Clone(prev.Targets)
				last.Commands = append(last.Commands, cmd)
				last.Source = p.t.span(first[len(first)-1], cl.idx[len(cl.idx)-1]+1)
				continue
			}
		}
		first = append(first, cl.idx[0])
		out = append(out, Request{Source: cmd.Source, Commands: []Command{cmd}, Sequenced: cl.sequenced && len(out) > 0})
	}
	return out
}

// sequencedOpeners are the openings that put a clause after the one
// before it.
var sequencedOpeners = lazyre.New(`^(?:(?:and|so|ok|okay|,) )*(?:then|after that|afterwards|afterward|finally|next|subsequently|(?:once|when) (?:thats|that is|that s) (?:done|finished|complete))\b`)

var onlySequencingRe = lazyre.New(sequencedOpeners.String() + `(?: ,)?$`)

// onlySequencing reports whether a clause is nothing but a sequencing
// opener ("after that", "then", "finally,").
func onlySequencing(s string) bool { return onlySequencingRe.MatchString(strings.TrimSpace(s)) }

// sequencedOpener reports whether a clause (canonical words) opens with a
// word that sequences it.
func sequencedOpener(s string) bool { return sequencedOpeners.MatchString(strings.TrimSpace(s)) }
