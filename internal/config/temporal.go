package config

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
)

// Temporal is where a process finds Temporal: a local dev server, a
// self-hosted cluster behind TLS or mTLS, or a Temporal Cloud namespace
// (mTLS or an API key). The CLI and the worker bind the same flags and read
// the same environment (the names the `temporal` CLI uses), so whatever the
// worker reaches, `prompt` and `review` reach too.
type Temporal struct {
	Address   string
	Namespace string
	// TLS turns TLS on with the system roots; any of the fields below (or
	// an API key) turn it on too.
	TLS        bool
	CACert     string // PEM file of the CA that signed the server's certificate
	ClientCert string // PEM client certificate, for mTLS
	ClientKey  string // PEM client key, for mTLS
	ServerName string // the name to verify the server's certificate against
	// apiKey comes from TEMPORAL_API_KEY only, never a flag (flags show
	// in process lists), and is never printed.
	apiKey string
}

// Default address and namespace: `autoscheduler dev`'s server.
const (
	DefaultTemporalAddress   = "127.0.0.1:7233"
	DefaultTemporalNamespace = "default"
)

// TemporalFromEnv reads TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TLS,
// TEMPORAL_TLS_CA, TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY,
// TEMPORAL_TLS_SERVER_NAME and TEMPORAL_API_KEY; flags may override all but
// the key afterwards (see BindFlags).
func TemporalFromEnv() Temporal {
	tlsOn, _ := strconv.ParseBool(os.Getenv("TEMPORAL_TLS"))
	return Temporal{
		Address:    EnvOr("TEMPORAL_ADDRESS", DefaultTemporalAddress),
		Namespace:  EnvOr("TEMPORAL_NAMESPACE", DefaultTemporalNamespace),
		TLS:        tlsOn,
		CACert:     os.Getenv("TEMPORAL_TLS_CA"),
		ClientCert: os.Getenv("TEMPORAL_TLS_CERT"),
		ClientKey:  os.Getenv("TEMPORAL_TLS_KEY"),
		ServerName: os.Getenv("TEMPORAL_TLS_SERVER_NAME"),
		apiKey:     os.Getenv("TEMPORAL_API_KEY"),
	}
}

// WithAPIKey is t with the API key set (tests; a process takes it from
// TEMPORAL_API_KEY).
func (t Temporal) WithAPIKey(key string) Temporal {
	t.apiKey = key
	return t
}

// BindFlags adds --temporal-address, --temporal-namespace and the TLS
// flags, defaulting to what t holds (the environment).
func (t *Temporal) BindFlags(fs *pflag.FlagSet) {
	fs.StringVar(&t.Address, "temporal-address", t.Address, "Temporal frontend `host:port` (env TEMPORAL_ADDRESS; autoscheduler dev runs one)")
	fs.StringVar(&t.Namespace, "temporal-namespace", t.Namespace, "Temporal namespace (env TEMPORAL_NAMESPACE)")
	fs.BoolVar(&t.TLS, "temporal-tls", t.TLS, "connect with TLS, verifying the server against the system roots (env TEMPORAL_TLS); implied by the other TLS flags and by TEMPORAL_API_KEY")
	fs.StringVar(&t.CACert, "temporal-tls-ca", t.CACert, "PEM file of the CA that signed the server's certificate (env TEMPORAL_TLS_CA)")
	fs.StringVar(&t.ClientCert, "temporal-tls-cert", t.ClientCert, "PEM client certificate for mTLS, e.g. Temporal Cloud (env TEMPORAL_TLS_CERT)")
	fs.StringVar(&t.ClientKey, "temporal-tls-key", t.ClientKey, "PEM client key for mTLS (env TEMPORAL_TLS_KEY); an API key comes from TEMPORAL_API_KEY only")
	fs.StringVar(&t.ServerName, "temporal-tls-server-name", t.ServerName, "server name to verify the certificate against (env TEMPORAL_TLS_SERVER_NAME)")
}

// usesTLS says whether the connection is TLS.
func (t *Temporal) usesTLS() bool {
	return t.TLS || t.CACert != "" || t.ClientCert != "" || t.ClientKey != "" || t.ServerName != "" || t.apiKey != ""
}

// String describes the connection for a log line or an error: address,
// namespace, TLS and whether an API key is used — never the key.
func (t *Temporal) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (namespace %s", t.Address, t.Namespace)
	switch {
	case t.ClientCert != "":
		b.WriteString(", mTLS")
	case t.usesTLS():
		b.WriteString(", TLS")
	}
	if t.apiKey != "" {
		b.WriteString(", API key")
	}
	b.WriteString(")")
	return b.String()
}

// ClientOptions builds the SDK's options: address, namespace, TLS (CA,
// client pair, server name) and the API key as credentials. logger may be
// nil (the SDK's default).
func (t *Temporal) ClientOptions(logger sdklog.Logger) (client.Options, error) {
	opts := client.Options{HostPort: t.Address, Namespace: t.Namespace, Logger: logger}
	if t.Address == "" {
		return opts, errors.New("no Temporal address: set --temporal-address or TEMPORAL_ADDRESS")
	}
	if !t.usesTLS() {
		return opts, nil
	}
	cfg := &tls.Config{ServerName: t.ServerName, MinVersion: tls.VersionTLS12}
	if (t.ClientCert == "") != (t.ClientKey == "") {
		return opts, errors.New("--temporal-tls-cert and --temporal-tls-key go together")
	}
	if t.ClientCert != "" {
		pair, err := tls.LoadX509KeyPair(t.ClientCert, t.ClientKey)
		if err != nil {
			return opts, fmt.Errorf("loading the Temporal client certificate %s: %w", t.ClientCert, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	if t.CACert != "" {
		pem, err := os.ReadFile(t.CACert)
		if err != nil {
			return opts, fmt.Errorf("reading the Temporal CA certificate: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return opts, fmt.Errorf("the Temporal CA certificate %s holds no PEM certificate", t.CACert)
		}
		cfg.RootCAs = pool
	}
	opts.ConnectionOptions.TLS = cfg
	if t.apiKey != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(t.apiKey)
	}
	return opts, nil
}

// ErrUnreachable is a failed connection (as opposed to settings that
// cannot work).
var ErrUnreachable = errors.New("cannot reach Temporal")

// Dial connects to Temporal. Its errors name the connection (String) and
// never carry the API key, even if a layer below echoed it.
func (t *Temporal) Dial(logger sdklog.Logger) (client.Client, error) {
	opts, err := t.ClientOptions(logger)
	if err != nil {
		return nil, t.redact(fmt.Errorf("Temporal at %s: %w", t, err))
	}
	c, err := client.Dial(opts)
	if err != nil {
		return nil, t.redact(fmt.Errorf("%w at %s: %w", ErrUnreachable, t, err))
	}
	return c, nil
}

// Redact hides the API key in err's text; errors.Is/As still see the
// chain. Use it on any error that may have passed through the connection.
func (t *Temporal) Redact(err error) error { return t.redact(err) }

func (t *Temporal) redact(err error) error {
	if err == nil || t.apiKey == "" || !strings.Contains(err.Error(), t.apiKey) {
		return err
	}
	return &redactedError{err: err, key: t.apiKey}
}

type redactedError struct {
	err error
	key string
}

func (e *redactedError) Error() string { return strings.ReplaceAll(e.err.Error(), e.key, "[redacted]") }
func (e *redactedError) Unwrap() error { return e.err }
