// Package risk is Monte Carlo CPM over activity duration distributions
// (issue 17): each iteration samples every activity's duration from its
// distribution (triangular, PERT, uniform, normal; fixed durations stay
// fixed), runs the CPM forward and backward passes over a network compiled
// once, and records the project finish and which activities were critical.
// From the iterations it reports finish percentiles, mean and standard
// deviation, the deterministic finish's percentile, the criticality index
// and the duration sensitivity (Spearman rank correlation) of each activity.
//
// The package is pure: no I/O, no clock. Results depend only on the
// schedule, the seed and the options, never on the number of workers:
// iteration i draws from its own random stream, PCG seeded with (seed, i).
package risk

import (
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// link types, as the CPM engine packs them.
const (
	linkFS uint8 = iota
	linkSS
	linkFF
	linkSF
)

var linkTypes = map[schedule.RelType]uint8{schedule.FS: linkFS, schedule.SS: linkSS, schedule.FF: linkFF, schedule.SF: linkSF}

// link is one relationship seen from one end; other is the far activity.
type link struct {
	other int32
	typ   uint8
	lag   float64
}

// Model is a schedule compiled for simulation: dense activity indices in
// schedule order, links in compressed sparse rows in both directions, a
// topological order, and each activity's duration distribution. It is
// read-only once built and safe to share between goroutines.
type Model struct {
	IDs      []string
	Names    []string
	dists    []dist
	inStart  []int32
	in       []link
	outStart []int32
	out      []link
	order    []int32
	// Deterministic is the CPM finish with each duration's deterministic
	// value (the number, the mode of triangular and PERT, the mean of
	// uniform and normal), exactly as the CPM engine computes it.
	Deterministic float64
	detDur        []float64
	random        int // activities whose duration is a distribution
	// Activity indices by distribution kind, in schedule order.
	fixed, uniform, triangular, pert, normal []int32
}

// Len is the number of activities.
func (m *Model) Len() int { return len(m.IDs) }

// Random is how many activities have a distribution (not a fixed) duration.
func (m *Model) Random() int { return m.random }

// Compile checks s as the CPM engine does (schedule.Compile: unknown ends,
// self-links, cycles, bad durations) and builds the simulation model.
func Compile(s *schedule.Schedule) (*Model, error) {
	if _, err := schedule.Compile(s); err != nil {
		return nil, err
	}
	n := len(s.Activities)
	m := &Model{
		IDs:      make([]string, n),
		Names:    make([]string, n),
		dists:    make([]dist, n),
		detDur:   make([]float64, n),
		inStart:  make([]int32, n+1),
		outStart: make([]int32, n+1),
	}
	index := make(map[string]int32, n)
	for i, a := range s.Activities {
		m.IDs[i], m.Names[i] = a.ID, a.Name
		index[a.ID] = int32(i)
		d, err := schedule.ParseDuration(a.Duration)
		if err != nil {
			return nil, fmt.Errorf("activity %q: %w", a.ID, err)
		}
		m.dists[i] = newDist(d)
		m.detDur[i] = d.Days()
		switch m.dists[i].kind {
		case kFixed:
			m.fixed = append(m.fixed, int32(i))
		case kUniform:
			m.uniform = append(m.uniform, int32(i))
		case kTriangular:
			m.triangular = append(m.triangular, int32(i))
		case kPERT:
			m.pert = append(m.pert, int32(i))
		case kNormal:
			m.normal = append(m.normal, int32(i))
		}
		if m.dists[i].kind != kFixed {
			m.random++
		}
	}
	ends := make([][2]int32, len(s.Relationships))
	for i, r := range s.Relationships {
		p, q := index[r.Predecessor], index[r.Successor]
		ends[i] = [2]int32{p, q}
		m.outStart[p+1]++
		m.inStart[q+1]++
	}
	for v := 0; v < n; v++ {
		m.outStart[v+1] += m.outStart[v]
		m.inStart[v+1] += m.inStart[v]
	}
	m.in = make([]link, len(s.Relationships))
	m.out = make([]link, len(s.Relationships))
	inNext := append([]int32(nil), m.inStart[:n]...)
	outNext := append([]int32(nil), m.outStart[:n]...)
	for i, r := range s.Relationships {
		p, q, t := ends[i][0], ends[i][1], linkTypes[r.Type]
		m.out[outNext[p]] = link{other: q, typ: t, lag: r.Lag}
		outNext[p]++
		m.in[inNext[q]] = link{other: p, typ: t, lag: r.Lag}
		inNext[q]++
	}
	// Kahn's algorithm; schedule.Compile has already refused cycles.
	pending := make([]int32, n)
	for v := 0; v < n; v++ {
		pending[v] = m.inStart[v+1] - m.inStart[v]
	}
	m.order = make([]int32, 0, n)
	for v := 0; v < n; v++ {
		if pending[v] == 0 {
			m.order = append(m.order, int32(v))
		}
	}
	for head := 0; head < len(m.order); head++ {
		v := m.order[head]
		for _, l := range m.out[m.outStart[v]:m.outStart[v+1]] {
			if pending[l.other]--; pending[l.other] == 0 {
				m.order = append(m.order, l.other)
			}
		}
	}
	if len(m.order) != n {
		return nil, fmt.Errorf("risk: schedule has circular logic")
	}
	es, ef := make([]float64, n), make([]float64, n)
	m.Deterministic = m.forward(m.detDur, es, ef)
	return m, nil
}

// DeterministicDurations are the durations deterministic CPM uses.
func (m *Model) DeterministicDurations() []float64 { return append([]float64(nil), m.detDur...) }

// forward is the CPM forward pass with durations dur (MS Project / P6
// semantics as in schedule.Network.Compute): it fills es and ef and returns
// the project finish.
func (m *Model) forward(dur, es, ef []float64) float64 {
	var finish float64
	for _, v := range m.order {
		d := dur[v]
		start := 0.0
		for _, l := range m.in[m.inStart[v]:m.inStart[v+1]] {
			var c float64
			switch l.typ {
			case linkFS:
				c = ef[l.other] + l.lag
			case linkSS:
				c = es[l.other] + l.lag
			case linkFF:
				c = ef[l.other] + l.lag - d
			default: // SF
				c = es[l.other] + l.lag - d
			}
			start = max(start, c)
		}
		es[v], ef[v] = start, start+d
		finish = max(finish, start+d)
	}
	return finish
}

// backward is the CPM backward pass: it fills lf and marks crit[v] (adds 1)
// for every activity whose total float LF - d - ES is at most
// schedule.Epsilon.
func (m *Model) backward(dur, es, lf []float64, finish float64, crit []int32) {
	for k := len(m.order) - 1; k >= 0; k-- {
		v := m.order[k]
		d := dur[v]
		late := finish
		for _, l := range m.out[m.outStart[v]:m.outStart[v+1]] {
			s := l.other
			var c float64
			switch l.typ {
			case linkFS:
				c = lf[s] - dur[s] - l.lag
			case linkSS:
				c = lf[s] - dur[s] - l.lag + d
			case linkFF:
				c = lf[s] - l.lag
			default: // SF
				c = lf[s] - l.lag + d
			}
			late = min(late, c)
		}
		lf[v] = late
		if late-d-es[v] <= schedule.Epsilon {
			crit[v]++
		}
	}
}

// Pass runs one CPM pass (forward and backward) with durations dur and
// returns the finish and which activities are critical. It is for tests
// and benchmarks; Run reuses its buffers instead.
func (m *Model) Pass(dur []float64) (finish float64, critical []bool) {
	n := m.Len()
	es, ef, lf := make([]float64, n), make([]float64, n), make([]float64, n)
	crit := make([]int32, n)
	finish = m.forward(dur, es, ef)
	m.backward(dur, es, lf, finish, crit)
	critical = make([]bool, n)
	for i, c := range crit {
		critical[i] = c > 0
	}
	return finish, critical
}
