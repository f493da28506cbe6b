// Package devserver runs a Temporal server, with SQLite persistence and the Web UI, inside
// this process: what `autoscheduler dev` and the integration tests dispatch against, with no
// Docker and no network beyond loopback.
package devserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	uiserver "github.com/temporalio/ui-server/v2/server"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/membership/static"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// Options configures a dev server. The zero value is a quiet, in-memory server on the
// default ports with the Web UI.
type Options struct {
	DBPath    string // SQLite file; "" = in-memory
	Address   string // frontend gRPC, default "127.0.0.1:7233"; port 0 = a free port
	UIAddress string // Web UI, default "127.0.0.1:8233"; port 0 = a free port; "-" = no UI
	// Both must be loopback IPs; the internal services listen on free ports of the same IP.
	Namespace string // default "default"
	// SearchAttributes are pre-seeded in the namespace when the DB is created; ones missing
	// from an existing DB are added through the operator API, and the server sees those
	// only after its namespace refresh (namespaceRefresh).
	SearchAttributes map[string]enums.IndexedValueType
	Logger           *slog.Logger // nil = quiet (warnings and errors only)
	// DynamicConfig overrides the server's dynamic config by key (a test
	// forcing "limit.historyCount.suggestContinueAsNew" down, say).
	DynamicConfig map[string]any
}

// Server is a running dev server. Stop it to release its ports.
type Server struct {
	temporal temporal.Server
	ui       *uiserver.Server
	frontend string
	uiURL    string
	muted    *atomic.Bool // see slogLogger
	stopOnce sync.Once
	stopErr  error
}

const (
	clusterName = "active"
	// namespaceRefresh is how soon namespace changes (such as new search attributes) are seen;
	// the server's default of 10 s is made for production.
	namespaceRefresh = 2 * time.Second
	// frontendService is the gRPC health-check name the frontend reports SERVING on.
	frontendService = "temporal.api.workflowservice.v1.WorkflowService"
)

// Start starts the server and, unless disabled, the Web UI. It returns once the frontend
// answers health checks, or with an error when ctx ends first.
func Start(ctx context.Context, opts Options) (*Server, error) {
	opts = opts.withDefaults()
	frontend, err := loopbackAddr(opts.Address)
	if err != nil {
		return nil, fmt.Errorf("frontend address: %w", err)
	}
	uiAddr := ""
	if opts.UIAddress != "-" {
		if uiAddr, err = loopbackAddr(opts.UIAddress); err != nil {
			return nil, fmt.Errorf("UI address: %w", err)
		}
	}

	sqlConf, err := prepareDB(opts.DBPath, opts.Namespace, opts.SearchAttributes)
	if err != nil {
		return nil, err
	}
	conf, hosts, err := serverConfig(frontend, sqlConf)
	if err != nil {
		return nil, err
	}
	muted := &atomic.Bool{}
	ts, err := temporal.NewServer(
		temporal.WithConfig(conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(hosts),
		temporal.WithLogger(slogLogger{l: opts.Logger, muted: muted}),
		temporal.WithAuthorizer(authorization.NewNoopAuthorizer()),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper {
			return authorization.NewNoopClaimMapper()
		}),
		temporal.WithDynamicConfigClient(dynamicConfig(opts.DynamicConfig)),
	)
	if err != nil {
		return nil, fmt.Errorf("create temporal server: %w", err)
	}
	if err := ts.Start(); err != nil {
		return nil, fmt.Errorf("start temporal server: %w", err)
	}
	s := &Server{temporal: ts, frontend: frontend, muted: muted}

	if err := s.await(ctx, opts); err != nil {
		return nil, errors.Join(err, s.Stop())
	}
	if uiAddr != "" {
		if err := s.startUI(ctx, uiAddr, opts); err != nil {
			return nil, errors.Join(err, s.Stop())
		}
	}
	return s, nil
}

// FrontendAddress is the host:port SDK clients dial.
func (s *Server) FrontendAddress() string { return s.frontend }

// UIURL is the Web UI's base URL, or "" when it is disabled.
func (s *Server) UIURL() string { return s.uiURL }

// Stop stops the Web UI and the server, whose logs are silenced from here on. It is safe to
// call more than once.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		s.muted.Store(true)
		if s.ui != nil {
			s.ui.Stop()
		}
		if err := s.temporal.Stop(); err != nil {
			s.stopErr = fmt.Errorf("stop temporal server: %w", err)
		}
	})
	return s.stopErr
}

func (o Options) withDefaults() Options {
	if o.Address == "" {
		o.Address = "127.0.0.1:7233"
	}
	if o.UIAddress == "" {
		o.UIAddress = "127.0.0.1:8233"
	}
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	if o.Logger == nil {
		o.Logger = quietLogger()
	}
	return o
}

// prepareDB creates the schema when the SQLite file is new and registers the namespace
// unless it exists, so a restart on the same file keeps everything. The in-memory database
// gets its schema from the SQLite plugin itself.
func prepareDB(path, namespace string, attrs map[string]enums.IndexedValueType) (*config.SQL, error) {
	conf := &config.SQL{PluginName: sqliteplugin.PluginName}
	if path == "" {
		conf.DatabaseName = "devserver-" + strconv.FormatUint(rand.Uint64(), 36)
		conf.ConnectAttributes = map[string]string{"mode": "memory", "cache": "shared"}
	} else {
		conf.DatabaseName = path
		conf.ConnectAttributes = map[string]string{"mode": "rwc"}
		// An empty file is what an interrupted first start would leave behind.
		if fi, err := os.Stat(path); errors.Is(err, os.ErrNotExist) || (err == nil && fi.Size() == 0) {
			if err := sqliteschema.SetupSchema(conf); err != nil {
				return nil, fmt.Errorf("create schema in %s: %w", path, err)
			}
		} else if err != nil {
			return nil, fmt.Errorf("check database file: %w", err)
		}
	}
	ns, err := sqliteschema.NewNamespaceConfig(clusterName, namespace, false, attrs)
	if err != nil {
		return nil, fmt.Errorf("namespace config: %w", err)
	}
	// A no-op when the namespace already exists.
	if err := sqliteschema.CreateNamespaces(conf, ns); err != nil {
		return nil, fmt.Errorf("create namespace %s: %w", namespace, err)
	}
	return conf, nil
}

// serverConfig binds every service to the frontend's loopback host: the frontend's HTTP API
// (Nexus) and the internal services on free ports, with static membership (no ringpop
// port) and no metrics or pprof listener.
func serverConfig(frontend string, sqlConf *config.SQL) (*config.Config, map[primitives.ServiceName]static.Hosts, error) {
	host, _, err := net.SplitHostPort(frontend)
	if err != nil {
		return nil, nil, fmt.Errorf("frontend address: %w", err)
	}
	httpAddr, err := loopbackAddr(net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, nil, fmt.Errorf("frontend HTTP address: %w", err)
	}
	conf := &config.Config{}
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = host
	conf.Persistence.DefaultStore = "sqlite"
	conf.Persistence.VisibilityStore = "sqlite"
	conf.Persistence.NumHistoryShards = 1 // persisted with the cluster: never change it
	conf.Persistence.DataStores = map[string]config.DataStore{"sqlite": {SQL: sqlConf}}
	conf.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        clusterName,
		CurrentClusterName:       clusterName,
		ClusterInformation: map[string]cluster.ClusterInformation{
			clusterName: {Enabled: true, InitialFailoverVersion: 1, RPCAddress: frontend, HTTPAddress: httpAddr},
		},
	}
	conf.DCRedirectionPolicy.Policy = "noop"
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	conf.PublicClient.HostPort = frontend

	conf.Services = map[string]config.Service{}
	hosts := map[primitives.ServiceName]static.Hosts{}
	for _, name := range temporal.DefaultServices {
		svc := config.Service{}
		svc.RPC.BindOnIP = host
		addr := frontend
		if name == string(primitives.FrontendService) {
			svc.RPC.HTTPPort = port(httpAddr)
		} else if addr, err = loopbackAddr(net.JoinHostPort(host, "0")); err != nil {
			return nil, nil, fmt.Errorf("%s address: %w", name, err)
		}
		svc.RPC.GRPCPort = port(addr)
		conf.Services[name] = svc
		hosts[primitives.ServiceName(name)] = static.SingleLocalHost(addr)
	}
	return conf, hosts, nil
}

// dynamicConfig tunes the server for one developer rather than production
// traffic, with the caller's overrides on top.
func dynamicConfig(overrides map[string]any) dynamicconfig.StaticClient {
	c := dynamicconfig.StaticClient{
		dynamicconfig.NamespaceCacheRefreshInterval.Key():                namespaceRefresh,
		dynamicconfig.ForceSearchAttributesCacheRefreshOnRead.Key():      true,
		dynamicconfig.FrontendMaxNamespaceVisibilityRPSPerInstance.Key(): 100,
		dynamicconfig.HistoryCacheHostLevelMaxSize.Key():                 8096,
	}
	for k, v := range overrides {
		c[dynamicconfig.MakeKey(k)] = v
	}
	return c
}

// await waits for the frontend to serve, then adds search attributes an older DB lacks.
func (s *Server) await(ctx context.Context, opts Options) error {
	conn, err := grpc.NewClient(s.frontend, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fmt.Errorf("dial frontend: %w", err)
	}
	defer conn.Close()

	health := healthpb.NewHealthClient(conn)
	for {
		resp, err := health.Check(ctx, &healthpb.HealthCheckRequest{Service: frontendService})
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for frontend %s: %w (last error: %v)", s.frontend, ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	return ensureSearchAttributes(ctx, operatorservice.NewOperatorServiceClient(conn), opts.Namespace, opts.SearchAttributes)
}

func ensureSearchAttributes(ctx context.Context, op operatorservice.OperatorServiceClient, namespace string, want map[string]enums.IndexedValueType) error {
	if len(want) == 0 {
		return nil
	}
	have, err := op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return fmt.Errorf("list search attributes: %w", err)
	}
	missing := map[string]enums.IndexedValueType{}
	for name, typ := range want {
		if _, ok := have.GetCustomAttributes()[name]; !ok {
			missing[name] = typ
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, err = op.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
		Namespace:        namespace,
		SearchAttributes: missing,
	})
	if err != nil {
		return fmt.Errorf("add search attributes: %w", err)
	}
	return nil
}

// startUI serves the Web UI on addr, which loopbackAddr has checked.
func (s *Server) startUI(ctx context.Context, addr string, opts Options) error {
	ui, err := ServeUI(ctx, UIOptions{Listen: addr, Frontend: s.frontend, Namespace: opts.Namespace}, opts.Logger)
	if err != nil {
		return err
	}
	s.ui, s.uiURL = ui.server, ui.URL
	return nil
}

// loopbackAddr checks that addr is on a loopback IP and free, and replaces port 0 by a free
// port. Checking first matters: the server and the UI exit the process when they cannot
// listen.
func loopbackAddr(addr string) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return "", fmt.Errorf("%s: host must be a loopback IP such as 127.0.0.1", addr)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("%s is not free: %w", addr, err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// port is the port of an address loopbackAddr has checked.
func port(addr string) int {
	_, p, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(p)
	return n
}
