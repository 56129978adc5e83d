package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// getJSON fetches a URL, optionally with Basic auth, and decodes the answer.
func getJSON(t *testing.T, url, user, key string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if user != "" {
		req.SetBasicAuth(user, key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer func() {
		if err := resp.Body.Close(); err != nil {
			t.Errorf("GET %s: closing the body: %v", url, err)
		}
	}()
	var body map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("GET %s: %q: %v", url, raw, err)
	}
	return resp.StatusCode, body
}

func TestRunServesAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	state := filepath.Join(t.TempDir(), "state.json")
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-state", state, "-feature-level", "420", "-rate-limit", "50"},
			&stdout, &stderr, func(base string) { ready <- base })
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("not ready")
	}
	status, body := getJSON(t, base+"/api/v1/server_settings", "", "")
	if status != 200 || body["zulip_feature_level"] != 420.0 || body["realm_url"] != base {
		t.Fatalf("server_settings: %d %v", status, body)
	}
	out := stdout.String()
	for _, want := range []string{"listening on " + base, "olivia@zulip.example.com", "[api]\nemail=olivia@zulip.example.com\nkey=", "site=" + base} {
		if !strings.Contains(out, want) {
			t.Errorf("banner lacks %q:\n%s", want, out)
		}
	}
	// The printed zuliprc works.
	key := regexp.MustCompile(`(?m)^key=(\S+)$`).FindStringSubmatch(out)
	if key == nil {
		t.Fatal("no key in the zuliprc")
	}
	status, body = getJSON(t, base+"/api/v1/users/me", "olivia@zulip.example.com", key[1])
	if status != 200 || body["role"] != 100.0 {
		t.Fatalf("users/me: %d %v", status, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("did not stop")
	}
	if !strings.Contains(stderr.String(), "GET /api/v1/server_settings -> 200") {
		t.Errorf("request log:\n%s", stderr.String())
	}
	if _, err := os.Stat(state); err != nil {
		t.Errorf("state file: %v", err)
	}
}

func TestFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-fault-error-rate", "1.5"},
		{"-fault-error-rate", "0.6", "-fault-drop-rate", "0.6"},
		{"-push-bouncer-error", "NOPE"},
		{"-rate-limit", "-1"},
		{"extra"},
		{"-no-such-flag"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
	cfg, err := parseFlags([]string{"-fault-latency", "20ms", "-seed", "7", "-production", "-sms-user", "u", "-sms-password", "p"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.opts.Faults.Latency != 20*time.Millisecond || cfg.opts.Seed != 7 || !cfg.opts.Production ||
		cfg.opts.SMSUsername != "u" || cfg.opts.SMSPassword != "p" || cfg.listen != "127.0.0.1:9991" {
		t.Errorf("%+v", cfg)
	}
}

// TestBinary builds the command, runs it on a free port, queries it and stops
// it with SIGINT, as a user would.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "zulip-refserver")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-listen", "127.0.0.1:0", "-quiet")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		re := regexp.MustCompile(`listening on (http://\S+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
	}()
	var base string
	select {
	case base = <-urls:
	case <-time.After(20 * time.Second):
		t.Fatalf("no address printed; stderr:\n%s", stderr.String())
	}
	status, body := getJSON(t, base+"/api/v1/server_settings", "", "")
	if status != 200 || body["result"] != "success" {
		t.Fatalf("%d %v", status, body)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("did not stop on SIGINT")
	}
}
