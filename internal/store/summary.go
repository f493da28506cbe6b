package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

// Summary is what a list of schedules shows of one, kept with the schedule
// so that a list reads only the summaries: loading and computing every
// schedule for every view took 17 s and 3.3 GB with 450,000 activities
// stored. The Coordinator writes it in the same transaction as the
// schedule (every import, op, compensation and undo goes through it); a
// graph write without one clears it, and a schedule without one (a store
// written before summaries) is summarised once on the next list.
type Summary struct {
	// Name is the schedule's name, cut to schedule.MaxName characters.
	Name          string `json:"name"`
	Activities    int    `json:"activities"`
	Relationships int    `json:"relationships"`
	// DataDate is the schedule's data date ("" when it has none, or the
	// summary was written before it was kept here).
	DataDate string `json:"data_date,omitempty"`
	// Finish is the project finish in working days from the start (CPM);
	// FinishDate the same as an ISO 8601 local date-time when the schedule
	// has a start date and the finish is within the calendar's range.
	// FinishError says why there is no finish (or no date).
	Finish      float64 `json:"finish"`
	FinishDate  string  `json:"finish_date,omitempty"`
	FinishError string  `json:"finish_error,omitempty"`
	// Updated is when the schedule was last written.
	Updated time.Time `json:"updated"`
}

// Summarize computes a schedule's summary, as written at the time at.
func Summarize(s *schedule.Schedule, at time.Time) Summary {
	return summarize(s, nil, at)
}

// summarize is Summarize with s's compiled network when the caller has it
// (an import checked the schedule already), nil to compile it here.
func summarize(s *schedule.Schedule, n *schedule.Network, at time.Time) Summary {
	// The name as a list shows it: a schedule stored before names had a
	// limit may have one of megabytes (every page listing it was as big).
	name, _ := schedule.Truncate(s.Name, schedule.MaxName)
	sum := Summary{Name: name, Activities: len(s.Activities), Relationships: len(s.Relationships), DataDate: s.DataDate,
		Updated: at.UTC().Truncate(time.Millisecond)}
	if n == nil {
		var err error
		if n, err = schedule.Compile(s); err != nil {
			sum.FinishError = err.Error()
			return sum
		}
	}
	res := n.Compute()
	sum.Finish = res.ProjectDuration
	if s.StartDate == "" {
		return sum
	}
	clock, err := schedule.NewClock(s.StartDate, s.Calendar)
	if err == nil {
		var t time.Time
		if t, err = res.Finish(clock); err == nil {
			sum.FinishDate = t.Format("2006-01-02T15:04:05")
		}
	}
	if err != nil {
		sum.FinishError = "dating the finish: " + err.Error()
	}
	return sum
}

// Summaries is a GraphStore that can store a summary on its own, for a
// schedule written before summaries existed (every adapter implements
// it). PutSummary writes sum only if the schedule is stored and has no
// summary: a write that landed meanwhile brought its own.
type Summaries interface {
	PutSummary(ctx context.Context, scheduleID string, sum Summary) error
}

// Schedules lists the stored schedules by id, each with its summary,
// reading only the summaries. A schedule stored without one is loaded and
// summarised once, and the summary stored for the next list; one that
// cannot be loaded is listed with the reason as its FinishError.
func (c *Coordinator) Schedules(ctx context.Context) ([]ScheduleInfo, error) {
	list, err := c.Graph.Schedules(ctx)
	if err != nil {
		return nil, err
	}
	put, canPut := c.Graph.(Summaries)
	for i := range list {
		info := &list[i]
		if info.Summary != nil {
			continue
		}
		s, err := c.Load(ctx, info.ID)
		if err != nil {
			info.Summary = &Summary{Name: info.Name, Activities: info.Activities, Relationships: info.Relationships, FinishError: err.Error()}
			continue
		}
		sum := Summarize(s, time.Now())
		info.Summary = &sum
		info.Name, info.Activities, info.Relationships = sum.Name, sum.Activities, sum.Relationships
		if canPut {
			if err := put.PutSummary(ctx, info.ID, sum); err != nil {
				return nil, fmt.Errorf("storing the summary of schedule %q: %w", info.ID, err)
			}
		}
	}
	return list, nil
}

// ErrInvalidID is a schedule id refused where a schedule is made.
var ErrInvalidID = errors.New("invalid schedule id")

// CheckScheduleID refuses an id no schedule may be stored under: "", "."
// and "..", ids starting with '.' or '-', and anything but letters,
// digits, '.', '_' and '-' (usertext.ID), up to usertext.MaxID characters.
// Such ids are path segments and web addresses that cannot be reached,
// linked or deleted. Every write that can create a schedule (Import, the
// adapters' Apply) refuses them; reading and deleting do not, so a
// schedule stored under one before can still be deleted.
func CheckScheduleID(id string) error {
	if id == "" {
		return fmt.Errorf("%w: it is empty; use letters, digits, '.', '_' and '-'", ErrInvalidID)
	}
	err := usertext.ID("schedule id", id)
	if err == nil {
		return nil
	}
	var ue *usertext.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%w %s: %s", ErrInvalidID, usertext.Terminal(strconv.Quote(excerptID(id))), ue.Reason)
	}
	return fmt.Errorf("%w: %v", ErrInvalidID, err)
}

// excerptID shortens a refused id for its error.
func excerptID(id string) string {
	if len(id) <= 64 {
		return id
	}
	return id[:64] + "..."
}
