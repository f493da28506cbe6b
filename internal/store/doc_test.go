package store_test

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// An activity without WBS or codes has the document, embedded text and
// keyword text it had before they existed; with them, both texts hold them.
func TestActivityDocText(t *testing.T) {
	plain := schedule.Activity{ID: "A", Name: "Pour slab", Description: "Level 2", Duration: "1"}
	filed := plain
	filed.WBS, filed.Codes = "Site/Block A", map[string]string{"Area": "North"}
	for _, tc := range []struct {
		name          string
		a             schedule.Activity
		text, keyword string
	}{
		{"plain", plain, embed.ActivityText("Pour slab", "Level 2", "1"), "Pour slab Level 2"},
		{"filed", filed, "Pour slab. Level 2. Duration: 1 working day. WBS: Site/Block A. Codes: Area North.", "Pour slab Level 2 Site/Block A Area North"},
	} {
		doc := store.DocOf(tc.a)
		if got := doc.Text(); got != tc.text {
			t.Errorf("%s: text %q, want %q", tc.name, got, tc.text)
		}
		if got := doc.KeywordText(); got != tc.keyword {
			t.Errorf("%s: keyword text %q, want %q", tc.name, got, tc.keyword)
		}
		if !doc.SameText(store.DocOf(tc.a.Clone())) {
			t.Errorf("%s: a document differs from its copy's", tc.name)
		}
	}
	if store.DocOf(plain).SameText(store.DocOf(filed)) {
		t.Error("documents differing in WBS and codes compare the same")
	}
}
