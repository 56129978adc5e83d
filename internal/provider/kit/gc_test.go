package kit

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC: the provider's settings apply unless the environment sets its
// own, each on its own.
func TestTuneGC(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	defer func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) }()
	for _, tc := range []struct {
		env         map[string]string
		wantPercent int
		wantLimit   int64
	}{
		{map[string]string{}, ProviderGCPercent, ProviderMemoryLimit},
		{map[string]string{"GOGC": "100"}, 100, ProviderMemoryLimit},
		{map[string]string{"GOMEMLIMIT": "256MiB"}, ProviderGCPercent, math.MaxInt64},
	} {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		TuneGC(func(k string) string { return tc.env[k] })
		if got := debug.SetGCPercent(100); got != tc.wantPercent {
			t.Errorf("with %v, GC percent %d, want %d", tc.env, got, tc.wantPercent)
		}
		if got := debug.SetMemoryLimit(-1); got != tc.wantLimit {
			t.Errorf("with %v, memory limit %d, want %d", tc.env, got, tc.wantLimit)
		}
	}
}
