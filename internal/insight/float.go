package insight

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// FloatGroup is total float and criticality over one level or trade.
type FloatGroup struct {
	// Group is the level ("3"; "" for activities whose names say none) or
	// the trade ("Painting"); Label is how to show it ("Level 3", "No
	// level", "Painting").
	Group     string  `json:"group"`
	Label     string  `json:"label"`
	Count     int     `json:"count"`
	Critical  int     `json:"critical"`
	MinFloat  float64 `json:"min_total_float"`
	MeanFloat float64 `json:"mean_total_float"`
	// Activities are the group's activity ids, in the schedule's order.
	Activities []string `json:"activities"`
}

// FloatBy groups the activities by "level" or "trade" and reports per
// group: how many, how many critical, and the least and mean total float.
// A level is any of the lexicon's level nouns ("floor", "storeys"), as a
// float-by question says it.
//
// Levels and trades come from activity names as the language layer reads
// them: the level is LevelOf(name) ("Painting Level 3" is level 3; "L3",
// "third floor" too), and the trade is TradeOf(name), the name without its
// level words, compared case-insensitively (Painting Level 1 … Level 4 are
// the trade "Painting"). Levels come in number order with "No level"
// last; trades in the order the schedule first names them.
func (v *View) FloatBy(group string) ([]FloatGroup, error) {
	var key func(name string) (string, string)
	byLevel := false
	switch g := strings.ToLower(strings.TrimSpace(group)); {
	case slices.Contains(lexicon.LevelNouns, g) || slices.Contains(lexicon.LevelNounPlurals, g):
		byLevel = true
		key = func(name string) (string, string) {
			l := LevelOf(name)
			if l == "" {
				return "", "No level"
			}
			return l, "Level " + l
		}
	case g == "trade" || g == "trades":
		key = func(name string) (string, string) {
			t := TradeOf(name)
			return strings.ToLower(t), t // shown as first written
		}
	default:
		return nil, fmt.Errorf("group %q: want level or trade", group)
	}
	var out []FloatGroup
	at := map[string]int{}
	sums := []float64{}
	for _, i := range v.scheduleOrder() {
		k, label := key(v.Activity(i).Name)
		g, ok := at[k]
		if !ok {
			g = len(out)
			at[k] = g
			gk := k
			if !byLevel {
				gk = label
			}
			out = append(out, FloatGroup{Group: gk, Label: label, MinFloat: v.R.TotalFloat[i], Activities: []string{}})
			sums = append(sums, 0)
		}
		fg := &out[g]
		fg.Count++
		if v.R.Critical(i) {
			fg.Critical++
		}
		fg.MinFloat = min(fg.MinFloat, v.R.TotalFloat[i])
		sums[g] += v.R.TotalFloat[i]
		fg.Activities = append(fg.Activities, v.Activity(i).ID)
	}
	for g := range out {
		out[g].MinFloat = schedule.RoundDays(out[g].MinFloat)
		out[g].MeanFloat = schedule.RoundDays(sums[g] / float64(out[g].Count))
	}
	if byLevel {
		slices.SortStableFunc(out, func(a, b FloatGroup) int {
			if (a.Group == "") != (b.Group == "") {
				if a.Group == "" {
					return 1
				}
				return -1
			}
			x, _ := strconv.Atoi(a.Group)
			y, _ := strconv.Atoi(b.Group)
			return cmp.Compare(x, y)
		})
	}
	if out == nil {
		out = []FloatGroup{}
	}
	return out, nil
}
