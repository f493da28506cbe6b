package scope_test

import (
	"context"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/scope"
)

// overflowing is a model whose endpoint refuses the conversation once
// tool results are in it, as a small local model's 8k context does.
type overflowing struct{ scripted }

func (f *overflowing) PromptWithTools(ctx context.Context, msgs []llm.Message, tools []llm.Tool) ([]llm.ToolCall, llm.Usage, error) {
	if len(msgs) > 2 {
		return nil, llm.Usage{}, &llm.Error{Kind: llm.KindBadRequest, Message: "request (9439 tokens) exceeds the available context size (8192 tokens)"}
	}
	return f.scripted.PromptWithTools(ctx, msgs, tools)
}

// TestAskContextOverflow: a bad request once the tool results are in is
// the conversation outgrowing the model: the offline answer, saying so. A
// bad request on the first turn (a wrong model name, say) stays an error.
func TestAskContextOverflow(t *testing.T) {
	v := askView(t)
	f := &overflowing{scripted{script: [][]llm.ToolCall{{{Name: "critical_path", Arguments: []byte(`{}`)}}}}}
	res, err := (&scope.Asker{LLM: f}).AskDetailed(context.Background(), v, "what is the critical path")
	if err != nil {
		t.Fatal(err)
	}
	if res.Grounded || !strings.Contains(res.Fallback, "outgrew") || !strings.Contains(res.Answer.Answer, "54 of 147 activities are critical") {
		t.Errorf("fallback %q, answer %q", res.Fallback, res.Answer.Answer)
	}
	first := &scripted{script: [][]llm.ToolCall{nil}, err: &llm.Error{Kind: llm.KindBadRequest, Message: "model not found"}}
	if _, err := (&scope.Asker{LLM: first}).AskDetailed(context.Background(), v, "what is the critical path"); err == nil {
		t.Error("a bad request on the first turn was not an error")
	}
}
