// Command server runs one or more Temporal services (frontend, history,
// matching, worker) from a config file, like the server's own command, but
// with the frontend behind TLS the way Temporal Cloud is: clients present
// either a client certificate signed by the cluster's CA (mTLS) or an API
// key (Authorization: Bearer ...); anything else is denied. Internode
// traffic stays on loopback without TLS.
package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	_ "time/tzdata"

	"github.com/autoscheduler/autoscheduler/tools/temporal-cluster/tlsdir"
	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/log"
	_ "go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql"
	"go.temporal.io/server/common/rpc/encryption"
	"go.temporal.io/server/temporal"
)

type serviceList []string

func (s *serviceList) String() string     { return strings.Join(*s, ",") }
func (s *serviceList) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	var services serviceList
	configFile := flag.String("config-file", "", "server config (YAML)")
	tlsDir := flag.String("tls-dir", "", "directory with ca.pem, server.pem, server-key.pem, client.pem, client-key.pem and api-key (empty: no TLS, no auth)")
	flag.Var(&services, "service", "service to run (repeatable): frontend, history, matching, worker")
	flag.Parse()
	if err := run(*configFile, *tlsDir, services); err != nil {
		fmt.Fprintln(os.Stderr, "temporal server:", err)
		os.Exit(1)
	}
}

func run(configFile, tlsDir string, services []string) error {
	if configFile == "" || len(services) == 0 {
		return errors.New("--config-file and at least one --service are required")
	}
	cfg, err := config.Load(config.WithConfigFile(configFile))
	if err != nil {
		return fmt.Errorf("config %s: %w", configFile, err)
	}
	logger := log.NewZapLogger(log.BuildZapLogger(cfg.Log))
	opts := []temporal.ServerOption{
		temporal.ForServices(services),
		temporal.WithConfig(cfg),
		temporal.WithLogger(logger),
		temporal.InterruptOn(temporal.InterruptCh()),
	}
	if tlsDir != "" {
		tlsOpts, err := secured(tlsDir)
		if err != nil {
			return err
		}
		opts = append(opts, tlsOpts...)
	}
	s, err := temporal.NewServer(opts...)
	if err != nil {
		return err
	}
	return s.Start()
}

// secured is the frontend's TLS and the authorization that goes with it.
func secured(dir string) ([]temporal.ServerOption, error) {
	file := func(name string) string { return dir + "/" + name }
	// The cluster's own client pair: the worker service and internal
	// clients reach the frontend with it.
	ca, client, err := tlsdir.Client(dir)
	if err != nil {
		return nil, err
	}
	server, err := tls.LoadX509KeyPair(file("server.pem"), file("server-key.pem"))
	if err != nil {
		return nil, err
	}
	key, err := os.ReadFile(file("api-key"))
	if err != nil {
		return nil, err
	}
	provider := &encryption.FixedTLSConfigProvider{
		// A client certificate is verified when given: API-key clients
		// connect with server-side TLS only, as on Temporal Cloud.
		FrontendServerConfig: &tls.Config{
			Certificates: []tls.Certificate{server}, ClientCAs: ca,
			ClientAuth: tls.VerifyClientCertIfGiven, MinVersion: tls.VersionTLS12,
		},
		FrontendClientConfig: &tls.Config{
			Certificates: []tls.Certificate{client}, RootCAs: ca,
			ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12,
		},
	}
	mapper := &claimMapper{keyHash: sha256.Sum256([]byte(strings.TrimSpace(string(key))))}
	return []temporal.ServerOption{
		temporal.WithTLSConfigFactory(provider),
		temporal.WithAuthorizer(authorization.NewDefaultAuthorizer()),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return mapper }),
	}, nil
}

// claimMapper makes an admin of a caller with a verified client
// certificate (the TLS handshake checked it against the CA) or the API
// key; any other caller has no claims and is denied.
type claimMapper struct{ keyHash [sha256.Size]byte }

func (m *claimMapper) GetClaims(info *authorization.AuthInfo) (*authorization.Claims, error) {
	if info.TLSSubject != nil && info.TLSConnection != nil && len(info.TLSConnection.State.VerifiedChains) > 0 {
		return &authorization.Claims{Subject: info.TLSSubject.CommonName, System: authorization.RoleAdmin, AuthType: "mtls"}, nil
	}
	if token, ok := strings.CutPrefix(info.AuthToken, "Bearer "); ok {
		got := sha256.Sum256([]byte(token))
		if subtle.ConstantTimeCompare(got[:], m.keyHash[:]) == 1 {
			return &authorization.Claims{Subject: "api-key", System: authorization.RoleAdmin, AuthType: "api-key"}, nil
		}
	}
	return nil, nil
}

// AuthInfoRequired: callers with neither a certificate nor a key get no
// claims without calling GetClaims.
func (m *claimMapper) AuthInfoRequired() bool { return true }
