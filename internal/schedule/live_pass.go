package schedule

import (
	"math"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/parallel"
)

// The live engine's passes. Each rule says which tool it follows; where MS
// Project and P6 differ, ln.p6 chooses.

func (ln *liveNet) started(v int32) bool  { return !ln.actStart[v].IsZero() }
func (ln *liveNet) finished(v int32) bool { return !ln.actEnd[v].IsZero() }

// driven reports whether an activity is dated from others after the
// passes (level of effort, WBS summary) and so takes no part in them.
func (ln *liveNet) driven(v int32) bool { return ln.isDriven[v] }

func (ln *liveNet) clock(v int32) *Clock { return ln.clocks[ln.cal[v]] }

// lagClock is the calendar a link's lag is counted on: MS Project the
// successor's; P6 the one its scheduling option names (default the
// predecessor's).
func (ln *liveNet) lagClock(p, s int32) *Clock {
	if !ln.p6 {
		return ln.clock(s)
	}
	switch ln.opts.LagCalendar {
	case LagSuccessor:
		return ln.clock(s)
	case Lag24Hour:
		return ln.clocks[1]
	case LagProject:
		return ln.clocks[0]
	}
	return ln.clock(p)
}

// lagMinutes is a link's lag in working minutes: days of the successor's
// calendar, as P6 files count lag hours.
func (ln *liveNet) lagMinutes(l link, succ int32) int64 {
	return int64(math.Round(l.lag * ln.dayOf[succ]))
}

func later(a, b instant) instant   { return max(a, b) }
func earlier(a, b instant) instant { return min(a, b) }

// computeLive runs the live engine.
func (n *Network) computeLive() *Result {
	ln := n.live.fresh()
	nAct := len(n.ids)
	t := &liveTimes{
		ES: make([]instant, nAct), EF: make([]instant, nAct),
		LS: make([]instant, nAct), LF: make([]instant, nAct),
		FloatMinutes: make([]int64, nAct), Done: make([]bool, nAct),
	}
	for v := range nAct {
		t.Done[v] = ln.finished(int32(v))
	}
	lsStar := make([]instant, nAct) // the late start predecessors see
	ln.workFloat = make([]int64, nAct)
	floor := ln.start
	if ln.p6 && ln.data.After(floor) {
		floor = ln.data // P6 schedules nothing before the data date
	}
	t.Start = floor
	for _, v := range n.order {
		if !ln.driven(v) {
			ln.forward(n, t, v, floor)
		}
	}
	finish := noInstant
	for v := range nAct {
		if !ln.driven(int32(v)) && (finish.IsZero() || t.EF[v].After(finish)) {
			finish = t.EF[v]
		}
	}
	if finish.IsZero() {
		finish = floor
	}
	t.Finish = finish
	if !ln.mustFinish.IsZero() {
		finish = ln.mustFinish // P6 counts the late dates back from it
	}
	for k := len(n.order) - 1; k >= 0; k-- {
		if v := n.order[k]; !ln.driven(v) {
			ln.backward(n, t, lsStar, v, finish)
		}
	}
	ln.drivenDates(n, t)
	return ln.result(n, t)
}

// fresh is ln with clocks of its own: clocks extend as they are asked,
// and a Network may be computed by several goroutines at once.
func (ln *liveNet) fresh() *liveNet {
	c := *ln
	c.clocks = make([]*Clock, len(ln.clocks))
	for i, old := range ln.clocks {
		c.clocks[i] = newTimeline(old.from, old.work)
	}
	return &c
}

// forward dates one activity from its predecessors.
func (ln *liveNet) forward(n *Network, t *liveTimes, v int32, floor instant) {
	c := ln.clock(v)
	d, rem := ln.dur[v], ln.remain[v]
	if ln.manual[v] {
		t.ES[v], t.EF[v] = ln.manStart[v], ln.manEnd[v]
		return
	}
	// The latest start the logic allows, whether any link counts, and
	// (P6) the finish the finish link that gives it asks for.
	es, linked, finishBy := noInstant, false, noInstant
	for _, l := range n.in[n.inStart[v]:n.inStart[v+1]] {
		p := l.other
		if ln.driven(p) {
			continue
		}
		if cand, by := ln.earlyStartFrom(t, p, v, l); !linked || cand.After(es) {
			es, linked, finishBy = cand, true, by
		}
	}
	if !ln.p6 {
		ln.forwardMSProject(t, v, c, d, es, linked)
		return
	}
	ln.forwardP6(t, v, c, d, rem, es, linked, floor, finishBy)
}

// earlyStartFrom is the successor start one link allows, and under P6's
// rules the finish a finish-to-finish or start-to-finish link asks of a
// successor not yet started (P6 writes that finish as the link gives it;
// noInstant otherwise).
func (ln *liveNet) earlyStartFrom(t *liveTimes, p, v int32, l link) (start, finishBy instant) {
	c, lc, lag := ln.clock(v), ln.lagClock(p, v), ln.lagMinutes(l, v)
	pStart, pFinish := t.ES[p], t.EF[p]
	if ln.finished(p) && !ln.p6 {
		pStart = ln.actStart[p]
	}
	if ln.p6 && ln.started(p) {
		pStart = ln.actStart[p]
	}
	withLag := func(at instant) instant {
		r := lc.add(at, lag)
		if ln.p6 && lag < 0 && !ln.data.IsZero() && r.Before(ln.data) {
			r = ln.data // P6: a lead does not reach back past the data date
		}
		return r
	}
	if ln.p6 && ln.finished(v) {
		// P6: finished work sits at the data date, or later where its
		// logic still puts it (progress out of sequence): a link from work
		// not started counts with its lag, and so does a finish link from
		// work under way; one from finished work, or a start link from
		// work under way, without.
		from := pFinish
		startLink := l.typ == linkSS || l.typ == linkSF
		if startLink {
			from = t.ES[p]
		}
		if ln.finished(p) || ln.started(p) && startLink {
			return from, noInstant
		}
		return withLag(from), noInstant
	}
	switch l.typ {
	case linkFS:
		if ln.p6 && ln.finished(p) && lag > 0 && !ln.data.IsZero() {
			// P6: lag already run between the actual finish and the data
			// date is spent.
			if left := ln.lagLeft(lc, lag, ln.actEnd[p]); left > 0 {
				return lc.add(pFinish, left), noInstant
			}
			return pFinish, noInstant
		}
		return withLag(pFinish), noInstant
	case linkSS:
		if ln.p6 && ln.finished(p) && !ln.data.IsZero() {
			// P6: from finished work the lag runs from its actual start;
			// where that is spent by the data date the successor follows
			// where the finished work itself was placed.
			r := lc.add(pStart, lag)
			if r.Before(ln.data) || lag < 0 && r == ln.data {
				return t.ES[p], noInstant
			}
			return r, noInstant
		}
		if ln.p6 && ln.started(p) && !ln.data.IsZero() {
			// P6: from work under way the successor follows its remaining
			// work, after what the work done has not yet covered of the lag.
			return lc.add(t.ES[p], ln.lagLeft(lc, lag, pStart)), noInstant
		}
		return withLag(pStart), noInstant
	case linkFF:
		if ln.p6 {
			by := withLag(pFinish)
			return c.add(by, -ln.remain[v]), by
		}
		return lc.add(c.add(pFinish, -ln.remain[v]), lag), noInstant
	default: // SF
		if ln.p6 {
			by := withLag(pStart)
			return c.add(by, -ln.remain[v]), by
		}
		return lc.add(c.add(pStart, -ln.dur[v]), lag), noInstant
	}
}

// snapStart moves a start to the next working instant, except a milestone
// already at the end of a working period (MS Project and P6 keep a finish
// milestone after a task that ends Fri 17:00 at Fri 17:00).
func (ln *liveNet) snapStart(c *Clock, v int32, es instant) instant {
	if ln.dur[v] == 0 && ln.kind[v] != StartMilestone && c.atFinish(es) {
		return es
	}
	return c.nextStart(es)
}

// finishFrom is where work that starts at es ends: d minutes on c, or,
// for an assignment-driven task, the latest end of its assignments.
func (ln *liveNet) finishFrom(v int32, c *Clock, es instant, d int64) instant {
	if ln.assign[v] == nil {
		return c.add(es, d)
	}
	ef := noInstant
	for _, a := range ln.assign[v] {
		ac := ln.clocks[a.clock]
		ef = later(ef, ac.add(ac.nextStart(es), a.minutes))
	}
	return ef
}

// snapFinish moves a finish back to the end of the last working period:
// on the activity's calendar, or the latest of its resources'.
func (ln *liveNet) snapFinish(v int32, c *Clock, lf instant) instant {
	if ln.assign[v] == nil {
		return c.prevFinish(lf)
	}
	last := noInstant
	for _, a := range ln.assign[v] {
		last = later(last, ln.clocks[a.clock].prevFinish(lf))
	}
	return last
}

// startBefore is where work that ends at lf starts: finishFrom backwards.
func (ln *liveNet) startBefore(v int32, c *Clock, lf instant, d int64) instant {
	if ln.assign[v] == nil {
		return c.add(lf, -d)
	}
	ls := lf
	for _, a := range ln.assign[v] {
		ac := ln.clocks[a.clock]
		ls = earlier(ls, ac.add(ac.prevFinish(lf), -a.minutes))
	}
	return ls
}

func (ln *liveNet) forwardMSProject(t *liveTimes, v int32, c *Clock, d int64, es instant, linked bool) {
	cons := ln.cons[v][0]
	if ln.started(v) {
		t.ES[v] = ln.actStart[v]
		if ln.finished(v) {
			t.EF[v] = ln.actEnd[v]
		} else {
			t.EF[v] = ln.finishFrom(v, c, t.ES[v], d) // MS Project: the work runs on from the actual start
			if cons.typ == FinishOnOrAfter {
				t.EF[v] = later(t.EF[v], cons.at)
			}
		}
		return
	}
	if !linked {
		switch cons.typ {
		case StartOnOrAfter:
			es = cons.at
		case FinishOnOrAfter:
			es = c.add(cons.at, -d)
		default:
			es = ln.start
		}
	} else if es.Before(ln.start) && ln.kind[v] != StartMilestone {
		es = ln.start
	}
	es = ln.snapStart(c, v, es)
	if ln.assign[v] != nil {
		// An assignment-driven task starts when its first resource works.
		first := noInstant
		for _, a := range ln.assign[v] {
			if s := ln.clocks[a.clock].nextStart(es); first.IsZero() || s.Before(first) {
				first = s
			}
		}
		es = first
	}
	// MS Project honours constraint dates over logic.
	switch cons.typ {
	case StartOnOrAfter:
		es = later(es, cons.at)
	case FinishOnOrAfter:
		es = later(es, c.add(cons.at, -d))
	case StartOnOrBefore:
		es = earlier(es, cons.at)
	case FinishOnOrBefore:
		es = earlier(es, c.add(cons.at, -d))
	case StartOn, MandatoryStart:
		es = cons.at
	case FinishOn, MandatoryFinish:
		t.ES[v], t.EF[v] = c.add(cons.at, -d), cons.at
		return
	}
	t.ES[v], t.EF[v] = es, ln.finishFrom(v, c, es, d)
}

func (ln *liveNet) forwardP6(t *liveTimes, v int32, c *Clock, d, rem int64, es instant, linked bool, floor, finishBy instant) {
	if ln.started(v) || ln.finished(v) {
		// Progressed work is dated from the data date, or later where its
		// logic puts it unless the schedule overrides progressed logic: a
		// completed activity's early dates there, the remaining work from
		// there.
		at := floor
		if linked && ln.opts.Progress != ProgressOverride && ln.opts.Progress != ActualDates {
			at = later(es, floor)
		}
		if ln.finished(v) {
			t.ES[v], t.EF[v] = at, at
			return
		}
		t.ES[v] = c.nextStart(at)
		t.EF[v] = c.add(t.ES[v], rem)
		return
	}
	cons := ln.cons[v][0]
	switch {
	case !linked && cons.typ == StartOnOrAfter:
		es = later(cons.at, floor)
	case !linked && cons.typ == FinishOnOrAfter:
		es = c.add(c.nextStart(cons.at), -d)
	case !linked && cons.typ == "" && ln.kind[v] == StartMilestone:
		// P6 leaves a start milestone nothing drives at the data date
		// itself when that is a working day, in working time or not (a
		// project "start" at 00:00); from a day off it moves to the next
		// working start, as any activity does.
		at := c.nextStart(floor)
		if !ln.data.IsZero() && !ln.data.After(at) && c.nextStart(ln.data) == at &&
			dateOf(c.timeOf(ln.data)).Equal(dateOf(c.timeOf(at))) {
			at = ln.data
		}
		t.ES[v], t.EF[v] = at, at
		return
	case !linked:
		es = floor
	default:
		es = later(es, floor)
	}
	switch cons.typ {
	case StartOnOrAfter:
		es = later(es, cons.at)
	case FinishOnOrAfter:
		es = later(es, c.add(cons.at, -d))
	case MandatoryStart:
		es = cons.at
	case MandatoryFinish:
		es = c.add(cons.at, -d)
	case StartOn:
		if es.Before(cons.at) {
			es = c.nextStart(cons.at)
		}
	case FinishOn:
		es = later(es, c.add(cons.at, -d))
	}
	es = ln.snapStart(c, v, es)
	ef := c.add(es, d)
	if !finishBy.IsZero() {
		// P6 writes a finish its finish link gives as the link gives it
		// (Thu 08:00 from a start, not Wed 16:00), or, where that falls
		// off this activity's working time, as its next start.
		if c.prevFinish(finishBy) != finishBy {
			finishBy = c.nextStart(finishBy)
		}
		if c.between(ef, finishBy) == 0 {
			ef = finishBy
		}
	}
	t.ES[v], t.EF[v] = es, ef
}

// backward dates one activity's late dates from its successors.
func (ln *liveNet) backward(n *Network, t *liveTimes, lsStar []instant, v int32, finish instant) {
	c := ln.clock(v)
	d, rem := ln.dur[v], ln.remain[v]
	if !ln.p6 && ln.finished(v) {
		t.LF[v], t.LS[v], lsStar[v] = ln.actEnd[v], ln.actStart[v], ln.actEnd[v]
		ln.float(t, v)
		return
	}
	// The earliest finish the successors allow, and (P6) the start the
	// start link that gives it asks for.
	lf, open, startBy := finish, true, noInstant
	for _, l := range n.out[n.outStart[v]:n.outStart[v+1]] {
		s := l.other
		if ln.driven(s) || !ln.p6 && ln.finished(s) {
			continue
		}
		if cand, by := ln.lateFinishFrom(n, t, lsStar, v, s, l, finish); cand.Before(lf) {
			lf, startBy = cand, by
		}
		open = false
	}
	if open && ln.opts.OpenEndsCritical {
		lf = t.EF[v] // an activity that ends the logic is critical
	}
	if !ln.finished(v) {
		for k, cons := range ln.cons[v] {
			if ln.p6 && k == 1 && cons.typ != StartOnOrBefore && cons.typ != FinishOnOrBefore {
				continue // P6 honours only the "on or before" secondary constraints
			}
			switch cons.typ {
			case StartOnOrBefore:
				lf = earlier(lf, c.add(cons.at, d))
			case FinishOnOrBefore:
				lf = earlier(lf, cons.at)
			case StartOn:
				if ln.p6 {
					lf = earlier(lf, c.add(cons.at, d))
				} else {
					lf = c.add(cons.at, d)
				}
			case MandatoryStart:
				lf = c.add(cons.at, d)
			case FinishOn:
				if ln.p6 {
					lf = earlier(lf, cons.at)
				} else {
					lf = cons.at
				}
			case MandatoryFinish:
				lf = cons.at
			}
		}
	}
	switch {
	case ln.p6 && ln.finished(v), ln.manual[v]:
		// P6 writes finished work's late dates as its successors give
		// them, and MS Project a manually scheduled task's: Mon 08:00,
		// not Fri 17:00.
	case ln.kind[v] != StartMilestone:
		lf = ln.snapFinish(v, c, lf)
	case ln.p6 && c.nextStart(lf) != lf:
		// A start milestone keeps a working instant (Mon 08:00); off its
		// own calendar's working time P6 moves it back to the last finish.
		lf = c.prevFinish(lf)
	}
	var ls instant
	switch {
	case !ln.p6 && !ln.started(v):
		ls = ln.startBefore(v, c, lf, rem)
	case ln.p6 && rem > 0:
		ls = c.nextStart(c.add(lf, -rem))
	default:
		ls = c.add(lf, -rem)
	}
	if ln.p6 && !startBy.IsZero() && !ln.finished(v) {
		// P6 writes a start its start link gives as the link gives it
		// (Wed 16:00 from a finish, not Thu 08:00), or, where that falls
		// off this activity's working time, as its last finish.
		if c.nextStart(startBy) != startBy {
			startBy = c.prevFinish(startBy)
		}
		if c.between(ls, startBy) == 0 {
			ls = startBy
		}
	}
	t.LF[v], lsStar[v], t.LS[v] = lf, ls, ls
	if !ln.p6 && ln.started(v) {
		t.LS[v] = ln.actStart[v]
	}
	if ln.cons[v][0].typ == AsLateAsPossible && !ln.started(v) {
		if ln.p6 {
			// P6 puts an as-late-as-possible activity as late as its
			// successors' early dates allow (no free float); its total
			// float is measured from there.
			ln.asLateAsSuccessors(n, t, v)
		} else {
			// MS Project shows the task at its late dates, with no float.
			t.FloatMinutes[v], ln.workFloat[v] = 0, 0
			return
		}
	}
	ln.float(t, v)
}

// asLateAsSuccessors moves a not started P6 activity's early dates as late
// as the early dates of its successors allow (the early finish of the
// project if it has none), as P6 schedules "as late as possible".
func (ln *liveNet) asLateAsSuccessors(n *Network, t *liveTimes, v int32) {
	c, rem := ln.clock(v), ln.remain[v]
	es, linked := noInstant, false
	for _, l := range n.out[n.outStart[v]:n.outStart[v+1]] {
		s := l.other
		if ln.driven(s) {
			continue
		}
		lc, lag := ln.lagClock(v, s), ln.lagMinutes(l, s)
		var cand instant
		switch l.typ {
		case linkSS:
			cand = c.nextStart(lc.add(t.ES[s], -lag))
		case linkFS:
			cand = lc.add(c.add(t.ES[s], -rem), -lag)
			if !ln.started(s) {
				cand = c.nextStart(cand)
			}
		case linkFF:
			cand = c.add(lc.add(t.EF[s], -lag), -rem)
		default: // SF: no rule known; the link does not hold it
			continue
		}
		if !linked || cand.Before(es) {
			es, linked = cand, true
		}
	}
	if !linked {
		es = c.add(c.prevFinish(t.Finish), -rem) // the early finish, not a must-finish-by date
	} else if ln.dur[v] == 0 && ln.kind[v] != StartMilestone {
		es = c.prevFinish(es) // a finish milestone ends the work before it
	}
	if es.Before(t.ES[v]) {
		return // its logic allows no later: it stays at its early dates
	}
	t.ES[v], t.EF[v] = es, c.add(es, rem)
}

// lateFinishFrom is the predecessor finish one link allows, and under
// P6's rules the start a start-to-start or start-to-finish link asks of it
// (P6 writes that late start as the link gives it; noInstant otherwise).
func (ln *liveNet) lateFinishFrom(n *Network, t *liveTimes, lsStar []instant, v, s int32, l link, finish instant) (lateFinish, startBy instant) {
	c, lc, lag := ln.clock(v), ln.lagClock(v, s), ln.lagMinutes(l, s)
	if (l.typ == linkSS || l.typ == linkSF) && !ln.p6 && ln.manual[v] {
		// MS Project: a manually scheduled predecessor keeps the late
		// finish of a successor that ends the logic, else the project's.
		if n.outStart[s] == n.outStart[s+1] {
			return t.LF[s], noInstant
		}
		return finish, noInstant
	}
	if ln.p6 {
		lag = ln.lagBack(v, s, l.typ, lag, lc)
	}
	switch l.typ {
	case linkFS:
		return lc.add(lsStar[s], -lag), noInstant
	case linkFF:
		return lc.add(t.LF[s], -lag), noInstant
	case linkSS:
		if !ln.p6 && (ln.started(v) || ln.started(s)) {
			return finish, noInstant // MS Project's late dates across a started SS link
		}
		by := lc.add(lsStar[s], -lag)
		if ln.p6 {
			return c.add(by, ln.remain[v]), by
		}
		return c.add(c.nextStart(by), ln.remain[v]), noInstant
	default: // SF
		if ln.p6 {
			by := lc.add(t.LF[s], -lag)
			return c.add(by, ln.remain[v]), by
		}
		return lc.add(c.add(t.LF[s], ln.dur[v]), -lag), noInstant
	}
}

// lagBack is the lag P6's backward pass counts on a link from v to s
// where progress spends it: after a finished predecessor only the part of
// a positive lag not yet run by the data date (from its actual finish, or
// its actual start on an SS link), none into a successor already under
// way (on an FS link, one with no work done yet keeps it), none into a
// finished successor from unfinished work, and on an SS link from work
// under way only what its work done has not covered. Start-finish links
// keep theirs unless both ends are finished.
func (ln *liveNet) lagBack(v, s int32, typ linkType, lag int64, lc *Clock) int64 {
	if typ == linkSF {
		if ln.finished(v) && ln.finished(s) {
			return 0
		}
		return lag
	}
	running := ln.started(s) && !ln.finished(s)
	switch {
	case ln.finished(v) && running:
		if typ == linkFS && !ln.actStart[s].Before(ln.data) {
			return lag
		}
		return 0
	case ln.finished(v):
		if lag <= 0 {
			return 0
		}
		if ln.data.IsZero() {
			return lag
		}
		from := ln.actEnd[v]
		if typ == linkSS {
			from = ln.actStart[v]
		}
		return ln.lagLeft(lc, lag, from)
	case ln.finished(s) && typ == linkFS:
		return 0
	case typ == linkSS && ln.started(v) && !ln.data.IsZero():
		// Work under way has covered the lag it has run for.
		return ln.lagLeft(lc, lag, ln.actStart[v])
	}
	return lag
}

// lagLeft is what P6 still counts of a lag on lc from progressed work: the
// part not yet run between from (its actual start or finish) and the data
// date, none when that is all spent.
func (ln *liveNet) lagLeft(lc *Clock, lag int64, from instant) int64 {
	return max(lag-max(lc.between(from, ln.data), 0), 0)
}

// float sets an activity's total float in working minutes of its calendar.
func (ln *liveNet) float(t *liveTimes, v int32) {
	if ln.p6 && ln.finished(v) {
		t.FloatMinutes[v], ln.workFloat[v] = 0, 0
		return
	}
	t.FloatMinutes[v] = ln.floatOn(ln.clock(v), t, v)
	ln.workFloat[v] = t.FloatMinutes[v]
	if ln.home[v] != ln.cal[v] {
		ln.workFloat[v] = ln.floatOn(ln.clocks[ln.home[v]], t, v)
	}
}

// floatOn measures total float on clock c as the tool does.
func (ln *liveNet) floatOn(c *Clock, t *liveTimes, v int32) int64 {
	startFloat := c.between(t.ES[v], t.LS[v])
	finishFloat := c.between(t.EF[v], t.LF[v])
	measure := ln.opts.Float
	if measure == "" && ln.p6 {
		measure = FinishFloat
	}
	switch {
	case measure == FinishFloat || ln.started(v):
		return finishFloat
	case measure == StartFloat:
		return startFloat
	}
	return min(startFloat, finishFloat)
}

// drivenDates dates level-of-effort activities from the activities they
// are linked to and WBS summaries from the activities of their branch.
func (ln *liveNet) drivenDates(n *Network, t *liveTimes) {
	for v := range int32(len(n.ids)) {
		if ln.kind[v] != LevelOfEffort {
			continue
		}
		es, ef := noInstant, noInstant
		for _, l := range n.in[n.inStart[v]:n.inStart[v+1]] {
			at := t.EF[l.other]
			if l.typ == linkSS || l.typ == linkSF {
				at = t.ES[l.other]
			}
			if es.IsZero() || at.Before(es) {
				es = at
			}
		}
		for _, l := range n.out[n.outStart[v]:n.outStart[v+1]] {
			at := t.ES[l.other]
			if l.typ == linkFF || l.typ == linkSF {
				at = t.EF[l.other]
			}
			ef = later(ef, at)
		}
		c := ln.clock(v)
		if es.IsZero() {
			es = t.Start
		}
		es = c.nextStart(es)
		if ef.IsZero() || ef.Before(es) {
			ef = c.add(es, ln.dur[v])
		}
		t.ES[v], t.EF[v], t.LS[v], t.LF[v] = es, ef, es, ef
	}
	for v := range int32(len(n.ids)) {
		if ln.kind[v] != WBSSummary {
			continue
		}
		prefix := ln.wbs[v]
		first := true
		for k := range int32(len(n.ids)) {
			if k == v || ln.driven(k) || !inBranch(ln.wbs[k], prefix) {
				continue
			}
			if first {
				t.ES[v], t.EF[v], t.LS[v], t.LF[v], first = t.ES[k], t.EF[k], t.LS[k], t.LF[k], false
				continue
			}
			t.ES[v], t.EF[v] = earlier(t.ES[v], t.ES[k]), later(t.EF[v], t.EF[k])
			t.LS[v], t.LF[v] = earlier(t.LS[v], t.LS[k]), later(t.LF[v], t.LF[k])
		}
		if first {
			t.ES[v], t.EF[v], t.LS[v], t.LF[v] = t.Start, t.Start, t.Start, t.Start
		}
		t.FloatMinutes[v] = ln.clock(v).between(t.EF[v], t.LF[v])
		ln.workFloat[v] = t.FloatMinutes[v]
	}
}

// inBranch reports whether wbs path w is prefix or under it ("1.2" is in
// "1", "1.2"; "1.20" is not in "1.2").
func inBranch(w, prefix string) bool {
	if prefix == "" || !strings.HasPrefix(w, prefix) {
		return prefix == "" && w != ""
	}
	rest := w[len(prefix):]
	return rest == "" || rest[0] == '.' || rest[0] == '/'
}

// result turns the dates into the working-day offsets of the project
// calendar every report reads, keeping the dates themselves.
func (ln *liveNet) result(n *Network, t *liveTimes) *Result {
	nAct := len(n.ids)
	pc := ln.clocks[0]
	dates := &Times{
		ES: make([]time.Time, nAct), EF: make([]time.Time, nAct),
		LS: make([]time.Time, nAct), LF: make([]time.Time, nAct),
		FloatMinutes: t.FloatMinutes, Done: t.Done,
		Start: pc.timeOf(t.Start), Finish: pc.timeOf(t.Finish),
	}
	r := &Result{
		Net: n, Times: dates,
		ES: make([]float64, nAct), EF: make([]float64, nAct),
		LS: make([]float64, nAct), LF: make([]float64, nAct),
		TotalFloat: make([]float64, nAct), FreeFloat: make([]float64, nAct),
	}
	base := pc.workAt(ln.start)
	day := pc.work.dayMinutes
	// Every activity's figures are its own: on a large network they are
	// worked out on every core, each goroutine with clocks of its own
	// (clocks extend as they are asked).
	parallel.Ranges(nAct, 8192, func(lo, hi int) {
		l := ln // the calling goroutine's
		if lo > 0 {
			l = ln.fresh()
		}
		pc := l.clocks[0]
		off := func(at instant) float64 { return float64(pc.workAt(at)-base) / day }
		for v := lo; v < hi; v++ {
			r.ES[v], r.EF[v], r.LS[v], r.LF[v] = off(t.ES[v]), off(t.EF[v]), off(t.LS[v]), off(t.LF[v])
			dates.ES[v], dates.EF[v], dates.LS[v], dates.LF[v] = pc.timeOf(t.ES[v]), pc.timeOf(t.EF[v]), pc.timeOf(t.LS[v]), pc.timeOf(t.LF[v])
			r.TotalFloat[v] = float64(l.workFloat[v]) / day
			r.FreeFloat[v] = max(0, min(r.TotalFloat[v], l.freeFloat(n, t, int32(v))/day))
		}
	})
	r.ProjectDuration = float64(pc.workAt(t.Finish)-base) / day
	return r
}

// liveTimes are the passes' dates as instants (see Times).
type liveTimes struct {
	ES, EF, LS, LF []instant
	FloatMinutes   []int64
	Done           []bool
	Start, Finish  instant
}

// freeFloat is the working minutes an activity can slip without delaying
// any successor: the smallest gap over its links, on its calendar.
func (ln *liveNet) freeFloat(n *Network, t *liveTimes, v int32) float64 {
	c := ln.clock(v)
	free := float64(t.FloatMinutes[v])
	for _, l := range n.out[n.outStart[v]:n.outStart[v+1]] {
		s := l.other
		if ln.driven(s) || ln.finished(s) {
			continue
		}
		lc, lag := ln.lagClock(v, s), ln.lagMinutes(l, s)
		var from, to instant
		switch l.typ {
		case linkFS:
			from, to = t.EF[v], t.ES[s]
		case linkSS:
			from, to = t.ES[v], t.ES[s]
		case linkFF:
			from, to = t.EF[v], t.EF[s]
		default:
			from, to = t.ES[v], t.EF[s]
		}
		free = min(free, float64(c.between(lc.add(from, lag), to)))
	}
	return free
}
