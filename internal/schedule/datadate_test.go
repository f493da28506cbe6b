package schedule_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// TestSetDataDate: the data date moves and undo puts the old one back
// (none included); a date that does not read, or no move, is refused
// with the schedule unchanged.
func TestSetDataDate(t *testing.T) {
	for _, tc := range []struct {
		name, from, to, refused string
	}{
		{name: "forward", from: "2026-03-16T08:00", to: "2026-04-13T08:00"},
		{name: "first data date", from: "", to: "2026-04-13"},
		{name: "cleared", from: "2026-03-16", to: ""},
		{name: "not a date", from: "2026-03-16", to: "13 April", refused: "data date"},
		{name: "no move", from: "2026-03-16", to: "2026-03-16", refused: "already"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := activities("A1")
			s.DataDate = tc.from
			op := schedule.SetDataDate(tc.to)
			inv, err := schedule.Apply(s, &op)
			if tc.refused != "" {
				if !errors.Is(err, schedule.ErrInvalidOp) || !strings.Contains(err.Error(), tc.refused) || s.DataDate != tc.from {
					t.Fatalf("err %v, data date %q: want a refusal naming %q and %q kept", err, s.DataDate, tc.refused, tc.from)
				}
				return
			}
			if err != nil || s.DataDate != tc.to {
				t.Fatalf("err %v, data date %q, want %q", err, s.DataDate, tc.to)
			}
			if err := schedule.Undo(s, inv); err != nil || s.DataDate != tc.from {
				t.Errorf("undo: err %v, data date %q, want %q back", err, s.DataDate, tc.from)
			}
		})
	}
}
