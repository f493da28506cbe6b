package lazyre

import (
	"sync"
	"testing"
)

func TestCompiledOnFirstUseOnceAcrossGoroutines(t *testing.T) {
	r := New(`^(?P<word>[a-z]+) (\d+)$`)
	if r.re != nil {
		t.Fatal("compiled before use")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !r.MatchString("level 4") {
				t.Error("no match")
			}
		}()
	}
	wg.Wait()
	for _, tc := range []struct {
		name string
		got  any
		want any
	}{
		{"String", r.String(), `^(?P<word>[a-z]+) (\d+)$`},
		{"SubexpIndex", r.SubexpIndex("word"), 1},
		{"FindStringSubmatch", r.FindStringSubmatch("floor 2")[2], "2"},
		{"ReplaceAllString", r.ReplaceAllString("floor 2", "${word}"), "floor"},
		{"Split", len(New(`,`).Split("a,b,c", -1)), 3},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestInvalidPatternPanicsOnUse(t *testing.T) {
	r := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	r.MatchString("x")
}

func TestCompileAllReportsABadPattern(t *testing.T) {
	New(`[a-`)
	if _, err := CompileAll(); err == nil {
		t.Fatal("no error for [a-")
	}
}

// TestNewInterns: a New inside a function, run for every sentence, must
// not compile again nor grow the list of patterns.
func TestNewInterns(t *testing.T) {
	first := New(`(?i)^interned\s+pattern$`)
	if !first.MatchString("Interned pattern") {
		t.Fatal("the pattern does not match")
	}
	n, _ := CompileAll()
	for range 1000 {
		if New(`(?i)^interned\s+pattern$`) != first {
			t.Fatal("New of the same pattern gave another Regexp")
		}
	}
	if m, _ := CompileAll(); m != n {
		t.Errorf("1000 News of one pattern grew the list from %d to %d", n, m)
	}
}
