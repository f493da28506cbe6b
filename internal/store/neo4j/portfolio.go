package neo4j

import (
	"context"
	"errors"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// Portfolios are (:Portfolio {name, schedules}) nodes, apart from the
// schedules' graphs and ledgers; schedules is a list property, so Neo4j
// Browser shows it as it is.
const (
	cypherPortfolioKey = `CREATE CONSTRAINT portfolio_name IF NOT EXISTS FOR (p:Portfolio) REQUIRE p.name IS UNIQUE`

	cypherPutPortfolio = `MERGE (p:Portfolio {name: $name})
SET p.schedules = $schedules`

	cypherPortfolio = `MATCH (p:Portfolio {name: $name})
RETURN p.name AS name, p.schedules AS schedules`

	cypherPortfolios = `MATCH (p:Portfolio)
RETURN p.name AS name, p.schedules AS schedules
ORDER BY p.name`

	cypherDeletePortfolio = `MATCH (p:Portfolio {name: $name})
DELETE p`
)

// PutPortfolio creates or replaces a portfolio. The uniqueness constraint
// on the name is created first (IF NOT EXISTS: once per database).
func (s *Store) PutPortfolio(ctx context.Context, p store.Portfolio) error {
	p, err := store.CheckPortfolio(p)
	if err != nil {
		return err
	}
	session := s.session(ctx, neo4j.AccessModeWrite)
	defer session.Close(ctx)
	if _, err := session.Run(ctx, cypherPortfolioKey, nil); err != nil {
		return fmt.Errorf("neo4j: the portfolio name constraint: %w", err)
	}
	_, err = neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (bool, error) {
		return true, exec(ctx, tx, cypherPutPortfolio, map[string]any{"name": p.Name, "schedules": p.Schedules})
	})
	if err != nil {
		return fmt.Errorf("neo4j: storing portfolio %q: %w", p.Name, err)
	}
	return nil
}

// Portfolio reads one portfolio.
func (s *Store) Portfolio(ctx context.Context, name string) (store.Portfolio, error) {
	ps, err := s.readPortfolios(ctx, cypherPortfolio, map[string]any{"name": name})
	if err != nil {
		return store.Portfolio{}, err
	}
	if len(ps) == 0 {
		return store.Portfolio{}, fmt.Errorf("%w: %q", store.ErrPortfolioNotFound, name)
	}
	return ps[0], nil
}

// Portfolios lists the portfolios by name.
func (s *Store) Portfolios(ctx context.Context) ([]store.Portfolio, error) {
	return s.readPortfolios(ctx, cypherPortfolios, nil)
}

// DeletePortfolio removes a portfolio.
func (s *Store) DeletePortfolio(ctx context.Context, name string) error {
	session := s.session(ctx, neo4j.AccessModeWrite)
	defer session.Close(ctx)
	_, err := neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (bool, error) {
		return true, exec(ctx, tx, cypherDeletePortfolio, map[string]any{"name": name})
	})
	if err != nil {
		return fmt.Errorf("neo4j: removing portfolio %q: %w", name, err)
	}
	return nil
}

func (s *Store) readPortfolios(ctx context.Context, cypher string, params map[string]any) ([]store.Portfolio, error) {
	session := s.session(ctx, neo4j.AccessModeRead)
	defer session.Close(ctx)
	out, err := neo4j.ExecuteRead(ctx, session, func(tx neo4j.ManagedTransaction) ([]store.Portfolio, error) {
		result, err := tx.Run(ctx, cypher, params)
		if err != nil {
			return nil, err
		}
		var out []store.Portfolio
		for result.Next(ctx) {
			rec := result.Record()
			if len(rec.Values) < 2 {
				return nil, errors.New("a portfolio row without its columns")
			}
			name, _ := rec.Values[0].(string)
			list, _ := rec.Values[1].([]any)
			p := store.Portfolio{Name: name}
			for _, v := range list {
				id, ok := v.(string)
				if !ok {
					return nil, fmt.Errorf("portfolio %q: a schedule id of type %T", name, v)
				}
				p.Schedules = append(p.Schedules, id)
			}
			out = append(out, p)
		}
		return out, result.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("neo4j: reading portfolios: %w", err)
	}
	return out, nil
}
