package schedule

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Distribution names a duration's shape. Fixed is a plain number of days.
type Distribution string

// The duration forms the seed design allows.
const (
	Fixed      Distribution = "fixed"
	Triangular Distribution = "triangular" // (min, mode, max)
	PERT       Distribution = "pert"       // (optimistic, most likely, pessimistic)
	Uniform    Distribution = "uniform"    // (min, max)
	Normal     Distribution = "normal"     // (mean, standard deviation)
)

// Duration is a parsed duration string, in working days unless Unit says
// otherwise.
type Duration struct {
	Kind   Distribution
	Params []float64
	// Unit is "" for working days, or one of the fixed-duration units a
	// planner's file uses: h (working hours), ed (elapsed days: 24-hour
	// days, every day of the week), eh (elapsed hours).
	Unit string
}

// The duration units beyond working days.
const (
	WorkingHours = "h"
	ElapsedDays  = "ed"
	ElapsedHours = "eh"
)

// Elapsed reports whether the duration runs on the 24-hour clock.
func (d Duration) Elapsed() bool { return d.Unit == ElapsedDays || d.Unit == ElapsedHours }

// Minutes is the duration in working (or, when Elapsed, elapsed) minutes,
// a working day being dayMinutes long.
func (d Duration) Minutes(dayMinutes float64) float64 {
	return unitMinutes(d.Days(), d.Unit, dayMinutes)
}

// unitMinutes is v of unit in minutes, a working day being dayMinutes.
func unitMinutes(v float64, unit string, dayMinutes float64) float64 {
	switch unit {
	case WorkingHours, ElapsedHours:
		return v * 60
	case ElapsedDays:
		return v * 24 * 60
	}
	return v * dayMinutes
}

// standardDayMinutes is the working day units are counted in where no
// calendar is at hand (DurationDays): MS Project's default eight hours.
const standardDayMinutes = 480

// durationUnits are the suffixes ParseDuration reads, longest first.
var durationUnits = []string{ElapsedDays, ElapsedHours, WorkingHours, "d"}

// cutUnit splits "3ed" into "3" and "ed"; "d" is working days, unit "".
func cutUnit(text string) (number, unit string) {
	lower := strings.ToLower(text)
	for _, u := range durationUnits {
		if strings.HasSuffix(lower, u) && len(text) > len(u) {
			number = strings.TrimSpace(text[:len(text)-len(u)])
			if u == "d" {
				u = ""
			}
			return number, u
		}
	}
	return text, ""
}

// Days is the deterministic value CPM uses: the number itself, the mode of a
// triangular or PERT distribution, the mean of a uniform or normal one.
func (d Duration) Days() float64 {
	switch d.Kind {
	case Triangular, PERT:
		return d.Params[1]
	case Uniform:
		return (d.Params[0] + d.Params[1]) / 2
	default:
		return d.Params[0]
	}
}

// DurationError says which duration string was refused and why.
type DurationError struct {
	Input  string
	Reason string
}

func (e *DurationError) Error() string {
	return fmt.Sprintf("duration %q: %s", e.Input, e.Reason)
}

var distributionArity = map[Distribution]int{Triangular: 3, PERT: 3, Uniform: 2, Normal: 2}

// ParseDuration reads a duration in working days: a number from 0 to
// MaxDays ("5", "2.5"), with a unit if it is not working days ("5d", "36h"
// working hours, "3ed" elapsed days, "12eh" elapsed hours), or a distribution "triangular(a,m,b)" or
// "pert(a,m,b)" with a <= m <= b, "uniform(a,b)" with a <= b, or
// "normal(mean,sd)", every parameter from 0 to MaxDays. Names are
// case-insensitive and spaces are ignored.
func ParseDuration(s string) (Duration, error) {
	fail := func(format string, args ...any) (Duration, error) {
		return Duration{}, &DurationError{Input: s, Reason: fmt.Sprintf(format, args...)}
	}
	text := strings.TrimSpace(s)
	if text == "" {
		return fail("empty; want a number of working days or a distribution like triangular(3,5,9)")
	}
	open := strings.IndexByte(text, '(')
	if open < 0 {
		number, unit := cutUnit(text)
		v, err := parseDays(number)
		if err != nil {
			return fail("%s", err)
		}
		return Duration{Kind: Fixed, Params: []float64{v}, Unit: unit}, nil
	}
	kind := Distribution(strings.ToLower(strings.TrimSpace(text[:open])))
	arity, known := distributionArity[kind]
	if !known {
		return fail("unknown distribution %q; want triangular, pert, uniform or normal", text[:open])
	}
	if !strings.HasSuffix(text, ")") {
		return fail("missing closing parenthesis")
	}
	parts := strings.Split(text[open+1:len(text)-1], ",")
	if len(parts) != arity {
		return fail("%s takes %d parameters, got %d", kind, arity, len(parts))
	}
	params := make([]float64, arity)
	for i, p := range parts {
		v, err := parseDays(strings.TrimSpace(p))
		if err != nil {
			return fail("parameter %d: %s", i+1, err)
		}
		params[i] = v
	}
	switch kind {
	case Triangular, PERT:
		if !(params[0] <= params[1] && params[1] <= params[2]) {
			return fail("%s(a,m,b) needs a <= m <= b", kind)
		}
	case Uniform:
		if params[0] > params[1] {
			return fail("uniform(a,b) needs a <= b")
		}
	}
	return Duration{Kind: kind, Params: params}, nil
}

// parseDays reads one number of working days from 0 to MaxDays.
func parseDays(text string) (float64, error) {
	if text == "" {
		return 0, fmt.Errorf("missing number")
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || strings.ContainsFunc(text, notDecimal) {
		return 0, fmt.Errorf("%q is not a number of working days", text)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", text)
	}
	if v < 0 {
		return 0, fmt.Errorf("%q is negative; durations are >= 0 working days", text)
	}
	if v > MaxDays {
		return 0, fmt.Errorf("%s is beyond the limit of %d working days", text, MaxDays)
	}
	return v, nil
}

// DurationDays parses s and returns its deterministic value in working days.
func DurationDays(s string) (float64, error) {
	v, unit, err := deterministic(s)
	if err != nil || unit == "" {
		return v, err
	}
	return unitMinutes(v, unit, standardDayMinutes) / standardDayMinutes, nil
}

// deterministic parses s and returns its deterministic value and unit
// (see Duration.Days).
func deterministic(s string) (v float64, unit string, err error) {
	// Plain numbers are by far the most common: skip the general parser and
	// its allocations.
	if plainNumber(s) {
		if v, err := strconv.ParseFloat(s, 64); err == nil && v <= MaxDays {
			return v, "", nil
		}
	}
	d, err := ParseDuration(s)
	if err != nil {
		return 0, "", err
	}
	return d.Days(), d.Unit, nil
}

// plainNumber reports whether s is digits with at most one decimal point.
func plainNumber(s string) bool {
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.' && !dot:
			dot = true
		case c < '0' || c > '9':
			return false
		}
	}
	return len(s) > 0 && s != "."
}

// notDecimal refuses what ParseFloat would otherwise take: hex, inf, nan, "_".
func notDecimal(r rune) bool {
	return !(r >= '0' && r <= '9' || r == '.' || r == 'e' || r == 'E' || r == '+' || r == '-')
}
