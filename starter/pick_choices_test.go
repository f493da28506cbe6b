package main

import (
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/workflows"
)

func TestPickChoices(t *testing.T) {
	choices := []workflows.Choice{{Label: "Pour slab Level 1 (A016)", Answer: "A016"}, {Label: "Pour slab Level 2 (A041)", Answer: "A041"}, {Label: "Pour slab Level 3 (A066)", Answer: "A066"}}
	for _, tc := range []struct {
		text    string
		several bool
		none    bool // the question offers no choices
		want    string
		err     string
	}{
		{text: "2", want: "A041"},
		{text: " 3 ", want: "A066"},
		{text: "Pour slab Level 3", want: "Pour slab Level 3"}, // words are the answer
		{text: "A016", want: "A016"},
		{text: "none", want: "none"},
		{text: "1, 3", several: true, want: "A016, A066"},
		{text: "1 3", several: true, want: "A016, A066"},
		{text: "1,2,3", several: true, want: "A016, A041, A066"},
		{text: "1, 3", err: "this question takes one (1-3)"},
		{text: "4", err: "there is no choice 4: pick 1-3"},
		{text: "0", err: "there is no choice 0"},
		{text: "2, 9", several: true, err: "there is no choice 9"},
		{text: "2", none: true, want: "2"}, // no choices: the planner reads "2" itself
		{text: "99999999999999999999", err: "there is no choice"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			offered := choices
			if tc.none {
				offered = nil
			}
			got, err := pickChoices(offered, tc.several, tc.text)
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("pickChoices(%q) = %q, %v; want an error saying %q", tc.text, got, err, tc.err)
			case tc.err == "" && (err != nil || got != tc.want):
				t.Errorf("pickChoices(%q) = %q, %v; want %q", tc.text, got, err, tc.want)
			}
		})
	}
}

func TestWriteChoicesNumbersThem(t *testing.T) {
	var b strings.Builder
	choices := make([]workflows.Choice, 10)
	for i := range choices {
		choices[i] = workflows.Choice{Label: "Act \x1b[31m" + string(rune('A'+i)), Answer: "x"}
	}
	writeChoices(&b, choices, true)
	out := b.String()
	for _, want := range []string{"Pick one or more:\n", "\n   1) Act ", "\n  10) Act "} {
		if !strings.Contains(out, want) {
			t.Errorf("the pick list lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Error("a label's control characters reach the terminal")
	}
	b.Reset()
	writeChoices(&b, nil, false)
	if b.Len() != 0 {
		t.Errorf("no choices printed %q", b.String())
	}
}
