package cmdutil

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The output flag convention (README: Output and exit status): every
// command that prints data takes --json, one JSON document (or JSON lines
// where its help says so), a stable contract. --format exists only where
// there are several human formats (schedule: table, gantt-html, dot; risk:
// table, html); there --json is --format json. plan, which has one human
// format, keeps --format table|json hidden as the old spelling of --json.

// AddJSONFlag binds --json on flags (a command's own, or its persistent
// flags for every subcommand); usage says what is printed.
func AddJSONFlag(flags *pflag.FlagSet, asJSON *bool, usage string) {
	flags.BoolVar(asJSON, "json", false, usage)
}

// AddFormatFlags binds --format (one of formats, json among them; def
// when not given) and --json, the same as --format json, on cmd. With
// hidden, --format is left out of the help: it is only the old spelling of
// --json. CheckFormat validates what was given.
func AddFormatFlags(cmd *cobra.Command, format *string, def string, formats []string, usage, jsonUsage string, hidden bool) {
	*format = def
	f := cmd.Flags()
	f.Var(&formatValue{format: format, formats: formats}, "format", usage)
	f.Var(&jsonValue{format: format}, "json", jsonUsage)
	f.Lookup("json").NoOptDefVal = "true"
	if hidden {
		_ = f.MarkHidden("format")
	}
}

// CheckFormat is the usage error for an unknown --format or for --json
// with another --format; name is the command's, as its errors begin.
func CheckFormat(cmd *cobra.Command, name string) error {
	ff := cmd.Flags().Lookup("format")
	fv := ff.Value.(*formatValue)
	if !slices.Contains(fv.formats, fv.given) && ff.Changed {
		return Usagef("%s: --format %q: want %s", name, fv.given, orList(fv.formats))
	}
	if jf := cmd.Flags().Lookup("json"); jf.Changed && ff.Changed && fv.given != "json" && jf.Value.String() == "true" {
		return Usagef("%s: --json and --format %s: give one", name, fv.given)
	}
	return nil
}

// formatValue is --format: what was given, and the format in effect.
type formatValue struct {
	format  *string
	formats []string
	given   string
}

func (v *formatValue) String() string {
	if v.format == nil {
		return ""
	}
	return *v.format
}
func (v *formatValue) Set(s string) error { v.given, *v.format = s, s; return nil }
func (v *formatValue) Type() string       { return "string" }

// jsonValue is --json beside --format: true sets the format to json.
type jsonValue struct {
	format *string
	set    bool
}

func (v *jsonValue) String() string { return map[bool]string{true: "true", false: "false"}[v.set] }
func (v *jsonValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	v.set = b
	if b {
		*v.format = "json"
	}
	return nil
}
func (v *jsonValue) Type() string     { return "bool" }
func (v *jsonValue) IsBoolFlag() bool { return true }

// orList is "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// RunOr ends a command's RunE once its flags are checked: runF when one
// was given (tests check flag parsing through it), else run, the
// command's own xRun, with the command's context.
func RunOr[O any](cmd *cobra.Command, opts *O, runF, run func(context.Context, *O) error) error {
	if runF != nil {
		return runF(cmd.Context(), opts)
	}
	return run(cmd.Context(), opts)
}
