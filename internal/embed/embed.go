// Package embed holds the Embedder port — texts in, vectors out — and Local,
// a deterministic feature-hashing embedder that needs no network. The
// OpenAI adapter is its own package (openaiembed), so what only normalises
// or embeds locally (lang, and through it the file-only commands) does not
// link the OpenAI SDK.
//
// It also owns the texts that get embedded (ActivityText, RelationshipText),
// so every store embeds the same words the same way: the seed design embeds
// an activity's name, description and duration, and a relationship's two
// ends plus its type and lag. Ids and node pointers are never embedded.
package embed

import (
	"context"
	"slices"
	"strconv"
	"strings"
)

// Embedder turns texts into vectors of a fixed dimension.
//
// Implementations return one vector per text, in the order of texts, each of
// length Dimensions() and of unit length (so a dot product is the cosine),
// or all zeros for a text with nothing to embed. They are safe for
// concurrent use.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dimensions() int
	// Name identifies the model, e.g. "local-v1" or
	// "openai:text-embedding-3-small". Stores keep it (with Dimensions) next
	// to their vectors: vectors from different models are not comparable,
	// so a mismatch means re-embedding, not searching.
	Name() string
}

// ActivityText is the text embedded for an activity: its name, description
// and duration as one readable paragraph, e.g.
//
//	Pour slab Level 2. Concrete pour and curing of the slab on Level 2 by the
//	concrete subcontractor. Duration: 1 working day.
//
// The duration is the schedule's own string ("5", "pert(4,6,10)"); an empty
// description or duration is left out.
func ActivityText(name, description, duration string) string {
	var b strings.Builder
	sentence(&b, name)
	sentence(&b, description)
	if d := strings.TrimSpace(duration); d != "" {
		unit := "working days"
		if d == "1" {
			unit = "working day"
		}
		sentence(&b, "Duration: "+d+" "+unit)
	}
	return b.String()
}

// FiledActivityText is ActivityText followed by where the activity is
// filed: its WBS path and its activity codes (code type and value, by
// type), so a search for "Block A" or "Area: North" finds it, e.g.
//
//	Pour slab Level 2. Duration: 1 working day. WBS: Site/Block A.
//	Codes: Area North; Phase 2.
//
// With no WBS and no codes it is ActivityText byte for byte, so the
// vectors of activities stored before WBS and codes existed stay valid.
func FiledActivityText(name, description, duration, wbs string, codes map[string]string) string {
	text := ActivityText(name, description, duration)
	if strings.TrimSpace(wbs) == "" && len(codes) == 0 {
		return text
	}
	var b strings.Builder
	b.WriteString(text)
	if w := strings.TrimSpace(wbs); w != "" {
		sentence(&b, "WBS: "+w)
	}
	if len(codes) > 0 {
		types := make([]string, 0, len(codes))
		for t := range codes {
			types = append(types, t)
		}
		slices.Sort(types) // map order is random; the text must not be
		pairs := make([]string, len(types))
		for i, t := range types {
			pairs[i] = strings.TrimSpace(t + " " + codes[t])
		}
		sentence(&b, "Codes: "+strings.Join(pairs, "; "))
	}
	return b.String()
}

// RelationshipText is the text embedded for a relationship: its type spelled
// out, its lag, and both ends as ActivityText, e.g.
//
//	FS (finish-to-start) relationship, lag 2 working days: from "Pour slab
//	Level 2. ... Duration: 1 working day." to "Strip formwork ..."
//
// A negative lag is a lead and reads as one; an unknown type is kept as given.
func RelationshipText(relType string, lag float64, predName, predDescription, predDuration, succName, succDescription, succDuration string) string {
	typ := strings.ToUpper(strings.TrimSpace(relType))
	var b strings.Builder
	if typ != "" {
		b.WriteString(typ + " ")
	}
	if long, ok := relTypeNames[typ]; ok {
		b.WriteString("(" + long + ") ")
	}
	b.WriteString("relationship, ")
	b.WriteString(lagText(lag))
	b.WriteString(`: from "`)
	b.WriteString(ActivityText(predName, predDescription, predDuration))
	b.WriteString(`" to "`)
	b.WriteString(ActivityText(succName, succDescription, succDuration))
	b.WriteByte('"')
	return b.String()
}

// relTypeNames spells the four CPM link types out, because planners search
// with the words ("start-to-start") as often as with the letters ("SS").
var relTypeNames = map[string]string{
	"FS": "finish-to-start",
	"SS": "start-to-start",
	"FF": "finish-to-finish",
	"SF": "start-to-finish",
}

func lagText(lag float64) string {
	switch {
	case lag == 0:
		return "no lag"
	case lag < 0:
		return "lead " + days(-lag)
	default:
		return "lag " + days(lag)
	}
}

func days(n float64) string {
	s := strconv.FormatFloat(n, 'f', -1, 64)
	if n == 1 {
		return s + " working day"
	}
	return s + " working days"
}

// sentence appends s as a sentence: trimmed, separated by a space, and
// ended with a full stop unless it already ends with punctuation.
func sentence(b *strings.Builder, s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(s)
	switch s[len(s)-1] {
	case '.', '!', '?':
	default:
		b.WriteByte('.')
	}
}
