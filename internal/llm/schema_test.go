package llm_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/llm"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// Golden covers every construct SchemaFor knows.
type Golden struct {
	Common
	Name     string    `json:"name" desc:"The activity's name."`
	Days     int       `json:"days"`
	Lag      float64   `json:"lag,omitempty"`
	Critical bool      `json:"critical"`
	Type     string    `json:"type" enum:"FS,SS,FF,SF"`
	Kind     *string   `json:"kind" enum:"task,milestone" desc:"Null when unknown."`
	Tags     []string  `json:"tags" enum:"floor,zone"`
	Links    []Link    `json:"links"`
	Parent   *Activity `json:"parent"`
	Count    *int      `json:"count"`
	Due      time.Time `json:"due"`
	Matrix   [][]int   `json:"matrix"`
	Ignored  string    `json:"-"`
	Untagged string
	hidden   string //nolint:unused // unexported fields are not part of the schema
}

type Common struct {
	ID string `json:"id" desc:"Kept as given."`
}

func TestSchemaForGolden(t *testing.T) {
	got, err := json.MarshalIndent(llm.SchemaFor[Golden](), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "schema.golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("SchemaFor[Golden] differs from %s (go test -update to accept):\n%s", path, got)
	}
	if names := llm.SchemaFor[Golden]()["required"].([]string); names[0] != "id" || names[len(names)-1] != "Untagged" {
		t.Errorf("required %v: want declaration order, embedded fields first", names)
	}
}

func TestSchemaForScalars(t *testing.T) {
	tests := []struct {
		got  map[string]any
		want string
	}{
		{llm.SchemaFor[string](), `{"type":"string"}`},
		{llm.SchemaFor[int64](), `{"type":"integer"}`},
		{llm.SchemaFor[float32](), `{"type":"number"}`},
		{llm.SchemaFor[*bool](), `{"type":["boolean","null"]}`},
		{llm.SchemaFor[[]byte](), `{"type":"string"}`},
		{llm.SchemaFor[[]*string](), `{"items":{"type":["string","null"]},"type":"array"}`},
		{llm.SchemaFor[struct {
			N int `json:"n,string"`
		}](), `{"additionalProperties":false,"properties":{"n":{"type":"string"}},"required":["n"],"type":"object"}`},
	}
	for _, tt := range tests {
		if b, _ := json.Marshal(tt.got); string(b) != tt.want {
			t.Errorf("got %s, want %s", b, tt.want)
		}
	}
}

type recursive struct {
	Children []recursive `json:"children"`
}

type withMarshaler struct {
	Raw json.RawMessage `json:"raw"`
}

func TestSchemaForPanicsOnUnsupported(t *testing.T) {
	tests := map[string]func(){
		"map":       func() { llm.SchemaFor[map[string]int]() },
		"interface": func() { llm.SchemaFor[struct{ X any }]() },
		"recursive": func() { llm.SchemaFor[recursive]() },
		"marshaler": func() { llm.SchemaFor[withMarshaler]() },
		"enum int": func() {
			llm.SchemaFor[struct {
				N int `enum:"1,2"`
			}]()
		},
	}
	for name, f := range tests {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "llm.SchemaFor") {
					t.Errorf("panic %v", r)
				}
			}()
			f()
		})
	}
}

func TestToolFor(t *testing.T) {
	tool := llm.ToolFor[AddActivityArgs]("add_activity", "Add an activity.")
	if tool.Name != "add_activity" || tool.Description != "Add an activity." || !reflect.DeepEqual(tool.Parameters, llm.SchemaFor[AddActivityArgs]()) {
		t.Errorf("%+v", tool)
	}
}

func TestValidate(t *testing.T) {
	plan := llm.SchemaFor[Plan]()
	golden := llm.SchemaFor[Golden]()
	handWritten := map[string]any{}
	if err := json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {
			"n": {"type": "integer", "minimum": 1, "maximum": 10},
			"mode": {"anyOf": [{"const": "auto"}, {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2}]},
			"kind": {"enum": ["a", 2, null]}
		},
		"required": ["n"]
	}`), &handWritten); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		schema map[string]any
		doc    string
		want   string // "" for valid
	}{
		{"valid plan", plan, `{"summary":"s","activities":[],"links":[{"type":"SS","predecessor":"a","successor":"b","lag":-1.5}],"question":"which floor?"}`, ""},
		{"null for nullable", plan, `{"summary":"s","activities":[],"links":[],"question":null}`, ""},
		{"wrong enum", plan, `{"summary":"s","activities":[],"links":[{"type":"SS","predecessor":"a","successor":"b","lag":0},{"type":"FS","predecessor":"a","successor":"b","lag":0},{"type":"XX","predecessor":"a","successor":"b","lag":0}],"question":null}`, `links[2].type: "XX" is not one of FS, SS, FF, SF`},
		{"missing", plan, `{"summary":"s","activities":[],"links":[]}`, `missing required property "question"`},
		{"extra", plan, `{"summary":"s","activities":[],"links":[],"question":null,"zeta":1,"alpha":2}`, `unknown property "alpha"; unknown property "zeta"`},
		{"null not allowed", plan, `{"summary":null,"activities":[],"links":[],"question":null}`, `summary: expected string, got null`},
		{"number for string", plan, `{"summary":"s","activities":[{"name":"a","duration":5,"milestone":false}],"links":[],"question":null}`, `activities[0].duration: expected string, got 5`},
		{"not an object", plan, `[1,2]`, `expected object, got an array`},
		{"not JSON", plan, `{"summary":`, `not JSON: unexpected end of input`},
		{"empty", plan, ``, `not JSON: empty`},
		{"trailing text", plan, `{} and more`, `not JSON: text after the JSON value`},
		{"integer", golden, goldenDoc(`"days": 2.5`), `days: expected integer, got 2.5`},
		{"integer too big", golden, goldenDoc(`"days": 99999999999999999999`), `days: expected integer, got 99999999999999999999`},
		{"integer ok", golden, goldenDoc(`"days": -3`), ""},
		{"nullable enum null", golden, goldenDoc(`"kind": null`), ""},
		{"nullable enum wrong", golden, goldenDoc(`"kind": "epic"`), `kind: "epic" is not one of task, milestone, null`},
		{"array enum", golden, goldenDoc(`"tags": ["floor", "roof"]`), `tags[1]: "roof" is not one of floor, zone`},
		{"date-time", golden, goldenDoc(`"due": "next tuesday"`), `due: "next tuesday" is not an RFC 3339 date-time`},
		{"nested nullable object", golden, goldenDoc(`"parent": {"name": "x", "duration": "1", "milestone": "no"}`), `parent.milestone: expected boolean, got "no"`},
		{"nested arrays", golden, goldenDoc(`"matrix": [[1], [2, "3"]]`), `matrix[1][1]: expected integer, got "3"`},
		{"odd property name", map[string]any{"type": "object", "properties": map[string]any{"a b": map[string]any{"type": "string"}}}, `{"a b": 1}`, `["a b"]: expected string, got 1`},
		{"open object", handWritten, `{"n": 3, "other": true}`, ""},
		{"minimum", handWritten, `{"n": 0}`, `n: 0 is less than the minimum 1`},
		{"maximum", handWritten, `{"n": 11}`, `n: 11 is more than the maximum 10`},
		{"anyOf const", handWritten, `{"n": 1, "mode": "auto"}`, ""},
		{"anyOf array", handWritten, `{"n": 1, "mode": ["a"]}`, ""},
		{"anyOf neither", handWritten, `{"n": 1, "mode": ["a", "b", "c"]}`, `mode: 3 items, want at most 2`},
		{"enum mixed", handWritten, `{"n": 1, "kind": 2}`, ""},
		{"enum mixed wrong", handWritten, `{"n": 1, "kind": "b"}`, `kind: "b" is not one of a, 2, null`},
		{"many problems", plan, `{"summary":1,"activities":[1,2,3,4,5,6,7,8,9,10,11,12],"links":[],"question":null}`, `and 3 more`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := llm.Validate(tt.schema, []byte(tt.doc))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want valid", err)
			case tt.want != "" && err == nil:
				t.Errorf("valid, want %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

// goldenDoc is a valid Golden document with one property replaced.
func goldenDoc(replace string) string {
	fields := map[string]string{
		"id": `"A1"`, "name": `"Excavate"`, "days": `5`, "lag": `0`, "critical": `true`, "type": `"FS"`,
		"kind": `"task"`, "tags": `[]`, "links": `[]`, "parent": `null`, "count": `null`,
		"due": `"2026-01-05T08:00:00Z"`, "matrix": `[]`, "Untagged": `""`,
	}
	name, value, _ := strings.Cut(replace, ":")
	fields[strings.Trim(name, `" `)] = strings.TrimSpace(value)
	var b strings.Builder
	b.WriteString("{")
	first := true
	for k, v := range fields {
		if !first {
			b.WriteString(",")
		}
		first = false
		b.WriteString(`"` + k + `":` + v)
	}
	b.WriteString("}")
	return b.String()
}

func TestValidateGoldenDoc(t *testing.T) {
	if err := llm.Validate(llm.SchemaFor[Golden](), []byte(goldenDoc(`"id": "A1"`))); err != nil {
		t.Fatal(err)
	}
}

func FuzzValidate(f *testing.F) {
	for _, seed := range []string{
		`{"summary":"s","activities":[{"name":"a","duration":"5","milestone":false}],"links":[{"type":"FS","predecessor":"a","successor":"b","lag":1}],"question":null}`,
		`{"summary":"s","activities":[],"links":[{"type":"XX"}],"extra":1}`,
		`{"summary":`,
		`[1, "2", null, true, {"a": []}]`,
		`"just a string"`,
		`{"links": [{"lag": 1e999}], "question": 12345678901234567890}`,
		"",
	} {
		f.Add([]byte(seed))
	}
	schemas := []map[string]any{llm.SchemaFor[Plan](), llm.SchemaFor[Golden]()}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range schemas {
			_ = llm.Validate(s, data)
		}
		// A document Validate accepts must decode into the type: that is
		// what ParseStructured relies on.
		if llm.Validate(schemas[0], data) == nil {
			var p Plan
			if err := json.Unmarshal(data, &p); err != nil {
				t.Errorf("valid %q does not decode: %v", data, err)
			}
		}
	})
}
