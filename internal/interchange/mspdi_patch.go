package interchange

// The MSPDI patch writer: export of a schedule imported from an MS Project
// XML file writes that file back with only the schedule's changes applied.
// The file is tokenised once to find where its tasks, their fields and
// links, its assignments and calendars are; the bytes between the places
// that change are copied as they were, so the namespace, SaveVersion,
// element order, whitespace, encoding declaration, and everything the
// model does not read (resources, baselines, extended attributes, views)
// come back unchanged.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// patchMSPDI writes the MSPDI file s was imported from (s.Source) with s's
// changes applied: changed tasks have only their changed elements
// rewritten, removed tasks go with their assignments and the links to
// them, added tasks get new UIDs and IDs after their neighbour, and the
// dates and slacks our CPM moves are written where the file has them.
// (See writePatched: with no change the file is written back byte for
// byte.)
func patchMSPDI(w io.Writer, s *schedule.Schedule, e *edits, data []byte, progress Progress) error {
	pt, err := newMSPDIPatch(data, e, progress)
	if err != nil {
		return fmt.Errorf("patching the kept MS Project file %q: %w", s.Source.Name, err)
	}
	if err := pt.build(); err != nil {
		return fmt.Errorf("patching the kept MS Project file %q: %w", s.Source.Name, err)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	pt.write(bw)
	if progress != nil {
		progress(len(s.Activities), len(s.Activities))
	}
	return bw.Flush()
}

// xmlEl is an element's place in the file: from the '<' of its start tag
// to just after its end tag, with its character data (the value of a leaf
// element) and, down to the fields of a task's links, its child elements.
type xmlEl struct {
	name       string
	start, end int
	text       string
	kids       []*xmlEl
}

func (el *xmlEl) child(name string) *xmlEl {
	for _, k := range el.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

func (el *xmlEl) children(name string) []*xmlEl {
	var out []*xmlEl
	for _, k := range el.kids {
		if k.name == name {
			out = append(out, k)
		}
	}
	return out
}

func (el *xmlEl) value(name string) string {
	if k := el.child(name); k != nil {
		return strings.TrimSpace(k.text)
	}
	return ""
}

// maxKeptDepth is how deep the scan keeps elements: Project, Tasks, Task,
// PredecessorLink and its fields.
const maxKeptDepth = 5

// scanMSPDI finds the elements of an MSPDI file and the encoding its
// declaration names. Bytes past ASCII are read as spaces: every name and
// number the patch needs is ASCII, and the offsets stay those of the file
// whatever its encoding.
func scanMSPDI(data []byte) (root *xmlEl, encoding string, err error) {
	masked := make([]byte, len(data))
	for i, b := range data {
		if b >= utf8.RuneSelf {
			b = ' '
		}
		masked[i] = b
	}
	d := xml.NewDecoder(bytes.NewReader(masked))
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) { return in, nil }
	var stack []*xmlEl
	for {
		at := int(d.InputOffset())
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", xmlError(err)
		}
		switch t := tok.(type) {
		case xml.ProcInst:
			if t.Target == "xml" {
				encoding = declaredEncoding(string(t.Inst))
			}
		case xml.StartElement:
			el := &xmlEl{name: t.Name.Local, start: at}
			switch {
			case len(stack) == 0 && root == nil:
				root = el
			case len(stack) > 0 && len(stack) < maxKeptDepth:
				parent := stack[len(stack)-1]
				parent.kids = append(parent.kids, el)
			}
			stack = append(stack, el)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, "", fmt.Errorf("offset %d: </%s> closes no element", at, t.Name.Local)
			}
			stack[len(stack)-1].end = int(d.InputOffset())
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if n := len(stack); n > 0 && n <= maxKeptDepth {
				stack[n-1].text += string(t)
			}
		}
	}
	if root == nil || len(stack) > 0 {
		return nil, "", errors.New("no complete <Project> element")
	}
	return root, encoding, nil
}

// declaredEncoding reads encoding="..." from an XML declaration (spaces
// around the = allowed).
func declaredEncoding(decl string) string {
	_, rest, ok := strings.Cut(decl, "encoding")
	if !ok {
		return ""
	}
	rest, ok = strings.CutPrefix(strings.TrimSpace(rest), "=")
	rest = strings.TrimSpace(rest)
	if !ok || rest == "" || rest[0] != '"' && rest[0] != '\'' {
		return ""
	}
	v, _, _ := strings.Cut(rest[1:], rest[:1])
	return strings.ToLower(strings.TrimSpace(v))
}

// lineStart is where the whitespace before offset at begins: removing an
// element from there takes its line with it.
func lineStart(data []byte, at int) int {
	for at > 0 && (data[at-1] == ' ' || data[at-1] == '\t' || data[at-1] == '\n' || data[at-1] == '\r') {
		at--
	}
	return at
}

// splice replaces data[from:to] with text; inserts (from == to) at one
// place go in order.
type splice struct {
	from, to int
	order    int
	text     string
}

// Task fields in the order MS Project's schema (mspdi_pj12.xsd and later)
// wants them: a field a task lacks is inserted at its place.
var mspdiTaskOrder = strings.Fields(`UID GUID ID Name Active Manual Type IsNull CreateDate Contact WBS WBSLevel
	OutlineNumber OutlineLevel Priority StartText FinishText DurationText Start Finish Duration ManualStart ManualFinish
	ManualDuration DurationFormat FreeformDurationFormat Work Stop Resume ResumeValid EffortDriven Recurring OverAllocated
	Estimated Milestone Summary DisplayAsSummary Critical IsSubproject IsSubprojectReadOnly SubprojectName ExternalTask
	ExternalTaskProject EarlyStart EarlyFinish LateStart LateFinish StartVariance FinishVariance WorkVariance FreeSlack
	TotalSlack StartSlack FinishSlack FixedCost FixedCostAccrual PercentComplete PercentWorkComplete Cost OvertimeCost
	OvertimeWork ActualStart ActualFinish ActualDuration ActualCost ActualOvertimeCost ActualWork ActualOvertimeWork
	RegularWork RemainingDuration RemainingCost RemainingWork RemainingOvertimeCost RemainingOvertimeWork ACWP CV
	ConstraintType CalendarUID ConstraintDate Deadline LevelAssignments LevelingCanSplit LevelingDelay LevelingDelayFormat
	PreLeveledStart PreLeveledFinish Hyperlink HyperlinkAddress HyperlinkSubAddress IgnoreResourceCalendar Notes HideBar
	Rollup BCWS BCWP PhysicalPercentComplete EarnedValueMethod PredecessorLink ActualWorkProtected
	ActualOvertimeWorkProtected ExtendedAttribute Baseline OutlineCode IsPublished StatusManager CommitmentStart
	CommitmentFinish CommitmentType TimephasedData`)

// The project's fields in schema order, as far as the patch sets them.
var mspdiProjectOrder = strings.Fields(`SaveVersion BuildNumber Name GUID Title Subject Category Company Manager Author
	CreationDate Revision LastSaved ScheduleFromStart StartDate FinishDate FYStartDate CriticalSlackLimit CurrencyDigits
	CurrencySymbol CurrencyCode CurrencySymbolPosition CalendarUID DefaultStartTime DefaultFinishTime MinutesPerDay
	MinutesPerWeek DaysPerMonth DefaultTaskType DefaultFixedCostAccrual DefaultStandardRate DefaultOvertimeRate
	DurationFormat WorkFormat EditableActualCosts HonorConstraints EarnedValueMethod InsertedProjectsLikeSummary
	MultipleCriticalPaths NewTasksEffortDriven NewTasksEstimated SplitsInProgressTasks SpreadActualCost
	SpreadPercentComplete TaskUpdatesResource FiscalYearStart WeekStartDay MoveCompletedEndsBack MoveRemainingStartsBack
	MoveRemainingStartsForward MoveCompletedEndsForward BaselineForEarnedValue AutoAddNewResourcesAndTasks StatusDate
	CurrentDate MicrosoftProjectServerURL Autolink NewTaskStartDate NewTasksAreManual DefaultTaskEVMethod
	ProjectExternallyEdited ExtendedCreationDate ActualsInSync RemoveFileProperties AdminProject
	UpdateManuallyScheduledTasksWhenEditingLinks KeepTaskOnNearestWorkingTimeWhenMadeAutoScheduled OutlineCodes WBSMasks
	ExtendedAttributes Calendars Tasks Resources Assignments`)

// linkRef is a PredecessorLink: its task's and its own index.
type linkRef struct{ task, link int }

// mspdiPatch is the patch being built: the file, where its parts are,
// how its tasks map to activities, and the splices so far.
type mspdiPatch struct {
	data     []byte
	e        *edits
	progress Progress
	p        *mspdiProject
	root     *xmlEl
	tasks    []*xmlEl
	fields   map[string]string
	cp1252   bool
	mpd      float64
	layout   string // the file's date-time layout
	// taskOf is a base activity's task index; uidOf the task UID of every
	// activity, the added ones' too.
	taskOf   map[string]int
	uidOf    map[string]string
	levels   []int
	relAt    map[string]linkRef
	linkRels map[linkRef][]string
	// calUID is the file's calendar UID of a schedule calendar key.
	calUID map[string]string
	sets   map[int]map[string]*string // task index -> field -> new value (nil: remove)
	// droppedLink are the file's links removed; newLink the links added
	// by successor task (-1-i for cur's added activity i).
	droppedLink map[linkRef]bool
	newLink     map[int][]schedule.Relationship
	splices     []splice
	relPlace    map[string]int // a relationship's place in cur's list, by id
}

// relPlaces is each relationship's place in the schedule's list, by id.
func (pt *mspdiPatch) relPlaces() map[string]int {
	if pt.relPlace == nil {
		pt.relPlace = make(map[string]int, len(pt.e.cur.Relationships))
		for n, r := range pt.e.cur.Relationships {
			pt.relPlace[r.ID] = n
		}
	}
	return pt.relPlace
}

func newMSPDIPatch(data []byte, e *edits, progress Progress) (*mspdiPatch, error) {
	root, encoding, err := scanMSPDI(data)
	if err != nil {
		return nil, err
	}
	pt := &mspdiPatch{data: data, e: e, progress: progress, root: root,
		cp1252: encoding != "" && encoding != "utf-8" && encoding != "utf8" && encoding != "us-ascii" && encoding != "ascii",
		mpd:    480, layout: schedule.DateTimeLayout, taskOf: map[string]int{}, uidOf: map[string]string{},
		relAt: map[string]linkRef{}, linkRels: map[linkRef][]string{}, calUID: map[string]string{},
		sets: map[int]map[string]*string{}, newLink: map[int][]schedule.Relationship{}, droppedLink: map[linkRef]bool{}}
	for _, tasks := range root.children("Tasks") { // the reader reads every <Tasks>
		pt.tasks = append(pt.tasks, tasks.children("Task")...)
	}
	p, err := pt.project()
	if err != nil {
		return nil, err
	}
	pt.p, pt.fields = p, p.fieldAliases()
	if v, err := strconv.ParseFloat(strings.TrimSpace(p.MinutesPerDay), 64); err == nil && v > 0 && v <= 1440 {
		pt.mpd = v
	}
	for _, t := range pt.tasks {
		if v := t.value("Start"); v != "" {
			if len(v) == len("2006-01-02T15:04") {
				pt.layout = "2006-01-02T15:04"
			}
			break
		}
	}
	if err := pt.mapTasks(); err != nil {
		return nil, err
	}
	return pt, nil
}

// project is what the patch reads of the file, taken from the scan (the
// reader's decoding again would double the time a big file takes): the
// project's fields and custom field names, and each task's outline,
// flags, notes, custom fields and links.
func (pt *mspdiPatch) project() (*mspdiProject, error) {
	root := pt.root
	p := &mspdiProject{StartDate: root.value("StartDate"), CalendarUID: root.value("CalendarUID"),
		MinutesPerDay: root.value("MinutesPerDay")}
	if t := root.child("Title"); t != nil {
		v, err := pt.realText(t)
		if err != nil {
			return nil, err
		}
		p.Title = v
	}
	if fields := root.child("ExtendedAttributes"); fields != nil {
		for _, f := range fields.children("ExtendedAttribute") {
			// Our aliases are ASCII: a masked one is simply not ours.
			p.ExtendedAttributes = append(p.ExtendedAttributes, mspdiFieldDef{FieldID: f.value("FieldID"), Alias: f.value("Alias")})
		}
	}
	ours := map[string]bool{}
	for id, alias := range p.fieldAliases() {
		ours[id] = alias == aliasActivityID || alias == aliasRelIDs || alias == aliasDuration
	}
	p.Tasks = make([]mspdiTask, len(pt.tasks))
	line, lineAt := 1, 0
	for i, el := range pt.tasks {
		line += bytes.Count(pt.data[lineAt:el.start], []byte{'\n'})
		lineAt = el.start
		t := &p.Tasks[i]
		t.line = line
		t.UID, t.ID, t.OutlineLevel, t.Summary = el.value("UID"), el.value("ID"), el.value("OutlineLevel"), el.value("Summary")
		t.IsNull, t.Active, t.DurationFormat = el.value("IsNull"), el.value("Active"), el.value("DurationFormat")
		for _, k := range el.kids {
			switch k.name {
			case "Notes":
				v, err := pt.realText(k)
				if err != nil {
					return nil, fmt.Errorf("%s: Notes: %w", t.where(), err)
				}
				t.Notes = v
			case "PredecessorLink":
				t.PredecessorLink = append(t.PredecessorLink, mspdiLink{PredecessorUID: k.value("PredecessorUID"),
					Type: k.value("Type"), CrossProject: k.value("CrossProject"), LinkLag: k.value("LinkLag"), LagFormat: k.value("LagFormat")})
			case "ExtendedAttribute":
				id := k.value("FieldID")
				if !ours[id] {
					continue
				}
				v := ""
				if val := k.child("Value"); val != nil {
					var err error
					if v, err = pt.realText(val); err != nil {
						return nil, fmt.Errorf("%s: ExtendedAttribute: %w", t.where(), err)
					}
				}
				t.ExtendedAttribute = append(t.ExtendedAttribute, struct {
					FieldID string `xml:"FieldID"`
					Value   string `xml:"Value"`
				}{id, v})
			}
		}
	}
	return p, nil
}

// realText is a leaf element's text as the reader reads it: the scan's
// when it is ASCII, else decoded from the file's bytes.
func (pt *mspdiPatch) realText(el *xmlEl) (string, error) {
	raw := pt.data[el.start:el.end]
	if !slices.ContainsFunc(raw, func(b byte) bool { return b >= utf8.RuneSelf }) {
		return el.text, nil
	}
	if pt.cp1252 {
		raw, _ = decodeWindows1252(raw) // the reader refused undefined bytes
	}
	var v struct {
		Text string `xml:",chardata"`
	}
	if err := xml.Unmarshal(raw, &v); err != nil {
		return "", xmlError(err)
	}
	return v.Text, nil
}

// mapTasks maps tasks to activities and links to relationship ids as the
// reader does (readMSPDI's two passes).
func (pt *mspdiPatch) mapTasks() error {
	type node struct {
		summary bool
		leaves  []string
	}
	nodes := make([]node, len(pt.p.Tasks))
	byUID := map[string]int{}
	pt.levels = make([]int, len(pt.p.Tasks))
	var outline []int
	for i := range pt.p.Tasks {
		t := &pt.p.Tasks[i]
		uid := strings.TrimSpace(t.UID)
		byUID[uid] = i
		level, err := t.level()
		if err != nil {
			return err
		}
		pt.levels[i] = level
		nodes[i].summary = t.summaryAt(level)
		for len(outline) > 0 && pt.levels[outline[len(outline)-1]] >= level {
			outline = outline[:len(outline)-1]
		}
		if t.skipped() {
			continue
		}
		if nodes[i].summary {
			outline = append(outline, i)
			continue
		}
		id := t.activityID(pt.fields)
		if _, ok := pt.e.baseAt[id]; !ok {
			continue
		}
		pt.taskOf[id], pt.uidOf[id] = i, uid
		for _, s := range outline {
			nodes[s].leaves = append(nodes[s].leaves, id)
		}
	}
	type key struct {
		pred, succ string
		typ        schedule.RelType
	}
	seen := map[key]bool{}
	for i := range pt.p.Tasks {
		t := &pt.p.Tasks[i]
		if t.skipped() || len(t.PredecessorLink) == 0 {
			continue
		}
		succIDs := nodes[i].leaves
		if !nodes[i].summary {
			succIDs = []string{t.activityID(pt.fields)}
		}
		var ids []relTag
		if v, ok := t.custom(pt.fields, aliasRelIDs); ok {
			if err := json.Unmarshal([]byte(v), &ids); err != nil || len(ids) != len(t.PredecessorLink) || nodes[i].summary {
				ids = nil
			}
		}
		for j, l := range t.PredecessorLink {
			if isTrue(l.CrossProject) {
				continue
			}
			pi, ok := byUID[strings.TrimSpace(l.PredecessorUID)]
			if !ok || pt.p.Tasks[pi].skipped() {
				continue
			}
			typ, err := mspdiLinkType(l.Type)
			if err != nil {
				return fmt.Errorf("%s: PredecessorLink %d: %w", t.where(), j+1, err)
			}
			predIDs := nodes[pi].leaves
			if !nodes[pi].summary {
				predIDs = []string{pt.p.Tasks[pi].activityID(pt.fields)}
			}
			ref := linkRef{i, j}
			for _, pid := range predIDs {
				for _, sid := range succIDs {
					k := key{pid, sid, typ}
					if seen[k] {
						continue
					}
					seen[k] = true
					id := pid + "-" + string(typ) + "-" + sid
					if ids != nil {
						id = ids[j].ID
					}
					pt.relAt[id] = ref
					pt.linkRels[ref] = append(pt.linkRels[ref], id)
				}
			}
		}
	}
	return nil
}

// build works out every splice.
func (pt *mspdiPatch) build() error {
	e := pt.e
	if err := pt.patchMeta(); err != nil {
		return err
	}
	// Removed activities: their tasks, assignments and the links to them.
	gone := map[string]bool{} // task UIDs
	for id := range e.removed {
		k, ok := pt.taskOf[id]
		if !ok {
			return fmt.Errorf("activity %q: no task in the file", id)
		}
		pt.remove(pt.tasks[k])
		gone[pt.uidOf[id]] = true
	}
	if as := pt.root.child("Assignments"); as != nil && len(gone) > 0 {
		for _, a := range as.children("Assignment") {
			if gone[a.value("TaskUID")] {
				pt.remove(a)
			}
		}
	}
	for k, t := range pt.tasks {
		for j, l := range t.children("PredecessorLink") {
			if gone[l.value("PredecessorUID")] {
				pt.remove(l)
				pt.droppedLink[linkRef{k, j}] = true
			}
		}
	}
	if err := pt.patchLinks(gone); err != nil {
		return err
	}
	for n, i := range e.changed {
		if pt.progress != nil && n%1000 == 0 {
			pt.progress(n, len(e.cur.Activities))
		}
		if err := pt.patchTask(i); err != nil {
			return err
		}
	}
	for id, d := range e.dates {
		k, ok := pt.taskOf[id]
		if !ok || e.removed[id] {
			continue // an added activity is dated as it is written
		}
		a := &e.cur.Activities[e.curAt[id]]
		for name, v := range pt.dateFields(d, a) {
			if pt.tasks[k].child(name) != nil {
				pt.set(k, name, v)
			}
		}
	}
	if err := pt.addTasks(); err != nil {
		return err
	}
	for k, fields := range pt.sets {
		pt.setFields(pt.tasks[k], fields, mspdiTaskOrder)
	}
	for k, rels := range pt.newLink {
		pt.insertLinks(k, rels)
	}
	return pt.patchRelIDs(gone)
}

// patchRelIDs rewrites the "Relationship IDs" field our export writes on
// each successor (see mspdi.go) where its links or their places in the
// schedule's list changed, so the file reads back with the same ids in
// the same order.
func (pt *mspdiPatch) patchRelIDs(gone map[string]bool) error {
	field := pt.fieldOf(aliasRelIDs)
	if field == "" {
		return nil
	}
	place := pt.relPlaces()
	for k, t := range pt.tasks {
		task := &pt.p.Tasks[k]
		if gone[strings.TrimSpace(task.UID)] || task.skipped() {
			continue
		}
		var tags []relTag
		whole := true
		for j := range task.PredecessorLink {
			ref := linkRef{k, j}
			if pt.droppedLink[ref] {
				continue
			}
			ids := pt.linkRels[ref]
			n, ok := 0, len(ids) == 1
			if ok {
				n, ok = place[ids[0]]
			}
			if !ok {
				whole = false // a link the reader spreads or skips: it makes its own ids
				break
			}
			tags = append(tags, relTag{ID: ids[0], N: n})
		}
		for _, r := range pt.newLink[k] {
			tags = append(tags, relTag{ID: r.ID, N: place[r.ID]})
		}
		_, had := task.custom(pt.fields, aliasRelIDs)
		if !whole || len(tags) == 0 && !had || !had && pt.newLink[k] == nil {
			continue
		}
		text := ""
		if len(tags) > 0 {
			b, err := json.Marshal(tags)
			if err != nil {
				return err
			}
			text = string(b)
		}
		pt.setCustom(t, field, text)
	}
	return nil
}

// setCustom sets the task's custom field (by field id): its Value
// rewritten, or a new ExtendedAttribute where the schema puts it; "" removes it.
func (pt *mspdiPatch) setCustom(t *xmlEl, field, value string) {
	for _, ea := range t.children("ExtendedAttribute") {
		if ea.value("FieldID") != field {
			continue
		}
		if value == "" {
			pt.remove(ea)
		} else {
			pt.setFields(ea, map[string]*string{"Value": &value}, []string{"FieldID", "Value"})
		}
		return
	}
	if value == "" {
		return
	}
	ws, inner := pt.indents(t)
	at, order := pt.placeOf(t, "ExtendedAttribute", mspdiTaskOrder)
	pt.insert(at, order, ws+customText(field, value, ws, inner))
}

// mspdiBaselineOrder is a <Baseline>'s fields in schema order, as far as
// the patch sets them.
var mspdiBaselineOrder = []string{"TimephasedData", "Number", "Interim", "Start", "Finish", "Duration", "DurationFormat", "EstimatedDuration"}

// baselineFields are the activity's baseline as <Baseline> fields, as the
// reader reads them (nil: none).
func (pt *mspdiPatch) baselineFields(a *schedule.Activity) (map[string]*string, error) {
	fields := map[string]*string{"Start": nil, "Finish": nil, "Duration": nil}
	for _, f := range [][2]string{{"Start", a.BaselineStart}, {"Finish", a.BaselineFinish}} {
		if f[1] == "" {
			continue
		}
		v, err := pt.liveDate(f[1])
		if err != nil {
			return nil, fmt.Errorf("baseline %s: %w", strings.ToLower(f[0]), err)
		}
		fields[f[0]] = &v
	}
	if a.BaselineDuration != "" {
		d, err := schedule.ParseDuration(a.BaselineDuration)
		if err != nil {
			return nil, fmt.Errorf("baseline duration: %w", err)
		}
		dur, format := mspdiDuration(d.Minutes(pt.mpd)/pt.mpd, pt.mpd), "7"
		switch d.Unit {
		case schedule.ElapsedDays:
			format = "8"
		case schedule.ElapsedHours:
			format = "6"
		}
		fields["Duration"], fields["DurationFormat"] = &dur, &format
	}
	return fields, nil
}

// setBaseline writes the activity's baseline into the task's <Baseline>
// Number 0, field by field, or adds one where the schema keeps it; the
// other saved baselines (Number 1-10) are left as they are.
func (pt *mspdiPatch) setBaseline(t *xmlEl, a *schedule.Activity) error {
	fields, err := pt.baselineFields(a)
	if err != nil {
		return err
	}
	for _, b := range t.children("Baseline") {
		if n := strings.TrimSpace(b.value("Number")); n != "" && n != "0" {
			continue
		}
		pt.setFields(b, fields, mspdiBaselineOrder)
		return nil
	}
	if !a.HasBaseline() {
		return nil
	}
	ws, inner := pt.indents(t)
	at, order := pt.placeOf(t, "Baseline", mspdiTaskOrder)
	pt.insert(at, order, ws+baselineText(fields, ws, inner))
	return nil
}

// baselineText is a <Baseline> Number 0 element of fields.
func baselineText(fields map[string]*string, ws, inner string) string {
	var b strings.Builder
	b.WriteString("<Baseline>" + inner + element("Number", "0"))
	for _, name := range mspdiBaselineOrder {
		if v := fields[name]; v != nil {
			b.WriteString(inner + element(name, *v))
		}
	}
	b.WriteString(ws + "</Baseline>")
	return b.String()
}

// customText is an ExtendedAttribute element.
func customText(field, value, ws, inner string) string {
	return "<ExtendedAttribute>" + inner + element("FieldID", field) + inner + element("Value", value) + ws + "</ExtendedAttribute>"
}

// patchMeta applies the project's changes: name, start and status dates,
// calendars.
func (pt *mspdiPatch) patchMeta() error {
	base, cur := pt.e.base, pt.e.cur
	fields := map[string]*string{}
	if cur.Name != base.Name {
		name := "Name"
		if strings.TrimSpace(pt.p.Title) != "" {
			name = "Title"
		}
		fields[name] = &cur.Name
	}
	if cur.StartDate != base.StartDate && cur.StartDate != "" {
		t, err := time.Parse("2006-01-02T15:04", cur.StartDate)
		if err != nil {
			day, err := time.Parse(time.DateOnly, cur.StartDate)
			if err != nil {
				return fmt.Errorf("start date %q: %w", cur.StartDate, err)
			}
			// A date alone reads back as the date at whatever time of
			// day read as a date before.
			t = day
			if old, err := parseMSPDIDateTime(pt.p.StartDate); err == nil && len(base.StartDate) == len(time.DateOnly) {
				t = day.Add(old.Sub(dateOf(old)))
			}
		}
		v := t.Format(pt.layout)
		fields["StartDate"] = &v
	}
	if cur.DataDate != base.DataDate {
		fields["StatusDate"] = nil
		if cur.DataDate != "" {
			v, err := pt.liveDate(cur.DataDate)
			if err != nil {
				return fmt.Errorf("data date: %w", err)
			}
			fields["StatusDate"] = &v
		}
	}
	if err := pt.patchCalendars(fields); err != nil {
		return err
	}
	pt.setFields(pt.root, fields, mspdiProjectOrder)
	return nil
}

// patchCalendars rewrites the calendars that changed and adds the new
// ones (a file without calendars gets a <Calendars>); projectFields gets
// the project's CalendarUID when the project calendar is new.
func (pt *mspdiPatch) patchCalendars(projectFields map[string]*string) error {
	base, cur := pt.e.base, pt.e.cur
	cals := pt.root.child("Calendars")
	byUID := map[string]*xmlEl{}
	maxUID := 0
	var list []*xmlEl
	if cals != nil {
		list = cals.children("Calendar")
	}
	for _, c := range list {
		uid := c.value("UID")
		byUID[uid] = c
		if n, err := strconv.Atoi(uid); err == nil {
			maxUID = max(maxUID, n)
		}
	}
	for key := range cur.Calendars {
		pt.calUID[key] = key
	}
	var added strings.Builder // new calendars, each after a line break and indent
	ws, inner := pt.indents(pt.root)
	if len(list) > 0 {
		last := list[len(list)-1]
		inner = string(pt.data[lineStart(pt.data, last.start):last.start])
	}
	_, unit := pt.indents(pt.root)
	unit, _ = strings.CutPrefix(unit, ws)
	// indent is the calendar's own: inner without its line break.
	indent := inner[strings.LastIndexAny(inner, "\r\n")+1:]
	if !jsonEqual(base.Calendar, cur.Calendar) {
		name := "Project calendar"
		if cur.Calendar == nil {
			name = "Standard" // what the reader reads as no calendar
		}
		if c := byUID[strings.TrimSpace(pt.p.CalendarUID)]; c != nil {
			if cur.Calendar != nil || c.value("Name") == "Standard" {
				name = c.value("Name")
			}
			pt.replace(c, pt.calendarText(indent, unit, c.value("UID"), name, cur.Calendar))
		} else if strings.TrimSpace(pt.p.CalendarUID) == "" || len(list) == 0 {
			maxUID++
			uid := strconv.Itoa(maxUID)
			projectFields["CalendarUID"] = &uid
			added.WriteString(inner + pt.calendarText(indent, unit, uid, name, cur.Calendar))
		}
	}
	keys := slices.Sorted(maps.Keys(cur.Calendars))
	for _, key := range keys {
		cal := cur.Calendars[key]
		if old, ok := base.Calendars[key]; ok && jsonEqual(old, cal) {
			continue
		}
		if c := byUID[key]; c != nil {
			pt.replace(c, pt.calendarText(indent, unit, key, cal.Name, cal))
			continue
		}
		uid := key
		if n, err := strconv.Atoi(key); err != nil || n <= maxUID {
			maxUID++
			uid = strconv.Itoa(maxUID)
		} else {
			maxUID = n
		}
		pt.calUID[key] = uid
		added.WriteString(inner + pt.calendarText(indent, unit, uid, cal.Name, cal))
	}
	switch {
	case added.Len() == 0:
	case len(list) > 0:
		pt.insert(list[len(list)-1].end, 0, added.String())
	case cals != nil:
		pt.replace(cals, "<Calendars>"+added.String()+ws+"</Calendars>")
	default:
		at, order := pt.placeOf(pt.root, "Calendars", mspdiProjectOrder)
		pt.insert(at, order, ws+"<Calendars>"+added.String()+ws+"</Calendars>")
	}
	return nil
}

// calendarText is a calendar element as the whole-model writer writes it,
// its lines indented as the file's: indent the calendar's, unit one level.
func (pt *mspdiPatch) calendarText(indent, unit, uid, name string, cal *schedule.Calendar) string {
	var buf bytes.Buffer
	bw := bufio.NewWriter(&buf)
	writeMSPDICalendarElement(&xw{w: bw}, uid, name, cal)
	bw.Flush()
	newline := "\n"
	if bytes.Contains(pt.data, []byte("\r\n")) {
		newline = "\r\n"
	}
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		body := strings.TrimLeft(lines[i], "\t")
		lines[i] = indent + strings.Repeat(unit, len(lines[i])-len(body)) + body
	}
	if unit == "" && indent == "" {
		newline = "" // a file on one line stays on one line
	}
	return strings.Join(lines, newline)
}

// patchLinks removes, changes and adds PredecessorLinks. A link the reader
// spreads over a summary task's leaves that loses or changes one of its
// relationships is replaced by direct links for the ones that remain.
func (pt *mspdiPatch) patchLinks(gone map[string]bool) error {
	e := pt.e
	touched := map[linkRef]bool{}
	var refs []linkRef
	for _, id := range slices.Sorted(maps.Keys(e.relRemoved)) {
		if ref, ok := pt.relAt[id]; ok && !touched[ref] {
			touched[ref] = true
			refs = append(refs, ref)
		}
	}
	changed := map[string]schedule.Relationship{}
	for _, i := range e.relChanged {
		r := e.cur.Relationships[i]
		changed[r.ID] = r
		if ref, ok := pt.relAt[r.ID]; ok && !touched[ref] {
			touched[ref] = true
			refs = append(refs, ref)
		}
	}
	curRel := map[string]schedule.Relationship{}
	for _, r := range e.cur.Relationships {
		curRel[r.ID] = r
	}
	for _, ref := range refs {
		links := pt.tasks[ref.task].children("PredecessorLink")
		if ref.link >= len(links) {
			return fmt.Errorf("%s: PredecessorLink %d not found", pt.p.Tasks[ref.task].where(), ref.link+1)
		}
		link := links[ref.link]
		if gone[strings.TrimSpace(pt.p.Tasks[ref.task].UID)] || gone[link.value("PredecessorUID")] {
			continue // removed with its task
		}
		rels := pt.linkRels[ref]
		if len(rels) == 1 {
			if r, ok := changed[rels[0]]; ok {
				b := e.base.Relationships[e.baseRelAt[r.ID]]
				if r.Predecessor == b.Predecessor && r.Successor == b.Successor {
					pt.setFields(link, pt.linkFields(r, b, link), nil)
					continue
				}
			}
		}
		pt.remove(link)
		pt.droppedLink[ref] = true
		for _, id := range rels {
			if r, ok := curRel[id]; ok {
				pt.addLink(r)
			}
		}
	}
	for _, i := range e.relAdded {
		pt.addLink(e.cur.Relationships[i])
	}
	return nil
}

// linkFields are the fields of link to rewrite for r (b as it was).
func (pt *mspdiPatch) linkFields(r, b schedule.Relationship, link *xmlEl) map[string]*string {
	out := map[string]*string{}
	if r.Type != b.Type {
		v := strconv.Itoa(mspdiTypeCode(r.Type))
		out["Type"] = &v
	}
	if r.Lag != b.Lag {
		lag := pt.lagTenths(r.Lag)
		out["LinkLag"] = &lag
		if kind, err := lagKind(link.value("LagFormat")); err != nil || kind != lagWorking {
			days := "7"
			out["LagFormat"] = &days
		}
	}
	return out
}

// lagTenths is a lag in working days as MSPDI's LinkLag: tenths of a
// minute of the project's day.
func (pt *mspdiPatch) lagTenths(days float64) string {
	return strconv.FormatFloat(math.Round(days*pt.mpd*10), 'f', -1, 64)
}

// addLink files r on its successor's task: a file task's links are
// inserted at the end, an added task's written with it.
func (pt *mspdiPatch) addLink(r schedule.Relationship) {
	k, ok := pt.taskOf[r.Successor]
	if !ok {
		k = -1 - pt.e.curAt[r.Successor] // an added activity
	}
	pt.newLink[k] = append(pt.newLink[k], r)
}

// linkText is a PredecessorLink element; ws indents it, inner its fields.
func (pt *mspdiPatch) linkText(r schedule.Relationship, ws, inner string) string {
	var b strings.Builder
	b.WriteString(ws + "<PredecessorLink>")
	for _, f := range [][2]string{{"PredecessorUID", pt.uidOf[r.Predecessor]}, {"Type", strconv.Itoa(mspdiTypeCode(r.Type))},
		{"CrossProject", "0"}, {"LinkLag", pt.lagTenths(r.Lag)}, {"LagFormat", "7"}} {
		b.WriteString(inner + element(f[0], f[1]))
	}
	b.WriteString(ws + "</PredecessorLink>")
	return b.String()
}

// insertLinks adds links to file task k after its last link, or where the
// schema puts the first.
func (pt *mspdiPatch) insertLinks(k int, rels []schedule.Relationship) {
	if k < 0 {
		return // written with the added task
	}
	t := pt.tasks[k]
	ws, inner := pt.indents(t)
	var b strings.Builder
	for _, r := range rels {
		b.WriteString(pt.linkText(r, ws, inner))
	}
	if links := t.children("PredecessorLink"); len(links) > 0 {
		pt.insert(links[len(links)-1].end, 0, b.String())
		return
	}
	at, order := pt.placeOf(t, "PredecessorLink", mspdiTaskOrder)
	pt.insert(at, order, b.String())
}

// indents are the whitespace before a task's fields and one level deeper.
func (pt *mspdiPatch) indents(t *xmlEl) (field, inner string) {
	tws := string(pt.data[lineStart(pt.data, t.start):t.start])
	if len(t.kids) == 0 {
		return tws, tws
	}
	k := t.kids[0]
	field = string(pt.data[lineStart(pt.data, k.start):k.start])
	unit, ok := strings.CutPrefix(field, tws)
	if !ok || strings.ContainsAny(unit, "\r\n") {
		unit = ""
	}
	return field, field + unit
}

// patchTask records the changed fields of the i-th activity of cur.
func (pt *mspdiPatch) patchTask(i int) error {
	e := pt.e
	a := &e.cur.Activities[i]
	b := &e.base.Activities[e.baseAt[a.ID]]
	k, ok := pt.taskOf[a.ID]
	if !ok {
		return fmt.Errorf("activity %q: no task in the file", a.ID)
	}
	t, task := pt.tasks[k], &pt.p.Tasks[k]
	val := func(v string) *string { return &v }
	if a.Name != b.Name {
		pt.set(k, "Name", val(a.Name))
	}
	if a.WBS != b.WBS {
		pt.set(k, "WBS", val(a.WBS))
	}
	if a.Duration != b.Duration {
		d, err := schedule.ParseDuration(a.Duration)
		if err != nil {
			return fmt.Errorf("activity %q: %w", a.ID, err)
		}
		dur := mspdiDuration(d.Minutes(pt.mpd)/pt.mpd, pt.mpd)
		pt.set(k, "Duration", &dur)
		if t.child("ManualDuration") != nil {
			pt.set(k, "ManualDuration", &dur)
		}
		if field := pt.fieldOf(aliasDuration); field != "" {
			pt.setCustom(t, field, a.Duration)
		}
		if a.ActualStart == "" && t.child("RemainingDuration") != nil && a.Remaining == b.Remaining {
			pt.set(k, "RemainingDuration", &dur)
		}
		format := ""
		switch {
		case d.Unit == schedule.ElapsedDays:
			format = "8"
		case d.Unit == schedule.ElapsedHours:
			format = "6"
		case elapsedFormat(task.DurationFormat):
			format = "7"
		}
		if format != "" && format != strings.TrimSpace(task.DurationFormat) {
			pt.set(k, "DurationFormat", &format)
		}
		if bd, err := schedule.ParseDuration(b.Duration); err == nil && (bd.Days() == 0) != (d.Days() == 0) {
			pt.set(k, "Milestone", val(strconv.Itoa(b2i(d.Days() == 0))))
		}
	}
	if a.Remaining != b.Remaining && a.Remaining != "" {
		days, err := schedule.DurationDays(a.Remaining)
		if err != nil {
			return fmt.Errorf("activity %q: remaining: %w", a.ID, err)
		}
		pt.set(k, "RemainingDuration", val(mspdiDuration(days, pt.mpd)))
	}
	if a.Calendar != b.Calendar {
		uid := "-1"
		if a.Calendar != "" {
			uid = pt.calUID[a.Calendar]
		}
		pt.set(k, "CalendarUID", &uid)
	}
	if !jsonEqual(a.Constraint, b.Constraint) {
		typ, date, err := pt.constraintFields(a.Constraint)
		if err != nil {
			return fmt.Errorf("activity %q: %w", a.ID, err)
		}
		pt.set(k, "ConstraintType", &typ)
		pt.set(k, "ConstraintDate", date)
	}
	if !jsonEqual(a.SecondaryConstraint, b.SecondaryConstraint) {
		if c := a.SecondaryConstraint; c != nil && c.Type != schedule.FinishOnOrBefore {
			return fmt.Errorf("activity %q: MS Project holds one constraint and a deadline: a secondary %s constraint has no place in its file (a finish_on_or_before one is written as the deadline)", a.ID, c.Type)
		}
		if d := deadline(a.SecondaryConstraint); d == "" {
			pt.set(k, "Deadline", nil)
		} else {
			v, err := pt.liveDate(d)
			if err != nil {
				return fmt.Errorf("activity %q: deadline: %w", a.ID, err)
			}
			pt.set(k, "Deadline", &v)
		}
	}
	for _, f := range []struct {
		name     string
		cur, was string
	}{{"ActualStart", a.ActualStart, b.ActualStart}, {"ActualFinish", a.ActualFinish, b.ActualFinish}} {
		if f.cur == f.was {
			continue
		}
		if f.cur == "" {
			pt.set(k, f.name, nil)
			continue
		}
		v, err := pt.liveDate(f.cur)
		if err != nil {
			return fmt.Errorf("activity %q: %s: %w", a.ID, f.name, err)
		}
		pt.set(k, f.name, &v)
	}
	if a.PercentComplete != b.PercentComplete {
		pt.set(k, "PercentComplete", val(strconv.FormatFloat(a.PercentComplete, 'f', -1, 64)))
	}
	if a.Manual != b.Manual || a.Start != b.Start || a.Finish != b.Finish {
		pt.set(k, "Manual", val(strconv.Itoa(b2i(a.Manual))))
		if a.Manual {
			for _, f := range [][2]string{{"Start", a.Start}, {"Finish", a.Finish}} {
				v, err := pt.liveDate(f[1])
				if err != nil {
					return fmt.Errorf("activity %q: manual %s: %w", a.ID, f[0], err)
				}
				pt.set(k, f[0], &v)
				pt.set(k, "Manual"+f[0], &v)
			}
		}
	}
	if a.BaselineStart != b.BaselineStart || a.BaselineFinish != b.BaselineFinish || a.BaselineDuration != b.BaselineDuration {
		if err := pt.setBaseline(t, a); err != nil {
			return fmt.Errorf("activity %q: %w", a.ID, err)
		}
	}
	if a.Description != b.Description {
		// The reader adds the task's WBS line to its Notes: what follows
		// the Notes in the base description is that line.
		notes := a.Description
		if line, ok := strings.CutPrefix(b.Description, task.Notes); ok && line != "" {
			line = strings.TrimPrefix(line, "\n")
			if cut, ok := strings.CutSuffix(a.Description, line); ok {
				notes = strings.TrimSuffix(cut, "\n")
			}
		}
		if notes == "" {
			pt.set(k, "Notes", nil)
		} else {
			pt.set(k, "Notes", &notes)
		}
	}
	return nil
}

// constraintFields are a constraint's ConstraintType and ConstraintDate
// (nil: none).
func (pt *mspdiPatch) constraintFields(c *schedule.Constraint) (string, *string, error) {
	if c == nil {
		return "0", nil, nil
	}
	for code, typ := range mspdiConstraints {
		if typ != c.Type {
			continue
		}
		if c.Date == "" {
			return code, nil, nil
		}
		v, err := pt.liveDate(c.Date)
		if err != nil {
			return "", nil, fmt.Errorf("constraint date: %w", err)
		}
		return code, &v, nil
	}
	return "", nil, fmt.Errorf("constraint %s has no MS Project code", c.Type)
}

// liveDate writes a schedule's live date (2006-01-02T15:04, or a date) in
// the file's layout.
func (pt *mspdiPatch) liveDate(v string) (string, error) {
	t, err := time.Parse(liveLayout, v)
	if err != nil {
		if t, err = time.Parse(time.DateOnly, v); err != nil {
			return "", fmt.Errorf("%q is not a date-time like 2014-10-17T08:00", v)
		}
	}
	return t.Format(pt.layout), nil
}

// dateFields are the computed fields of an activity dated d.
func (pt *mspdiPatch) dateFields(d cpmDates, a *schedule.Activity) map[string]*string {
	date := func(t time.Time) *string { v := t.Format(pt.layout); return &v }
	slack := func(days float64) *string { v := pt.lagTenths(days); return &v }
	crit := strconv.Itoa(b2i(d.TotalFloat <= 1e-9))
	out := map[string]*string{}
	// Only the fields the changes moved: MS Project's other values stay
	// as it computed them.
	for _, f := range []struct {
		moved dateMask
		names []string
		value *string
	}{
		{movedES, []string{"EarlyStart"}, date(d.ES)},
		{movedEF, []string{"EarlyFinish"}, date(d.EF)},
		{movedLS, []string{"LateStart"}, date(d.LS)},
		{movedLF, []string{"LateFinish"}, date(d.LF)},
		{movedTotalFloat, []string{"TotalSlack", "StartSlack", "FinishSlack", "Critical"}, nil},
		{movedFreeFloat, []string{"FreeSlack"}, slack(d.FreeFloat)},
	} {
		if !d.Moved.has(f.moved) {
			continue
		}
		for _, name := range f.names {
			switch {
			case name == "Critical":
				out[name] = &crit
			case f.value == nil:
				out[name] = slack(d.TotalFloat)
			default:
				out[name] = f.value
			}
		}
	}
	if !a.Manual { // a manual task's Start and Finish are its own
		if d.Moved.has(movedES) {
			out["Start"] = date(d.ES)
		}
		if d.Moved.has(movedEF) {
			out["Finish"] = date(d.EF)
		}
	}
	return out
}

// set records a new value (nil: none) of a file task's field.
func (pt *mspdiPatch) set(k int, name string, v *string) {
	if pt.sets[k] == nil {
		pt.sets[k] = map[string]*string{}
	}
	pt.sets[k][name] = v
}

// setFields rewrites el's fields: an existing one in place (or removed),
// a missing one inserted where order puts it.
func (pt *mspdiPatch) setFields(el *xmlEl, fields map[string]*string, order []string) {
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		v := fields[name]
		if old := el.child(name); old != nil {
			if v == nil {
				pt.remove(old)
			} else if strings.TrimSpace(old.text) != *v || strings.ContainsAny(*v, "<&>") {
				pt.replace(old, element(name, *v))
			}
			continue
		}
		if v == nil {
			continue
		}
		ws, _ := pt.indents(el)
		at, n := pt.placeOf(el, name, order)
		pt.insert(at, n, ws+element(name, *v))
	}
}

// placeOf is where a missing field goes in el: after the last field the
// order puts before it, else before the first one it puts after it, else
// at the end; and its rank among inserts there.
func (pt *mspdiPatch) placeOf(el *xmlEl, name string, order []string) (int, int) {
	rank := slices.Index(order, name)
	if rank < 0 {
		rank = len(order)
	}
	var after, before *xmlEl
	for _, k := range el.kids {
		r := slices.Index(order, k.name)
		if r < 0 {
			continue
		}
		if r <= rank {
			after = k
		} else if before == nil {
			before = k
		}
	}
	switch {
	case after != nil:
		return after.end, rank
	case before != nil:
		return lineStart(pt.data, before.start), rank
	case len(el.kids) > 0:
		return el.kids[len(el.kids)-1].end, rank
	}
	// An empty element: just before its end tag.
	return bytes.LastIndexByte(pt.data[:el.end], '<'), rank
}

// addTasks writes the added activities' tasks, each after its neighbour
// in the schedule (after the neighbour's task and what it holds), or after
// the last task.
func (pt *mspdiPatch) addTasks() error {
	e := pt.e
	if len(e.added) == 0 {
		return nil
	}
	if len(pt.tasks) == 0 {
		return errors.New("the file has no <Tasks> to add tasks to")
	}
	maxUID, maxID := 0, 0
	for _, t := range pt.tasks {
		if n, err := strconv.Atoi(t.value("UID")); err == nil {
			maxUID = max(maxUID, n)
		}
		if n, err := strconv.Atoi(t.value("ID")); err == nil {
			maxID = max(maxID, n)
		}
	}
	type placed struct {
		uid, id int
		at      int // the file task it follows
	}
	place := map[string]placed{}
	for _, i := range e.added {
		maxUID++
		maxID++
		a := &e.cur.Activities[i]
		pt.uidOf[a.ID] = strconv.Itoa(maxUID)
		after := len(pt.tasks) - 1
		if i > 0 {
			prev := e.cur.Activities[i-1].ID
			if k, ok := pt.taskOf[prev]; ok {
				after = k
			} else if p, ok := place[prev]; ok {
				after = p.at // a run of added activities follows one task
			}
		}
		place[a.ID] = placed{maxUID, maxID, after}
	}
	defType := "0"
	if v := pt.root.value("DefaultTaskType"); v != "" {
		defType = v
	}
	for n, i := range e.added {
		a := &e.cur.Activities[i]
		pl := place[a.ID]
		neighbour := pt.tasks[pl.at]
		end := pl.at
		for end+1 < len(pt.tasks) && pt.levels[end+1] > pt.levels[pl.at] {
			end++
		}
		text, err := pt.taskText(a, i, pl.uid, pl.id, pl.at, defType)
		if err != nil {
			return err
		}
		tws := string(pt.data[lineStart(pt.data, neighbour.start):neighbour.start])
		pt.insert(pt.tasks[end].end, n, tws+text)
		if pt.progress != nil && n%1000 == 0 {
			pt.progress(len(e.cur.Activities)-len(e.added)+n, len(e.cur.Activities))
		}
	}
	return nil
}

// taskText is an added activity's Task element, with the fields MS
// Project writes for a new task, laid out like its neighbour (task k).
func (pt *mspdiPatch) taskText(a *schedule.Activity, i, uid, id, k int, defType string) (string, error) {
	neighbour := pt.tasks[k]
	tws := string(pt.data[lineStart(pt.data, neighbour.start):neighbour.start])
	ws, inner := pt.indents(neighbour)
	d, err := schedule.ParseDuration(a.Duration)
	if err != nil {
		return "", fmt.Errorf("activity %q: %w", a.ID, err)
	}
	days := d.Minutes(pt.mpd) / pt.mpd
	format := "7"
	switch d.Unit {
	case schedule.ElapsedDays:
		format = "8"
	case schedule.ElapsedHours:
		format = "6"
	}
	fields := map[string]*string{}
	val := func(name, v string) { fields[name] = &v }
	val("UID", strconv.Itoa(uid))
	val("ID", strconv.Itoa(id))
	val("Name", a.Name)
	val("Active", "1")
	val("Manual", strconv.Itoa(b2i(a.Manual)))
	val("Type", defType)
	val("IsNull", "0")
	level := max(pt.levels[k], 1) // not the project summary's 0
	val("OutlineLevel", strconv.Itoa(level))
	val("OutlineNumber", nextNumber(neighbour.value("OutlineNumber"), id))
	if a.WBS != "" {
		val("WBS", a.WBS)
	} else {
		val("WBS", nextNumber(neighbour.value("WBS"), id))
	}
	val("Duration", mspdiDuration(days, pt.mpd))
	val("DurationFormat", format)
	val("Milestone", strconv.Itoa(b2i(days == 0)))
	val("Summary", "0")
	val("PercentComplete", strconv.FormatFloat(a.PercentComplete, 'f', -1, 64))
	if d, ok := pt.e.dates[a.ID]; ok {
		for name, v := range pt.dateFields(d, a) {
			fields[name] = v
		}
	}
	typ, date, err := pt.constraintFields(a.Constraint)
	if err != nil {
		return "", fmt.Errorf("activity %q: %w", a.ID, err)
	}
	val("ConstraintType", typ)
	fields["ConstraintDate"] = date
	uidCal := "-1"
	if a.Calendar != "" {
		uidCal = pt.calUID[a.Calendar]
	}
	val("CalendarUID", uidCal)
	for _, f := range [][2]string{{"ActualStart", a.ActualStart}, {"ActualFinish", a.ActualFinish}} {
		if f[1] != "" {
			v, err := pt.liveDate(f[1])
			if err != nil {
				return "", fmt.Errorf("activity %q: %s: %w", a.ID, f[0], err)
			}
			val(f[0], v)
		}
	}
	if a.Remaining != "" {
		rem, err := schedule.DurationDays(a.Remaining)
		if err != nil {
			return "", fmt.Errorf("activity %q: remaining: %w", a.ID, err)
		}
		val("RemainingDuration", mspdiDuration(rem, pt.mpd))
	} else if a.ActualStart == "" {
		val("RemainingDuration", mspdiDuration(days, pt.mpd))
	}
	if a.Manual {
		for _, f := range [][2]string{{"Start", a.Start}, {"Finish", a.Finish}} {
			v, err := pt.liveDate(f[1])
			if err != nil {
				return "", fmt.Errorf("activity %q: manual %s: %w", a.ID, f[0], err)
			}
			val(f[0], v)
			val("Manual"+f[0], v)
		}
	}
	if a.Description != "" {
		val("Notes", a.Description)
	}
	var b strings.Builder
	b.WriteString("<Task>")
	names := slices.Collect(maps.Keys(fields))
	slices.SortFunc(names, func(x, y string) int {
		return slices.Index(mspdiTaskOrder, x) - slices.Index(mspdiTaskOrder, y)
	})
	for _, name := range names {
		if v := fields[name]; v != nil {
			b.WriteString(ws + element(name, *v))
		}
	}
	for _, r := range pt.newLink[-1-i] {
		b.WriteString(pt.linkText(r, ws, inner))
	}
	custom := [][2]string{{aliasActivityID, a.ID}, {aliasRelIDs, ""}, {aliasDuration, a.Duration}}
	if rels := pt.newLink[-1-i]; len(rels) > 0 {
		place := pt.relPlaces()
		var tags []relTag
		for _, r := range rels {
			tags = append(tags, relTag{ID: r.ID, N: place[r.ID]})
		}
		text, err := json.Marshal(tags)
		if err != nil {
			return "", err
		}
		custom[1][1] = string(text)
	}
	for _, c := range custom {
		if field := pt.fieldOf(c[0]); field != "" && c[1] != "" {
			b.WriteString(ws + customText(field, c[1], ws, inner))
		}
	}
	if a.HasBaseline() {
		fields, err := pt.baselineFields(a)
		if err != nil {
			return "", fmt.Errorf("activity %q: %w", a.ID, err)
		}
		b.WriteString(ws + baselineText(fields, ws, inner))
	}
	b.WriteString(tws + "</Task>")
	return b.String(), nil
}

// fieldOf is the field id of the file's custom field alias, or "".
func (pt *mspdiPatch) fieldOf(alias string) string {
	for id, a := range pt.fields {
		if a == alias {
			return id
		}
	}
	return ""
}

// nextNumber is the outline number after a neighbour's (1.2.3 -> 1.2.4);
// the task id when the neighbour has none.
func nextNumber(neighbour string, id int) string {
	head, last := "", neighbour
	if i := strings.LastIndexByte(neighbour, '.'); i >= 0 {
		head, last = neighbour[:i+1], neighbour[i+1:]
	}
	n, err := strconv.Atoi(last)
	if err != nil {
		return strconv.Itoa(id)
	}
	return head + strconv.Itoa(n+1)
}

// element is <name>value</name>, the value escaped.
func element(name, value string) string {
	var b strings.Builder
	b.WriteString("<" + name + ">")
	xml.EscapeText(&b, []byte(value))
	b.WriteString("</" + name + ">")
	return b.String()
}

func (pt *mspdiPatch) remove(el *xmlEl) {
	pt.splices = append(pt.splices, splice{from: lineStart(pt.data, el.start), to: el.end})
}

func (pt *mspdiPatch) replace(el *xmlEl, text string) {
	pt.splices = append(pt.splices, splice{from: el.start, to: el.end, text: text})
}

func (pt *mspdiPatch) insert(at, order int, text string) {
	pt.splices = append(pt.splices, splice{from: at, to: at, order: order, text: text})
}

// write copies the file with the splices applied; a splice inside a range
// already replaced (a field of a removed task) is dropped.
func (pt *mspdiPatch) write(w *bufio.Writer) {
	slices.SortStableFunc(pt.splices, func(a, b splice) int {
		if a.from != b.from {
			return a.from - b.from
		}
		if (a.to == a.from) != (b.to == b.from) {
			return b2i(a.to != a.from) - b2i(b.to != b.from) // a removal after the inserts before it
		}
		return a.order - b.order
	})
	at := 0
	for _, s := range pt.splices {
		if s.from < at {
			continue
		}
		w.Write(pt.data[at:s.from])
		w.WriteString(pt.encode(s.text))
		at = s.to
	}
	w.Write(pt.data[at:])
}

// encode writes text in the file's encoding: Windows-1252 for a file
// declared as Windows-1252 or ISO-8859-1 (read as Windows-1252, see
// charsetReader), a character it lacks as a character reference.
func (pt *mspdiPatch) encode(text string) string {
	if !pt.cp1252 {
		return text
	}
	var b strings.Builder
	for _, r := range text {
		switch {
		case r < 0x80 || r >= 0xA0 && r <= 0xFF:
			b.WriteByte(byte(r))
		default:
			if i := slices.Index(windows1252High[:], r); i >= 0 {
				b.WriteByte(byte(0x80 + i))
			} else {
				fmt.Fprintf(&b, "&#%d;", r)
			}
		}
	}
	return b.String()
}
