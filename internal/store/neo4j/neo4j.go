// Package neo4j is the GraphStore on Neo4j 5: the seed design's node model
// (each activity a start, an intra and an end node, one node per
// relationship, PRECEDES edges, a weight on every node), schedule_id on
// every node so one database holds many schedules, and a ledger of applied
// ops as :LedgerEntry nodes. The Cypher lives in cypher.go.
package neo4j

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// Config says where the server is. Empty User and Password mean no auth.
type Config struct {
	URI      string
	User     string
	Password string
	// Database defaults to "neo4j".
	Database string
}

// Store is a GraphStore on one Neo4j database.
type Store struct {
	driver   neo4j.DriverWithContext
	database string
	// where names the server in errors, without a password.
	where string
}

var _ store.GraphStore = (*Store)(nil)

// Open connects, checks the server answers, and creates the constraints
// and indexes the store relies on (idempotently).
func Open(ctx context.Context, cfg Config) (*Store, error) {
	where := redact(cfg.URI)
	if cfg.URI == "" {
		return nil, errors.New("neo4j: no URI configured")
	}
	auth := neo4j.NoAuth()
	if cfg.User != "" || cfg.Password != "" {
		auth = neo4j.BasicAuth(cfg.User, cfg.Password, "")
	}
	driver, err := neo4j.NewDriverWithContext(cfg.URI, auth)
	if err != nil {
		return nil, fmt.Errorf("neo4j %s: %w", where, err)
	}
	if err := driver.VerifyConnectivity(ctx); err != nil {
		_ = driver.Close(ctx)
		return nil, fmt.Errorf("neo4j %s: cannot connect: %w", where, err)
	}
	s := &Store{driver: driver, database: cfg.Database, where: where}
	if s.database == "" {
		s.database = "neo4j"
	}
	if err := s.createSchema(ctx); err != nil {
		_ = driver.Close(ctx)
		return nil, err
	}
	return s, nil
}

// redact drops a password that may be written into the URI.
func redact(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.User == nil {
		return uri
	}
	return u.Redacted()
}

func (s *Store) createSchema(ctx context.Context) error {
	session := s.session(ctx, neo4j.AccessModeWrite)
	defer session.Close(ctx)
	for _, stmt := range schemaStatements {
		// Two stores opening at once on a new database (workers started
		// together) race: one may find the rule made (not an error), or
		// the server may break a deadlock between them, a transient error
		// the managed transaction tries again.
		_, err := neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (struct{}, error) {
			return struct{}{}, exec(ctx, tx, stmt, nil)
		})
		if err != nil && !alreadyExists(err) {
			return fmt.Errorf("neo4j %s: creating constraints and indexes: %w", s.where, err)
		}
	}
	return nil
}

func alreadyExists(err error) bool {
	var e *neo4j.Neo4jError
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code {
	case "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
		"Neo.ClientError.Schema.ConstraintAlreadyExists",
		"Neo.ClientError.Schema.IndexAlreadyExists":
		return true
	}
	return false
}

// session opens a session on the store's database. All sessions share the
// driver's bookmark manager, so a read sees every write the store made
// before it, on a cluster too.
func (s *Store) session(ctx context.Context, mode neo4j.AccessMode) neo4j.SessionWithContext {
	return s.driver.NewSession(ctx, neo4j.SessionConfig{
		DatabaseName:    s.database,
		AccessMode:      mode,
		BookmarkManager: s.driver.ExecuteQueryBookmarkManager(),
	})
}

// Close closes the driver.
func (s *Store) Close(ctx context.Context) error {
	if err := s.driver.Close(ctx); err != nil {
		return fmt.Errorf("neo4j %s: closing: %w", s.where, err)
	}
	return nil
}
