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

// Duration is a parsed duration string, in working days.
type Duration struct {
	Kind   Distribution
	Params []float64
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
// MaxDays ("5", "2.5") or a distribution "triangular(a,m,b)" or
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
		v, err := parseDays(text)
		if err != nil {
			return fail("%s", err)
		}
		return Duration{Kind: Fixed, Params: []float64{v}}, nil
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
	// Plain numbers are by far the most common: skip the general parser and
	// its allocations.
	if plainNumber(s) {
		if v, err := strconv.ParseFloat(s, 64); err == nil && v <= MaxDays {
			return v, nil
		}
	}
	d, err := ParseDuration(s)
	if err != nil {
		return 0, err
	}
	return d.Days(), nil
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
