package embedded

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// Portfolios live in the portfolios table (name, schedules as a JSON
// list), apart from the schedules' graphs and ledgers.

// PutPortfolio creates or replaces a portfolio.
func (g graphView) PutPortfolio(ctx context.Context, p store.Portfolio) error {
	p, err := store.CheckPortfolio(p)
	if err != nil {
		return err
	}
	body, err := json.Marshal(p.Schedules)
	if err != nil {
		return err
	}
	return g.tx(ctx, func(tx *preparedTx) error {
		return tx.exec(`INSERT INTO portfolios (name, schedules) VALUES (?, ?)
			ON CONFLICT (name) DO UPDATE SET schedules = excluded.schedules`, p.Name, string(body))
	})
}

// Portfolio reads one portfolio.
func (g graphView) Portfolio(ctx context.Context, name string) (store.Portfolio, error) {
	var body string
	err := g.db.QueryRowContext(ctx, `SELECT schedules FROM portfolios WHERE name = ?`, name).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Portfolio{}, fmt.Errorf("%w: %q", store.ErrPortfolioNotFound, name)
	}
	if err != nil {
		return store.Portfolio{}, err
	}
	return decodePortfolio(name, body)
}

// Portfolios lists the portfolios by name.
func (g graphView) Portfolios(ctx context.Context) ([]store.Portfolio, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT name, schedules FROM portfolios ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Portfolio
	for rows.Next() {
		var name, body string
		if err := rows.Scan(&name, &body); err != nil {
			return nil, err
		}
		p, err := decodePortfolio(name, body)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// DeletePortfolio removes a portfolio.
func (g graphView) DeletePortfolio(ctx context.Context, name string) error {
	return g.tx(ctx, func(tx *preparedTx) error {
		return tx.exec(`DELETE FROM portfolios WHERE name = ?`, name)
	})
}

func decodePortfolio(name, body string) (store.Portfolio, error) {
	p := store.Portfolio{Name: name}
	if err := json.Unmarshal([]byte(body), &p.Schedules); err != nil {
		return p, fmt.Errorf("portfolio %q: an unreadable schedule list: %w", name, err)
	}
	return p, nil
}
