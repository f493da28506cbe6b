package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Validate checks the JSON document data against schema, which is a schema
// in the subset SchemaFor emits — type (a name or a list of names),
// properties, required, additionalProperties (true or false), items, enum,
// format date-time — plus const, anyOf, minimum, maximum, minItems and
// maxItems, for hand-written tool schemas; other keywords are ignored. A
// violation is a *ValidationError naming the path of each problem, e.g.
// `links[2].type: "XX" is not one of FS, SS, FF, SF`.
func Validate(schema map[string]any, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return &ValidationError{Problems: []Problem{{Message: "not JSON: " + jsonErrorText(err)}}}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &ValidationError{Problems: []Problem{{Message: "not JSON: text after the JSON value"}}}
	}
	v := validator{}
	v.check(schema, doc, "")
	if len(v.problems) == 0 {
		return nil
	}
	return &ValidationError{Problems: v.problems, More: v.more}
}

func jsonErrorText(err error) string {
	if errors.Is(err, io.EOF) {
		return "empty"
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of input"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// ValidationError lists how a document violates a schema.
type ValidationError struct {
	Problems []Problem
	More     int // problems found beyond those listed
}

// Problem is one violation: where in the document, and what.
type Problem struct {
	Path    string // e.g. "links[2].type"; empty for the document itself
	Message string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	s := strings.Join(parts, "; ")
	if e.More > 0 {
		s += fmt.Sprintf("; and %d more", e.More)
	}
	return s
}

// maxProblems bounds a report: enough to fix a reply, short enough to
// show the model.
const maxProblems = 10

type validator struct {
	problems []Problem
	more     int
}

func (v *validator) fail(path, format string, args ...any) {
	if len(v.problems) >= maxProblems {
		v.more++
		return
	}
	v.problems = append(v.problems, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (v *validator) check(schema map[string]any, doc any, path string) {
	if len(schema) == 0 {
		return
	}
	if branches, ok := schema["anyOf"].([]any); ok && !v.anyOf(branches, doc, path) {
		return
	}
	if c, ok := schema["const"]; ok && !jsonEqual(c, doc) {
		v.fail(path, "%s is not %s", show(doc), show(c))
		return
	}
	if t, ok := schema["type"]; ok {
		types := typeNames(t)
		if !slices.ContainsFunc(types, func(name string) bool { return hasType(name, doc) }) {
			v.fail(path, "expected %s, got %s", strings.Join(types, " or "), show(doc))
			return
		}
	}
	if enum, ok := schema["enum"]; ok {
		values := anySlice(enum)
		if !slices.ContainsFunc(values, func(e any) bool { return jsonEqual(e, doc) }) {
			v.fail(path, "%s is not one of %s", show(doc), listValues(values))
			return
		}
	}
	switch doc := doc.(type) {
	case map[string]any:
		v.object(schema, doc, path)
	case []any:
		v.array(schema, doc, path)
	case string:
		if schema["format"] == "date-time" {
			if _, err := time.Parse(time.RFC3339, doc); err != nil {
				v.fail(path, "%s is not an RFC 3339 date-time", show(doc))
			}
		}
	case json.Number:
		f, _ := doc.Float64()
		if lo, ok := number(schema["minimum"]); ok && f < lo {
			v.fail(path, "%s is less than the minimum %v", doc, lo)
		}
		if hi, ok := number(schema["maximum"]); ok && f > hi {
			v.fail(path, "%s is more than the maximum %v", doc, hi)
		}
	}
}

// anyOf reports whether doc matches a branch; if none, it records the
// problems of the branch that came closest: one of doc's type if any, then
// the one with the fewest problems.
func (v *validator) anyOf(branches []any, doc any, path string) bool {
	var best *validator
	bestShallow := true
	for _, b := range branches {
		bs, _ := b.(map[string]any)
		try := validator{}
		try.check(bs, doc, path)
		if len(try.problems) == 0 {
			return true
		}
		shallow := !sameKind(bs, doc)
		if best == nil || (bestShallow && !shallow) || (shallow == bestShallow && len(try.problems) < len(best.problems)) {
			best, bestShallow = &try, shallow
		}
	}
	if best == nil {
		return true
	}
	for _, p := range best.problems {
		v.fail(p.Path, "%s", p.Message)
	}
	return false
}

// sameKind reports whether doc is of a type schema allows, ignoring
// everything else.
func sameKind(schema map[string]any, doc any) bool {
	if c, ok := schema["const"]; ok {
		return jsonEqual(c, doc)
	}
	t, ok := schema["type"]
	return !ok || slices.ContainsFunc(typeNames(t), func(name string) bool { return hasType(name, doc) })
}

func (v *validator) object(schema map[string]any, doc map[string]any, path string) {
	props, _ := schema["properties"].(map[string]any)
	required := stringSlice(schema["required"])
	for _, name := range required {
		if _, ok := doc[name]; !ok {
			v.fail(path, "missing required property %q", name)
		}
	}
	closed := schema["additionalProperties"] == false
	for _, name := range orderedKeys(doc, required) {
		ps, known := props[name]
		if !known {
			if closed {
				v.fail(path, "unknown property %q", name)
			}
			continue
		}
		sub, _ := ps.(map[string]any)
		v.check(sub, doc[name], joinPath(path, name))
	}
}

func (v *validator) array(schema map[string]any, doc []any, path string) {
	if n, ok := number(schema["minItems"]); ok && float64(len(doc)) < n {
		v.fail(path, "%d items, want at least %v", len(doc), n)
	}
	if n, ok := number(schema["maxItems"]); ok && float64(len(doc)) > n {
		v.fail(path, "%d items, want at most %v", len(doc), n)
	}
	items, ok := schema["items"].(map[string]any)
	if !ok {
		return
	}
	for i, e := range doc {
		v.check(items, e, fmt.Sprintf("%s[%d]", path, i))
	}
}

// orderedKeys lists doc's keys in schema order (required), then the rest
// sorted, so reports are stable.
func orderedKeys(doc map[string]any, required []string) []string {
	keys := make([]string, 0, len(doc))
	for _, name := range required {
		if _, ok := doc[name]; ok {
			keys = append(keys, name)
		}
	}
	var rest []string
	for k := range doc {
		if !slices.Contains(required, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(keys, rest...)
}

func joinPath(path, name string) string {
	if !isIdentifier(name) {
		name = strconv.Quote(name)
		if path == "" {
			return "[" + name + "]"
		}
		return path + "[" + name + "]"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func hasType(name string, doc any) bool {
	switch doc := doc.(type) {
	case nil:
		return name == "null"
	case bool:
		return name == "boolean"
	case string:
		return name == "string"
	case []any:
		return name == "array"
	case map[string]any:
		return name == "object"
	case json.Number:
		switch name {
		case "number":
			f, err := doc.Float64()
			return err == nil && !math.IsInf(f, 0)
		case "integer":
			// A literal integer that fits in 64 bits: what decoding into a
			// Go integer accepts (1.0 and 1e3 are not).
			_, err := strconv.ParseInt(string(doc), 10, 64)
			return err == nil
		}
	}
	return false
}

// jsonEqual compares JSON values by their encoding: numbers from Go
// schemas (int, float64) and from documents (json.Number) alike.
func jsonEqual(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

func show(doc any) string {
	switch doc := doc.(type) {
	case nil:
		return "null"
	case string:
		if len(doc) > 40 {
			doc = doc[:37] + "..."
		}
		return strconv.Quote(doc)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case json.Number:
		return string(doc)
	}
	return fmt.Sprint(doc)
}

func listValues(values []any) string {
	parts := make([]string, len(values))
	for i, e := range values {
		if s, ok := e.(string); ok {
			parts[i] = s
		} else {
			parts[i] = show(e)
		}
	}
	return strings.Join(parts, ", ")
}

func anySlice(v any) []any {
	switch v := v.(type) {
	case []any:
		return v
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out
	}
	return nil
}

// stringSlice is the strings of a []string, or of a list decoded from
// JSON (what is not a string left out).
func stringSlice(v any) []string {
	switch v := v.(type) {
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func number(v any) (float64, bool) {
	switch v := v.(type) {
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case float64:
		return v, true
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	}
	return 0, false
}
