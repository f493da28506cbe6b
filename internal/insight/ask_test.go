package insight

import (
	"slices"
	"strings"
	"testing"
)

// TestAsk pins the offline answers: the ids each rests on and the numbers
// in its words, worked by hand (see tools_test.go for the paths, floats
// and what-ifs behind them).
func TestAsk(t *testing.T) {
	for _, tc := range []struct {
		file, question string
		ids            string   // the activities, in order
		says           []string // words the answer must hold
	}{
		// Driving paths, typos and all.
		{toolBuilding, "What drives Painting Level 4?", to110, []string{"day 130 (2026-07-10 08:00)", "Suspended ceilings Level 4 (A107, FS) and Doors and frames Level 4 (A109, FS)", "(44 activities)", "A110 by A107 and A109"}},
		{toolBuilding, "whta drives Paintng Levl 4", to110, []string{"Painting Level 4 (A110)"}},
		{toolBuilding, "what is Painting Level 4 waiting for", to110, nil},
		{toolBuilding, "what drives the finish", finishPath54, []string{"day 167 (2026-09-01 17:00)", "54 activities"}},
		{toolBuilding, "path to finish", finishPath54, nil},
		{toolBuilding, "what drives Notice to proceed", "A001", []string{"No link drives it"}},
		// Piling (ES 11.5) waits for Bulk excavation's SS+4 (7.5+4).
		{toolBuilding, "why does piling start so late", "A001 A002 A007 A008 A009", []string{"day 11.5 (2026-01-20 13:00)", "Bulk excavation (A008, SS +4)"}},
		{toolBuilding, "why is Handover so late?", finishPath54, []string{"Substantial completion (A146, FS +5)"}},
		// Why critical: the path to it, then what it drives to the finish
		// (A112 … A147: 10 activities), together the 54.
		{toolBuilding, "why is painting level 4 critical", finishPath54, []string{"total float is 0", "through 10 critical activities"}},
		{toolBuilding, "why is painting level 1 critical", "A035", []string{"not critical", "32 working days of total float", "day 115"}},
		// Criticality by level and trade.
		{toolBuilding, "what's critical on level 3", "A064 A065 A066 A067 A068 A069", []string{"6 of the 25 activities on level 3"}},
		{toolBuilding, "whats critical on L3?", "A064 A065 A066 A067 A068 A069", nil},
		{toolBuilding, "is level 3 critical", "A064 A065 A066 A067 A068 A069", nil},
		{toolBuilding, "what's critical in drywall", "A104 A105 A106", []string{"3 of the 12 activities in drywall"}},
		// Floats: Painting Level 2 has TF 21.5, FF 0 (its FS to Flooring
		// L2 binds: 104.5-104.5).
		{toolBuilding, "how much float does Painting Level 2 have?", "A060", []string{"21.5 working days of total float and 0 working days of free float", "not critical"}},
		{toolBuilding, "float of piling", "A009", []string{"0 working days of total float", "it is critical"}},
		{toolBuilding, "is piling critical?", "A009", []string{"it is critical"}},
		{toolBuilding, "how much can site hoarding slip", "A003", []string{"1.5 working days of total float"}},
		// The critical path: every critical activity, report order.
		{toolBuilding, "what is the critical path", finishPath54, []string{"54 of 147 activities are critical", "day 167"}},
		// Near critical: TF in (0, 5], 54 critical besides.
		{toolBuilding, "near critical", "A133 A137 A004 A003 A005 A095 A134 A099 A101 A102 A103", []string{"11 activities are near-critical", "besides the 54 critical ones", "No limit was said"}},
		{toolBuilding, "near-critical activities with float under 2 days", "A133 A137 A004 A003 A005", []string{"under 2 working days"}},
		// "float under 1 day" counts the critical ones: 54 + A133, A137.
		{toolBuilding, "activities with float under 1 day", finishPath54 + " A133 A137", []string{"56 activities have total float under 1 working day (54 of them critical)"}},
		{toolBuilding, "float by level", "A014 A039 A064 A089 A001", []string{"Level 1: 25 activities, 6 critical, total float least 0, mean 29.36", "Level 4: 25 activities, 17 critical", "No level: 47 activities, 19 critical"}},
		{toolBuilding, "when does the project finish", "A147", []string{"167 working days", "2026-09-01 17:00", "54 of 147"}},
		{toolBuilding, "tell me about painting level 4", "A110 A107 A109 A085 A112", []string{"Painting Level 3 (A085, SS +5, slack 11)", "Flooring Level 4 (A112, FS, drives it)"}},
		{toolBuilding, "when does piling start", "A009 A008 A006 A010 A013", []string{"starts on day 11.5 (2026-01-20 13:00) at the earliest", `written "pert(10,12,18)"`}},
		// What-ifs (worked in TestWhatIf).
		{toolBuilding, "what if piling takes 5 more days", "A009", []string{"17 working days instead of 12", "day 172 (2026-09-08 17:00) instead of day 167 (2026-09-01 17:00): 5 working days later", "copy"}},
		{toolBuilding, "what if piling takes five extra days", "A009", []string{"day 172"}},
		{toolBuilding, "what if piling takes 17 days", "A009", []string{"day 172"}},
		{toolBuilding, "what if Painting Level 1 takes 16 days", "A035", []string{"would not move", "day 167"}},
		{toolBuilding, "what if mobilisation starts 3 days later", "A002 A001", []string{"on day 3 (2026-01-08 08:00) instead of day 0", "day 170 (2026-09-04 17:00)", "no longer be critical: Notice to proceed (A001)"}},
		{toolBuilding, "what if mobilisation is delayed by 3 days", "A002 A001", []string{"day 170"}},
		{toolBuilding, "what if Facade and curtain wall Level 4 loses its link to Pour roof slab", "A096 A116 A095 A114 A115",
			[]string{"Pour roof slab (A116) → Facade and curtain wall Level 4 (A096) (FS, driving)", "day 163.5 (2026-08-26 12:00)", "3.5 working days earlier", "become critical: Strip formwork and backprop Level 4 (A095)"}},
		{toolBuilding, "what if we remove the link between site hoarding and bulk excavation", "A003 A008", []string{"slack 1.5", "would not move"}},
		{toolBuilding, "what if piling starts 2 days earlier", "A009", []string{"cannot start earlier than its early start, day 11.5"}},
		{toolBuilding, "what if piling loses its link to handover", "A009 A147", []string{"No relationship links"}},
		// Names that match several activities are asked back, no guess.
		{toolBuilding, "what drives painting", "A035 A060 A085 A110", []string{`"painting" matches 4 activities`, "Which one"}},
		{toolBuilding, "float of the pour on level 2", "A041 A044", []string{"matches 2 activities", "Pour slab Level 2 (A041)", "Pour columns and walls Level 2 (A044)"}},
		{toolBuilding, "what drives the gazebo", "", []string{`can't find an activity called "the gazebo"`}},
		// Not a question form: the forms, honestly.
		{toolBuilding, "what is the meaning of life", "", []string{`can't find an activity called "the meaning of life"`, "I can answer:"}},
		{toolBuilding, "what are the risks?", "", []string{"I can answer:"}},
		{toolBuilding, "hello there", "", []string{"I can't answer that offline. I can answer:", "what drives X", "what if X loses its link to Y"}},
		{toolBuilding, "delete piling", "", []string{"I can answer:"}},
		{toolBuilding, "what if it rains", "", []string{"what-ifs of these forms"}},

		// mspdirelations: 1-FS->2, 2-SS+1->3, 3-FF->4, 4-SF->5.
		{toolMSPDIRel, "what drives task 5", "1 2 3 4 5", []string{"(5 activities)"}},
		{toolMSPDIRel, "what is the critical path", "1 2 3 4", []string{"4 of 5 activities are critical", "day 3 (2006-09-25 17:00)"}},
		{toolMSPDIRel, "near critical within 1 day", "5", []string{"1 activity is near-critical", "Task 5 (5, total float 1)"}},
		{toolMSPDIRel, "what if task 2 takes 3 days", "2 3 4", []string{"day 4 (2006-09-26 17:00) instead of day 3", "no longer be critical: Task 3 (3); Task 4 (4)"}},
		{toolMSPDIRel, "what if task 1 starts 2 days later", "1", []string{"day 5 (2006-09-27 17:00)"}},
		{toolMSPDIRel, "what if task 3 loses its link to task 4", "3 4", []string{"Task 3 (3) → Task 4 (4) (FF, driving)", "would not move", "no longer be critical: Task 4 (4)"}},
		// task-links: eight "Task 2"s.
		{toolMSPDITaskLink, "what drives task 2", "2 4 6 8 10 12 14 16", []string{`"task 2" matches 8 activities`}},
		{toolMSPDITaskLink, "what drives 10", "9 10", []string{"Task 1 (9, FS +10)"}},
	} {
		v := toolView(t, tc.file)
		ans := Ask(v, tc.question)
		if !slices.Equal(ans.Activities, toolIDs(tc.ids)) {
			t.Errorf("%q: activities\n %v\nwant\n %v\n(answer: %s)", tc.question, ans.Activities, toolIDs(tc.ids), ans.Answer)
		}
		for _, w := range tc.says {
			if !strings.Contains(ans.Answer, w) {
				t.Errorf("%q: the answer does not say %q:\n%s", tc.question, w, ans.Answer)
			}
		}
	}
}

// FuzzAsk: any question is answered or refused — never a panic, never an
// empty answer — and the ids it names are the schedule's.
func FuzzAsk(f *testing.F) {
	for _, seed := range []string{
		"what drives Painting Level 4?", "what if piling takes 5 more days", "what if X loses its link to Y", "near critical within -3 days",
		"what if piling takes -20 days", "what if piling starts 0 days later", "float by trade", "what's critical on level 99", "why is ??? so late",
		"what if \"Pour slab Level 2\" loses its link to \"Slab reinforcement Level 2\"", "activities with float under 1e9 days", "what if piling takes 1e308 days",
		"what if piling starts 99999999 days later", "", "?", "what if", "tell me about",
	} {
		f.Add(seed)
	}
	v := toolView(f, toolBuilding)
	f.Fuzz(func(t *testing.T, q string) {
		ans := Ask(v, q)
		if strings.TrimSpace(ans.Answer) == "" || ans.Activities == nil {
			t.Fatalf("%q: empty answer %+v", q, ans)
		}
		for _, id := range ans.Activities {
			if _, ok := v.Index(id); !ok {
				t.Fatalf("%q: answer names %q, not in the schedule", q, id)
			}
		}
	})
}
