package web

import (
	"net/url"

	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Activities named in an answer or a check's offenders are links to
// their row on the schedule page (its table's page holding them, its
// Gantt opened on them); a long list shows its first few and collapses
// the rest (issue 31 item 8).

// linkItem is one activity named: its words and where its row is.
type linkItem struct{ Text, Href string }

// linkList is a list of activities as a page shows it: Head and Tail
// shown, Hidden in a <details>; Sep between them.
type linkList struct {
	Head, Hidden, Tail []linkItem
	Sep                string
}

// rowHref is the address of activity id's row on schedule's page.
func rowHref(scheduleID, id string) string {
	return "/s/" + url.PathEscape(scheduleID) + "?at=" + url.QueryEscape(id) + "#row-" + url.PathEscape(id)
}

// answerPart is a piece of an answer as the page shows it: words, or a
// list of linked activities.
type answerPart struct {
	Text string
	List *linkList
}

// answerKeep is how many activities of an answer's list show before the
// rest collapse.
const answerKeep = 8

// answerParts are ans's words with its lists linked and collapsed.
func answerParts(scheduleID string, ans *insight.Answer) []answerPart {
	var out []answerPart
	for _, p := range ans.Parts() {
		if p.List == nil {
			out = append(out, answerPart{Text: p.Text})
			continue
		}
		head, hidden, tail := p.List.Shown(answerKeep)
		link := func(items []insight.ListItem) []linkItem {
			ls := make([]linkItem, len(items))
			for n, it := range items {
				ls[n] = linkItem{Text: it.Text, Href: rowHref(scheduleID, it.ID)}
			}
			return ls
		}
		out = append(out, answerPart{List: &linkList{Head: link(head), Hidden: link(hidden), Tail: link(tail), Sep: p.List.Sep}})
	}
	return out
}

// offenderKeep is how many offenders of a check show before the rest
// collapse.
const offenderKeep = 6

// offenderList is a check's offenders named and linked: an activity to
// its row, a relationship ("Pour slab -> Cure slab (R017)") to its
// successor's.
func offenderList(scheduleID string, sc *schedule.Schedule, c insight.CheckResult, relAt map[string]int) linkList {
	labels := c.Labels()
	items := make([]linkItem, len(c.Offenders))
	for n, id := range c.Offenders {
		row := id
		if k, ok := relAt[id]; ok && c.Unit == "relationships" {
			row = sc.Relationships[k].Successor
		}
		items[n] = linkItem{Text: labels[n], Href: rowHref(scheduleID, row)}
	}
	return collapsed(items, offenderKeep, ", ")
}

// idList is activity ids named ("Name (ID)") and linked, collapsed after
// keep.
func idList(scheduleID string, sc *schedule.Schedule, ids []string, keep int) linkList {
	at := make(map[string]int, len(sc.Activities))
	for i := range sc.Activities {
		at[sc.Activities[i].ID] = i
	}
	items := make([]linkItem, len(ids))
	for n, id := range ids {
		text := id
		if i, ok := at[id]; ok && sc.Activities[i].Name != "" && sc.Activities[i].Name != id {
			text = sc.Activities[i].Name + " (" + id + ")"
		}
		items[n] = linkItem{Text: text, Href: rowHref(scheduleID, id)}
	}
	return collapsed(items, keep, ", ")
}

// collapsed shows the first keep items (all when at most keep+1).
func collapsed(items []linkItem, keep int, sep string) linkList {
	if len(items) <= keep+1 {
		return linkList{Head: items, Sep: sep}
	}
	return linkList{Head: items[:keep], Hidden: items[keep:], Sep: sep}
}

// relationshipIndex maps sc's relationship ids to their index.
func relationshipIndex(sc *schedule.Schedule) map[string]int {
	at := make(map[string]int, len(sc.Relationships))
	for k := range sc.Relationships {
		at[sc.Relationships[k].ID] = k
	}
	return at
}
