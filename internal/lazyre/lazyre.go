// Package lazyre holds regular expressions compiled on first use. The
// language layer and the preferences reader hold hundreds of patterns;
// compiling them at package init cost every command of the CLI about 15 ms,
// even the ones that never read a sentence (risk, schedule, export).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled the first time it is used; safe for
// concurrent use.
type Regexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

var (
	mu    sync.Mutex
	all   []*Regexp
	bySrc = map[string]*Regexp{}
)

// New is a pattern to compile on first use; an invalid pattern panics then
// (as regexp.MustCompile would at init); CompileAll lets a test compile
// them all. The same pattern gives the same Regexp, so a New inside a
// function (called for every sentence a worker reads) compiles once and
// holds no more memory however often it runs.
func New(src string) *Regexp {
	mu.Lock()
	defer mu.Unlock()
	if r, ok := bySrc[src]; ok {
		return r
	}
	r := &Regexp{src: src}
	bySrc[src] = r
	all = append(all, r)
	return r
}

// Wrap is an expression compiled already (say, built at run time).
func Wrap(re *regexp.Regexp) *Regexp {
	r := &Regexp{src: re.String(), re: re}
	r.once.Do(func() {})
	return r
}

// CompileAll compiles every pattern made so far (a package's tests call
// it, so a bad pattern fails there) and says how many there are.
func CompileAll() (n int, err error) {
	mu.Lock()
	list := append([]*Regexp(nil), all...)
	mu.Unlock()
	for _, r := range list {
		if _, err := regexp.Compile(r.src); err != nil {
			return len(list), err
		}
	}
	return len(list), nil
}

// Compiled is the compiled expression.
func (r *Regexp) Compiled() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src) })
	return r.re
}

// String is the source pattern (not compiled for this).
func (r *Regexp) String() string { return r.src }

func (r *Regexp) MatchString(s string) bool { return r.Compiled().MatchString(s) }

func (r *Regexp) FindStringIndex(s string) []int { return r.Compiled().FindStringIndex(s) }

func (r *Regexp) FindStringSubmatch(s string) []string { return r.Compiled().FindStringSubmatch(s) }

func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Compiled().FindStringSubmatchIndex(s)
}

func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Compiled().FindAllStringIndex(s, n)
}

func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Compiled().FindAllStringSubmatch(s, n)
}

func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Compiled().ReplaceAllString(src, repl)
}

func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Compiled().ReplaceAllStringFunc(src, repl)
}

func (r *Regexp) Split(s string, n int) []string { return r.Compiled().Split(s, n) }

func (r *Regexp) SubexpIndex(name string) int { return r.Compiled().SubexpIndex(name) }
