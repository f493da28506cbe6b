package interchange

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Holdings is what a schedule holds, as import reports it to the planner:
// what the model schedules with, and what it keeps unused and writes back.
type Holdings struct {
	Activities    int `json:"activities"`
	Relationships int `json:"relationships"`
	// Calendars counts the file's calendars (without a file, the
	// project's and the named ones).
	Calendars int `json:"calendars"`
	// WBSLevels is the depth of the deepest WBS path; WBSNodes the
	// distinct paths and their parents.
	WBSLevels int `json:"wbs_levels"`
	WBSNodes  int `json:"wbs_nodes"`
	// Resources and Assignments count what the file holds (a P6 file's
	// RSRC and TASKRSRC, an MS Project file's Resources and Assignments),
	// or the model's assignments without a file.
	Resources   int `json:"resources"`
	Assignments int `json:"assignments"`
	// Started and Finished count activities with an actual start (not
	// finished) and with an actual finish; DataDate is the status date.
	Started     int    `json:"started"`
	Finished    int    `json:"finished"`
	DataDate    string `json:"data_date,omitempty"`
	Constraints int    `json:"constraints"`
	// Kept lists what the source file holds that the model does not
	// schedule with: it stays in the kept file and export writes it back.
	Kept []Part `json:"kept,omitempty"`
}

// Part is a kind of record in a file and how many it holds: a XER table
// and its rows, an MS Project element and its count.
type Part struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// xerModelTables are the XER tables the reader schedules with; every other
// table is kept unused (see Holdings.Kept).
var xerModelTables = []string{"PROJECT", "CALENDAR", "PROJWBS", "TASK", "TASKPRED", "SCHEDOPTIONS", "ACTVTYPE", "ACTVCODE", "TASKACTV"}

// Describe says what s holds. A kept source is read again for the parts
// the model does not use; a damaged one is described from the model alone.
func Describe(s *schedule.Schedule) Holdings {
	h := Holdings{Activities: len(s.Activities), Relationships: len(s.Relationships), Calendars: 1 + len(s.Calendars), DataDate: s.DataDate}
	wbs := map[string]bool{}
	resources := map[string]bool{}
	for i := range s.Activities {
		a := &s.Activities[i]
		switch {
		case a.ActualFinish != "":
			h.Finished++
		case a.ActualStart != "":
			h.Started++
		}
		if a.Constraint != nil {
			h.Constraints++
		}
		if a.SecondaryConstraint != nil {
			h.Constraints++
		}
		if a.WBS != "" {
			levels := wbsLevels(a.WBS)
			h.WBSLevels = max(h.WBSLevels, len(levels))
			for j := range levels {
				wbs[strings.Join(levels[:j+1], "\x00")] = true
			}
		}
		for _, as := range a.Assignments {
			resources[as.Resource] = true
			h.Assignments++
		}
	}
	h.WBSNodes, h.Resources = len(wbs), len(resources)
	if s.Source == nil {
		return h
	}
	data, err := SourceBytes(s.Source)
	if err != nil {
		return h
	}
	switch Format(s.Source.Format) {
	case XER:
		h.describeXER(data)
	case MSPDI:
		h.describeMSPDI(data)
	}
	return h
}

// wbsLevels splits a WBS path as the readers write it: "Site/Block A"
// or "1.2.3".
func wbsLevels(path string) []string {
	if strings.Contains(path, "/") {
		return strings.Split(path, "/")
	}
	return strings.Split(path, ".")
}

func (h *Holdings) describeXER(data []byte) {
	tables, err := splitXER(data, &readState{opts: Options{AllowTruncated: true}})
	if err != nil {
		return
	}
	if t := tables["RSRC"]; t != nil {
		h.Resources = len(t.rows)
	}
	if t := tables["TASKRSRC"]; t != nil {
		h.Assignments = len(t.rows)
	}
	if t := tables["CALENDAR"]; t != nil {
		h.Calendars = len(t.rows)
	}
	for name, t := range tables {
		if !slices.Contains(xerModelTables, name) && len(t.rows) > 0 {
			h.Kept = append(h.Kept, Part{Name: name, Count: len(t.rows)})
		}
	}
	slices.SortFunc(h.Kept, func(a, b Part) int { return strings.Compare(a.Name, b.Name) })
}

// describeMSPDI counts the records of each collection under the project
// (Resources/Resource, Assignments/Assignment, ...) and, inside tasks, the
// parts the model does not use (baselines, extended attributes,
// timephased data).
func (h *Holdings) describeMSPDI(data []byte) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charsetReader
	counts := map[string]int{}
	h.Calendars = 0
	var stack []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			switch {
			case len(stack) == 3 && stack[1] == "Calendars":
				h.Calendars++
			case len(stack) == 3 && stack[1] != "Tasks":
				counts[stack[1]]++
			case len(stack) == 4 && stack[1] == "Tasks" && mspdiTaskExtras[t.Name.Local]:
				counts["Task "+t.Name.Local]++
			case len(stack) == 4 && stack[1] == "Assignments" && t.Name.Local == "TimephasedData":
				counts["Assignment TimephasedData"]++
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	h.Resources, h.Assignments = counts["Resources"], counts["Assignments"]
	delete(counts, "Resources") // said on a line of their own (Facts)
	delete(counts, "Assignments")
	for name, n := range counts {
		h.Kept = append(h.Kept, Part{Name: name, Count: n})
	}
	slices.SortFunc(h.Kept, func(a, b Part) int { return strings.Compare(a.Name, b.Name) })
}

// mspdiTaskExtras are the parts of an MS Project task the model keeps
// unused: counted on import, written back on export.
var mspdiTaskExtras = map[string]bool{"Baseline": true, "ExtendedAttribute": true, "TimephasedData": true, "OutlineCode": true, "Hyperlink": true}

// Facts are the holdings as short lines for a person, the ones with
// nothing to say left out: the CLI prints them after an import, the web
// app lists them.
func (h Holdings) Facts() []string {
	facts := []string{fmt.Sprintf("%s, %s, %s", plural(h.Activities, "activity"), plural(h.Relationships, "relationship"), plural(h.Calendars, "calendar"))}
	if h.WBSLevels > 0 {
		facts = append(facts, fmt.Sprintf("WBS: %s, %s", plural(h.WBSLevels, "level"), plural(h.WBSNodes, "node")))
	}
	if h.Resources+h.Assignments > 0 {
		facts = append(facts, fmt.Sprintf("%s, %s", plural(h.Resources, "resource"), plural(h.Assignments, "assignment")))
	}
	if h.Started+h.Finished > 0 || h.DataDate != "" {
		p := fmt.Sprintf("progress: %d in progress, %d finished", h.Started, h.Finished)
		if h.DataDate != "" {
			p += ", data date " + h.DataDate
		}
		facts = append(facts, p)
	}
	if h.Constraints > 0 {
		facts = append(facts, plural(h.Constraints, "date constraint"))
	}
	if len(h.Kept) > 0 {
		parts := make([]string, len(h.Kept))
		for i, p := range h.Kept {
			parts[i] = fmt.Sprintf("%s %d", p.Name, p.Count)
		}
		facts = append(facts, "kept as they are and written back on export: "+strings.Join(parts, ", "))
	}
	return facts
}
