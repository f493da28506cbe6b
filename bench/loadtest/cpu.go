package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// procCPU is one process's CPU time so far (seconds, user+system) and
// what it is.
type procCPU struct {
	component string
	seconds   float64
}

// cpuByProcess reads every process on the machine that belongs to the
// stack: the Temporal services, PostgreSQL, the workers, Neo4j, Weaviate,
// and this process (the driver, and for the dev target the dev server).
func cpuByProcess() map[int]procCPU {
	const ticks = 100 // USER_HZ on Linux
	self := os.Getpid()
	out := map[int]procCPU{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(dir))
		cmd, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil {
			continue
		}
		name := component(pid == self, strings.ReplaceAll(string(cmd), "\x00", " "))
		if name == "" {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue
		}
		// Fields after the command's closing parenthesis: utime and stime
		// are the 12th and 13th.
		rest := string(stat)
		if i := strings.LastIndexByte(rest, ')'); i >= 0 {
			rest = rest[i+1:]
		}
		f := strings.Fields(rest)
		if len(f) < 13 {
			continue
		}
		user, _ := strconv.ParseFloat(f[11], 64)
		sys, _ := strconv.ParseFloat(f[12], 64)
		out[pid] = procCPU{name, (user + sys) / ticks}
	}
	return out
}

// cpuMeter follows the stack's processes through a run, sampling every
// second, so processes that start (a restarted service, a new PostgreSQL
// backend) or end (a killed worker) during it count too, up to their last
// sample.
type cpuMeter struct {
	start, last map[int]procCPU
	stop, done  chan struct{}
}

func startCPUMeter() *cpuMeter {
	m := &cpuMeter{start: cpuByProcess(), stop: make(chan struct{}), done: make(chan struct{})}
	m.last = map[int]procCPU{}
	go func() {
		defer close(m.done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			for pid, p := range cpuByProcess() {
				m.last[pid] = p
			}
			select {
			case <-m.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return m
}

// perDispatch stops the meter and returns each component's CPU seconds per
// dispatch.
func (m *cpuMeter) perDispatch(dispatches int) map[string]float64 {
	close(m.stop)
	<-m.done
	for pid, p := range cpuByProcess() {
		m.last[pid] = p
	}
	per := map[string]float64{}
	for pid, p := range m.last {
		used := p.seconds - m.start[pid].seconds // a new process starts at 0
		if old, ok := m.start[pid]; ok && old.component != p.component {
			used = p.seconds // a pid reused by another process
		}
		if used > 0 && dispatches > 0 {
			per[p.component] += used / float64(dispatches)
		}
	}
	return per
}

func component(self bool, cmdline string) string {
	switch {
	case self:
		return "driver (+ dev server)"
	case strings.Contains(cmdline, "temporal-server"):
		if _, svc, ok := strings.Cut(cmdline, "--service "); ok {
			return "temporal " + strings.Fields(svc)[0]
		}
		return "temporal"
	case strings.Contains(cmdline, "postgres"):
		return "postgresql"
	case strings.Contains(cmdline, "bin/worker"):
		return "workers"
	case strings.Contains(cmdline, "neo4j"):
		return "neo4j"
	case strings.Contains(cmdline, "weaviate"):
		return "weaviate"
	}
	return ""
}
