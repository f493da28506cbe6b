package web

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The schedule page's activity table at scale (issue 31): filters
// (critical, changed by the last accepted dispatch, text), grouping (WBS,
// level, an activity code) and pages, all read from the address so a view
// can be linked and the page stays small whatever the schedule's size.

// Table pages: perPage rows unless the address says otherwise, up to
// maxPerPage.
const (
	perPage    = 200
	maxPerPage = 2000
)

// activityQuery is the table's view as the address gives it.
type activityQuery struct {
	Find     string // text in the id, name or WBS (any case)
	Critical bool
	Changed  bool   // changed by the last accepted dispatch
	Group    string // "", "wbs", "level" or "code:<type>"
	Page     int    // from 1
	Per      int
	// At is an activity to show: its page, with the filters cleared.
	At string
}

func activityQueryOf(q url.Values) activityQuery {
	aq := activityQuery{Find: strings.TrimSpace(q.Get("find")), Critical: q.Get("critical") != "", Changed: q.Get("changed") != "",
		Group: q.Get("group"), At: q.Get("at"), Page: 1, Per: perPage}
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 1 {
		aq.Page = n
	}
	if n, err := strconv.Atoi(q.Get("per")); err == nil && n > 0 {
		aq.Per = min(n, maxPerPage)
	}
	if aq.At != "" {
		aq.Find, aq.Critical, aq.Changed = "", false, false
	}
	return aq
}

// filtered reports whether the query narrows the table.
func (aq activityQuery) filtered() bool { return aq.Find != "" || aq.Critical || aq.Changed }

// values are the query as address values (without the page), for the
// pager's links.
func (aq activityQuery) values() url.Values {
	v := url.Values{}
	if aq.Find != "" {
		v.Set("find", aq.Find)
	}
	if aq.Critical {
		v.Set("critical", "1")
	}
	if aq.Changed {
		v.Set("changed", "1")
	}
	if aq.Group != "" {
		v.Set("group", aq.Group)
	}
	if aq.Per != perPage {
		v.Set("per", strconv.Itoa(aq.Per))
	}
	return v
}

// grouping is one way the table can be grouped.
type grouping struct{ Key, Label string }

// groupingsOf are the groupings sc's activities support: WBS when any
// has one, level when names carry levels ("Level 3", "L3"), each activity
// code type. Levels are looked for in the first activities only: a
// schedule that names levels names them early.
func groupingsOf(sc *schedule.Schedule) []grouping {
	var out []grouping
	if slices.ContainsFunc(sc.Activities, func(a schedule.Activity) bool { return a.WBS != "" }) {
		out = append(out, grouping{"wbs", "WBS"})
	}
	if slices.ContainsFunc(sc.Activities[:min(len(sc.Activities), 2000)], func(a schedule.Activity) bool { return lang.LevelOf(a.Name) != "" }) {
		out = append(out, grouping{"level", "Level"})
	}
	types := map[string]bool{}
	for _, a := range sc.Activities {
		for t := range a.Codes {
			types[t] = true
		}
	}
	for _, t := range slices.Sorted(maps.Keys(types)) {
		out = append(out, grouping{"code:" + t, t})
	}
	return out
}

// groupOf is activity a's group under grouping key ("" when none).
func groupOf(a *schedule.Activity, key string) string {
	switch {
	case key == "wbs":
		return a.WBS
	case key == "level":
		if l := lang.LevelOf(a.Name); l != "" {
			return "Level " + strings.TrimPrefix(l, "level_")
		}
		return ""
	case strings.HasPrefix(key, "code:"):
		return a.Codes[strings.TrimPrefix(key, "code:")]
	}
	return ""
}

// tableView is what the table shows: the rows of one page (activity
// indices) with each row's group, and where the page sits.
type tableView struct {
	// All are the rows the filters keep, in the table's order; Rows those
	// of the page shown.
	All    []int
	Rows   []int
	Groups []string // Groups[n] is Rows[n]'s group (grouped views only)
	Total  int      // rows the filters keep
	Page   int
	Pages  int
	First  int // the first row's number, from 1
}

// viewOf picks the table's rows: the activities the filters keep (in
// schedule order; critical(i) says whether activity i is critical, changed
// holds the ids the last dispatch changed), in group order when grouped
// (groups in the order they first appear, "no group" last), then the page
// aq asks for — or the page holding aq.At.
func viewOf(sc *schedule.Schedule, critical func(int) bool, changed map[string]bool, aq activityQuery) tableView {
	find := strings.ToLower(aq.Find)
	var keep []int
	for i := range sc.Activities {
		a := &sc.Activities[i]
		switch {
		case aq.Critical && !critical(i), aq.Changed && !changed[a.ID]:
			continue
		case find != "" && !strings.Contains(strings.ToLower(a.ID), find) && !strings.Contains(strings.ToLower(a.Name), find) &&
			!strings.Contains(strings.ToLower(a.WBS), find):
			continue
		}
		keep = append(keep, i)
	}
	var groups []string
	if aq.Group != "" {
		of := make(map[int]string, len(keep))
		rank := map[string]int{}
		for _, i := range keep {
			g := groupOf(&sc.Activities[i], aq.Group)
			of[i] = g
			if _, ok := rank[g]; !ok {
				rank[g] = len(rank)
			}
		}
		if r, ok := rank[""]; ok { // no group: last
			for g, n := range rank {
				if n > r {
					rank[g] = n - 1
				}
			}
			rank[""] = len(rank)
		}
		slices.SortStableFunc(keep, func(i, j int) int { return rank[of[i]] - rank[of[j]] })
		groups = make([]string, len(keep))
		for n, i := range keep {
			groups[n] = of[i]
		}
	}
	v := tableView{All: keep, Total: len(keep), Pages: max(1, (len(keep)+aq.Per-1)/aq.Per), Page: aq.Page}
	if aq.At != "" {
		for n, i := range keep {
			if sc.Activities[i].ID == aq.At {
				v.Page = n/aq.Per + 1
				break
			}
		}
	}
	v.Page = min(v.Page, v.Pages)
	from, to := (v.Page-1)*aq.Per, min(v.Page*aq.Per, len(keep))
	v.Rows, v.First = keep[from:to], from+1
	if groups != nil {
		v.Groups = groups[from:to]
	}
	return v
}

// ganttMaxRows is the most rows the schedule page's Gantt frame draws:
// more, and it draws the table's page (a 5,000-row Gantt is about 4 MB).
const ganttMaxRows = 5000

// ganttRows are the rows the schedule page's Gantt draws for view of a
// schedule of n activities: every row the table keeps, or the page's when
// they are too many; nil draws the whole schedule as it is.
func (v tableView) ganttRows(n int, aq activityQuery) []int {
	switch {
	case len(v.All) > ganttMaxRows:
		return v.Rows
	case !aq.filtered() && aq.Group == "" && len(v.All) == n:
		return nil
	}
	return v.All
}
