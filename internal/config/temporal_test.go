package config_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/pflag"

	"github.com/autoscheduler/autoscheduler/internal/config"
)

const secret = "tk-sekrit-0123456789abcdef"

// fromFlags reads the environment, then args, the way the CLI and worker do.
func fromFlags(t *testing.T, args ...string) config.Temporal {
	t.Helper()
	cfg := config.TemporalFromEnv()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	cfg.BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func clearTemporalEnv(t *testing.T) {
	for _, k := range []string{"TEMPORAL_ADDRESS", "TEMPORAL_NAMESPACE", "TEMPORAL_TLS", "TEMPORAL_TLS_CA", "TEMPORAL_TLS_CERT", "TEMPORAL_TLS_KEY", "TEMPORAL_TLS_SERVER_NAME", "TEMPORAL_API_KEY"} {
		t.Setenv(k, "")
	}
}

func TestTemporalDefaultsArePlain(t *testing.T) {
	clearTemporalEnv(t)
	cfg := fromFlags(t)
	opts, err := cfg.ClientOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	if opts.HostPort != "127.0.0.1:7233" || opts.Namespace != "default" || opts.ConnectionOptions.TLS != nil || opts.Credentials != nil {
		t.Fatalf("defaults: %+v", opts)
	}
}

// The environment, then flags over it, make TLS options with the CA,
// the client pair and the server name; the API key becomes credentials.
func TestTemporalOptionsFromFlagsAndEnv(t *testing.T) {
	clearTemporalEnv(t)
	dir := t.TempDir()
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	defer srv.Close()
	ca := writeCA(t, dir, srv)
	certFile, keyFile := writePair(t, dir, srv)
	t.Setenv("TEMPORAL_ADDRESS", "ns.a1b2c.tmprl.cloud:7233")
	t.Setenv("TEMPORAL_NAMESPACE", "ns.a1b2c")
	t.Setenv("TEMPORAL_TLS_CA", ca)
	t.Setenv("TEMPORAL_API_KEY", secret)
	cfg := fromFlags(t, "--temporal-namespace", "other.a1b2c", "--temporal-tls-cert", certFile, "--temporal-tls-key", keyFile, "--temporal-tls-server-name", "example.com")
	opts, err := cfg.ClientOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	if opts.HostPort != "ns.a1b2c.tmprl.cloud:7233" || opts.Namespace != "other.a1b2c" {
		t.Errorf("address %q namespace %q", opts.HostPort, opts.Namespace)
	}
	tc := opts.ConnectionOptions.TLS
	if tc == nil || tc.RootCAs == nil || len(tc.Certificates) != 1 || tc.ServerName != "example.com" {
		t.Fatalf("TLS config: %+v", tc)
	}
	if opts.Credentials == nil {
		t.Error("the API key did not become credentials")
	}
	if s := cfg.String(); s != "ns.a1b2c.tmprl.cloud:7233 (namespace other.a1b2c, mTLS, API key)" || strings.Contains(s, secret) {
		t.Errorf("String() = %q", s)
	}

	// An API key alone turns TLS on (Temporal Cloud takes keys over TLS only).
	clearTemporalEnv(t)
	t.Setenv("TEMPORAL_API_KEY", secret)
	cfg = fromFlags(t)
	if opts, err := cfg.ClientOptions(nil); err != nil || opts.ConnectionOptions.TLS == nil || opts.Credentials == nil {
		t.Errorf("API key alone: TLS %v, credentials %v, %v", opts.ConnectionOptions.TLS, opts.Credentials, err)
	}
}

func TestTemporalOptionErrors(t *testing.T) {
	clearTemporalEnv(t)
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.pem")
	os.WriteFile(notPEM, []byte("hello"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--temporal-tls-cert", "c.pem"}, "--temporal-tls-cert and --temporal-tls-key go together"},
		{[]string{"--temporal-tls-ca", filepath.Join(dir, "missing.pem")}, "reading the Temporal CA certificate"},
		{[]string{"--temporal-tls-ca", notPEM}, "holds no PEM certificate"},
		{[]string{"--temporal-tls-cert", notPEM, "--temporal-tls-key", notPEM}, "loading the Temporal client certificate"},
		{[]string{"--temporal-address", ""}, "no Temporal address"},
	} {
		cfg := fromFlags(t, tc.args...)
		if _, err := cfg.ClientOptions(nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// The key reaches the server as a bearer token over TLS, and appears in no
// error text, even when the server echoes it back.
func TestTemporalAPIKeyNeverInErrors(t *testing.T) {
	clearTemporalEnv(t)
	var mu sync.Mutex
	var gotAuth string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		gotAuth = r.Header.Get("Authorization")
		mu.Unlock()
		// A gRPC error whose message echoes the credentials.
		w.Header().Set("Content-Type", "application/grpc")
		w.Header().Set("Grpc-Status", "16")
		w.Header().Set("Grpc-Message", "bad credentials: "+r.Header.Get("Authorization"))
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	ca := writeCA(t, t.TempDir(), srv)
	t.Setenv("TEMPORAL_API_KEY", secret)
	cfg := fromFlags(t, "--temporal-address", strings.TrimPrefix(srv.URL, "https://"), "--temporal-tls-ca", ca, "--temporal-tls-server-name", "example.com")
	c, err := cfg.Dial(nil)
	if err == nil {
		c.Close()
		t.Fatal("dial succeeded against a server that refuses everything")
	}
	mu.Lock()
	auth := gotAuth
	mu.Unlock()
	if auth != "Bearer "+secret {
		t.Errorf("the server saw Authorization %q, want the bearer key", auth)
	}
	if strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "cannot reach Temporal at") {
		t.Errorf("dial error: %v", err)
	}

	// Errors before dialling do not carry it either.
	bad := fromFlags(t, "--temporal-tls-ca", filepath.Join(t.TempDir(), secret+".pem"))
	if _, err := bad.Dial(nil); err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("error naming a file after the key: %v", err)
	}
}

func writeCA(t *testing.T, dir string, srv *httptest.Server) string {
	t.Helper()
	path := filepath.Join(dir, "ca.pem")
	data := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// writePair writes the test server's own pair as a client pair: any valid
// pair will do for building options.
func writePair(t *testing.T, dir string, srv *httptest.Server) (certFile, keyFile string) {
	t.Helper()
	cert := srv.TLS.Certificates[0]
	certFile, keyFile = filepath.Join(dir, "client.pem"), filepath.Join(dir, "client.key")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}), 0o644)
	key, err := x509MarshalKey(cert)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(keyFile, key, 0o600)
	return certFile, keyFile
}

func x509MarshalKey(cert tls.Certificate) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}
