//go:build unix

package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestProviderExitsWhenTerraformIsKilled builds the provider, starts it as go-plugin
// does (the magic cookie in the environment, the handshake line on stdout) under a
// stand-in for Terraform, kills that parent with SIGKILL, and checks that the provider
// exits within a few seconds instead of serving its socket forever.
func TestProviderExitsWhenTerraformIsKilled(t *testing.T) {
	binary := buildProvider(t, filepath.Join(t.TempDir(), "terraform-provider-zulip"))

	// The parent prints the provider's process id, then becomes a long sleep: the
	// provider's parent is then a process that can be killed without any cleanup.
	parent := exec.Command("/bin/sh", "-c", `"$0" & echo "pid $!"; exec sleep 600`, binary)
	parent.Env = append(os.Environ(),
		"TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		"PLUGIN_PROTOCOL_VERSIONS=6")
	stdout, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = parent.Process.Kill(); _ = parent.Wait() })

	// Read the provider's process id and its go-plugin handshake ("6|6|unix|...|grpc|").
	lines := make(chan string)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			lines <- scanner.Text()
		}
		close(lines)
	}()
	pid, serving := 0, false
	timeout := time.After(30 * time.Second)
	for pid == 0 || !serving {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the parent's output ended before the provider served (pid %d, serving %v)", pid, serving)
			}
			if rest, found := strings.CutPrefix(line, "pid "); found {
				if pid, err = strconv.Atoi(rest); err != nil {
					t.Fatalf("bad pid line %q", line)
				}
			} else if strings.Contains(line, "|grpc") {
				serving = true
			}
		case <-timeout:
			t.Fatalf("the provider did not start serving (pid %d, serving %v)", pid, serving)
		}
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if gone(pid) {
		t.Fatal("the provider exited while its parent was alive")
	}

	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait() // killed: the error is expected
	killed := time.Now()
	for !gone(pid) {
		if time.Since(killed) > 10*time.Second {
			t.Fatalf("the provider (pid %d) still runs %s after Terraform was killed", pid, time.Since(killed).Round(time.Second))
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the provider exited %s after its parent was killed", time.Since(killed).Round(10*time.Millisecond))
}

// gone reports whether a process has exited. An exited orphan can linger as a zombie
// until its new parent reaps it (in a container, pid 1 may never do so), which signal 0
// cannot tell from a live process, so /proc is asked where there is one.
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist) && dirExists("/proc/self")
	}
	// The state follows the command name, which is in parentheses.
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z' || stat[i+2] == 'X'
	}
	return false
}

func dirExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// buildProvider builds the provider binary at path, skipping the test in -short
// mode or without a go command.
func buildProvider(t testing.TB, path string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the provider binary")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to build the provider with")
	}
	return buildPackage(t, goTool, path, ".")
}

// buildPackage builds the package at pkg into path.
func buildPackage(t testing.TB, goTool, path, pkg string) string {
	t.Helper()
	if out, err := exec.Command(goTool, "build", "-o", path, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return path
}
