package neo4j_test

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

func TestPortfolios(t *testing.T) {
	var ps store.PortfolioStore = open(t)
	storetest.RunPortfolios(t, ps)
}
