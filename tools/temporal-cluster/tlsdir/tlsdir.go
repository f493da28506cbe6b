// Package tlsdir reads the cluster's TLS directory, as make-tls.sh writes
// it: ca.pem, the frontend's pair, the client pair and the API key.
package tlsdir

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"
)

// Client is the CA's pool and the cluster's client pair: what a client
// (the setup, the system worker) needs for mTLS.
func Client(dir string) (ca *x509.CertPool, pair tls.Certificate, err error) {
	file := filepath.Join(dir, "ca.pem")
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, pair, err
	}
	ca = x509.NewCertPool()
	if !ca.AppendCertsFromPEM(pem) {
		return nil, pair, fmt.Errorf("%s holds no certificate", file)
	}
	pair, err = tls.LoadX509KeyPair(filepath.Join(dir, "client.pem"), filepath.Join(dir, "client-key.pem"))
	return ca, pair, err
}
