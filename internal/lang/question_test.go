package lang

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestParseQuestions pins the question forms and their slots, written the
// ways people ask.
func TestParseQuestions(t *testing.T) {
	s := storetest.Building(t)
	opt := Options{Vocabulary: NewResolver(s).Vocabulary()}
	for _, tc := range []struct {
		text   string
		kind   QuestionKind
		x, y   string  // the references' corrected words
		days   float64 // when said
		delta  bool
		below  bool
		group  string
		reason string
	}{
		{text: "What drives Painting Level 4?", kind: AskDrives, x: "painting level 4"},
		{text: "whta drvies Paintng Levl 4", kind: AskDrives, x: "painting level 4"},
		{text: "what's driving Piling", kind: AskDrives, x: "piling"},
		{text: "which activities drive A110", kind: AskDrives, x: "a110"},
		{text: "what is Painting Level 4 waiting for", kind: AskDrives, x: "painting level 4"},
		{text: "driving path to Handover", kind: AskDrives, x: "handover"},
		{text: "what's holding up Handover?", kind: AskDrives, x: "handover"},
		{text: "can you tell me what drives piling please", kind: AskDrives, x: "piling"},
		{text: "why is Painting Level 4 critical?", kind: AskWhyCritical, x: "painting level 4"},
		{text: "why is piling on the critical path", kind: AskWhyCritical, x: "piling"},
		{text: "why is Handover so late?", kind: AskWhyLate, x: "handover"},
		{text: "Why does piling start so late", kind: AskWhyLate, x: "piling"},
		{text: "why can't piling start earlier", kind: AskWhyLate, x: "piling"},
		{text: "what's critical on level 3", kind: AskCriticalOn, x: "level 3"},
		{text: "whats critical on L3?", kind: AskCriticalOn, x: "l3"},
		{text: "which activities on level 2 are critical", kind: AskCriticalOn, x: "level 2"},
		{text: "critical activities in drywall", kind: AskCriticalOn, x: "drywall"},
		{text: "float of piling", kind: AskFloat, x: "piling"},
		{text: "how much float does Painting Level 2 have?", kind: AskFloat, x: "painting level 2"},
		{text: "How late can Site hoarding start?", kind: AskFloat, x: "site hoarding"},
		{text: "how long could Painting Level 1 wait", kind: AskFloat, x: "painting level 1"},
		{text: "how much slack is there on A060", kind: AskFloat, x: "a060"},
		{text: "is piling critical?", kind: AskFloat, x: "piling"},
		{text: "how far can site hoarding slip", kind: AskFloat, x: "site hoarding"},
		{text: "piling float", kind: AskFloat, x: "piling"},
		{text: "what is the critical path", kind: AskCriticalPath},
		{text: "critical path", kind: AskCriticalPath},
		{text: "show me the critical path", kind: AskCriticalPath},
		{text: "list the critical activities", kind: AskCriticalPath},
		{text: "which activities are critical?", kind: AskCriticalPath},
		{text: "what's critical", kind: AskCriticalPath},
		{text: "what is the critical path of the project", kind: AskCriticalPath},
		{text: "path to finish", kind: AskPathToFinish},
		{text: "what drives the finish", kind: AskPathToFinish},
		{text: "what's driving the project completion", kind: AskPathToFinish},
		{text: "what is the driving path", kind: AskPathToFinish},
		{text: "near critical", kind: AskNearCritical},
		{text: "near-critical activities", kind: AskNearCritical},
		{text: "near critical within 3 days", kind: AskNearCritical, days: 3},
		{text: "near-critical activities with float under 5 days", kind: AskNearCritical, days: 5, below: true},
		{text: "activities with float under 5 days", kind: AskNearCritical, days: 5, below: true, group: "all"},
		{text: "what has less than 2 weeks of float", kind: AskNearCritical, days: 10, below: true, group: "all"},
		{text: "anything with 3 days float or less", kind: AskNearCritical, days: 3, group: "all"},
		{text: "float by level", kind: AskFloatBy, group: "level"},
		{text: "float and criticality by trade", kind: AskFloatBy, group: "trade"},
		{text: "which floor has the least float", kind: AskFloatBy, group: "level"},
		{text: "tell me about piling", kind: AskDetails, x: "piling"},
		{text: "describe A009", kind: AskDetails, x: "a009"},
		{text: "when does piling start", kind: AskDetails, x: "piling"},
		{text: "when does the project finish", kind: AskFinish},
		{text: "how long is the project", kind: AskFinish},
		{text: "what if piling takes 15 days", kind: AskWhatIfDuration, x: "piling", days: 15},
		{text: "what if piling takes 5 more days", kind: AskWhatIfDuration, x: "piling", days: 5, delta: true},
		{text: "what if piling takes five extra days", kind: AskWhatIfDuration, x: "piling", days: 5, delta: true},
		{text: "what if piling takes 5 days longer?", kind: AskWhatIfDuration, x: "piling", days: 5, delta: true},
		{text: "what if piling took 2 days less", kind: AskWhatIfDuration, x: "piling", days: -2, delta: true},
		{text: "what-if piling takes 2.5 days", kind: AskWhatIfDuration, x: "piling", days: 2.5},
		{text: "what happens if we extend piling by a week", kind: AskWhatIfDuration, x: "piling", days: 5, delta: true},
		{text: "what if piling finishes 3 days later", kind: AskWhatIfDuration, x: "piling", days: 3, delta: true},
		{text: "what if mobilisation starts 3 days later", kind: AskWhatIfDelay, x: "mobilisation", days: 3},
		{text: "what if piling is delayed by a week", kind: AskWhatIfDelay, x: "piling", days: 5},
		{text: "what happens if piling slips 2 days", kind: AskWhatIfDelay, x: "piling", days: 2},
		{text: "suppose we delay piling by 4 days", kind: AskWhatIfDelay, x: "piling", days: 4},
		{text: "what if piling starts 2 days earlier", kind: AskWhatIfDelay, x: "piling", days: -2},
		{text: "what if Facade and curtain wall Level 4 loses its link to Pour roof slab", kind: AskWhatIfUnlink, x: "facade and curtain wall level 4", y: "pour roof slab"},
		{text: "what if Tiling Level 2 didn't depend on Joinery Level 2", kind: AskWhatIfUnlink, x: "tiling level 2", y: "joinery level 2"},
		{text: "what if Tiling Level 2 no longer follows Joinery Level 2", kind: AskWhatIfUnlink, x: "tiling level 2", y: "joinery level 2"},
		{text: "what if we remove the link between piling and pile caps", kind: AskWhatIfUnlink, x: "piling", y: "pile caps"},
		{text: "what if it rains", kind: AskUnknown, reason: "what-if"},
		{text: "what colour is the crane?", kind: AskUnknown},
	} {
		qs, ok := ParseQuestions(tc.text, opt)
		if !ok || len(qs) != 1 {
			t.Errorf("%q: ok %v, %d questions", tc.text, ok, len(qs))
			continue
		}
		q := qs[0]
		days := 0.0
		if q.Days != nil {
			days = *q.Days
		}
		if q.Kind != tc.kind || q.X.Words != tc.x || q.Y.Words != tc.y || days != tc.days || q.DaysDelta != tc.delta || q.Below != tc.below || q.Group != tc.group || q.Reason != tc.reason {
			t.Errorf("%q: got %s x=%q y=%q days=%v delta=%v below=%v group=%q reason=%q", tc.text, q.Kind, q.X.Words, q.Y.Words, days, q.DaysDelta, q.Below, q.Group, q.Reason)
		}
		if q.Source == "" {
			t.Errorf("%q: no source", tc.text)
		}
	}
	// Edits, and an edit with a question in it, are not questions: the
	// planner gets them (the question part becomes its note).
	for _, text := range []string{"delete piling", "Piling takes 5 days", "add 5 days float to piling", "link A001 to A002",
		"delete Landscaping and what's the critical path?", "hello", "make painting level 4 follow painting level 2"} {
		if IsQuestion(text, opt) {
			t.Errorf("%q read as a question", text)
		}
	}
	// Two questions in one go are both read.
	if qs, ok := ParseQuestions("what drives piling? and float of handover", opt); !ok || len(qs) != 2 || qs[0].Kind != AskDrives || qs[1].Kind != AskFloat {
		t.Errorf("two questions: %v %+v", ok, qs)
	}
}

// FuzzParseQuestions: any text reads without a panic, and a question's
// source is words of the text.
func FuzzParseQuestions(f *testing.F) {
	for _, seed := range []string{"what drives Painting Level 4?", "what if piling takes 5 more days", "near critical within 3 days", "what if X loses its link to Y", "?", "what if"} {
		f.Add(seed)
	}
	s := storetest.Building(f)
	opt := Options{Vocabulary: NewResolver(s).Vocabulary()}
	f.Fuzz(func(t *testing.T, text string) {
		qs, ok := ParseQuestions(text, opt)
		if ok != (len(qs) > 0) {
			t.Fatalf("%q: ok %v with %d questions", text, ok, len(qs))
		}
		for _, q := range qs {
			if q.Source == "" {
				t.Fatalf("%q: a question with no source", text)
			}
		}
	})
}
