package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cpuByComponent is the CPU time (seconds, user+system) every process on
// the machine has used so far, summed by what it is: the Temporal services,
// PostgreSQL, the workers, Neo4j, Weaviate, and this process (the driver,
// and for the dev target the dev server). Processes that exit during a run
// take their time with them, so the figures are lower bounds.
func cpuByComponent() map[string]float64 {
	const ticks = 100 // USER_HZ on Linux
	self := os.Getpid()
	out := map[string]float64{}
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
		out[name] += (user + sys) / ticks
	}
	return out
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

// cpuSince is the CPU each component used since before, per dispatch.
func cpuSince(before map[string]float64, dispatches int) map[string]float64 {
	after := cpuByComponent()
	per := map[string]float64{}
	for name, t := range after {
		if d := t - before[name]; d > 0 && dispatches > 0 {
			per[name] = d / float64(dispatches)
		}
	}
	return per
}
