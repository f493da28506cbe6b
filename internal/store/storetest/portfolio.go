package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// RunPortfolios is the contract of a PortfolioStore: put, replace, read,
// list by name, refuse a bad portfolio, delete (twice without error).
// Names are unique to the run, so a shared server may hold others.
func RunPortfolios(t *testing.T, ps store.PortfolioStore) {
	ctx := context.Background()
	prefix := fmt.Sprintf("t%d-", time.Now().UnixNano())
	a, b := prefix+"a", prefix+"b"
	if _, err := ps.Portfolio(ctx, a); !errors.Is(err, store.ErrPortfolioNotFound) {
		t.Fatalf("missing portfolio: %v, want ErrPortfolioNotFound", err)
	}
	if err := ps.PutPortfolio(ctx, store.Portfolio{Name: a, Schedules: []string{"s1", " s2 ", "s3"}}); err != nil {
		t.Fatal(err)
	}
	if err := ps.PutPortfolio(ctx, store.Portfolio{Name: b, Schedules: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	got, err := ps.Portfolio(ctx, a)
	if err != nil || got.Name != a || !slices.Equal(got.Schedules, []string{"s1", "s2", "s3"}) {
		t.Fatalf("portfolio %s = %+v, %v", a, got, err)
	}
	if err := ps.PutPortfolio(ctx, store.Portfolio{Name: a, Schedules: []string{"s3", "s1"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := ps.Portfolio(ctx, a); !slices.Equal(got.Schedules, []string{"s3", "s1"}) {
		t.Fatalf("replaced portfolio = %+v", got)
	}
	for _, bad := range []store.Portfolio{
		{Name: "", Schedules: []string{"s"}},
		{Name: "has space", Schedules: []string{"s"}},
		{Name: prefix + "c", Schedules: []string{"s", "s"}},
		{Name: prefix + "c", Schedules: []string{" "}},
	} {
		if err := ps.PutPortfolio(ctx, bad); err == nil {
			t.Errorf("%+v was stored", bad)
		}
	}
	all, err := ps.Portfolios(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range all {
		if len(p.Name) > len(prefix) && p.Name[:len(prefix)] == prefix {
			names = append(names, p.Name)
		}
	}
	if !slices.Equal(names, []string{a, b}) {
		t.Fatalf("listed %v, want [%s %s]", names, a, b)
	}
	for range 2 {
		if err := ps.DeletePortfolio(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ps.Portfolio(ctx, a); !errors.Is(err, store.ErrPortfolioNotFound) {
		t.Fatalf("deleted portfolio: %v", err)
	}
	if err := ps.DeletePortfolio(ctx, b); err != nil {
		t.Fatal(err)
	}
}
