// Package risk is Monte Carlo CPM over activity duration distributions
// (issue 17): each iteration samples every activity's duration from its
// distribution (triangular, PERT, uniform, normal; fixed durations stay
// fixed), runs the CPM forward and backward passes over a network compiled
// once, and records the project finish and which activities were critical.
// From the iterations it reports finish percentiles, mean and standard
// deviation, the deterministic finish's percentile, the criticality index
// and the duration sensitivity (Spearman rank correlation) of each activity.
//
// A live programme (progress, a data date, constraints, calendars: the
// schedule package's live engine dates it) is simulated by that engine,
// once per iteration, with the sampled durations written into the
// schedule: actuals stay fixed and the work left is sampled (see live.go).
//
// The package is pure: no I/O, no clock. Results depend only on the
// schedule, the seed and the options, never on the number of workers:
// iteration i draws from its own random stream, seeded with PCG(seed, i)
// (see rng).
package risk

import (
	"fmt"
	"math"

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
	// The passes' links: fwd[inStart[v]:inStart[v+1]] constrain v's start,
	// bwd[outStart[v]:outStart[v+1]] v's finish (see plink).
	fwd, bwd []plink
	// fwdMid[v] splits v's incoming links: FF and SF (k = 1) in
	// fwd[inStart[v]:fwdMid[v]], FS and SS after.
	fwdMid []int32
	// pos[v] is v's position in order. ends are the activities that may
	// end the project (no successor that always finishes no earlier),
	// isEnd marks them; see walk.
	pos   []int32
	ends  []int32
	isEnd []bool
	// Deterministic is the CPM finish with each duration's deterministic
	// value (the number, the mode of triangular and PERT, the mean of
	// uniform and normal), exactly as the CPM engine computes it.
	Deterministic float64
	detDur        []float64
	random        int // activities whose duration is a distribution
	// Activity indices by distribution kind, in schedule order.
	fixed, uniform, triangular, pert, normal []int32
	// live is set for a live programme: its iterations run the live
	// engine (see live.go), not the passes here.
	live *liveModel
}

// plink is a link as the passes read it, without a branch on its type.
// The forward pass keeps t[2v] = ES_v, t[2v+1] = EF_v and a link into v
// constrains ES_v >= t[at] + lag - k·d_v: at picks the predecessor's start
// (SS, SF) or finish (FS, FF), k is 1 for FF and SF. The backward pass keeps
// u[2v] = LS_v, u[2v+1] = LF_v and a link out of v constrains
// LF_v <= u[at] - lag + k·d_v: at picks the successor's start (FS, SS) or
// finish (FF, SF), k is 1 for SS and SF. These are the engine's
// expressions in the engine's order (adding or subtracting 0·d is exact),
// so the passes give its results bit for bit.
type plink struct {
	at  int32
	k   float32
	lag float64
}

// Len is the number of activities.
func (m *Model) Len() int { return len(m.IDs) }

// Random is how many activities have a distribution (not a fixed) duration.
func (m *Model) Random() int { return m.random }

// Compile checks s as the CPM engine does (schedule.Compile: unknown ends,
// self-links, cycles, bad durations) and builds the simulation model.
//
// A live programme (the engine dates it: Result.Times) is simulated by the
// live engine, once per iteration (see live.go); Deterministic is then the
// engine's own project finish.
func Compile(s *schedule.Schedule) (*Model, error) {
	net, err := schedule.Compile(s)
	if err != nil {
		return nil, err
	}
	var live *schedule.Result // the engine's deterministic answer, if live
	if r := net.Compute(); r.Times != nil {
		live = r
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
		if live != nil && !liveSampled(&s.Activities[i]) {
			m.dists[i] = dist{kind: kFixed, a: m.detDur[i]}
		}
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
	m.fwd = make([]plink, len(m.in), len(m.in)+1) // a spare: see forward4
	m.fwdMid = make([]int32, n)
	for v := range n {
		// FF and SF first (see fwdMid); the order of a maximum's terms
		// does not change it.
		i := m.inStart[v]
		for pass := range 2 {
			for _, l := range m.in[m.inStart[v]:m.inStart[v+1]] {
				k := l.typ == linkFF || l.typ == linkSF
				if k != (pass == 0) {
					continue
				}
				p := plink{at: 2*l.other + 1, lag: l.lag}
				if l.typ == linkSS || l.typ == linkSF {
					p.at--
				}
				if k {
					p.k = 1
				}
				m.fwd[i] = p
				i++
			}
			if pass == 0 {
				m.fwdMid[v] = i
			}
		}
	}
	// An activity with a successor s that always finishes no earlier
	// (EF_s >= EF_v whatever the durations, over their ranges) is not an
	// end: s's path bound on its float is at least as tight as T - EF_v.
	m.isEnd = make([]bool, n)
	for v := range n {
		m.isEnd[v] = true
		_, dv := m.dists[v].bounds()
		for _, l := range m.out[m.outStart[v]:m.outStart[v+1]] {
			ds, _ := m.dists[l.other].bounds()
			var later bool
			switch l.typ {
			case linkFS: // EF_s >= EF_v + lag + d_s
				later = l.lag+ds >= 0
			case linkFF: // EF_s >= EF_v + lag
				later = l.lag >= 0
			case linkSS: // EF_s >= ES_v + lag + d_s = EF_v + lag + d_s - d_v
				later = l.lag+ds >= dv
			case linkSF: // EF_s >= ES_v + lag = EF_v + lag - d_v
				later = l.lag >= dv
			}
			if later {
				m.isEnd[v] = false
				break
			}
		}
		if m.isEnd[v] {
			m.ends = append(m.ends, int32(v))
		}
	}
	m.bwd = make([]plink, len(m.out))
	for i, l := range m.out {
		p := plink{at: 2 * l.other, lag: l.lag}
		if l.typ == linkFF || l.typ == linkSF {
			p.at++
		}
		if l.typ == linkSS || l.typ == linkSF {
			p.k = 1
		}
		m.bwd[i] = p
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
	m.pos = make([]int32, n)
	for p, v := range m.order {
		m.pos[v] = int32(p)
	}
	m.Deterministic = m.forward(m.detDur, make([]float64, 2*n))
	if live != nil {
		if err := m.compileLive(s, live); err != nil {
			return nil, err
		}
		m.Deterministic = live.ProjectDuration
	}
	return m, nil
}

// Live reports whether the model is a live programme's (see live.go).
func (m *Model) Live() bool { return m.live != nil }

// DeterministicDurations are the durations deterministic CPM uses.
func (m *Model) DeterministicDurations() []float64 { return append([]float64(nil), m.detDur...) }

// forward is the CPM forward pass with durations dur (MS Project / P6
// semantics as in schedule.Network.Compute): ES = max(0, FS: EF_p+lag,
// SS: ES_p+lag, FF: EF_p+lag-d, SF: ES_p+lag-d), EF = ES+d, in t (t[2v] =
// ES, t[2v+1] = EF; see plink). It returns the project finish.
func (m *Model) forward(dur, t []float64) float64 {
	var finish float64
	links, start := m.fwd, m.inStart
	for _, v := range m.order {
		d := dur[v]
		es := 0.0
		for _, l := range links[start[v]:start[v+1]] {
			es = max(es, t[l.at]+l.lag-float64(l.k)*d)
		}
		ef := es + d
		t[2*v], t[2*v+1] = es, ef
		finish = max(finish, ef)
	}
	return finish
}

// backward is the CPM backward pass: LF = min(T, FS: LS_s-lag, SS:
// LS_s-lag+d, FF: LF_s-lag, SF: LF_s-lag+d), LS = LF-d, in u (u[2v] = LS,
// u[2v+1] = LF). It adds 1 to crit[v] for every activity whose total float
// LS - ES is at most schedule.Epsilon (t from forward).
func (m *Model) backward(dur, t, u []float64, finish float64, crit []int32) {
	links, start := m.bwd, m.outStart
	for k := len(m.order) - 1; k >= 0; k-- {
		v := m.order[k]
		d := dur[v]
		lf := finish
		for _, l := range links[start[v]:start[v+1]] {
			lf = min(lf, u[l.at]-l.lag+float64(l.k)*d)
		}
		ls := lf - d
		u[2*v], u[2*v+1] = ls, lf
		var c int32
		if ls-t[2*v] <= schedule.Epsilon {
			c = 1
		}
		crit[v] += c
	}
}

// Pass runs one CPM pass (forward and backward) with durations dur and
// returns the finish and which activities are critical. It is for tests
// and benchmarks; Run reuses its buffers instead.
//
// On a live programme it runs the live engine once with durations dur (see
// live.go).
func (m *Model) Pass(dur []float64) (finish float64, critical []bool) {
	n := m.Len()
	if m.live != nil {
		crit := make([]int32, n)
		res, err := m.live.run(m.live.newWorker(), dur, crit)
		if err != nil {
			return math.NaN(), nil
		}
		critical = make([]bool, n)
		for i, c := range crit {
			critical[i] = c > 0
		}
		return res.finish, critical
	}
	t, u := make([]float64, 2*n), make([]float64, 2*n)
	crit := make([]int32, n)
	finish = m.forward(dur, t)
	m.backward(dur, t, u, finish, crit)
	critical = make([]bool, n)
	for i, c := range crit {
		critical[i] = c > 0
	}
	return finish, critical
}
