package llm

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Defaults for Config fields left zero.
const (
	DefaultChatModel   = "gpt-4o-mini"
	DefaultTimeout     = 60 * time.Second
	DefaultMaxAttempts = 3
	// DefaultMaxReplyBytes caps a reply's HTTP body: a chat completion of
	// any max_tokens a planning step asks for is a few tens of KB, so 1 MB
	// is far above a real reply and far below what a runaway or hostile
	// endpoint could send (a 50 MB reply took the CLI to 2 GB).
	DefaultMaxReplyBytes = 1 << 20
)

// Environment variables ConfigFromEnv reads.
const (
	EnvAPIKey    = "OPENAI_API_KEY"
	EnvBaseURL   = "OPENAI_BASE_URL"
	EnvChatModel = "AUTOSCHEDULER_CHAT_MODEL"
)

// Config selects and tunes the chat endpoint.
//
// BaseURL picks the server: empty is OpenAI; "http://localhost:11434/v1" is
// Ollama; "http://host:8000/v1" vLLM; Azure OpenAI is
// "https://RESOURCE.openai.azure.com/openai/v1" (the v1 API, ChatModel the
// deployment name) or a classic deployment URL
// ".../openai/deployments/NAME?api-version=2024-10-21", whose api-version
// query is sent with every request. On Azure hosts the key also goes in the
// api-key header.
type Config struct {
	APIKey, BaseURL, ChatModel string
	// Timeout bounds each HTTP attempt; default 60s.
	Timeout time.Duration
	// MaxAttempts is how many attempts a retryable failure gets in total;
	// default 3.
	MaxAttempts int
	// MaxReplyBytes caps each reply's HTTP body; a larger one is refused
	// (KindTooLarge) after reading at most that much. Default
	// DefaultMaxReplyBytes.
	MaxReplyBytes int64
}

// ConfigFromEnv reads OPENAI_API_KEY, OPENAI_BASE_URL and
// AUTOSCHEDULER_CHAT_MODEL (default "gpt-4o-mini").
func ConfigFromEnv() Config {
	model := strings.TrimSpace(os.Getenv(EnvChatModel))
	if model == "" {
		model = DefaultChatModel
	}
	return Config{
		APIKey:    strings.TrimSpace(os.Getenv(EnvAPIKey)),
		BaseURL:   strings.TrimSpace(os.Getenv(EnvBaseURL)),
		ChatModel: model,
	}
}

// Configured reports whether an endpoint was chosen: a key (for OpenAI) or a
// base URL (for servers that need no key). Without either, callers fall
// back to the offline planner.
func (c Config) Configured() bool { return c.APIKey != "" || c.BaseURL != "" }

// String describes the endpoint for logs and status lines, e.g.
// "openai gpt-4o-mini at https://api.openai.com/v1 (key set)". It never
// shows the key, nor credentials or queries embedded in the base URL.
func (c Config) String() string {
	c = c.withDefaults()
	u := displayURL(c.BaseURL)
	key := "no key"
	if c.APIKey != "" {
		key = "key set"
		u = redact(u, c.APIKey)
	}
	return fmt.Sprintf("%s %s at %s (%s)", provider(c.BaseURL), c.ChatModel, u, key)
}

const openAIBaseURL = "https://api.openai.com/v1"

func (c Config) withDefaults() Config {
	if strings.TrimSpace(c.ChatModel) == "" {
		c.ChatModel = DefaultChatModel
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	if c.MaxReplyBytes <= 0 {
		c.MaxReplyBytes = DefaultMaxReplyBytes
	}
	return c
}

// provider names the kind of endpoint, for String.
func provider(baseURL string) string {
	if baseURL == "" {
		return "openai"
	}
	u, err := url.Parse(baseURL)
	switch {
	case err != nil:
		return "openai-compatible"
	case u.Hostname() == "api.openai.com":
		return "openai"
	case isAzureHost(u.Hostname()):
		return "azure"
	}
	return "openai-compatible"
}

func isAzureHost(host string) bool {
	host = strings.ToLower(host)
	for _, suffix := range []string{".openai.azure.com", ".cognitiveservices.azure.com", ".services.ai.azure.com"} {
		if strings.HasSuffix(host, suffix) {
			return true
		}
	}
	return false
}

// displayURL is baseURL without user info, query or fragment: those are
// where people put secrets.
func displayURL(baseURL string) string {
	if baseURL == "" {
		return openAIBaseURL
	}
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return "(invalid base URL)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return strings.TrimSuffix(u.String(), "/")
}
