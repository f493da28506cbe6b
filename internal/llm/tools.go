package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// checkTools refuses tool lists the API would refuse, before a request.
func checkTools(tools []Tool) error {
	if len(tools) == 0 {
		return &Error{Kind: KindBadRequest, Message: "no tools offered"}
	}
	seen := map[string]bool{}
	for i, t := range tools {
		switch {
		case t.Name == "":
			return &Error{Kind: KindBadRequest, Message: fmt.Sprintf("tool %d has no name", i)}
		case seen[t.Name]:
			return &Error{Kind: KindBadRequest, Message: fmt.Sprintf("tool %q offered twice", t.Name)}
		case t.Parameters == nil:
			return &Error{Kind: KindBadRequest, Message: fmt.Sprintf("tool %q has no parameter schema", t.Name)}
		}
		seen[t.Name] = true
	}
	return nil
}

// checkCalls validates each call against its tool; the result maps call
// index to problem, empty when all are valid.
func checkCalls(calls []ToolCall, tools []Tool) map[int]string {
	problems := map[int]string{}
	for i, call := range calls {
		j := slices.IndexFunc(tools, func(t Tool) bool { return t.Name == call.Name })
		if j < 0 {
			problems[i] = fmt.Sprintf("there is no tool %q", call.Name)
			continue
		}
		if err := Validate(tools[j].Parameters, call.Arguments); err != nil {
			problems[i] = "invalid arguments: " + err.Error()
		}
	}
	return problems
}

func toolNames(tools []Tool) string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}

// describeCallProblems says what was wrong with a tool reply.
func describeCallProblems(r reply, problems map[int]string, tools []Tool) string {
	if r.callsProblem != "" {
		msg := "the calls are not valid: " + r.callsProblem
		if r.finish == "length" {
			msg += " (the reply was cut off at the token limit)"
		}
		return msg
	}
	if len(r.calls) == 0 {
		msg := "the model called no tool (want one of " + toolNames(tools) + ")"
		if text := strings.TrimSpace(r.content); text != "" {
			if len(text) > 200 {
				text = text[:200] + "…"
			}
			msg += "; it wrote: " + text
		}
		return msg
	}
	var parts []string
	for i, call := range r.calls {
		if p, bad := problems[i]; bad {
			parts = append(parts, fmt.Sprintf("call %d (%s): %s", i+1, call.Name, p))
		}
	}
	return strings.Join(parts, "; ")
}

// toolRepair is the turn that shows the model its tool reply and what was
// wrong: its calls as made, an answer to each (the API wants every call
// answered) and a request to make all the calls again, corrected.
//
// Calls asked for in the prompt are repaired in the prompt too: the model
// sees its reply as text and what was wrong with it.
func toolRepair(r reply, problems map[int]string, tools []Tool) []Message {
	if r.viaPrompt {
		return []Message{
			{Role: Assistant, Content: r.content},
			{Role: User, Content: "Your reply is not valid: " + describeCallProblems(r, problems, tools) +
				". Reply again with the complete corrected JSON only: {\"calls\": [...]}, each call one of these tools: " + toolNames(tools) + "."},
		}
	}
	if len(r.calls) == 0 {
		return []Message{
			{Role: Assistant, Content: r.content},
			{Role: User, Content: "You must answer by calling one or more of these tools: " + toolNames(tools) + "."},
		}
	}
	msgs := []Message{{Role: Assistant, Content: r.content, ToolCalls: r.calls}}
	for i, call := range r.calls {
		answer := "Valid, not yet run: repeat this call in your corrected answer."
		if p, bad := problems[i]; bad {
			answer = "Error: " + p
		}
		msgs = append(msgs, Message{Role: ToolResult, ToolCallID: call.ID, Content: answer})
	}
	return append(msgs, Message{Role: User, Content: "Some tool calls were invalid: " +
		describeCallProblems(r, problems, tools) + ". Make all the calls again, corrected."})
}

// isStrict reports whether schema meets OpenAI's strict mode (every object
// closed with all its properties required), so a tool can ask for it; a
// hand-written schema that does not is sent non-strict rather than refused.
func isStrict(schema map[string]any) bool {
	if schema == nil {
		return false
	}
	types := typeNames(schema["type"])
	if slices.Contains(types, "object") {
		if schema["additionalProperties"] != false {
			return false
		}
		props, _ := schema["properties"].(map[string]any)
		required := stringSlice(schema["required"])
		if len(required) != len(props) {
			return false
		}
		for _, name := range required {
			sub, ok := props[name].(map[string]any)
			if !ok || !isStrict(sub) {
				return false
			}
		}
	}
	if items, ok := schema["items"].(map[string]any); ok && !isStrict(items) {
		return false
	}
	if branches, ok := schema["anyOf"].([]any); ok {
		for _, b := range branches {
			if bs, ok := b.(map[string]any); !ok || !isStrict(bs) {
				return false
			}
		}
	}
	return true
}

// decodeReply validates a structured reply and decodes it. Models without
// schema support like to wrap JSON in a Markdown code fence; that is
// forgiven.
func decodeReply[T any](schema map[string]any, content string, wrapped bool) (T, error) {
	var v T
	data := []byte(stripFence(content))
	if err := Validate(schema, data); err != nil {
		return v, err
	}
	if wrapped {
		var w struct {
			Value *T `json:"value"`
		}
		w.Value = &v
		err := json.Unmarshal(data, &w)
		return v, err
	}
	err := json.Unmarshal(data, &v)
	return v, err
}

func stripFence(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return s
	}
	t = strings.TrimSuffix(t[3:], "```")
	if nl := strings.IndexByte(t, '\n'); nl >= 0 && !strings.ContainsAny(t[:nl], "{[\"") {
		t = t[nl+1:] // the language tag: ```json
	}
	return t
}

// jsonMarshal is json.Marshal without HTML escaping, as a model should read it.
func jsonMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
