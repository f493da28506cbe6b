package main

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"testing"

	"go.temporal.io/server/common/authorization"
	"google.golang.org/grpc/credentials"
)

func TestClaimMapperAdmitsVerifiedCertificatesAndTheAPIKeyOnly(t *testing.T) {
	m := &claimMapper{keyHash: sha256.Sum256([]byte("s3cret"))}
	verified := &credentials.TLSInfo{State: tls.ConnectionState{VerifiedChains: [][]*x509.Certificate{{}}}}
	unverified := &credentials.TLSInfo{}
	subject := &pkix.Name{CommonName: "autoscheduler"}
	for _, tc := range []struct {
		name  string
		info  authorization.AuthInfo
		admit string // AuthType, "" = no claims
	}{
		{"verified client certificate", authorization.AuthInfo{TLSSubject: subject, TLSConnection: verified}, "mtls"},
		{"certificate the handshake did not verify", authorization.AuthInfo{TLSSubject: subject, TLSConnection: unverified}, ""},
		{"the API key", authorization.AuthInfo{AuthToken: "Bearer s3cret"}, "api-key"},
		{"a wrong key", authorization.AuthInfo{AuthToken: "Bearer s3cret2"}, ""},
		{"the key without Bearer", authorization.AuthInfo{AuthToken: "s3cret"}, ""},
		{"nothing", authorization.AuthInfo{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			claims, err := m.GetClaims(&tc.info)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.admit == "" && claims != nil:
				t.Fatalf("admitted: %+v", claims)
			case tc.admit != "" && (claims == nil || claims.AuthType != tc.admit || claims.System != authorization.RoleAdmin):
				t.Fatalf("claims %+v, want admin by %s", claims, tc.admit)
			}
		})
	}
}
