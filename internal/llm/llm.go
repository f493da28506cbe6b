// Package llm is a small chat client over openai-go for any OpenAI-compatible
// endpoint — OpenAI, Azure OpenAI, Ollama, vLLM — chosen by configuration:
// plain prompts, prompts that must answer with tool calls, and structured
// output parsed into Go types and validated against a JSON schema derived
// from them (SchemaFor).
//
// The client owns its retry policy: rate limits (honouring Retry-After),
// server errors, timeouts and network failures are retried up to
// Config.MaxAttempts, everything else fails at once. Failures are *Error
// values whose Kind and Retryable tell a Temporal activity what to do next;
// when the caller's context ends first, the error wraps ctx.Err() instead.
// Every method returns the Usage spent, also with an error.
// Replies that are not the JSON asked for get one repair round, in which the
// model sees its reply and what was wrong with it.
//
// Endpoints differ in what they support. The client asks for structured
// replies with response_format json_schema, else json_object with the
// schema in the prompt, else the schema in the prompt alone, and offers
// tools with tool_choice "required", else without it, else described in
// the prompt with the calls asked for as structured output (also when a
// server answers "required" without a call: it does not enforce it). A
// refusal (a
// 400, or a 500 that names the option and says it cannot take it, as
// llama-cpp-python's server answers) steps down once, is not retried, and
// is remembered by the Client; Negotiated says where it stands.
//
// API keys never appear in errors or in Config.String. Tests drive the real
// client against llmtest, a scripted OpenAI-compatible HTTP server.
package llm

import (
	"encoding/json"
)

// Role is who speaks a Message.
type Role string

// The roles of a chat.
const (
	System     Role = "system"
	User       Role = "user"
	Assistant  Role = "assistant"
	ToolResult Role = "tool"
)

// Message is one turn of a chat. An Assistant message may carry the tool
// calls the model made; a ToolResult message answers the call ToolCallID.
type Message struct {
	Role       Role
	Content    string
	ToolCalls  []ToolCall
	ToolCallID string
}

// Tool is a function the model may call. Parameters is a JSON schema object
// describing the arguments; ToolFor derives it from a Go type.
type Tool struct {
	Name, Description string
	Parameters        map[string]any
}

// ToolFor returns a tool whose arguments are a T, described by SchemaFor[T].
// T must be a struct: tool arguments are always a JSON object.
func ToolFor[T any](name, description string) Tool {
	return Tool{Name: name, Description: description, Parameters: SchemaFor[T]()}
}

// ToolCall is a call the model made: the tool's name and its arguments as
// JSON, already validated against the tool's Parameters by PromptWithTools.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage
}

// Usage is what a conversation cost: tokens as the server reported them and
// Calls, the HTTP requests that returned a completion (repairs included,
// failed attempts not).
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	Calls            int `json:"calls"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		Calls:            u.Calls + v.Calls,
	}
}

// TotalTokens is PromptTokens + CompletionTokens.
func (u Usage) TotalTokens() int { return u.PromptTokens + u.CompletionTokens }
