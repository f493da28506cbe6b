// Command setup registers a namespace and the search attributes the
// dispatch workflows use (workflows.SearchAttributes: ScheduleID,
// DispatchStage, DispatchOutcome) on a Temporal cluster, through its
// frontend's operator API. It is idempotent: scripts/cluster.sh runs it on
// every `up`. It lives in its own module with the Temporal server's
// commands, so the product's module does not depend on the server's CLI.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/autoscheduler/autoscheduler/tools/temporal-cluster/tlsdir"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/types/known/durationpb"
)

func main() {
	addr := flag.String("address", "127.0.0.1:7333", "frontend host:port")
	ns := flag.String("namespace", "default", "namespace")
	tlsDir := flag.String("tls-dir", "", "directory with ca.pem, client.pem and client-key.pem (empty: no TLS)")
	flag.Parse()
	if err := run(*addr, *ns, *tlsDir); err != nil {
		fmt.Fprintln(os.Stderr, "setup:", err)
		os.Exit(1)
	}
}

func run(addr, ns, tlsDir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	opts := client.Options{HostPort: addr, Namespace: "temporal-system"}
	if tlsDir != "" {
		cfg, err := clientTLS(tlsDir)
		if err != nil {
			return err
		}
		opts.ConnectionOptions.TLS = cfg
	}
	var c client.Client
	var err error
	// The frontend answers before the history shards are owned: retry.
	for {
		if c, err = client.Dial(opts); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("frontend %s: %w", addr, err)
		case <-time.After(time.Second):
		}
	}
	defer c.Close()
	_, err = c.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace: ns, WorkflowExecutionRetentionPeriod: durationpb.New(72 * time.Hour),
	})
	var exists *serviceerror.NamespaceAlreadyExists
	if err != nil && !errors.As(err, &exists) {
		return fmt.Errorf("register namespace %s: %w", ns, err)
	}
	attrs := map[string]enums.IndexedValueType{
		"ScheduleID": enums.INDEXED_VALUE_TYPE_KEYWORD, "DispatchStage": enums.INDEXED_VALUE_TYPE_KEYWORD, "DispatchOutcome": enums.INDEXED_VALUE_TYPE_KEYWORD,
	}
	_, err = c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: ns, SearchAttributes: attrs})
	var already *serviceerror.AlreadyExists
	if err != nil && !errors.As(err, &already) {
		return fmt.Errorf("search attributes: %w", err)
	}
	fmt.Println("namespace", ns, "ready")
	return nil
}

// clientTLS is mTLS with the cluster's client pair.
func clientTLS(dir string) (*tls.Config, error) {
	ca, pair, err := tlsdir.Client(dir)
	if err != nil {
		return nil, err
	}
	return &tls.Config{RootCAs: ca, Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}
