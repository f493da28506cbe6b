package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

// Client talks to one chat model. It is safe for concurrent use.
type Client struct {
	api openai.Client
	cfg Config

	// How this endpoint is asked for structured replies and tool calls:
	// the richest way first, a simpler one once the server has refused an
	// option (a 400, or a 500 naming it), remembered so that later calls
	// do not ask again. Modes only ever step down.
	structured atomic.Int32 // a structuredMode
	tooling    atomic.Int32 // a toolMode
}

// structuredMode is how ParseStructured asks for JSON.
type structuredMode int32

const (
	// response_format json_schema, strict: the server constrains the reply.
	jsonSchemaMode structuredMode = iota
	// response_format json_object (any JSON), the schema in the prompt.
	jsonObjectMode
	// plain text, the schema in the prompt.
	textMode
)

func (m structuredMode) String() string {
	return [...]string{"json_schema", "json_object", "text"}[m]
}

// refusedBy names the options whose refusal makes m step down.
func (m structuredMode) refusedBy() []string {
	if m == jsonSchemaMode {
		return []string{"response_format", "json_schema", "strict"}
	}
	return []string{"response_format", "json_object"}
}

// toolMode is how PromptWithTools offers tools.
type toolMode int32

const (
	// tools with tool_choice "required".
	toolsRequired toolMode = iota
	// tools, tool_choice left to the server's default (auto).
	toolsAuto
	// no tools parameter: the tools described in the prompt and the calls
	// asked for as structured output (ParseStructured's ways).
	toolsInPrompt
)

func (m toolMode) String() string {
	return [...]string{"tools, tool_choice required", "tools, tool_choice auto", "tools in the prompt"}[m]
}

// Negotiated says how the client asks this endpoint for structured replies
// and tool calls, as far as it has learnt: e.g. "structured output
// json_object; tools, tool_choice auto". For logs.
func (c *Client) Negotiated() string {
	return fmt.Sprintf("structured output %s; %s", structuredMode(c.structured.Load()), toolMode(c.tooling.Load()))
}

// stepDown moves a mode from what it was to next unless another call
// already moved it (possibly further).
func stepDown(mode *atomic.Int32, from, next int32) {
	mode.CompareAndSwap(from, next)
}

// New returns a client for cfg, with defaults for zero fields. It does not
// call the server. The environment is not consulted: cfg is the whole
// configuration (see ConfigFromEnv).
func New(cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	if !cfg.Configured() {
		return nil, errors.New("llm: no endpoint configured: set an API key (OPENAI_API_KEY) or a base URL (OPENAI_BASE_URL)")
	}
	base := cfg.BaseURL
	if base == "" {
		base = openAIBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("llm: base URL %q: want http(s)://host/path", displayURL(base))
	}
	query := u.Query()
	u.RawQuery, u.Fragment = "", ""
	opts := []option.RequestOption{
		option.WithBaseURL(strings.TrimSuffix(u.String(), "/") + "/"),
		// Always set, even empty: an OPENAI_API_KEY in the environment
		// must not reach a server the configuration did not give it to.
		option.WithAPIKey(cfg.APIKey),
		// Retrying is ours (complete), so attempts are counted once and
		// Retry-After waits are bounded by our policy.
		option.WithMaxRetries(0),
		option.WithRequestTimeout(cfg.Timeout),
		// A reply is read up to the cap and no further.
		option.WithMiddleware(capReply(cfg.MaxReplyBytes)),
	}
	// A classic Azure deployment URL carries its api-version as a query;
	// it must go with every request rather than be lost in path joining.
	for k, vs := range query {
		for _, v := range vs {
			opts = append(opts, option.WithQueryAdd(k, v))
		}
	}
	if isAzureHost(u.Hostname()) && cfg.APIKey != "" {
		opts = append(opts, option.WithHeader("api-key", cfg.APIKey))
	}
	return &Client{api: openai.NewClient(opts...), cfg: cfg}, nil
}

// Config is the client's configuration, defaults filled in.
func (c *Client) Config() Config { return c.cfg }

// Prompt sends msgs and returns the model's text. A reply cut short by the
// token limit is returned as it is.
func (c *Client) Prompt(ctx context.Context, msgs []Message) (string, Usage, error) {
	params, err := c.params(msgs)
	if err != nil {
		return "", Usage{}, err
	}
	r, usage, err := c.complete(ctx, params)
	if err != nil {
		return "", usage, err
	}
	if r.content == "" && r.refusal != "" {
		return "", usage, refusalError(r.refusal)
	}
	return r.content, usage, nil
}

// PromptWithTools sends msgs offering tools and requires the model to call
// at least one. It returns the calls, each naming one of tools with
// arguments valid against its Parameters. A reply with no call, a call to
// an unknown tool or invalid arguments gets one repair round, in which the
// model sees its calls and what was wrong; a second bad reply is an *Error
// of Kind invalid_output. Text the model writes beside its calls is not
// returned.
//
// The tools go as the API's tools with tool_choice "required". A server
// that refuses tool_choice is asked again without it; one that refuses
// tools altogether (llama-server without --jinja, some proxies), or
// answers "required" without a call (so does not enforce it: llama-server
// with a chat template that knows no tools), gets the tools described in
// the prompt and is asked for the calls as structured output, in whichever
// way ParseStructured has found it supports. Each step down is remembered.
func (c *Client) PromptWithTools(ctx context.Context, msgs []Message, tools []Tool) ([]ToolCall, Usage, error) {
	if err := checkTools(tools); err != nil {
		return nil, Usage{}, err
	}
	var usage Usage
	for round := 1; ; round++ {
		r, u, err := c.completeTools(ctx, msgs, tools)
		usage = usage.Add(u)
		if err != nil {
			return nil, usage, err
		}
		problems := checkCalls(r.calls, tools)
		if r.callsProblem == "" && len(r.calls) > 0 && len(problems) == 0 {
			return r.calls, usage, nil
		}
		if round == 2 {
			return nil, usage, &Error{Kind: KindInvalidOutput, Message: redact(describeCallProblems(r, problems, tools), c.cfg.APIKey), Attempts: usage.Calls}
		}
		msgs = append(append([]Message(nil), msgs...), toolRepair(r, problems, tools)...)
	}
}

// completeTools asks for tool calls in the richest way the server has not
// refused, stepping down when it refuses one.
func (c *Client) completeTools(ctx context.Context, msgs []Message, tools []Tool) (reply, Usage, error) {
	var usage Usage
	for {
		mode := toolMode(c.tooling.Load())
		if mode == toolsInPrompt {
			r, u, err := c.completeToolsInPrompt(ctx, msgs, tools)
			return r, usage.Add(u), err
		}
		params, err := c.params(msgs)
		if err != nil {
			return reply{}, usage, err
		}
		params.Tools = make([]openai.ChatCompletionToolUnionParam, len(tools))
		for i, t := range tools {
			params.Tools[i] = openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name:        t.Name,
				Description: openai.String(t.Description),
				Parameters:  shared.FunctionParameters(t.Parameters),
				Strict:      openai.Bool(isStrict(t.Parameters)),
			})
		}
		if mode == toolsRequired {
			params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("required")}
		}
		r, u, err := c.complete(ctx, params)
		usage = usage.Add(u)
		switch {
		case mode == toolsRequired && unsupported(err, "tool_choice"):
			stepDown(&c.tooling, int32(toolsRequired), int32(toolsAuto))
		case unsupported(err, "tools", "tool", "functions", "function"):
			stepDown(&c.tooling, int32(mode), int32(toolsInPrompt))
		case mode == toolsRequired && err == nil && len(r.calls) == 0 && r.refusal == "":
			// tool_choice "required" answered without a call: the server
			// takes the option but does not enforce it (llama-server with a
			// chat template that knows no tools passes them over in
			// silence). The model never saw the tools; ask again with them
			// in the prompt, where structured output can constrain it.
			stepDown(&c.tooling, int32(toolsRequired), int32(toolsInPrompt))
		default:
			return r, usage, err
		}
	}
}

// completeToolsInPrompt describes the tools in the prompt and reads the
// calls from a structured reply {"calls": [{"name", "arguments"}]}. A
// reply that does not match gets the same repair round as a bad tool call
// (reply.callsProblem says what was wrong).
func (c *Client) completeToolsInPrompt(ctx context.Context, msgs []Message, tools []Tool) (reply, Usage, error) {
	var b strings.Builder
	b.WriteString("Answer by calling one or more of these tools. Each is given as name: description; then the JSON schema of its arguments.\n")
	for _, t := range tools {
		js, err := jsonMarshal(t.Parameters)
		if err != nil {
			return reply{}, Usage{}, &Error{Kind: KindBadRequest, Message: fmt.Sprintf("tool %q: %v", t.Name, err)}
		}
		fmt.Fprintf(&b, "- %s: %s\n  %s\n", t.Name, t.Description, js)
	}
	b.WriteString(`Write the calls as {"calls": [{"name": "<tool name>", "arguments": {...}}]}, at least one call.`)
	schema := callsSchema(tools)
	prompt := append(append([]Message(nil), msgs...), Message{Role: System, Content: b.String()})
	r, usage, err := c.completeStructured(ctx, prompt, "tool_calls", schema)
	if err != nil || (r.content == "" && r.refusal != "") {
		return r, usage, err
	}
	r.viaPrompt = true
	data := []byte(stripFence(r.content))
	if verr := Validate(schema, data); verr != nil {
		r.callsProblem = verr.Error()
		return r, usage, nil
	}
	var got struct {
		Calls []struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		r.callsProblem = err.Error()
		return r, usage, nil
	}
	for i, call := range got.Calls {
		r.calls = append(r.calls, ToolCall{ID: fmt.Sprintf("call_%d", i), Name: call.Name, Arguments: call.Arguments})
	}
	return r, usage, nil
}

// callsSchema is the structured reply that carries tool calls when the
// server takes no tools: {"calls": [...]}, each call one tool's name and
// arguments.
func callsSchema(tools []Tool) map[string]any {
	branches := make([]any, len(tools))
	for i, t := range tools {
		branches[i] = map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name":      map[string]any{"type": "string", "enum": []any{t.Name}},
				"arguments": t.Parameters,
			},
			"required":             []any{"name", "arguments"},
			"additionalProperties": false,
		}
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"calls": map[string]any{"type": "array", "minItems": 1, "items": map[string]any{"anyOf": branches}},
		},
		"required":             []any{"calls"},
		"additionalProperties": false,
	}
}

// ParseStructured asks the model for a JSON value matching SchemaFor[T]
// (response_format json_schema, strict, named name), validates the reply
// and decodes it into a T. A reply that is not JSON, violates the schema
// or does not decode gets one repair round, in which the model sees its
// reply and the problems; a second bad reply is an *Error of Kind
// invalid_output naming them (`links[2].type: "XX" is not one of FS, SS,
// FF, SF`). A server that refuses json_schema is asked, from then on, with
// response_format json_object and the schema in the prompt; one that
// refuses that too, with the schema in the prompt alone. Whichever way, the
// reply is validated the same. T need not be a struct:
// other types travel wrapped in an object, as OpenAI requires one.
func ParseStructured[T any](ctx context.Context, c *Client, msgs []Message, name string) (T, Usage, error) {
	var zero T
	schema, err := schemaOf(reflect.TypeFor[T](), nil)
	if err != nil {
		return zero, Usage{}, &Error{Kind: KindBadRequest, Message: fmt.Sprintf("no schema for %T: %v", zero, err)}
	}
	wrapped := typeNames(schema["type"])[0] != "object"
	if wrapped {
		schema = map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"value": schema},
			"required":             []string{"value"},
			"additionalProperties": false,
		}
	}
	name = schemaName(name)
	var usage Usage
	for round := 1; ; round++ {
		r, u, err := c.completeStructured(ctx, msgs, name, schema)
		usage = usage.Add(u)
		if err != nil {
			return zero, usage, err
		}
		if r.content == "" && r.refusal != "" {
			return zero, usage, refusalError(r.refusal)
		}
		v, perr := decodeReply[T](schema, r.content, wrapped)
		if perr == nil {
			return v, usage, nil
		}
		problem := perr.Error()
		if r.finish == "length" {
			problem += " (the reply was cut off at the token limit)"
		}
		if round == 2 {
			return zero, usage, &Error{Kind: KindInvalidOutput, Message: redact(name+": "+problem, c.cfg.APIKey), Attempts: usage.Calls, cause: perr}
		}
		msgs = append(append([]Message(nil), msgs...),
			Message{Role: Assistant, Content: r.content},
			Message{Role: User, Content: "Your reply is not valid: " + problem +
				". Reply again with the complete corrected JSON only, matching the schema."})
	}
}

// completeStructured asks for a JSON reply in the richest way the server
// has not refused, stepping down when it refuses one.
func (c *Client) completeStructured(ctx context.Context, msgs []Message, name string, schema map[string]any) (reply, Usage, error) {
	var usage Usage
	for {
		mode := structuredMode(c.structured.Load())
		params, err := c.structuredParams(msgs, name, schema, mode)
		if err != nil {
			return reply{}, usage, err
		}
		r, u, err := c.complete(ctx, params)
		usage = usage.Add(u)
		if mode == textMode || !unsupported(err, mode.refusedBy()...) {
			return r, usage, err
		}
		stepDown(&c.structured, int32(mode), int32(mode+1))
	}
}

func (c *Client) structuredParams(msgs []Message, name string, schema map[string]any, mode structuredMode) (openai.ChatCompletionNewParams, error) {
	if mode == jsonSchemaMode {
		params, err := c.params(msgs)
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name:   name,
				Strict: openai.Bool(true),
				Schema: schema,
			}},
		}
		return params, err
	}
	js, err := jsonMarshal(schema)
	if err != nil {
		return openai.ChatCompletionNewParams{}, &Error{Kind: KindBadRequest, Message: err.Error()}
	}
	params, err := c.params(append(append([]Message(nil), msgs...), Message{Role: System,
		Content: "Reply with only a JSON value (no prose, no code fence) matching this JSON schema, named " + name + ":\n" + string(js)}))
	if mode == jsonObjectMode {
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}}
	}
	return params, err
}

// unsupported reports whether err is the server refusing one of the named
// request options: a 4xx naming it, or a 500 that names it and says it
// cannot take it (see refusesOption).
func unsupported(err error, options ...string) bool {
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBadRequest || e.Status < 400 {
		return false
	}
	msg := strings.ToLower(e.Message)
	for _, o := range options {
		if strings.Contains(msg, o) {
			return true
		}
	}
	return false
}

// reply is the part of a completion the client uses.
type reply struct {
	content, refusal, finish string
	calls                    []ToolCall
	// viaPrompt: the calls were asked for in the prompt and read from
	// content; callsProblem is what was wrong with content, if anything.
	viaPrompt    bool
	callsProblem string
}

// complete makes one chat completion request, retrying retryable failures
// up to MaxAttempts attempts in all. The returned Usage counts every
// completion received, also when an error is returned. When ctx ends, the
// error wraps ctx.Err() and is not an *Error.
func (c *Client) complete(ctx context.Context, params openai.ChatCompletionNewParams) (reply, Usage, error) {
	var usage Usage
	for attempt := 1; ; attempt++ {
		var httpRes *http.Response
		comp, err := c.api.Chat.Completions.New(ctx, params, option.WithResponseInto(&httpRes))
		if err != nil && ctx.Err() != nil {
			return reply{}, usage, fmt.Errorf("llm: %w", ctx.Err()) // the caller gave up: not ours to classify
		}
		var e *Error
		switch {
		case errors.Is(err, errReplyTooLarge):
			status := 0
			if httpRes != nil {
				status = httpRes.StatusCode
			}
			// Not retried: the same request is likely to run away again,
			// and every attempt would cost the cap in memory and time.
			return reply{}, usage, &Error{Kind: KindTooLarge, Status: status, Attempts: attempt, cause: err,
				Message: fmt.Sprintf("the model's reply was larger than %s: refused", usertext.Size(c.cfg.MaxReplyBytes))}
		case err == nil:
			usage.PromptTokens += int(comp.Usage.PromptTokens)
			usage.CompletionTokens += int(comp.Usage.CompletionTokens)
			usage.Calls++
			var r reply
			if r, e = readCompletion(comp); e == nil {
				return r, usage, nil
			}
		default:
			e = classify(err, httpRes)
		}
		e.Attempts = attempt
		e.Message = redact(e.Message, c.cfg.APIKey)
		if !e.Retryable || attempt >= c.cfg.MaxAttempts {
			return reply{}, usage, e
		}
		wait := backoff(attempt)
		if e.retryAfterSet {
			wait = e.RetryAfter
		}
		if wait > maxRetryAfter {
			return reply{}, usage, e // the caller's durable retry waits instead
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
			return reply{}, usage, e // no time left to wait for the retry
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return reply{}, usage, fmt.Errorf("llm: %w after %v", ctx.Err(), e)
		case <-timer.C:
		}
	}
}

// classify turns a failed request into an *Error; res is the HTTP response
// if one arrived.
func classify(err error, res *http.Response) *Error {
	if res != nil && res.StatusCode >= 400 {
		var body []byte
		if res.Body != nil {
			body, _ = io.ReadAll(io.LimitReader(res.Body, 64<<10))
		}
		e := statusError(res.StatusCode, res.Header, body, time.Now())
		e.cause = err
		return e
	}
	return transportError(err)
}

func readCompletion(comp *openai.ChatCompletion) (reply, *Error) {
	if len(comp.Choices) == 0 {
		return reply{}, &Error{Kind: KindServer, Status: http.StatusOK, Retryable: true, Message: "a completion with no choices"}
	}
	ch := comp.Choices[0]
	if ch.FinishReason == "content_filter" {
		return reply{}, &Error{Kind: KindContentFilter, Status: http.StatusOK, Message: "the reply was withheld by the content filter"}
	}
	r := reply{content: ch.Message.Content, refusal: ch.Message.Refusal, finish: ch.FinishReason}
	for i, tc := range ch.Message.ToolCalls {
		call := ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: []byte(tc.Function.Arguments)}
		if tc.Type == "custom" {
			call.Name, call.Arguments = tc.Custom.Name, []byte(tc.Custom.Input)
		}
		if call.ID == "" {
			call.ID = fmt.Sprintf("call_%d", i) // some servers leave it out; answers need one
		}
		if strings.TrimSpace(string(call.Arguments)) == "" {
			call.Arguments = []byte("{}")
		}
		r.calls = append(r.calls, call)
	}
	return r, nil
}

func refusalError(refusal string) *Error {
	return &Error{Kind: KindContentFilter, Status: http.StatusOK, Message: "the model refused: " + refusal}
}

// params converts msgs into a request for the configured model.
func (c *Client) params(msgs []Message) (openai.ChatCompletionNewParams, error) {
	if len(msgs) == 0 {
		return openai.ChatCompletionNewParams{}, &Error{Kind: KindBadRequest, Message: "no messages"}
	}
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for i, m := range msgs {
		switch m.Role {
		case System:
			out = append(out, openai.SystemMessage(m.Content))
		case User:
			out = append(out, openai.UserMessage(m.Content))
		case Assistant:
			a := openai.ChatCompletionAssistantMessageParam{}
			if m.Content != "" || len(m.ToolCalls) == 0 {
				a.Content.OfString = openai.String(m.Content)
			}
			for _, tc := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID:       tc.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: string(tc.Arguments)},
					},
				})
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case ToolResult:
			if m.ToolCallID == "" {
				return openai.ChatCompletionNewParams{}, &Error{Kind: KindBadRequest, Message: fmt.Sprintf("message %d: a tool result needs the ToolCallID it answers", i)}
			}
			out = append(out, openai.ToolMessage(m.Content, m.ToolCallID))
		default:
			return openai.ChatCompletionNewParams{}, &Error{Kind: KindBadRequest, Message: fmt.Sprintf("message %d: unknown role %q", i, m.Role)}
		}
	}
	return openai.ChatCompletionNewParams{Messages: out, Model: c.cfg.ChatModel}, nil
}

// schemaName makes name acceptable as a response_format name
// (^[a-zA-Z0-9_-]{1,64}$).
func schemaName(name string) string {
	b := []byte(name)
	for i, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	if len(b) == 0 {
		return "reply"
	}
	return string(b)
}

// errReplyTooLarge is what reading a reply over the cap fails with.
var errReplyTooLarge = errors.New("reply over the size cap")

// capReply is the middleware that caps each reply's body at limit bytes:
// a body that declares more is refused without reading it, and one that
// streams more fails the read once limit bytes are in (errReplyTooLarge),
// so no more than limit bytes of a reply are ever held.
func capReply(limit int64) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(req)
		if err != nil || res == nil || res.Body == nil {
			return res, err
		}
		if res.ContentLength > limit {
			_ = res.Body.Close()
			res.Body = io.NopCloser(failingReader{errReplyTooLarge})
			return res, nil
		}
		res.Body = &cappedBody{rc: res.Body, left: limit}
		return res, nil
	}
}

// cappedBody reads rc up to left bytes; a byte more fails the read.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, errReplyTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }
