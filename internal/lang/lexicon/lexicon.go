// Package lexicon is the one vocabulary of places and trades: the words
// planners use for a level ("level 2", "L2", "second floor", "storey 2"),
// the other kinds of location a construction programme is broken down by
// (zones, blocks, gridlines, phases…), and trades with their synonyms.
//
// It is data and small pure functions over lower-case words; it imports
// nothing of ours, so every package that reads text can use it: embed
// (Normalize's tokens), lang (references), scope (created names) and prefs
// (naming patterns). It lives under lang, the language layer, as its own
// package because lang imports embed.
package lexicon

import (
	"slices"
	"strings"

	"regexp"
)

// Group is a canonical term and the words that mean it. Canonical may be
// several tokens separated by spaces ("mechanical electrical plumbing").
type Group struct {
	Canonical string
	Words     []string
}

// Invert maps each word of groups to its canonical tokens.
func Invert(groups []Group) map[string][]string {
	m := map[string][]string{}
	for _, g := range groups {
		for _, w := range g.Words {
			m[w] = append(m[w], strings.Fields(g.Canonical)...)
		}
	}
	return m
}

// Pattern is a regexp group matching any of words exactly, longest first
// so that "levels" is not read as "level" and a stray "s": (?:levels|level).
func Pattern(words ...[]string) string {
	var all []string
	for _, ws := range words {
		all = append(all, ws...)
	}
	slices.SortStableFunc(all, func(a, b string) int { return len(b) - len(a) })
	all = slices.Compact(all)
	for i, w := range all {
		all[i] = regexp.QuoteMeta(w)
	}
	return "(?:" + strings.Join(all, "|") + ")"
}
