package zulip

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"io/fs"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// pki is a private CA with a server certificate for 127.0.0.1 and a client certificate,
// written as PEM files.
type pki struct {
	caFile, otherCAFile           string
	clientCertFile, clientKeyFile string
	clientBothFile                string
	caPool                        *x509.CertPool
	serverCert                    tls.Certificate
	caCert                        *x509.Certificate
	caKey                         *ecdsa.PrivateKey
}

func newPKI(t *testing.T) *pki {
	t.Helper()
	dir := t.TempDir()
	p := &pki{}
	var caPEM []byte
	p.caCert, p.caKey, caPEM, _ = makeTestCert(t, &x509.Certificate{
		Subject: pkix.Name{CommonName: "test CA"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}, nil, nil)
	_, _, otherPEM, _ := makeTestCert(t, &x509.Certificate{
		Subject: pkix.Name{CommonName: "other CA"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign,
	}, nil, nil)
	_, _, serverPEM, serverKeyPEM := makeTestCert(t, &x509.Certificate{
		Subject: pkix.Name{CommonName: "127.0.0.1"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, p.caCert, p.caKey)
	var err error
	if p.serverCert, err = tls.X509KeyPair(serverPEM, serverKeyPEM); err != nil {
		t.Fatal(err)
	}
	_, _, clientPEM, clientKeyPEM := makeTestCert(t, &x509.Certificate{
		Subject: pkix.Name{CommonName: "client"}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, p.caCert, p.caKey)
	p.caPool = x509.NewCertPool()
	p.caPool.AddCert(p.caCert)
	p.caFile = writeFile(t, dir, "ca.pem", string(caPEM))
	p.otherCAFile = writeFile(t, dir, "other.pem", string(otherPEM))
	p.clientCertFile = writeFile(t, dir, "client.pem", string(clientPEM))
	p.clientKeyFile = writeFile(t, dir, "client.key", string(clientKeyPEM))
	p.clientBothFile = writeFile(t, dir, "client-both.pem", string(clientPEM)+string(clientKeyPEM))
	return p
}

func makeTestCert(t *testing.T, template, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey, []byte, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template.SerialNumber = big.NewInt(time.Now().UnixNano())
	template.NotBefore, template.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	if parent == nil {
		parent, parentKey = template, key
	}
	der, err := x509.CreateCertificate(rand.Reader, template, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

// tlsServer starts an HTTPS server with the PKI's server certificate that answers
// /server_settings and counts the requests that reach it.
func (p *pki) tlsServer(t *testing.T, requireClientCert bool) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var count atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		count.Add(1)
		success(w, `"zulip_feature_level":420`)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are the point
	srv.TLS = &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{p.serverCert}}
	if requireClientCert {
		srv.TLS.ClientAuth = tls.RequireAndVerifyClientCert
		srv.TLS.ClientCAs = p.caPool
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, &count
}

func TestClient_certBundle(t *testing.T) {
	p := newPKI(t)
	srv, count := p.tlsServer(t, false)
	for _, tt := range []struct {
		name   string
		bundle string
		ok     bool
	}{
		{"system roots only", "", false},
		{"another CA", p.otherCAFile, false},
		{"the server's CA", p.caFile, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(Config{SiteURL: srv.URL, CertBundle: tt.bundle})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.GetServerSettings(context.Background())
			if tt.ok {
				if err != nil {
					t.Fatalf("with the CA bundle: %v", err)
				}
				return
			}
			if err == nil || !IsTLSFailure(err) {
				t.Fatalf("error = %v, want an untrusted certificate", err)
			}
			if strings.Contains(err.Error(), "gave up after") {
				t.Errorf("a certificate failure was retried: %v", err)
			}
		})
	}
	if n := count.Load(); n != 1 {
		t.Errorf("%d requests reached the handler, want 1 (only the trusting client's)", n)
	}
}

func TestClient_clientCertificate(t *testing.T) {
	p := newPKI(t)
	srv, _ := p.tlsServer(t, true)
	for _, tt := range []struct {
		name      string
		cert, key string
		ok        bool
	}{
		{"none", "", "", false},
		{"certificate and key files", p.clientCertFile, p.clientKeyFile, true},
		{"one file with both", p.clientBothFile, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(Config{SiteURL: srv.URL, CertBundle: p.caFile, ClientCert: tt.cert, ClientCertKey: tt.key})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.GetServerSettings(context.Background())
			if tt.ok {
				if err != nil {
					t.Fatalf("with the client certificate: %v", err)
				}
				return
			}
			if err == nil || !IsTLSFailure(err) {
				t.Fatalf("error = %v (%T), want a refused handshake", err, errors.Unwrap(err))
			}
			if strings.Contains(err.Error(), "gave up after") {
				t.Errorf("a refused handshake was retried: %v", err)
			}
		})
	}
}

func TestNew_tlsFileErrors(t *testing.T) {
	p := newPKI(t)
	dir := t.TempDir()
	absent := filepath.Join(dir, "absent.pem")
	notPEM := writeFile(t, dir, "not.pem", "this is not PEM\n")
	for _, tt := range []struct {
		name        string
		cfg         Config
		wantSetting string
		wantPath    string
		wantText    string
	}{
		{"absent bundle", Config{CertBundle: absent}, "cert_bundle", absent, "no such file"},
		{"bundle without certificates", Config{CertBundle: notPEM}, "cert_bundle", notPEM, "no PEM certificate"},
		{"absent client certificate", Config{ClientCert: absent}, "client_cert", absent, "no such file"},
		{"absent key", Config{ClientCert: p.clientCertFile, ClientCertKey: absent}, "client_cert_key", absent, "no such file"},
		{"key without certificate", Config{ClientCertKey: p.clientKeyFile}, "client_cert_key", p.clientKeyFile, "without a client certificate"},
		{"certificate without its key", Config{ClientCert: p.clientCertFile}, "client_cert", p.clientCertFile, "private key"},
		{"key of another certificate", Config{ClientCert: p.clientCertFile, ClientCertKey: notPEM}, "client_cert", p.clientCertFile, notPEM},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.SiteURL = "https://chat.example.com"
			_, err := New(tt.cfg)
			var fileErr *TLSFileError
			if !errors.As(err, &fileErr) {
				t.Fatalf("error = %v (%T), want *TLSFileError", err, err)
			}
			if fileErr.Setting != tt.wantSetting || fileErr.Path != tt.wantPath || !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error = %q (setting %s, path %s); want %s, %s and %q", err, fileErr.Setting, fileErr.Path, tt.wantSetting, tt.wantPath, tt.wantText)
			}
			if strings.Contains(tt.wantText, "no such file") && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("errors.Is(err, fs.ErrNotExist) = false for %v", err)
			}
		})
	}
	if _, err := New(Config{SiteURL: "https://x", HTTPClient: http.DefaultClient, CertBundle: p.caFile}); err == nil {
		t.Error("a CA bundle was accepted with a custom HTTPClient, which would ignore it")
	}
}

func TestClient_httpsToAPlainServer(t *testing.T) {
	var count atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { count.Add(1) }))
	t.Cleanup(srv.Close)
	c, err := New(Config{SiteURL: strings.Replace(srv.URL, "http://", "https://", 1)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetServerSettings(context.Background())
	if !IsTLSFailure(err) || !IsPlainHTTPAnswer(err) || strings.Contains(err.Error(), "gave up after") {
		t.Errorf("error = %v, want a TLS failure without retries", err)
	}
}
