package config

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/scope"
)

// Planner names which planner turns prompts into ops.
const (
	PlannerAuto   = "auto"   // openai when an LLM is configured, else rules
	PlannerRules  = "rules"  // the offline rules planner
	PlannerOpenAI = "openai" // the LLM scope manager, any OpenAI-compatible endpoint
)

// Planning is the planner configuration shared by the CLI and the worker:
// which planner, and for the LLM one the endpoint (OPENAI_API_KEY,
// OPENAI_BASE_URL) and chat model.
type Planning struct {
	Kind string
	LLM  llm.Config
}

// PlanningFromEnv reads the environment (the key is never a flag: flags
// show in process lists).
func PlanningFromEnv() Planning {
	return Planning{Kind: EnvOr("AUTOSCHEDULER_PLANNER", PlannerAuto), LLM: llm.ConfigFromEnv()}
}

// BindFlags adds --llm and --chat-model.
func (p *Planning) BindFlags(fs *pflag.FlagSet) {
	fs.StringVar(&p.Kind, "llm", p.Kind, "planner: rules (offline), openai (any OpenAI-compatible endpoint: OPENAI_API_KEY, OPENAI_BASE_URL) or auto (openai when configured) (env AUTOSCHEDULER_PLANNER)")
	fs.StringVar(&p.LLM.ChatModel, "chat-model", p.LLM.ChatModel, "chat model of the openai planner (env AUTOSCHEDULER_CHAT_MODEL)")
}

// Planner builds the configured planner and says which it is, in words
// fit for a log line (no key).
func (p *Planning) Planner() (scope.Planner, string, error) {
	kind := p.Kind
	if kind == "" || kind == PlannerAuto {
		kind = PlannerRules
		if p.LLM.Configured() {
			kind = PlannerOpenAI
		}
	}
	switch kind {
	case PlannerRules:
		return scope.Rules{}, "offline rules planner", nil
	case PlannerOpenAI:
		if !p.LLM.Configured() {
			return nil, "", fmt.Errorf("--llm openai needs OPENAI_API_KEY or OPENAI_BASE_URL")
		}
		c, err := llm.New(p.LLM)
		if err != nil {
			return nil, "", err
		}
		return &scope.Manager{LLM: c}, "LLM scope manager (" + p.LLM.String() + ")", nil
	}
	return nil, "", fmt.Errorf("--llm %q: want rules, openai or auto", p.Kind)
}
