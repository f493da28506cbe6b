package insight

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Filter says which activities Find returns; every field set must hold.
// Ranges are inclusive. Semantic search is the stores' (Coordinator.Search):
// Find is exact over the computed schedule, and a caller can combine them.
type Filter struct {
	// Text: the activity's id, or every word in its name or description,
	// case ignored, read as the language layer reads names: typos corrected
	// against the schedule's words, plurals and trade synonyms folded
	// ("plasterboard" finds Drywall), umbrella terms ("fit-out") matched,
	// and a word of five letters or more matching a longer or shorter one
	// with the same start ("clean" finds Cleaning). Level words ("level
	// 3", "L3") match the name only.
	Text string `json:"text,omitempty"`
	// Level is a level as written: "3", "level 3", "L3", "third floor".
	Level string `json:"level,omitempty"`
	// Trade is a trade's words, matched against the name without its level
	// as Text is: "drywall" finds framing, board and taping; "Drywall
	// board" only the board.
	Trade string `json:"trade,omitempty"`
	// Critical, when set, keeps only critical (true) or non-critical
	// (false) activities.
	Critical *bool `json:"critical,omitempty"`
	// MinFloat and MaxFloat bound total float, in working days.
	MinFloat *float64 `json:"min_total_float,omitempty"`
	MaxFloat *float64 `json:"max_total_float,omitempty"`
	// From and To are a window the activity's early dates (early start to
	// early finish) overlap: working-day offsets ("40", "52.5") or, when
	// the schedule has a start date, dates ("2026-03-02", To inclusive).
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// MinDuration and MaxDuration bound the duration, in working days.
	MinDuration *float64 `json:"min_duration,omitempty"`
	MaxDuration *float64 `json:"max_duration,omitempty"`
	// Limit caps the activities returned (0: all); Total still counts
	// every match.
	Limit int `json:"limit,omitempty"`
}

// FindResult is the activities that match, in the schedule's order.
type FindResult struct {
	Activities []Row `json:"activities"`
	Total      int   `json:"total"`
}

// Find lists the activities the filter keeps, in the schedule's order.
func (v *View) Find(f Filter) (*FindResult, error) {
	var textWords, tradeWords []string
	var level string
	if strings.TrimSpace(f.Text) != "" {
		textWords = v.queryWords(f.Text)
		if len(textWords) == 0 {
			return nil, fmt.Errorf("text %q has no words to look for", f.Text)
		}
	}
	if strings.TrimSpace(f.Trade) != "" {
		tradeWords = v.queryWords(f.Trade)
		if len(tradeWords) == 0 {
			return nil, fmt.Errorf("trade %q has no words to look for", f.Trade)
		}
	}
	if strings.TrimSpace(f.Level) != "" {
		var ok bool
		if level, ok = ParseLevel(f.Level); !ok {
			return nil, fmt.Errorf("level %q: want a level such as \"3\", \"level 3\" or \"L3\"", f.Level)
		}
	}
	from, to, err := v.window(f.From, f.To)
	if err != nil {
		return nil, err
	}
	res := &FindResult{Activities: []Row{}}
	for _, i := range v.scheduleOrder() {
		a := v.Activity(i)
		r := v.R
		switch {
		case level != "" && LevelOf(a.Name) != level,
			f.Critical != nil && r.Critical(i) != *f.Critical,
			f.MinFloat != nil && r.TotalFloat[i] < *f.MinFloat-schedule.Epsilon,
			f.MaxFloat != nil && r.TotalFloat[i] > *f.MaxFloat+schedule.Epsilon,
			f.MinDuration != nil && r.EF[i]-r.ES[i] < *f.MinDuration-schedule.Epsilon,
			f.MaxDuration != nil && r.EF[i]-r.ES[i] > *f.MaxDuration+schedule.Epsilon,
			!overlaps(r.ES[i], r.EF[i], from, to),
			textWords != nil && !strings.EqualFold(strings.TrimSpace(f.Text), a.ID) && !matchAll(textWords, descTags(a), v.nameTags(a.Name)),
			tradeWords != nil && !matchAll(tradeWords, nil, v.nameTags(TradeOf(a.Name))):
			continue
		}
		res.Total++
		if f.Limit <= 0 || len(res.Activities) < f.Limit {
			res.Activities = append(res.Activities, v.row(i))
		}
	}
	return res, nil
}

// ParseLevel reads a level as written ("3", "level 3", "L3", "third
// floor") as LevelOf gives it ("3").
func ParseLevel(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if _, err := strconv.Atoi(s); err == nil {
		s = "level " + s
	}
	l := LevelOf(s)
	return l, l != ""
}

// queryWords are the normalised words of a query, typos corrected against
// the schedule's words.
func (v *View) queryWords(text string) []string {
	return embed.Normalize(strings.Join(lang.CorrectWords(text, v.vocabulary()), " "))
}

// vocabulary is the words of the schedule's names and descriptions.
func (v *View) vocabulary() map[string]bool {
	vocab := map[string]bool{}
	for _, a := range v.S.Activities {
		for _, w := range strings.FieldsFunc(strings.ToLower(a.Name+" "+a.Description), notWordRune) {
			vocab[w] = true
		}
	}
	return vocab
}

func notWordRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f)
}

// nameTags are a name's normalised words with their umbrella terms.
func (v *View) nameTags(name string) []string {
	n := embed.Normalize(name)
	tags := slices.Clone(n)
	for _, t := range n {
		tags = append(tags, embed.Umbrellas(t)...)
	}
	return tags
}

// descTags are the words of a's description that Text matches besides
// its name's: no level words (a description's "from level 2" says nothing
// of the activity's own level).
func descTags(a *schedule.Activity) []string {
	var out []string
	for _, t := range embed.Normalize(a.Description) {
		if !strings.HasPrefix(t, "level_") {
			out = append(out, t)
		}
	}
	return out
}

// matchAll reports whether every query word is in the name's tags or
// (except level words) the description's.
func matchAll(words, desc, name []string) bool {
	for _, w := range words {
		if hasWord(name, w) {
			continue
		}
		if !strings.HasPrefix(w, "level_") && hasWord(desc, w) {
			continue
		}
		return false
	}
	return true
}

// hasWord matches a word exactly or, for words of five letters or more
// with no digit (never "level_3" to "level_30"), by a shared start.
func hasWord(tags []string, w string) bool {
	loose := len(w) >= 5 && !strings.ContainsAny(w, "0123456789_")
	return slices.ContainsFunc(tags, func(t string) bool {
		return t == w || loose && len(t) >= 5 && !strings.ContainsAny(t, "0123456789_") && (strings.HasPrefix(t, w) || strings.HasPrefix(w, t))
	})
}

// window reads From and To as working-day offsets (nil: open).
func (v *View) window(from, to string) (lo, hi *float64, err error) {
	if lo, err = v.offsetOf(from, false); err != nil {
		return nil, nil, fmt.Errorf("from: %w", err)
	}
	if hi, err = v.offsetOf(to, true); err != nil {
		return nil, nil, fmt.Errorf("to: %w", err)
	}
	return lo, hi, nil
}

// offsetOf reads a working-day offset or a date; a date as the end of a
// window is the end of that day.
func (v *View) offsetOf(s string, end bool) (*float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		return &x, nil
	}
	d, err := schedule.ParseDate(s)
	if err != nil {
		return nil, fmt.Errorf("%q is neither a working-day offset nor a date (2026-03-02)", s)
	}
	if v.Clock == nil {
		return nil, fmt.Errorf("%q is a date, and the schedule has no start date: give a working-day offset", s)
	}
	if end {
		d = d.Add(24 * time.Hour)
	}
	// Past the project finish every date is as good as the day after it
	// (no activity reaches it), and asking the clock would change it (see
	// New): the View stays safe to share.
	if finish := v.Clock.FinishAt(v.R.ProjectDuration); d.After(finish) {
		x := v.R.ProjectDuration + 1
		return &x, nil
	}
	x := v.Clock.Offset(d)
	return &x, nil
}

// overlaps reports whether [es, ef] meets the window: an activity that
// ends as the window opens, or starts as it closes, does not (offsets are
// instants, and day N's work is between N and N+1); a milestone meets it
// anywhere inside, ends included.
func overlaps(es, ef float64, lo, hi *float64) bool {
	if es == ef {
		return (lo == nil || es >= *lo-schedule.Epsilon) && (hi == nil || es <= *hi+schedule.Epsilon)
	}
	return (lo == nil || ef > *lo+schedule.Epsilon) && (hi == nil || es < *hi-schedule.Epsilon)
}
