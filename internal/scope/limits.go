package scope

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// MaxPrompt is the longest text planned, in characters: a prompt, a
// reviewer's feedback or an answer to a question. Every way in refuses
// more with CheckPrompt's error — the CLI (plan, prompt), the web app's
// prompt form, the dispatch's activities and the planners themselves — so
// one number holds everywhere. Planning is about linear in the text (the
// rules planner plans 10 KB in well under a second; BenchmarkPlan), and
// 16K characters is pages of requests: more is a document to split into
// several prompts, not one to review as a single change.
const MaxPrompt = 16 << 10

// ErrTooLong is what CheckPrompt's errors are (errors.Is).
var ErrTooLong = errors.New("too long to plan")

// TooLongError is text refused for its length.
type TooLongError struct {
	What  string // "prompt", "feedback", "answer"
	Chars int
}

func (e *TooLongError) Error() string {
	advice := "split it into smaller requests"
	if e.What != "prompt" {
		advice = "say it in fewer words"
	}
	return fmt.Sprintf("the %s is too long to plan (%d characters; at most %d): %s", e.What, e.Chars, MaxPrompt, advice)
}

// Is makes errors.Is(err, ErrTooLong) hold.
func (e *TooLongError) Is(target error) bool { return target == ErrTooLong }

// CheckPrompt refuses text over MaxPrompt characters; what names the text
// in the error ("prompt", "feedback", "answer").
func CheckPrompt(what, text string) error {
	if len(text) <= MaxPrompt { // bytes: never fewer than characters
		return nil
	}
	if n := utf8.RuneCountInString(text); n > MaxPrompt {
		return &TooLongError{What: what, Chars: n}
	}
	return nil
}

// Check refuses a planning step's input whose prompt, feedback or answers
// are over MaxPrompt.
func (in PlanInput) Check() error {
	if err := CheckPrompt("prompt", in.Prompt); err != nil {
		return err
	}
	if err := CheckPrompt("feedback", in.Feedback); err != nil {
		return err
	}
	for _, c := range in.Clarifications {
		if err := CheckPrompt("answer", c.Answer); err != nil {
			return err
		}
	}
	return nil
}
