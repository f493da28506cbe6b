package main

import (
	"io"
	"os"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func TestPhases(t *testing.T) {
	t0 := time.Now()
	data, _ := os.ReadFile("../bench/out/synthetic-100k.json")
	t1 := time.Now()
	s, err := interchange.ParseJSON(data)
	if err != nil { t.Fatal(err) }
	t2 := time.Now()
	schedule.Validate(s)
	t3 := time.Now()
	rep, _ := render.NewReport(s)
	t4 := time.Now()
	rep.WriteJSON(io.Discard)
	t5 := time.Now()
	t.Logf("read %v parse+validate %v validate %v analyze %v write %v", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), t5.Sub(t4))
}
