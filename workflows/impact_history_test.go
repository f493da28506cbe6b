package workflows_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// Every impact recorded in a history (the ComputeImpact results, and the
// statuses and proposals that carry them) decodes into Impact with no field
// left over, and encodes back to the same JSON: the payload moved from
// activities (with a render diff) to the domain without changing shape.
func TestRecordedImpactsDecode(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "histories", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	data := regexp.MustCompile(`"data":\s*"([A-Za-z0-9+/=]+)"`)
	seen := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range data.FindAllSubmatch(raw, -1) {
			payload, err := base64.StdEncoding.DecodeString(string(m[1]))
			if err != nil || !bytes.HasPrefix(payload, []byte(`{"finish_before"`)) {
				continue
			}
			seen++
			dec := json.NewDecoder(bytes.NewReader(payload))
			dec.DisallowUnknownFields()
			var imp workflows.Impact
			if err := dec.Decode(&imp); err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			again, err := json.Marshal(imp)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(payload, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(again, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: impact re-encodes as\n%s\nrecorded\n%s", file, again, payload)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no recorded impact found")
	}
	t.Logf("%d recorded impacts", seen)
}
