package risk

import (
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// TradeGroups numbers each activity's trade for Options.Groups: the trade
// is insight.TradeOf(name) (the name without its level words, as FloatBy
// groups trades: "Drywall Level 3" and "Drywall L4" are the trade
// "Drywall"), compared case-insensitively; numbers follow the schedule's
// first mention.
func TradeGroups(s *schedule.Schedule) []int {
	at := map[string]int{}
	out := make([]int, len(s.Activities))
	for i, a := range s.Activities {
		k := strings.ToLower(insight.TradeOf(a.Name))
		g, ok := at[k]
		if !ok {
			g = len(at)
			at[k] = g
		}
		out[i] = g
	}
	return out
}
