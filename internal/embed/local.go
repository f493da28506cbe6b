package embed

import (
	"context"
	"math"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
)

// DefaultLocalDimensions is the size of Local's vectors when NewLocal is
// given 0: the size of the small sentence-embedding models, cheap to store.
// An activity's text has a couple of hundred features, so some share a
// bucket; probes keeps that from costing a word its weight.
const DefaultLocalDimensions = 384

// localName versions Local's algorithm. Vectors made by different versions
// are not comparable, so any change to Normalize, the features, their
// weights or the hashing must bump it: stores then see the mismatch and
// re-embed instead of searching stale vectors.
const localName = "local-v1"

// Feature weights. A level is what planners filter by ("level 3 drywall"),
// so its token outweighs three ordinary words. An umbrella tag ("fit_out"
// for painting) weighs less than the trade word itself, so "level 2
// painting" still prefers painting to tiling. Bigrams carry phrases
// ("curtain wall", "fire alarm"); character trigrams catch spelling variants
// ("plaster", "plasterboard") without drowning the words. Tuned on
// testdata/relevance.json, and checked on other queries and other
// dimensions, where a wide band of values does as well.
const (
	wordWeight   = 1.0
	levelWeight  = 3.0
	tagWeight    = 0.75
	bigramWeight = 0.25
	charWeight   = 0.15
)

// Each feature is added to probes buckets, each with its own sign, scaled
// so that a feature shared by two texts still adds its full weight to their
// dot product. With one bucket, a collision with an opposite-signed feature
// can erase a key word (at 384 dimensions "BMS" collided with "control"
// and BMS commissioning fell out of the top 10 for "BMS"); with two, a
// collision costs half of it.
const probes = 2

var probeScale = float32(1 / math.Sqrt(probes))

// probeSalt derives a feature's next probe from its hash.
const probeSalt = 0x9e3779b97f4a7c15

// umbrellas tag a canonical trade token with its umbrella terms (see
// lexicon.Umbrellas). A tag is hashed like the word itself.
var umbrellas = lexicon.Invert(lexicon.Umbrellas)

// Local is a deterministic embedder that needs no model and no network:
// feature hashing of Normalize's tokens, their bigrams and their character
// trigrams, with sublinear term frequency, into an L2-normalised vector.
//
// It is lexical, not semantic: it knows the synonyms Normalize and
// umbrellas list and nothing else. It exists so that the product works
// offline and tests are reproducible; configure OpenAI for real semantics.
// A Local is safe for concurrent use.
type Local struct {
	dims int
}

var _ Embedder = (*Local)(nil)

// NewLocal returns a local embedder making vectors of dims dimensions, or
// DefaultLocalDimensions when dims is 0 or less.
func NewLocal(dims int) *Local {
	if dims <= 0 {
		dims = DefaultLocalDimensions
	}
	return &Local{dims: dims}
}

// Name reports "local-v1".
func (l *Local) Name() string { return localName }

// Dimensions reports the length of every vector.
func (l *Local) Dimensions() int { return l.dims }

// Embed returns one unit vector per text. A text without any token (empty,
// or only stop words and punctuation) gets the zero vector, whose cosine
// with anything is taken to be 0.
func (l *Local) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	backing := make([]float32, len(texts)*l.dims) // one allocation for all vectors
	var x extractor
	for i, text := range texts {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		v := backing[i*l.dims : (i+1)*l.dims : (i+1)*l.dims]
		x.embed(text, v)
		out[i] = v
	}
	return out, nil
}

// count is a feature's occurrences in one text and their summed weight.
type count struct {
	hash   uint64
	weight float32
	n      float32 // 0: the slot is free
}

// extractor holds buffers reused from one text to the next: an
// open-addressing table that counts features (sorting them was half the
// time), the table slots in first-use order, and rune offsets.
type extractor struct {
	slots  []count
	used   []int
	starts []int
}

func (x *extractor) embed(text string, v []float32) {
	toks := Normalize(text)
	for i, t := range toks {
		w := float32(wordWeight)
		if strings.HasPrefix(t, "level_") {
			w = levelWeight
		}
		x.add(hashWord(t), w)
		for _, tag := range umbrellas[t] {
			x.add(hashWord(tag), tagWeight)
		}
		if i > 0 {
			x.add(hashBigram(toks[i-1], t), bigramWeight)
		}
		if isLetters(t) {
			x.charGrams(t)
		}
	}
	dims := uint64(len(v))
	for _, i := range x.used {
		c := x.slots[i]
		x.slots[i] = count{}
		// Sublinear TF: the third "Level 2" in a text adds less than the
		// first, so long descriptions do not outvote names.
		val := c.weight
		if c.n > 1 {
			val = c.weight / c.n * (1 + float32(math.Log(float64(c.n))))
		}
		val *= probeScale
		// The sign bit makes collisions cancel on average instead of
		// adding up.
		h := c.hash
		for p := 0; p < probes; p++ {
			if h>>63 != 0 {
				v[h%dims] -= val
			} else {
				v[h%dims] += val
			}
			h = mix(h + probeSalt)
		}
	}
	x.used = x.used[:0]
	var norm float64
	for _, f := range v {
		norm += float64(f) * float64(f)
	}
	if norm == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(norm))
	for i := range v {
		v[i] *= inv
	}
}

func (x *extractor) add(h uint64, w float32) {
	if 2*(len(x.used)+1) > len(x.slots) {
		x.grow()
	}
	mask := uint64(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		c := &x.slots[i]
		switch {
		case c.n == 0:
			*c = count{hash: h, weight: w, n: 1}
			x.used = append(x.used, int(i))
			return
		case c.hash == h:
			c.weight += w
			c.n++
			return
		}
	}
}

// grow doubles the table, keeping the counts and their first-use order.
func (x *extractor) grow() {
	old, used := x.slots, x.used
	x.slots = make([]count, max(256, 2*len(old)))
	x.used = make([]int, 0, len(x.slots)/2)
	mask := uint64(len(x.slots) - 1)
	for _, i := range used {
		c := old[i]
		j := c.hash & mask
		for x.slots[j].n != 0 {
			j = (j + 1) & mask
		}
		x.slots[j] = c
		x.used = append(x.used, int(j))
	}
}

// charGrams adds the character trigrams of t with boundary markers:
// "wall" gives "#wa", "wal", "all", "ll#".
func (x *extractor) charGrams(t string) {
	x.starts = x.starts[:0]
	for i := range t {
		x.starts = append(x.starts, i)
	}
	n := len(x.starts)
	// Positions -1 and n are the markers; gram k covers positions k-1..k+1.
	for k := 0; k < n; k++ {
		h := uint64(fnvOffset)
		h = fnvByte(h, 'c')
		if k == 0 {
			h = fnvByte(h, '#')
		} else {
			h = fnvString(h, t[x.starts[k-1]:x.starts[k]])
		}
		end := len(t)
		if k+1 < n {
			end = x.starts[k+1]
		}
		h = fnvString(h, t[x.starts[k]:end])
		if k+1 < n {
			next := len(t)
			if k+2 < n {
				next = x.starts[k+2]
			}
			h = fnvString(h, t[x.starts[k+1]:next])
		} else {
			h = fnvByte(h, '#')
		}
		x.add(mix(h), charWeight)
	}
}

// FNV-1a, 64 bits, over a namespace byte and the feature's text, then a
// finaliser so that h % dims and the sign bit are well mixed.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvByte(h uint64, c byte) uint64 { return (h ^ uint64(c)) * fnvPrime }

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// mix is splitmix64's finaliser.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

func hashWord(t string) uint64 {
	return mix(fnvString(fnvByte(fnvOffset, 'w'), t))
}

// hashBigram hashes an unordered pair: "level 3 drywall" and "drywall
// level 3" share it.
func hashBigram(a, b string) uint64 {
	if b < a {
		a, b = b, a
	}
	h := fnvString(fnvByte(fnvOffset, 'b'), a)
	h = fnvByte(h, 0)
	return mix(fnvString(h, b))
}

// Umbrellas returns the umbrella terms of a canonical trade token
// ("drywall" → fit_out): a planner filtering by "fit-outs" matches the
// trades the umbrella covers, exactly as the embedder does.
func Umbrellas(token string) []string { return append([]string(nil), umbrellas[token]...) }
