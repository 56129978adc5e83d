package kit

import "runtime/debug"

// Garbage collection of the provider's process, when the environment does not
// set it (GOGC, GOMEMLIMIT).
const (
	// ProviderGCPercent lets the heap grow to five times what is live before
	// a collection, against Go's default of twice. A provider process lives
	// for one Terraform command, and the framework allocates per request
	// (every Read, plan and upgrade decodes and walks a resource's state):
	// with Go's default, a third of a large plan's provider CPU was the
	// collector's. Measured on 1,000 resources of the first types: the plan
	// 0.90× the time (median of ten runs side by side), the provider's peak
	// memory 195 MiB instead of 134.
	ProviderGCPercent = 400
	// ProviderMemoryLimit bounds what that costs a large organization: past
	// it, the collector runs as often as it must to stay under it (as long as
	// what is live fits). Measured on 3,000 resources of the organization mix
	// (BenchmarkRealmPlan, applies included), the provider's peak memory and
	// its plan against the quiet floor were 418 MiB and 1.87× at Go's
	// default, 963 MiB and 1.65× with this limit, 512 MiB and 1.82× with a
	// limit of 512 MiB: a limit that low gave the time back. GOMEMLIMIT
	// lowers it where memory is short.
	ProviderMemoryLimit = 1 << 30
)

// TuneGC sets the collector for a provider process: ProviderGCPercent and
// ProviderMemoryLimit, each unless the environment sets its own (GOGC,
// GOMEMLIMIT), which the Go runtime has already applied.
func TuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(ProviderGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(ProviderMemoryLimit)
	}
}
