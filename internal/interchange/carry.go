package interchange

// What an export to another format than the imported file's cannot
// carry (issue 29, across formats): the whole-model writers write what
// the schedule holds, and the rest of the kept file - P6 tables, MS
// Project elements - has no place in the other format. Uncarried says
// what that is, from what the kept file really holds, so the export can
// name it rather than drop it silently.

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Uncarried lists what s's source file holds that an export of s to f
// cannot carry, one line each in plain words with counts. It is empty
// when s has no source, when f is the source's own format (the export
// then writes the source back with the changes made) and for JSON,
// which keeps the source whole.
func Uncarried(s *schedule.Schedule, f Format) []string {
	if s == nil || s.Source == nil || f == JSON || Format(s.Source.Format) == f {
		return nil
	}
	data, err := SourceBytes(s.Source)
	if err != nil {
		return []string{fmt.Sprintf("the kept %s file could not be read, so what it holds beyond the schedule is not known: %v", s.Source.Format, err)}
	}
	switch Format(s.Source.Format) {
	case XER:
		return uncarriedXER(s, data)
	case MSPDI:
		return uncarriedMSPDI(s, data)
	}
	return nil
}

// xerTableWords says in plain words what P6 keeps in a table.
var xerTableWords = map[string]string{
	"ACCOUNT": "cost accounts", "ACTVCODE": "activity code values", "ACTVTYPE": "activity code types",
	"APPLYACTOPTIONS": "apply-actuals options", "CALENDAR": "calendars", "CURRTYPE": "currencies",
	"DOCCATG": "document categories", "DOCUMENT": "work products and documents", "FINDATES": "financial periods",
	"ISSUHIST": "issue history", "MEMOTYPE": "notebook topics", "NONWORK": "nonwork types", "OBS": "responsibility structure",
	"PCATTYPE": "project code types", "PCATVAL": "project code values", "PROJCOST": "project expenses",
	"PROJECT": "projects", "PROJEST": "estimates", "PROJISSU": "issues", "PROJPCAT": "project code assignments",
	"PROJTHRS": "thresholds", "PROJWBS": "WBS nodes", "RCATTYPE": "resource code types", "RCATVAL": "resource code values",
	"RISKTYPE": "risk types", "ROLERATE": "role rates", "ROLES": "roles", "RSRC": "resources", "RSRCCURV": "resource curves",
	"RSRCRATE": "resource rates", "RSRCRCAT": "resource code assignments", "RSRCROLE": "resource roles",
	"SCHEDOPTIONS": "P6 scheduling options", "SHIFT": "shifts", "SHIFTPER": "shift periods", "TASK": "activities",
	"TASKACTV": "activity code assignments", "TASKDOC": "activity documents", "TASKFDBK": "activity feedback",
	"TASKFIN": "activity costs by financial period", "TASKMEMO": "activity notebook notes", "TASKNOTE": "activity notes",
	"TASKPRED": "relationships", "TASKPROC": "activity steps", "TASKRSRC": "resource assignments", "FINTMPL": "financial period templates",
	"TRSRCFIN": "assignment costs by financial period", "UDFTYPE": "user-defined field definitions",
	"UDFVALUE": "user-defined field values", "UMEASURE": "units of measure", "WBSBUDG": "WBS budgets",
	"WBSMEMO": "WBS notebook notes", "WBSRSRC": "WBS resources", "WBSSTEP": "WBS milestones (steps)",
}

// uncarriedXER: the tables the model does not read, with their rows,
// and what the model reads from a P6 file that MSPDI has no place for.
func uncarriedXER(s *schedule.Schedule, data []byte) []string {
	tables, err := splitXER(data, &readState{opts: Options{AllowTruncated: true}})
	if err != nil {
		return []string{fmt.Sprintf("the kept XER file could not be read again, so what it holds beyond the schedule is not known: %v", err)}
	}
	carried := map[string]bool{}
	for _, name := range xerModelTables {
		carried[name] = true
	}
	delete(carried, "SCHEDOPTIONS") // read, but MS Project has no place for P6's options
	if tables["SCHEDOPTIONS"] == nil && ourXER(tables) {
		carried["RSRC"], carried["TASKRSRC"] = true, true // read as assignments: see xerLive
	}
	var order []*xerTable
	for _, t := range tables {
		order = append(order, t)
	}
	slices.SortFunc(order, func(a, b *xerTable) int { return a.line - b.line })
	var out []string
	for _, t := range order {
		rows := len(t.rows)
		switch {
		case t.name == "UDFTYPE" || t.name == "UDFVALUE":
			rows = foreignUDFRows(tables, t)
		case carried[t.name]:
			continue
		}
		if rows == 0 {
			continue
		}
		words := xerTableWords[t.name]
		if words == "" {
			words = "table"
		}
		out = append(out, fmt.Sprintf("%s (%s): %s", words, t.name, plural(rows, "row")))
	}
	if p := tables["PROJECT"]; p != nil && len(p.rows) > 1 {
		out = append(out, fmt.Sprintf("other projects in the file (PROJECT): %s; only the first is the schedule", plural(len(p.rows)-1, "project")))
	}
	if w := tables["PROJWBS"]; w != nil {
		named := 0
		for _, r := range w.rows {
			if w.get(r, "proj_node_flag") != "Y" && w.text(r, "wbs_name") != "" && w.text(r, "wbs_name") != w.text(r, "wbs_short_name") {
				named++
			}
		}
		if named > 0 {
			out = append(out, fmt.Sprintf("WBS names (PROJWBS wbs_name), MS Project's outline gets the WBS codes: %s", plural(named, "node")))
		}
	}
	if c := tables["CALENDAR"]; c != nil {
		if unused := len(c.rows) - 1 - len(s.Calendars); unused > 0 {
			out = append(out, fmt.Sprintf("calendars no activity or resource uses (CALENDAR): %s", plural(unused, "calendar")))
		}
	}
	var startMiles, loe, wbs, second, percent int
	for i := range s.Activities {
		a := &s.Activities[i]
		switch a.Type {
		case schedule.StartMilestone:
			startMiles++
		case schedule.LevelOfEffort:
			loe++
		case schedule.WBSSummary:
			wbs++
		}
		if a.SecondaryConstraint != nil {
			second++
		}
		if a.PercentComplete != float64(int(a.PercentComplete)) {
			percent++
		}
	}
	for _, m := range []struct {
		n    int
		what string
	}{
		{startMiles, "start milestones (TT_Mile), which MS Project has only as tasks of no duration"},
		{loe, "level-of-effort activities (TT_LOE), written as ordinary tasks"},
		{wbs, "WBS summary activities (TT_WBS), written as ordinary tasks"},
		{second, "secondary constraints (cstr_type2), MS Project has one constraint a task"},
		{percent, "fractional percents complete, MS Project holds whole percents"},
	} {
		if m.n > 0 {
			out = append(out, fmt.Sprintf("%s: %s", m.what, plural(m.n, "activity")))
		}
	}
	if left := len(sortedCodeTypes(s)) - len(mspdiCodeTypes(s)); left > 0 {
		out = append(out, fmt.Sprintf("activity code types beyond MS Project's %d free text fields, or named as our own fields: %d", len(codeFieldIDs), left))
	}
	return out
}

// foreignUDFRows counts a UDFTYPE or UDFVALUE table's rows that are not
// our export's own fields (Description, Duration as written,
// Relationship IDs on TASK), which the model reads.
func foreignUDFRows(tables map[string]*xerTable, t *xerTable) int {
	ours := map[string]bool{}
	if ut := tables["UDFTYPE"]; ut != nil {
		for _, r := range ut.rows {
			switch ut.get(r, "udf_type_label") {
			case "Description", aliasDuration, aliasRelIDs:
				if ut.get(r, "table_name") == "TASK" {
					ours[ut.get(r, "udf_type_id")] = true
				}
			}
		}
	}
	n := 0
	for _, r := range t.rows {
		if !ours[t.get(r, "udf_type_id")] {
			n++
		}
	}
	return n
}

// mspdiKept are the MSPDI project elements that hold lists the model
// does not read, in plain words.
var mspdiKept = map[string]string{
	"Views": "views", "Filters": "filters", "Groups": "groups", "Tables": "tables", "Maps": "import/export maps",
	"Reports": "reports", "Drawings": "drawings", "DataLinks": "data links", "VBAProjects": "VBA macros",
	"OutlineCodes": "outline code definitions", "WBSMasks": "WBS code masks",
}

// mspdiCategory is a kind of value an MSPDI task, resource or assignment
// holds that the model has no place for, by its element names.
type mspdiCategory struct {
	words    string
	elements []string
}

var mspdiItemCategories = map[string][]mspdiCategory{
	"Task": {
		{"baselines (Baseline)", []string{"Baseline"}},
		{"timephased data, splits included (TimephasedData)", []string{"TimephasedData"}},
		{"costs (Cost, FixedCost, ActualCost, RemainingCost)", []string{"Cost", "FixedCost", "ActualCost", "RemainingCost", "OvertimeCost", "ActualOvertimeCost"}},
		{"deadlines (Deadline)", []string{"Deadline"}},
		{"hyperlinks (Hyperlink)", []string{"Hyperlink", "HyperlinkAddress", "HyperlinkSubAddress"}},
		{"custom field values other than named text fields (ExtendedAttribute)", []string{"ExtendedAttribute"}},
	},
	"Resource": {
		{"baselines (Baseline)", []string{"Baseline"}},
		{"timephased data (TimephasedData)", []string{"TimephasedData"}},
		{"rates and costs (StandardRate, OvertimeRate, CostPerUse, Rates, Cost)", []string{"StandardRate", "OvertimeRate", "CostPerUse", "Rates", "Cost", "ActualCost"}},
		{"details (EmailAddress, Initials, Group, Code, Notes)", []string{"EmailAddress", "Initials", "Group", "Code", "Notes"}},
		{"custom field values (ExtendedAttribute, OutlineCode)", []string{"ExtendedAttribute", "OutlineCode"}},
	},
	"Assignment": {
		{"baselines (Baseline)", []string{"Baseline"}},
		{"timephased data (TimephasedData)", []string{"TimephasedData"}},
		{"costs (Cost, ActualCost, RemainingCost)", []string{"Cost", "ActualCost", "RemainingCost"}},
		{"custom field values (ExtendedAttribute)", []string{"ExtendedAttribute"}},
	},
}

// mspdiDefault is a value MS Project writes for nothing in particular.
func mspdiDefault(v string) bool {
	switch strings.TrimSpace(v) {
	case "", "0", "0.0", "PT0H0M0S", "false":
		return true
	}
	return false
}

// uncarriedMSPDI: the project's lists the model does not read, the
// tasks', resources' and assignments' values with no P6 place, and what
// the model reads that XER has no place for.
func uncarriedMSPDI(s *schedule.Schedule, data []byte) []string {
	f, err := scanMSPDIContent(data)
	if err != nil {
		return []string{fmt.Sprintf("the kept MSPDI file could not be read again, so what it holds beyond the schedule is not known: %v", err)}
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(f.lists)) {
		out = append(out, fmt.Sprintf("%s (%s): %d", mspdiKept[name], name, f.lists[name]))
	}
	if f.summaries > 0 {
		out = append(out, fmt.Sprintf("summary task names (P6's WBS gets the outline's WBS codes; the names stay in the activities' descriptions): %s", plural(f.summaries, "summary task")))
	}
	if f.otherFields > 0 {
		out = append(out, fmt.Sprintf("custom field definitions other than named text fields (ExtendedAttributes): %s", plural(f.otherFields, "field")))
	}
	for _, item := range []string{"Task", "Resource", "Assignment"} {
		for _, c := range mspdiItemCategories[item] {
			if n := f.counts[item+"\x00"+c.words]; n > 0 {
				out = append(out, fmt.Sprintf("%s %s: on %s", strings.ToLower(item), c.words, plural(n, strings.ToLower(item))))
			}
		}
	}
	manual, named := 0, 0
	for i := range s.Activities {
		if s.Activities[i].Manual {
			manual++
		}
	}
	cals := []*schedule.Calendar{s.Calendar}
	for _, c := range s.Calendars {
		cals = append(cals, c)
	}
	for _, c := range cals {
		if c == nil {
			continue
		}
		for _, e := range c.Exceptions {
			if e.Name != "" {
				named++
			}
		}
	}
	if manual > 0 {
		out = append(out, fmt.Sprintf("manually scheduled tasks' fixed dates (Manual), P6 schedules every activity: %s", plural(manual, "task")))
	}
	if named > 0 {
		out = append(out, fmt.Sprintf("calendar exception names (P6 holds exceptions as dates without names): %s", plural(named, "exception")))
	}
	if unused := f.calendars - 1 - len(s.Calendars); unused > 0 {
		out = append(out, fmt.Sprintf("calendars no task or carried resource uses: %s", plural(unused, "calendar")))
	}
	if names, _ := resourceNames(s); f.resources > len(names) {
		out = append(out, fmt.Sprintf("resources with no carried assignment (material and cost resources, unassigned ones): %s", plural(f.resources-len(names), "resource")))
	}
	carried := 0
	for i := range s.Activities {
		for range s.Activities[i].DatingAssignments() {
			carried++
		}
	}
	if n := f.assignments - carried; n > 0 {
		out = append(out, fmt.Sprintf("assignments that do not drive their task's dates (to material or cost resources, contoured, on fixed-duration or manual tasks): %s", plural(n, "assignment")))
	}
	return out
}

// mspdiContent is what scanMSPDI counts in a file.
type mspdiContent struct {
	counts      map[string]int // item kind NUL category -> items holding a value of it
	lists       map[string]int // project list -> its entries
	otherFields int            // custom field definitions the model does not read
	calendars   int
	summaries   int // summary tasks but the project's, UID 0
	resources   int // but MS Project's unassigned resource, UID 0
	assignments int // but those to no resource, ResourceUID -65535
}

// scanMSPDIContent counts, for each item kind and category, the items holding a
// value of it (not a default), the entries of each project list the
// model does not read, the custom fields it does not read, and the
// calendars, resources and assignments. One pass of raw tokens: the file
// may be large, and it was read once already.
func scanMSPDIContent(data []byte) (*mspdiContent, error) {
	c := &mspdiContent{counts: map[string]int{}, lists: map[string]int{}}
	category := map[string]string{} // "Task\x00Element" -> words
	for item, cs := range mspdiItemCategories {
		for _, cat := range cs {
			for _, e := range cat.elements {
				category[item+"\x00"+e] = cat.words
			}
		}
	}
	// Task fields the model reads: ours, and text fields with an alias
	// (the field definitions come before the tasks in MSPDI's order).
	carriedField := map[string]bool{}
	for _, id := range textFieldIDs {
		carriedField[id] = true
	}
	text := map[string]bool{}
	for _, id := range codeFieldIDs {
		text[id] = true
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charsetReader
	var stack []string
	var item string           // Task, Resource or Assignment being read
	held := map[string]bool{} // the item's categories with a value
	var value, fieldID, alias string
	inner := false       // a value below the item's current element is not a default
	placeholder := false // MS Project's unassigned resource (UID 0) or an assignment to no resource
	summary := false     // the task is a summary task
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			if len(stack) > 0 {
				return nil, fmt.Errorf("the file ends inside <%s>", stack[len(stack)-1])
			}
			return c, nil
		}
		if err != nil {
			return nil, xmlError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			value = ""
			if len(stack) == 1 && t.Name.Local != "Project" {
				return nil, fmt.Errorf("the root element is <%s>, not MS Project's <Project>", t.Name.Local)
			}
			switch len(stack) {
			case 2:
				if mspdiKept[t.Name.Local] == "" {
					break
				}
				n, err := countEntries(d)
				if err != nil {
					return nil, err
				}
				stack = stack[:len(stack)-1]
				if n > 0 {
					c.lists[t.Name.Local] += n
				}
			case 3:
				switch stack[1] + "/" + t.Name.Local {
				case "Tasks/Task", "Resources/Resource", "Assignments/Assignment":
					item, placeholder, summary = t.Name.Local, false, false
					clear(held)
				case "Calendars/Calendar":
					c.calendars++
				case "ExtendedAttributes/ExtendedAttribute":
					fieldID, alias = "", ""
				}
			case 4:
				inner = false
			}
		case xml.CharData:
			value += string(t)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, fmt.Errorf("</%s> closes no element", t.Name.Local)
			}
			if item != "" && len(stack) >= 5 && !mspdiDefault(value) {
				// A rate table's dates are always there: its rates say
				// whether it holds anything.
				if stack[3] != "Rates" || strings.HasSuffix(t.Name.Local, "Rate") || t.Name.Local == "CostPerUse" {
					inner = true
				}
			}
			switch {
			case len(stack) == 4 && stack[1] == "ExtendedAttributes":
				switch t.Name.Local {
				case "FieldID":
					fieldID = strings.TrimSpace(value)
				case "Alias":
					alias = strings.TrimSpace(value)
				}
			case len(stack) == 3 && stack[1] == "ExtendedAttributes":
				if text[fieldID] && alias != "" {
					carriedField[fieldID] = true
				} else if !carriedField[fieldID] {
					c.otherFields++
				}
			case item != "" && len(stack) == 5 && stack[3] == "ExtendedAttribute" && t.Name.Local == "FieldID":
				fieldID = strings.TrimSpace(value)
			case item != "" && len(stack) == 4:
				switch v := strings.TrimSpace(value); {
				case item == "Assignment" && t.Name.Local == "ResourceUID" && v == "-65535",
					item != "Assignment" && t.Name.Local == "UID" && v == "0":
					placeholder = true
				case item == "Task" && t.Name.Local == "Summary":
					summary = isTrue(v)
				}
				words := category[item+"\x00"+t.Name.Local]
				switch {
				case words == "":
				case t.Name.Local == "ExtendedAttribute":
					if item != "Task" || !carriedField[fieldID] {
						held[words] = true
					}
					fieldID = ""
				case inner || !mspdiDefault(value):
					held[words] = true
				}
			case item != "" && len(stack) == 3:
				if !placeholder {
					switch {
					case item == "Resource":
						c.resources++
					case item == "Assignment":
						c.assignments++
					case summary:
						c.summaries++
					}
					for words := range held {
						c.counts[item+"\x00"+words]++
					}
				}
				item = ""
			}
			stack = stack[:len(stack)-1]
			value = ""
		}
	}
}

// countEntries reads the rest of a list element and counts its entries,
// its child elements.
func countEntries(d *xml.Decoder) (int, error) {
	n := 0
	for depth := 1; depth > 0; {
		tok, err := d.RawToken()
		if err != nil {
			if err == io.EOF {
				return 0, fmt.Errorf("the file ends inside a list")
			}
			return 0, xmlError(err)
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth == 1 {
				n++
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return n, nil
}
