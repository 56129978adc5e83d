package acctest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TLSOptions shape a reference server served over HTTPS.
type TLSOptions struct {
	// RequireClientCert makes the server refuse connections without a client
	// certificate signed by the test CA (ClientCert).
	RequireClientCert bool
}

// TLSServer is a reference server served over HTTPS with a certificate that a
// private test CA signed, as a self-hosted Zulip behind an internal CA would be.
// The PEM files it writes live in the test's temporary directory.
type TLSServer struct {
	*Server
	// CABundle is a PEM file of the CA that signed the server's certificate (and
	// the client certificate).
	CABundle string
	// ClientCert and ClientKey are PEM files of a client certificate the server
	// accepts; ClientCertAndKey holds both in one file.
	ClientCert       string
	ClientKey        string
	ClientCertAndKey string
	// OtherCABundle is a PEM file of an unrelated CA, which must not be trusted.
	OtherCABundle string
}

// NewTLSServer starts a fresh reference server over HTTPS; it stops when the
// test ends. opts adjust the reference server's options, as for NewServer.
func NewTLSServer(t *testing.T, tlsOpts TLSOptions, opts ...func(*refserver.Options)) *TLSServer {
	t.Helper()
	base, hs := newServer(t, opts)
	dir := t.TempDir()
	ca := newTestCA(t, "Zulip acctest CA")
	other := newTestCA(t, "Unrelated acctest CA")
	serverCert := ca.issue(t, "127.0.0.1", x509.ExtKeyUsageServerAuth)
	clientCert := ca.issue(t, "terraform-provider-zulip acctest client", x509.ExtKeyUsageClientAuth)

	s := &TLSServer{
		Server:           base,
		CABundle:         writePEM(t, dir, "ca.pem", ca.certPEM),
		OtherCABundle:    writePEM(t, dir, "other-ca.pem", other.certPEM),
		ClientCert:       writePEM(t, dir, "client.pem", clientCert.certPEM),
		ClientKey:        writePEM(t, dir, "client-key.pem", clientCert.keyPEM),
		ClientCertAndKey: writePEM(t, dir, "client-and-key.pem", append(append([]byte{}, clientCert.certPEM...), clientCert.keyPEM...)),
	}
	// Refused handshakes are what several tests are about; they are not noise
	// worth printing.
	hs.Config.ErrorLog = log.New(io.Discard, "", 0)
	hs.TLS = &tls.Config{
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{serverCert.pair(t)},
	}
	if tlsOpts.RequireClientCert {
		pool := x509.NewCertPool()
		pool.AddCert(ca.cert)
		hs.TLS.ClientAuth = tls.RequireAndVerifyClientCert
		hs.TLS.ClientCAs = pool
	}
	hs.StartTLS()
	t.Cleanup(hs.Close)
	s.URL = hs.URL
	return s
}

// testCert is a certificate and its key, parsed and as PEM.
type testCert struct {
	cert    *x509.Certificate
	key     *ecdsa.PrivateKey
	certPEM []byte
	keyPEM  []byte
}

// pair returns the certificate for a tls.Config.
func (c *testCert) pair(t *testing.T) tls.Certificate {
	t.Helper()
	pair, err := tls.X509KeyPair(c.certPEM, c.keyPEM)
	if err != nil {
		t.Fatalf("test certificate: %v", err)
	}
	return pair
}

// newTestCA makes a self-signed CA certificate.
func newTestCA(t *testing.T, name string) *testCert {
	t.Helper()
	template := &x509.Certificate{
		Subject:               pkix.Name{CommonName: name},
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
	return makeCert(t, template, nil)
}

// issue signs a leaf certificate for name: an IP address or host name for a
// server, any name for a client.
func (c *testCert) issue(t *testing.T, name string, usage x509.ExtKeyUsage) *testCert {
	t.Helper()
	template := &x509.Certificate{
		Subject:     pkix.Name{CommonName: name},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{usage},
	}
	if usage == x509.ExtKeyUsageServerAuth {
		if ip := net.ParseIP(name); ip != nil {
			template.IPAddresses = []net.IP{ip}
		} else {
			template.DNSNames = []string{name}
		}
	}
	return makeCert(t, template, c)
}

// makeCert completes template with a fresh key, serial and validity, and signs it
// with parent (self-signed when parent is nil).
func makeCert(t *testing.T, template *x509.Certificate, parent *testCert) *testCert {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		t.Fatal(err)
	}
	template.SerialNumber = serial
	template.NotBefore = time.Now().Add(-time.Hour)
	template.NotAfter = time.Now().Add(24 * time.Hour)
	signer, signerCert := key, template
	if parent != nil {
		signer, signerCert = parent.key, parent.cert
	}
	der, err := x509.CreateCertificate(rand.Reader, template, signerCert, &key.PublicKey, signer)
	if err != nil {
		t.Fatalf("creating a test certificate: %v", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return &testCert{
		cert:    cert,
		key:     key,
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	}
}

// writePEM writes a file readable only by its owner and returns its path.
func writePEM(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
