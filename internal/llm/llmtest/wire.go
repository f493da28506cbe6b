package llmtest

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/llm"
)

// wireRequest is the part of a chat completions request the server reads.
type wireRequest struct {
	Model          string            `json:"model"`
	Messages       []wireMessage     `json:"messages"`
	Tools          []json.RawMessage `json:"tools"`
	ToolChoice     json.RawMessage   `json:"tool_choice"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []wireToolCall  `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func decodeRequest(body []byte) (Request, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return Request{}, fmt.Errorf("request body: %v", err)
	}
	req := Request{Model: w.Model, Body: body}
	size := 0
	for i, m := range w.Messages {
		content, err := contentText(m.Content)
		if err != nil {
			return Request{}, fmt.Errorf("message %d: %v", i, err)
		}
		msg := llm.Message{Role: llm.Role(m.Role), Content: content, ToolCallID: m.ToolCallID}
		size += len(content)
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)})
			size += len(tc.Function.Name) + len(tc.Function.Arguments)
		}
		req.Messages = append(req.Messages, msg)
	}
	for i, raw := range w.Tools {
		var t struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		if err := json.Unmarshal(raw, &t); err != nil {
			return Request{}, fmt.Errorf("tool %d: %v", i, err)
		}
		req.Tools = append(req.Tools, t.Function.Name)
		size += len(raw)
	}
	_ = json.Unmarshal(w.ToolChoice, &req.ToolChoice) // only the string form is recorded
	if rf := w.ResponseFormat; rf != nil {
		req.ResponseFormat = rf.Type
		if rf.JSONSchema != nil {
			req.ResponseFormat = rf.JSONSchema.Name
			if err := json.Unmarshal(rf.JSONSchema.Schema, &req.Schema); err != nil {
				return Request{}, fmt.Errorf("response_format schema: %v", err)
			}
			size += len(rf.JSONSchema.Schema)
		}
	}
	req.PromptTokens = ceilQuarter(size)
	return req, nil
}

// contentText reads a message's content: a string, null, or text parts.
func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("content is neither text nor parts: %s", raw)
	}
	out := ""
	for _, p := range parts {
		out += p.Text
	}
	return out, nil
}

// completion renders step as the n-th completion (0-based) for req, and
// returns its completion token count.
func completion(n int, req Request, step Step) ([]byte, int) {
	type function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type toolCall struct {
		ID       string   `json:"id"`
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	msg := map[string]any{"role": "assistant", "content": step.content}
	size := len(step.content) + len(step.refusal)
	if step.refusal != "" {
		msg["content"], msg["refusal"] = nil, step.refusal
	}
	finish := step.finish
	if len(step.calls) > 0 {
		calls := make([]toolCall, len(step.calls))
		for i, c := range step.calls {
			id := c.ID
			if id == "" {
				id = fmt.Sprintf("call_%d_%d", n+1, i+1)
			}
			calls[i] = toolCall{ID: id, Type: "function", Function: function{Name: c.Name, Arguments: string(c.Arguments)}}
			size += len(c.Name) + len(c.Arguments)
		}
		msg["tool_calls"] = calls
		if step.content == "" {
			msg["content"] = nil
		}
		if finish == "" {
			finish = "tool_calls"
		}
	}
	if finish == "" {
		finish = "stop"
	}
	model := req.Model
	if model == "" {
		model = Model
	}
	completionTokens := ceilQuarter(size)
	out := marshal(map[string]any{
		"id":      fmt.Sprintf("chatcmpl-llmtest-%d", n+1),
		"object":  "chat.completion",
		"created": time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC).Unix(),
		"model":   model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish, "logprobs": nil}},
		"usage": map[string]any{
			"prompt_tokens":     req.PromptTokens,
			"completion_tokens": completionTokens,
			"total_tokens":      req.PromptTokens + completionTokens,
		},
	})
	return out, completionTokens
}
