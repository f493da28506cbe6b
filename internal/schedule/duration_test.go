package schedule_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		kind schedule.Distribution
		days float64
	}{
		{"5", schedule.Fixed, 5},
		{"0", schedule.Fixed, 0},
		{"2.5", schedule.Fixed, 2.5},
		{" 7 ", schedule.Fixed, 7},
		{"1e1", schedule.Fixed, 10},
		{"triangular(3,5,9)", schedule.Triangular, 5},
		{"Triangular( 3 , 5 , 9 )", schedule.Triangular, 5},
		{"triangular(4,4,4)", schedule.Triangular, 4},
		{"pert(1,3,5)", schedule.PERT, 3},
		{"PERT(2.5,3.5,10)", schedule.PERT, 3.5},
		{"uniform(2,4)", schedule.Uniform, 3},
		{"uniform(1.5,1.5)", schedule.Uniform, 1.5},
		{"normal(5,1)", schedule.Normal, 5},
		{"normal(5,0)", schedule.Normal, 5},
	}
	for _, tc := range tests {
		d, err := schedule.ParseDuration(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if d.Kind != tc.kind || d.Days() != tc.days {
			t.Errorf("%q = %s %g days, want %s %g", tc.in, d.Kind, d.Days(), tc.kind, tc.days)
		}
	}
}

func TestParseDurationErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"five", `duration "five": "five" is not a number of working days`},
		{"-3", `duration "-3": "-3" is negative`},
		{"pert(5,3,1)", `duration "pert(5,3,1)": pert(a,m,b) needs a <= m <= b`},
		{"triangular(1,2)", `duration "triangular(1,2)": triangular takes 3 parameters, got 2`},
		{"", `duration "": empty`},
		{"   ", `duration "   ": empty`},
		{"uniform(4,2)", "uniform(a,b) needs a <= b"},
		{"normal(5,-1)", "parameter 2: \"-1\" is negative"},
		{"gamma(1,2)", `unknown distribution "gamma"`},
		{"pert(1,2,3", "missing closing parenthesis"},
		{"pert(1,,3)", "parameter 2: missing number"},
		{"NaN", "is not a number"},
		{"inf", "is not a number"},
		{"0x10", "is not a number"},
		{"1e400", "is not a number"},
		{"5 days", "is not a number"},
	}
	for _, tc := range tests {
		_, err := schedule.ParseDuration(tc.in)
		var derr *schedule.DurationError
		if !errors.As(err, &derr) || derr.Input != tc.in {
			t.Errorf("%q: err = %v, want a DurationError naming the input", tc.in, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %q, want it to contain %q", tc.in, err, tc.want)
		}
	}
}

func FuzzParseDuration(f *testing.F) {
	for _, seed := range []string{"5", "2.5", "triangular(3,5,9)", "pert(1,2,3)", "uniform(1,2)", "normal(5,1)", "pert(5,3,1)", "(", ")", "-0", "1e308"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d, err := schedule.ParseDuration(in)
		if err != nil {
			if !strings.Contains(err.Error(), "duration ") {
				t.Fatalf("error %q does not name the duration", err)
			}
			return
		}
		v := d.Days()
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("%q parsed to %g days", in, v)
		}
		if fast, err := schedule.DurationDays(in); err != nil || fast != v {
			t.Fatalf("DurationDays(%q) = %g, %v; ParseDuration gave %g", in, fast, err, v)
		}
	})
}
