package risk

import (
	"cmp"
	"errors"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// DefaultCorrelation is ρ for --correlate when --correlation is not given.
const DefaultCorrelation = 0.5

// maxStored caps the sampled durations kept for the sensitivity ranks
// (float32 each: 256 MiB; only the columns that cannot be regenerated
// straight from the streams are kept, see drawPlan). Above it only the
// most critical of those activities get a sensitivity, their samples
// regenerated in a second pass.
const maxStored = 1 << 26

// Options say how to simulate.
type Options struct {
	// Iterations is how many samples of the whole schedule to run (>= 1).
	Iterations int
	// Seed picks the random streams: iteration i draws from its own
	// stream, seeded with PCG(Seed, i) (see rng).
	Seed uint64
	// Workers is how many goroutines run iterations; 0 means
	// runtime.NumCPU(). The result does not depend on it.
	Workers int
	// Groups, when set (one entry per activity, -1 for none), correlates the
	// durations of activities in the same group (a trade): a Gaussian
	// copula with one common standard-normal factor F per group, each
	// activity's normal score Z = √ρ·F + √(1−ρ)·ε (so two activities of a
	// group have normal scores correlated ρ), mapped to a duration through
	// its distribution's quantile at Φ(Z).
	Groups []int
	// Correlation is ρ, in [0, 1].
	Correlation float64
	// Bins is the histogram's number of bins (default 30).
	Bins int
	// MaxStored overrides maxStored (tests).
	MaxStored int
}

// Result is what a simulation found. Times are working days from the
// project start.
type Result struct {
	Iterations  int
	Seed        uint64
	Correlated  bool
	Correlation float64
	IDs, Names  []string
	// Random is how many activities have a distribution duration (those
	// with Distributed set); with none every iteration is the deterministic
	// schedule.
	Random      int
	Distributed []bool
	// Deterministic is the CPM finish with deterministic durations, and
	// DeterministicPercentile the share of iterations (0-100) that finish
	// at or before it.
	Deterministic           float64
	DeterministicPercentile float64
	// Finish is every iteration's project finish, in iteration order.
	Finish []float64
	// Sorted is Finish sorted ascending.
	Sorted             []float64
	Mean, SD           float64 // SD with n-1 (numpy's std(ddof=1))
	Min, Max           float64
	P10, P50, P80, P90 float64
	// Criticality is each activity's share of iterations in which it was
	// critical (total float <= schedule.Epsilon).
	Criticality []float64
	// Sensitivity is the Spearman rank correlation of each activity's
	// sampled duration with the finish (0 for fixed durations, and, when
	// durations are independent, for activities never critical: theirs
	// cannot move the finish, so the correlation is 0 but for sampling
	// noise); HasSensitivity
	// says which were computed (all, unless there were too many samples
	// to keep: then the most critical ones).
	Sensitivity    []float64
	HasSensitivity []bool
	// Histogram counts iterations per bin of width BinWidth from Min.
	Histogram []int
	BinWidth  float64
	// finishRanks are the finishes' twice centred ranks (sortRanks).
	finishRanks []int32
	// Live is set when the schedule is a live programme (see live.go).
	Live *Live
}

// Live is what a live programme's simulation adds: the dates the live
// engine gave (each activity on its own calendar, so a finish may fall on
// a day the project calendar does not work).
type Live struct {
	// DataDate is the schedule's; Finished and InProgress count the
	// activities with an actual finish, and with an actual start only.
	DataDate             string
	Finished, InProgress int
	// DeterministicDate is the engine's project finish with deterministic
	// durations (Deterministic's date).
	DeterministicDate time.Time
	// FinishDates is every iteration's finish date, in iteration order.
	FinishDates []time.Time
	// sorted is FinishDates in the order of Result.Sorted (ties by date).
	sorted []time.Time
}

// chunk is how many iterations a worker takes at a time.
const chunk = 64

// sampledBatches draws every iteration's durations, in batches of up to
// lanes iterations, on workers goroutines that take chunks of iterations
// as they free up, and hands each batch to each (with the worker's index).
// Iteration i's samples come from its own stream, so what each sees does
// not depend on which worker drew it.
func (m *Model) sampledBatches(opt *Options, nGroups int, tabs []*qtable, workers int, each func(w int, b *batch, first, nb int)) {
	iters, n := opt.Iterations, m.Len()
	if n == 0 {
		return // nothing to draw or pass over: every finish stays 0
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := m.newSampler(opt, nGroups, tabs)
			ls := m.newLaneSampler(opt.Seed, tabs)
			b := newBatch(n)
			ls.setFixed(b.dur)
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= iters {
					return
				}
				hi := min(lo+chunk, iters)
				for first := lo; first < hi; first += lanes {
					nb := min(lanes, hi-first)
					if nGroups == 0 {
						ls.sampleRandom(first, nb, b.dur)
					} else {
						for j := range nb {
							s.sample(first+j, b.one)
							b.set(j)
						}
					}
					each(w, b, first, nb)
				}
			}
		}()
	}
	wg.Wait()
}

// Percentile is the p-th percentile (0-100) of the finishes by linear
// interpolation between closest ranks, numpy's default ("linear"): at
// h = (n-1)·p/100, sorted[⌊h⌋] + (h-⌊h⌋)·(sorted[⌊h⌋+1]-sorted[⌊h⌋]).
func (r *Result) Percentile(p float64) float64 { return percentile(r.Sorted, p) }

func percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := float64(n-1) * p / 100
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// sampler draws one iteration's durations; one per worker.
type sampler struct {
	m       *Model
	tabs    []*qtable // per activity: its PERT quantile table, or nil
	plan    *drawPlan
	seed    uint64
	r       rng
	groups  []int // nil: independent
	sr, sn  float64
	factors []float64
}

func (m *Model) newSampler(opt *Options, nGroups int, tabs []*qtable) *sampler {
	s := &sampler{m: m, tabs: tabs, plan: m.newPlan(tabs), seed: opt.Seed}
	if nGroups > 0 {
		s.groups = opt.Groups
		s.sr, s.sn = math.Sqrt(opt.Correlation), math.Sqrt(1-opt.Correlation)
		s.factors = make([]float64, nGroups)
	}
	return s
}

func (s *sampler) unit() float64 { return s.r.unit() }

// sample fills dur with iteration iter's durations from its stream
// (newRng(seed, iter)). Independent durations are drawn kind by kind in the
// order of the drawPlan (uniform, triangular, tabulated PERT, other PERT,
// normal activities, each in schedule order: sorted by kind, the draws'
// branches are predictable); fixed ones are set. With
// groups, the group factors are drawn first (in group order), then each
// activity in schedule order, grouped ones through the copula.
func (s *sampler) sample(iter int, dur []float64) {
	s.r = newRng(s.seed, iter)
	m := s.m
	if s.groups != nil {
		s.sampleCorrelated(dur)
		return
	}
	for _, v := range m.fixed {
		dur[v] = m.dists[v].a
	}
	for _, v := range m.uniform {
		d := &m.dists[v]
		dur[v] = d.a + (d.b-d.a)*s.unit()
	}
	for _, v := range m.triangular {
		d := &m.dists[v]
		dur[v] = d.quantile(s.unit())
	}
	r := &s.r
	for _, v := range s.plan.pertTab {
		d := &m.dists[v]
		dur[v] = d.a + (d.b-d.a)*s.tabs[v].at(s.unit())
	}
	for _, v := range s.plan.pertGamma {
		d := &m.dists[v]
		x := gamma(r, d.alpha)
		y := gamma(r, d.beta)
		dur[v] = d.a + (d.b-d.a)*x/(x+y)
	}
	for _, v := range m.normal {
		d := &m.dists[v]
		dur[v] = r.normal(d.a, d.b)
	}
}

func (s *sampler) sampleCorrelated(dur []float64) {
	r := &s.r
	for g := range s.factors {
		s.factors[g] = r.norm()
	}
	dists := s.m.dists
	for v := range dists {
		d := &dists[v]
		switch {
		case d.kind == kFixed:
			dur[v] = d.a
		case s.groups[v] >= 0:
			z := s.sr*s.factors[s.groups[v]] + s.sn*r.norm()
			u := normCDF(z)
			if t := s.tabs[v]; t != nil {
				dur[v] = d.a + (d.b-d.a)*t.at(u)
			} else {
				dur[v] = d.quantile(u)
			}
		case s.tabs[v] != nil:
			dur[v] = d.a + (d.b-d.a)*s.tabs[v].at(s.unit())
		default:
			dur[v] = d.draw(r)
		}
	}
}

// tables builds the PERT quantile tables a run uses (in parallel, a sixth
// of a table per job): for the shapes (α,β) most used, at most maxTables,
// when worth it — a table takes about 2 ms, a gamma-pair draw 25 ns and
// an exact quantile (the copula) 1 µs, so a shape gets one when its draws
// number at least 200,000 (independent) or 3,000 (correlated). Shapes
// equal to 9 significant digits share one table, built for the shape
// rounded so (pert(2.4,3,4.8) and pert(1.6,2,3.2) are both Beta(2,4) but
// for the last bits of the floats): the difference is far below the
// table's error. Tables are exact at their nodes and depend only on the
// shape, so the result does not depend on the workers.
func (m *Model) tables(iters int, correlated bool, workers int) []*qtable {
	tabs := make([]*qtable, m.Len())
	type shape struct{ a, b float64 }
	round := func(x float64) float64 {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 9, 64), 64)
		return v
	}
	key := func(v int32) shape { return shape{round(m.dists[v].alpha), round(m.dists[v].beta)} }
	uses := map[shape]int{}
	var shapes []shape
	for _, v := range m.pert {
		k := key(v)
		if uses[k] == 0 {
			shapes = append(shapes, k)
		}
		uses[k]++
	}
	slices.SortStableFunc(shapes, func(x, y shape) int { return cmp.Compare(uses[y], uses[x]) })
	need := 200_000
	if correlated {
		need = 3_000
	}
	shapes = slices.DeleteFunc(shapes, func(k shape) bool { return uses[k]*iters < need })
	shapes = shapes[:min(len(shapes), maxTables)]
	built := make([]*qtable, len(shapes))
	for i, k := range shapes {
		la, _ := math.Lgamma(k.a)
		lb, _ := math.Lgamma(k.b)
		lab, _ := math.Lgamma(k.a + k.b)
		built[i] = allocQTable(k.a, k.b, la+lb-lab)
	}
	jobs := fillJobs * len(shapes)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= jobs {
					return
				}
				built[i/fillJobs].fill(i % fillJobs)
			}
		}()
	}
	wg.Wait()
	byShape := map[shape]*qtable{}
	for i, k := range shapes {
		byShape[k] = built[i]
	}
	for _, v := range m.pert {
		tabs[v] = byShape[key(v)]
	}
	return tabs
}

// Samples calls each with every iteration's sampled durations (schedule
// order), in iteration order: the very numbers Run uses with the same
// options (Iterations included: it decides which PERT shapes are
// tabulated). dur is reused between calls. For dumping them to a peer.
func (m *Model) Samples(opt Options, each func(iter int, dur []float64) error) error {
	groups, nGroups := m.groupsOf(&opt)
	opt.Groups = groups
	dur := make([]float64, m.Len())
	iters := max(1, opt.Iterations)
	s := m.newSampler(&opt, nGroups, m.tables(iters, nGroups > 0, max(1, runtime.NumCPU())))
	for i := range iters {
		s.sample(i, dur)
		if err := each(i, dur); err != nil {
			return err
		}
	}
	return nil
}

// groupsOf renumbers opt.Groups densely, dropping groups of one activity or
// of fixed durations only (a factor would change nothing there).
func (m *Model) groupsOf(opt *Options) ([]int, int) {
	if opt.Groups == nil {
		return nil, 0
	}
	count := map[int]int{}
	for v, g := range opt.Groups {
		if g >= 0 && m.dists[v].kind != kFixed {
			count[g]++
		}
	}
	dense := map[int]int{}
	out := make([]int, len(opt.Groups))
	for v, g := range opt.Groups {
		out[v] = -1
		if g < 0 || count[g] < 2 || m.dists[v].kind == kFixed {
			continue
		}
		k, ok := dense[g]
		if !ok {
			k = len(dense)
			dense[g] = k
		}
		out[v] = k
	}
	if len(dense) == 0 {
		return nil, 0
	}
	return out, len(dense)
}

// Run simulates opt.Iterations iterations over the compiled model.
func (m *Model) Run(opt Options) (*Result, error) {
	if opt.Iterations < 1 {
		return nil, errors.New("risk: iterations must be at least 1")
	}
	if opt.Correlation < 0 || opt.Correlation > 1 || math.IsNaN(opt.Correlation) {
		return nil, errors.New("risk: correlation must be between 0 and 1")
	}
	if opt.Groups != nil && len(opt.Groups) != m.Len() {
		return nil, errors.New("risk: one group per activity")
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	iters, n := opt.Iterations, m.Len()
	workers = max(1, min(workers, iters))
	groups, nGroups := m.groupsOf(&opt)
	opt.Groups = groups
	limit := opt.MaxStored
	if limit <= 0 {
		limit = maxStored
	}

	tabs := m.tables(iters, nGroups > 0, workers)
	// Sensitivity columns. Independent durations drawn at the same position
	// of every stream (drawPlan) are regenerated when ranked; the samples
	// of the other random activities are kept as they are drawn, if they
	// fit.
	var plan *drawPlan
	if nGroups == 0 {
		plan = m.newPlan(tabs)
	}
	var cols []int32 // kept
	for v := range m.dists {
		if m.dists[v].kind != kFixed && (plan == nil || plan.at[v] < 0) {
			cols = append(cols, int32(v))
		}
	}
	storeAll := len(cols)*iters <= limit
	var mat []float32 // column-major: mat[k*iters+i]
	if storeAll {
		mat = make([]float32, len(cols)*iters)
	}

	finish := make([]float64, iters)
	crits := make([][]int32, workers)
	for w := range crits {
		crits[w] = make([]int32, n)
	}
	stores := make([]*colStore, workers)
	for w := range stores {
		stores[w] = newColStore(len(cols))
	}
	var live *liveRun
	if m.live != nil {
		live = m.live.newRun(iters, workers)
	}
	m.sampledBatches(&opt, nGroups, tabs, workers, func(w int, b *batch, first, nb int) {
		if storeAll {
			stores[w].add(b, mat, cols, iters, first, nb)
		}
		if live != nil {
			live.batch(w, b, first, nb, crits[w], finish)
			return
		}
		m.passes(b, nb, crits[w])
		copy(finish[first:first+nb], b.fin[:nb])
	})
	if live != nil && live.err != nil {
		return nil, live.err
	}

	r := &Result{
		Iterations: iters, Seed: opt.Seed, Correlated: nGroups > 0, Correlation: opt.Correlation,
		IDs: m.IDs, Names: m.Names, Random: m.random, Deterministic: m.Deterministic,
		Finish: finish, Criticality: make([]float64, n),
		Sensitivity: make([]float64, n), HasSensitivity: make([]bool, n),
	}
	if !r.Correlated {
		r.Correlation = 0
	}
	if live != nil {
		r.Live = m.live.describe(live.dates)
	}
	for v := range n {
		var c int64
		for w := range crits {
			c += int64(crits[w][v])
		}
		r.Criticality[v] = float64(c) / float64(iters)
	}
	r.summarize(opt.Bins)

	if !storeAll {
		// Keep the most critical random activities that fit (independent
		// durations: only those ever critical, see below) and regenerate
		// their samples (same streams, same numbers).
		keep := max(1, limit/iters)
		if !r.Correlated {
			cols = slices.DeleteFunc(cols, func(v int32) bool { return r.Criticality[v] == 0 })
		}
		slices.SortStableFunc(cols, func(a, b int32) int { return cmp.Compare(r.Criticality[b], r.Criticality[a]) })
		cols = cols[:min(keep, len(cols))]
		slices.Sort(cols)
		mat = make([]float32, len(cols)*iters)
		for w := range stores {
			stores[w] = newColStore(len(cols))
		}
		m.sampledBatches(&opt, nGroups, tabs, workers, func(w int, b *batch, first, nb int) {
			stores[w].add(b, mat, cols, iters, first, nb)
		})
	}
	r.Distributed = make([]bool, n)
	for v := range m.dists {
		r.Distributed[v] = m.dists[v].kind != kFixed
		if !r.Distributed[v] {
			r.HasSensitivity[v] = true // a constant: no correlation
		}
	}
	// Independent durations: an activity never critical cannot move the
	// finish in any iteration (the finish is a function of the other,
	// independent durations), so its rank correlation is 0 up to sampling
	// noise; it is reported as 0 without ranking. With a copula its
	// duration shares a factor with others, so every column is ranked.
	var jobs []sensJob
	regen := false
	for k, v := range cols {
		if r.Correlated || r.Criticality[v] > 0 {
			jobs = append(jobs, sensJob{v, mat[k*iters : (k+1)*iters]})
		} else {
			r.HasSensitivity[v] = true
		}
	}
	if plan != nil {
		for v, at := range plan.at {
			if at < 0 {
				continue
			}
			if r.Criticality[v] > 0 {
				jobs = append(jobs, sensJob{v: int32(v)})
				regen = true
			} else {
				r.HasSensitivity[v] = true
			}
		}
	}
	var starts []uint64
	if regen {
		starts = make([]uint64, iters)
		for i := range starts {
			starts[i] = newRng(opt.Seed, i).s
		}
	}
	r.sensitivity(jobs, workers,
		func(v int32, rk *ranker) bool { return m.columnKeys(v, plan, tabs, starts, rk) },
		func(v int32, out []float32) { m.column(v, plan, tabs, starts, out) })
	return r, nil
}

// sensJob is one activity whose sensitivity to compute: its samples, or
// nil to regenerate them.
type sensJob struct {
	v   int32
	col []float32
}

// summarize fills the moments, percentiles and histogram.
func (r *Result) summarize(bins int) {
	n := len(r.Finish)
	r.Sorted, r.finishRanks = sortRanks(r.Finish)
	var sum float64
	for _, f := range r.Finish {
		sum += f
	}
	r.Mean = sum / float64(n)
	var ss float64
	for _, f := range r.Finish {
		ss += (f - r.Mean) * (f - r.Mean)
	}
	if n > 1 {
		r.SD = math.Sqrt(ss / float64(n-1))
	}
	if r.Live != nil {
		r.Live.sortDates(r.Finish)
	}
	r.Min, r.Max = r.Sorted[0], r.Sorted[n-1]
	r.P10, r.P50, r.P80, r.P90 = r.Percentile(10), r.Percentile(50), r.Percentile(80), r.Percentile(90)
	at, _ := slices.BinarySearch(r.Sorted, r.Deterministic+schedule.Epsilon)
	r.DeterministicPercentile = 100 * float64(at) / float64(n)
	if bins <= 0 {
		bins = 30
	}
	if r.Max-r.Min <= schedule.Epsilon {
		bins = 1
	}
	r.Histogram = make([]int, bins)
	r.BinWidth = (r.Max - r.Min) / float64(bins)
	for _, f := range r.Finish {
		b := bins - 1
		if r.BinWidth > 0 {
			b = min(bins-1, int((f-r.Min)/r.BinWidth))
		}
		r.Histogram[b]++
	}
}

// ranker ranks one column of float32 samples at a time (one per worker,
// its buffers reused).
type ranker struct {
	keys, tmp []uint64
	count     []int32
	shift     uint // a key's bucket is its value bits >> shift
	buckets   int
}

// rankBits bounds the buckets of the ranker's distribution pass to
// 1<<rankBits; a column of n values gets about 2n (see layout).
const rankBits = 16

func newRanker(n int) *ranker {
	return &ranker{keys: make([]uint64, n), tmp: make([]uint64, n), count: make([]int32, 1<<rankBits+1)}
}

// Keys hold a value's order-preserving bits (orderedBits) less the
// column's lower bound in the upper half and the iteration in the lower
// half. They are bucket-sorted by their top bits (a pass that counts as
// the keys are made and one that distributes them), the sort finished by
// one insertion pass (see sums), and the ranks are summed in sorted order
// without being stored.

// layout sets the buckets for n keys spanning 0..span (about 2n buckets:
// few keys share one, so the insertion pass moves few) and clears their
// counts.
func (rk *ranker) layout(n int, span uint64) {
	nbits := bits.Len64(span)
	rk.shift = uint(max(0, nbits-min(rankBits, max(8, bits.Len(uint(2*n))))))
	rk.buckets = int(span>>rk.shift) + 1
	clear(rk.count[:rk.buckets+1])
}

// put sets the keys (value bits less lo, from vals) and counts their
// buckets; it reports false if a value fell outside lo..lo+span (it is
// then put at lo: the caller must not use the keys).
func (rk *ranker) put(vals []uint64, lo, span uint64) bool {
	ok := true
	keys := rk.keys[:len(vals)]
	count := rk.count[:rk.buckets+1]
	shift := 32 + rk.shift
	for i, x := range vals {
		b := x - lo
		if b > span { // also catches below lo (wraps around)
			ok = false
			b = 0
		}
		k := b<<32 | uint64(i)
		keys[i] = k
		count[(k>>shift)+1]++
	}
	return ok
}

// spearmanSums ranks col (1..n, ties averaged) and returns ΣR² and
// ΣR·g[i] over the iterations i, R being twice the centred rank of i's
// value (see sums).
func (rk *ranker) spearmanSums(col []float32, g []int32) (sdd, sdg float64) {
	lo, hi := uint64(math.MaxUint32), uint64(0)
	vals := rk.tmp[:len(col)] // scratch until sums
	for i, d := range col {
		b := orderedBits(d)
		vals[i] = b
		lo, hi = min(lo, b), max(hi, b)
	}
	rk.layout(len(col), hi-lo)
	rk.put(vals, lo, hi-lo)
	return rk.sums(len(col), g)
}

// flushKeys is how many keys' products are summed in int64 before the
// sum moves to float64: each is at most n² (|R|, |g| < n), so the int64
// cannot overflow for n up to maxIterations.
const flushKeys = 1024

// sums sorts the n keys put and returns ΣR² and ΣR·g[i] over the
// iterations i, R being twice the centred rank of i's value, 2·rank-(n+1)
// (ranks 1..n, ties averaged, so an integer), and g the finish's likewise
// (Spearman's ρ is ΣR·g / √(ΣR²·Σg²): the factors of 2 cancel). The sums
// are of integers, exact while they stay below 2^53 (n up to about
// 200,000).
//
// The keys are distributed to their buckets in order, which leaves them
// sorted but within buckets (about one key each): one insertion pass
// finishes the sort, moving only the keys out of order, where sorting
// bucket by bucket costs a mispredicted branch or two per bucket. The sums
// then take position k's rank as if every value were distinct (R = 2k+1-n,
// a tight loop), and correct the runs of equal values, which are rare.
func (rk *ranker) sums(n int, g []int32) (sdd, sdg float64) {
	keys, out := rk.keys[:n], rk.tmp[:n]
	count := rk.count[:rk.buckets+1]
	var at int32
	for b, c := range count {
		at += c
		count[b] = at
	}
	// count[b] is bucket b's start (put counts in count[b+1]).
	shift := 32 + rk.shift
	for _, k := range keys {
		b := k >> shift
		out[count[b]] = k
		count[b]++
	}
	// Buckets of many keys (clustered values, or more keys than buckets)
	// would make the insertion pass quadratic: past a budget of moves,
	// sort bucket by bucket (count[b] is now bucket b's end).
	moves, budget := 0, 8*n
	for i := 1; i < n && moves <= budget; i++ {
		k := out[i]
		if k < out[i-1] {
			j := i
			for ; j > 0 && out[j-1] > k; j-- {
				out[j] = out[j-1]
			}
			out[j] = k
			moves += i - j
		}
	}
	if moves > budget {
		start := 0
		for _, end := range count[:rk.buckets] {
			slices.Sort(out[start:end])
			start = int(end)
		}
	}
	for lo := 0; lo < n; lo += flushKeys {
		var acc int64
		r := int64(2*lo + 1 - n)
		for _, k := range out[lo:min(lo+flushKeys, n)] {
			acc += r * int64(g[uint32(k)])
			r += 2
		}
		sdg += float64(acc)
	}
	fn := float64(n)
	sdd = fn * (fn*fn - 1) / 3 // Σ(2k+1-n)² over k < n
	for i := 1; i < n; i++ {
		if out[i]>>32 != out[i-1]>>32 {
			continue
		}
		// Positions first..end-1 hold equal values: their mean rank,
		// twice centred, is first+end-n.
		first, end := i-1, i+1
		for end < n && out[end]>>32 == out[first]>>32 {
			end++
		}
		mean := int64(first + end - n)
		for k := first; k < end; k++ {
			r := int64(2*k + 1 - n)
			sdg += float64((mean - r) * int64(g[uint32(out[k])]))
			sdd += float64(mean*mean - r*r)
		}
		i = end
	}
	return sdd, sdg
}

// orderedBits maps a float32 to a uint32 with the same order.
func orderedBits(f float32) uint64 {
	b := math.Float32bits(f)
	if b&0x80000000 != 0 {
		b = ^b
	} else {
		b |= 0x80000000
	}
	return uint64(b)
}

// sensitivity fills Spearman's ρ of each stored column with the finish:
// the Pearson correlation of their ranks.
// Columns not kept are regenerated: regen puts their keys in the ranker
// straight from the streams (false if a value fell outside the bounds it
// assumed: then fill regenerates the column for spearmanSums).
func (r *Result) sensitivity(jobs []sensJob, workers int, regen func(v int32, rk *ranker) bool, fill func(v int32, out []float32)) {
	iters := len(r.Finish)
	if len(jobs) == 0 {
		return
	}
	// The finish ranked in float64 (summarize): float32 would make near
	// finishes ties.
	g := r.finishRanks
	var sgg float64
	for _, x := range g {
		sgg += float64(x) * float64(x)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rk := newRanker(iters)
			var buf []float32
			for {
				k := int(next.Add(1)) - 1
				if k >= len(jobs) {
					return
				}
				v, col := jobs[k].v, jobs[k].col
				var sdd, sdg float64
				if col != nil || !regen(v, rk) {
					if col == nil {
						if buf == nil {
							buf = make([]float32, iters)
						}
						fill(v, buf)
						col = buf
					}
					sdd, sdg = rk.spearmanSums(col, g)
				} else {
					sdd, sdg = rk.sums(iters, g)
				}
				r.HasSensitivity[v] = true
				if sdd > 0 && sgg > 0 {
					r.Sensitivity[v] = sdg / math.Sqrt(sdd*sgg)
				}
			}
		}()
	}
	wg.Wait()
}

// sortRanks sorts vals (one sort of values with their indices) and
// ranks them: each one's twice centred rank, 2·rank-(n+1) (ties
// averaged; see sums).
func sortRanks(vals []float64) (sorted []float64, ranks []int32) {
	type indexed struct {
		v float64
		i int32
	}
	n := len(vals)
	order := make([]indexed, n)
	for i, v := range vals {
		order[i] = indexed{v, int32(i)}
	}
	slices.SortFunc(order, func(a, b indexed) int { return cmp.Compare(a.v, b.v) })
	sorted, ranks = make([]float64, n), make([]int32, n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && order[j].v == order[i].v {
			j++
		}
		for k := i; k < j; k++ {
			sorted[k] = order[k].v
			ranks[order[k].i] = int32(i + j - n) // ranks i+1..j: mean (i+j+1)/2
		}
		i = j
	}
	return sorted, ranks
}

// Driver is an activity ranked by its influence on the finish.
type Driver struct {
	Index       int
	Criticality float64
	Sensitivity float64
}

// Drivers are the top k activities with a duration distribution by
// |sensitivity|, then criticality, then schedule order.
func (r *Result) Drivers(k int) []Driver {
	var out []Driver
	for v := range r.IDs {
		if !r.Distributed[v] {
			continue
		}
		out = append(out, Driver{Index: v, Criticality: r.Criticality[v], Sensitivity: r.Sensitivity[v]})
	}
	slices.SortStableFunc(out, func(a, b Driver) int {
		if c := cmp.Compare(math.Abs(b.Sensitivity), math.Abs(a.Sensitivity)); c != 0 {
			return c
		}
		return cmp.Compare(b.Criticality, a.Criticality)
	})
	return out[:min(k, len(out))]
}
