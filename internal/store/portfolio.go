package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Portfolio is a stored, named list of schedules: what `autoscheduler
// prompt --portfolio NAME` delegates one prompt to (one dispatch each).
type Portfolio struct {
	Name      string   `json:"name"`
	Schedules []string `json:"schedules"`
}

// PortfolioStore keeps the named portfolios. The graph stores implement
// it (Neo4j: Portfolio nodes; embedded: a portfolios table), apart from
// any schedule's graph and ledger.
type PortfolioStore interface {
	// PutPortfolio creates or replaces a portfolio.
	PutPortfolio(ctx context.Context, p Portfolio) error
	// Portfolio reads one; ErrPortfolioNotFound if there is none.
	Portfolio(ctx context.Context, name string) (Portfolio, error)
	// Portfolios lists them by name.
	Portfolios(ctx context.Context) ([]Portfolio, error)
	// DeletePortfolio removes one; removing a missing one is no error.
	DeletePortfolio(ctx context.Context, name string) error
}

// ErrPortfolioNotFound: no portfolio has that name.
var ErrPortfolioNotFound = errors.New("portfolio not found")

// portfolioName is what a name may be: it becomes part of workflow IDs.
var portfolioName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// CheckPortfolio validates a portfolio and returns it normalised: names
// are 1-64 letters, digits, '_', '.', '-'; schedules trimmed, none empty
// or listed twice, at least one.
func CheckPortfolio(p Portfolio) (Portfolio, error) {
	if !portfolioName.MatchString(p.Name) {
		return p, fmt.Errorf("portfolio name %q: use 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit", p.Name)
	}
	var out []string
	for _, s := range p.Schedules {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if slices.Contains(out, s) {
			return p, fmt.Errorf("portfolio %q: schedule %q is listed twice", p.Name, s)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return p, fmt.Errorf("portfolio %q: no schedules", p.Name)
	}
	p.Schedules = out
	return p, nil
}

// Portfolios returns the graph store's portfolio store, when it has one.
func (c *Coordinator) Portfolios() (PortfolioStore, error) {
	if ps, ok := c.Graph.(PortfolioStore); ok {
		return ps, nil
	}
	return nil, errors.New("this graph store keeps no portfolios")
}
