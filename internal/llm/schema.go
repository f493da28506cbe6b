package llm

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// SchemaFor returns the JSON schema of T's JSON encoding in the form OpenAI's
// strict mode accepts: every object lists all its properties as required and
// forbids others (additionalProperties false); a pointer makes a value
// nullable, which is how strict mode spells "optional".
//
// Supported: structs (json tags honoured, embedded structs flattened), string,
// bool, integers, floats, slices and arrays, pointers, time.Time (a date-time
// string) and types that marshal as text. Struct tags add detail:
// `enum:"FS,SS,FF,SF"` restricts a string (or []string) to those values and
// `desc:"..."` becomes the property's description.
//
// Maps, interfaces, channels, funcs, recursive types and types with their
// own MarshalJSON have no strict schema: SchemaFor panics on them, as the
// type is a programming error, not a runtime condition.
func SchemaFor[T any]() map[string]any {
	t := reflect.TypeFor[T]()
	s, err := schemaOf(t, nil)
	if err != nil {
		panic(fmt.Sprintf("llm.SchemaFor[%v]: %v", t, err))
	}
	return s
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// schemaOf builds the schema of t; seen holds the struct types being built,
// to refuse recursion.
func schemaOf(t reflect.Type, seen []reflect.Type) (map[string]any, error) {
	if t.Kind() == reflect.Pointer {
		s, err := schemaOf(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		return nullable(s), nil
	}
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}, nil
	case t.Implements(jsonMarshalerType) || reflect.PointerTo(t).Implements(jsonMarshalerType):
		return nil, fmt.Errorf("%v has its own MarshalJSON: its JSON shape is unknown", t)
	case t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType):
		return map[string]any{"type": "string"}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return map[string]any{"type": "string"}, nil // base64, as encoding/json writes []byte
		}
		items, err := schemaOf(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": items}, nil
	case reflect.Struct:
		for _, s := range seen {
			if s == t {
				return nil, fmt.Errorf("recursive type %v", t)
			}
		}
		return structSchema(t, append(seen, t))
	}
	return nil, fmt.Errorf("%v (%v) has no strict JSON schema", t, t.Kind())
}

func structSchema(t reflect.Type, seen []reflect.Type) (map[string]any, error) {
	props := map[string]any{}
	required := []string{}
	if err := addFields(t, seen, props, &required); err != nil {
		return nil, err
	}
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}, nil
}

// addFields adds t's JSON fields to props in declaration order, flattening
// embedded structs the way encoding/json does (outer names win).
func addFields(t reflect.Type, seen []reflect.Type, props map[string]any, required *[]string) error {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" && opts == "" {
			continue
		}
		if f.Anonymous && !hasTag {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if err := addFields(ft, seen, props, required); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		s, err := schemaOf(f.Type, seen)
		if err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		if strings.Contains(","+opts+",", ",string,") && isScalar(s) {
			s = withType(s, "string")
		}
		if enum := f.Tag.Get("enum"); enum != "" {
			if s, err = withEnum(s, strings.Split(enum, ",")); err != nil {
				return fmt.Errorf("field %s: %w", f.Name, err)
			}
		}
		if desc := f.Tag.Get("desc"); desc != "" {
			s["description"] = desc
		}
		if _, dup := props[name]; !dup {
			*required = append(*required, name)
		}
		props[name] = s
	}
	return nil
}

func isScalar(s map[string]any) bool {
	switch typeNames(s["type"])[0] {
	case "integer", "number", "boolean", "string":
		return true
	}
	return false
}

// withType replaces s's (first) type, keeping nullability.
func withType(s map[string]any, typ string) map[string]any {
	if ts := typeNames(s["type"]); len(ts) == 2 {
		s["type"] = []string{typ, "null"}
	} else {
		s["type"] = typ
	}
	return s
}

// withEnum restricts a string schema, or the items of a string array, to values.
func withEnum(s map[string]any, values []string) (map[string]any, error) {
	for i := range values {
		values[i] = strings.TrimSpace(values[i])
	}
	types := typeNames(s["type"])
	switch types[0] {
	case "string":
		enum := make([]any, 0, len(values)+1)
		for _, v := range values {
			enum = append(enum, v)
		}
		if len(types) == 2 {
			enum = append(enum, nil) // a nullable enum must list null
		}
		s["enum"] = enum
		return s, nil
	case "array":
		items, err := withEnum(s["items"].(map[string]any), values)
		s["items"] = items
		return s, err
	}
	return nil, fmt.Errorf("enum tag on a %s, want a string", types[0])
}

func nullable(s map[string]any) map[string]any {
	types := typeNames(s["type"])
	if len(types) == 2 {
		return s // **T is as nullable as *T
	}
	s["type"] = []string{types[0], "null"}
	if enum, ok := s["enum"].([]any); ok {
		s["enum"] = append(enum, nil)
	}
	return s
}

// typeNames reads a schema's "type": a string, or a list from SchemaFor
// ([]string) or from decoded JSON ([]any).
func typeNames(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []string:
		return v
	case []any:
		if out := stringSlice(v); len(out) > 0 {
			return out
		}
	}
	return []string{""}
}
