package insight

import (
	"regexp"
	"strconv"
	"strings"
)

// An answer's lists of activities (a driving path of 50, the critical
// path of a big schedule) are recorded as they are written, so a reader
// can show the first few and collapse the rest: the CLI with "… and 42
// more", the web page in a <details>. The words (and the JSON) keep them
// whole.

// The separators of an answer's lists: a path is in path order.
const (
	PathSep = " → "
	ListSep = "; "
)

// AnswerList is one list of activities an answer's words hold: Text
// exactly as written there, its items, and what separates them.
type AnswerList struct {
	Text  string
	Items []ListItem
	Sep   string
}

// ListItem is an activity in a list: its id and its words ("Pour slab
// Level 3 (A066)", with any extra after the id).
type ListItem struct{ ID, Text string }

// Path says the list is a path (in path order).
func (l AnswerList) Path() bool { return pathSeps[l.Sep] }

// record writes items joined by sep and keeps the list for the answer.
func (a *asker) record(items []ListItem, sep string) string {
	texts := make([]string, len(items))
	for n, it := range items {
		texts[n] = it.Text
	}
	text := strings.Join(texts, sep)
	if len(items) > 0 {
		a.lists = append(a.lists, AnswerList{Text: text, Items: items, Sep: sep})
	}
	return text
}

// AnswerPart is a piece of an answer's words: plain text, or one of its
// lists.
type AnswerPart struct {
	Text string
	List *AnswerList
}

// Parts splits the answer's words into plain text and its lists, in
// order; words with no list recorded are one part.
func (ans Answer) Parts() []AnswerPart {
	var parts []AnswerPart
	rest := ans.Answer
	for i := range ans.Lists {
		l := &ans.Lists[i]
		at := strings.Index(rest, l.Text)
		if at < 0 || l.Text == "" {
			continue
		}
		if at > 0 {
			parts = append(parts, AnswerPart{Text: rest[:at]})
		}
		parts = append(parts, AnswerPart{List: l})
		rest = rest[at+len(l.Text):]
	}
	if rest != "" {
		parts = append(parts, AnswerPart{Text: rest})
	}
	return parts
}

// Shown splits a list for a reader who sees keep items: the first ones,
// the ones collapsed, and (for a path) the last, which ends it. A list of
// at most keep+1 items is shown whole (head only).
func (l AnswerList) Shown(keep int) (head, hidden, tail []ListItem) {
	keep = max(keep, 2)
	if len(l.Items) <= keep+1 {
		return l.Items, nil, nil
	}
	if l.Path() {
		return l.Items[:keep-1], l.Items[keep-1 : len(l.Items)-1], l.Items[len(l.Items)-1:]
	}
	return l.Items[:keep], l.Items[keep:], nil
}

// Collapsed is the answer's words with each list longer than keep items
// shortened: a path to its first items, "… 42 more …" and its last; a
// list to its first items and "… and 42 more".
func (ans Answer) Collapsed(keep int) string {
	var b strings.Builder
	for _, p := range ans.Parts() {
		if p.List == nil {
			b.WriteString(p.Text)
			continue
		}
		l := p.List
		head, hidden, tail := l.Shown(keep)
		b.WriteString(joinItems(head, l.Sep))
		if len(hidden) == 0 {
			continue
		}
		n := strconv.Itoa(len(hidden))
		if l.Path() {
			b.WriteString(l.Sep + "… " + n + " more …" + l.Sep + joinItems(tail, l.Sep))
		} else {
			b.WriteString(l.Sep + "… and " + n + " more")
		}
	}
	return b.String()
}

func joinItems(items []ListItem, sep string) string {
	texts := make([]string, len(items))
	for n, it := range items {
		texts[n] = it.Text
	}
	return strings.Join(texts, sep)
}

// A model's answer comes as words only; its lists are found in them.
// Activities are written "Name (ID)", as the asker's rules ask, joined by
// one of these: a path's arrows or a list's separators.
var (
	listSeps  = []string{PathSep, " -> ", ListSep, ", "}
	parenID   = regexp.MustCompile(`\(([^()\s]+)\)`)
	pathSeps  = map[string]bool{PathSep: true, " -> ": true}
	minListed = 3 // fewer items are words, not a list worth collapsing
)

// ListsIn finds the lists of activities in text: runs of at least three
// activities, each its name then its id in brackets ("Pour slab (A066)"),
// joined by one separator. nameOf gives an id's activity name; an item
// whose id is no activity's ends a run. The first item of a run must carry
// the activity's name as the schedule has it (so the words before it are
// not taken into it); the others are what lies between the separators.
func ListsIn(text string, nameOf func(id string) (string, bool)) []AnswerList {
	type item struct {
		start, end int // start -1: the name is not the schedule's
		id         string
	}
	var items []item
	for _, m := range parenID.FindAllStringSubmatchIndex(text, -1) {
		id := text[m[2]:m[3]]
		name, ok := nameOf(id)
		if !ok {
			items = append(items, item{start: -2}) // breaks a run
			continue
		}
		it := item{start: -1, end: m[1], id: id}
		if at := m[0] - 1 - len(name); at >= 0 && text[m[0]-1] == ' ' && strings.EqualFold(text[at:m[0]-1], name) {
			it.start = at
		}
		items = append(items, it)
	}
	var out []AnswerList
	for i := 0; i < len(items); {
		first := items[i]
		if first.start < 0 {
			i++
			continue
		}
		run, sep := []item{first}, ""
		for j := i + 1; j < len(items) && items[j].start != -2; j++ {
			prev, next := run[len(run)-1], items[j]
			s := ""
			for _, c := range listSeps {
				if strings.HasPrefix(text[prev.end:], c) && (sep == "" || c == sep) {
					s = c
					break
				}
			}
			if s == "" {
				break
			}
			between := text[prev.end+len(s) : next.end]
			if next.start >= 0 && next.start != prev.end+len(s) || strings.ContainsAny(between, "\n;") || strings.Contains(between, PathSep) {
				break
			}
			next.start = prev.end + len(s)
			run, sep = append(run, next), s
		}
		if len(run) >= minListed {
			l := AnswerList{Text: text[run[0].start:run[len(run)-1].end], Sep: sep}
			for _, it := range run {
				l.Items = append(l.Items, ListItem{ID: it.id, Text: text[it.start:it.end]})
			}
			out = append(out, l)
		}
		i += len(run)
	}
	return out
}
