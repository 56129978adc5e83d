// Command zulip-refserver runs the bundled reference Zulip server standalone:
// an in-memory, seeded Zulip organization (plus the SMS conversations API under
// /a1/) for demos, manual testing and clients other than this provider.
//
//	go run ./internal/cmd/zulip-refserver                 # http://127.0.0.1:9991
//	go run ./internal/cmd/zulip-refserver -state realm.json -rate-limit 200
//
// At start it prints the seeded accounts with their API keys and a zuliprc for
// the organization owner; it logs one line per request to standard error and
// stops cleanly on SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "zulip-refserver:", err)
		os.Exit(1)
	}
}

// config is the parsed command line.
type config struct {
	listen string
	quiet  bool
	opts   refserver.Options
}

// parseFlags reads the command line into a config.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("zulip-refserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := &config{}
	o := &cfg.opts
	fs.StringVar(&cfg.listen, "listen", "127.0.0.1:9991", "`address` to listen on (port 0 picks a free port)")
	fs.BoolVar(&cfg.quiet, "quiet", false, "do not log requests")
	fs.StringVar(&o.StateFile, "state", "", "state `file`: loaded at start if present, rewritten atomically after every change")
	fs.StringVar(&o.Host, "host", "", "the realm's host name, used in dummy e-mail addresses (default zulip.example.com)")
	fs.IntVar(&o.FeatureLevel, "feature-level", refserver.DefaultFeatureLevel, "API feature level to advertise and behave as")
	fs.StringVar(&o.Version, "version", refserver.DefaultVersion, "zulip_version to advertise")
	fs.BoolVar(&o.Production, "production", false, "behave as a production server (/dev_fetch_api_key refused)")
	fs.IntVar(&o.RateLimit, "rate-limit", 0, "API requests per user per minute; 0 disables rate limiting (Zulip's default is 200)")
	fs.Int64Var(&o.Seed, "seed", 0, "seed of fault injection (the same seed gives the same sequence of faults)")
	fs.DurationVar(&o.Faults.Latency, "fault-latency", 0, "latency added to every API request")
	fs.Float64Var(&o.Faults.ErrorRate, "fault-error-rate", 0, "fraction of API requests answered 503 without processing")
	fs.Float64Var(&o.Faults.DropRate, "fault-drop-rate", 0, "fraction of API requests whose connection is closed without processing")
	fs.Float64Var(&o.Faults.LostAnswerRate, "fault-lost-answer-rate", 0, "fraction of API requests processed whose answer is then dropped")
	fs.Float64Var(&o.Faults.RateLimitRate, "fault-rate-limit-rate", 0, "fraction of API requests answered 429 RATE_LIMIT_HIT without processing")
	fs.Float64Var(&o.Faults.RetryAfterSecs, "fault-retry-after", 0.5, "retry-after `seconds` of injected 429 answers")
	fs.StringVar(&o.PushBouncerError, "push-bouncer-error", "", "make E2EE test notifications fail with this `code` "+
		"(ADMIN_ACTION_REQUIRED, FAILED_TO_CONNECT_BOUNCER or INTERNAL_SERVER_ERROR_ON_BOUNCER)")
	fs.StringVar(&o.SMSUsername, "sms-user", "sms-user", "API username of the SMS conversations API under /a1/")
	fs.StringVar(&o.SMSPassword, "sms-password", "sms-password", "API password of the SMS conversations API under /a1/")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	f := o.Faults
	for name, rate := range map[string]float64{"fault-error-rate": f.ErrorRate, "fault-drop-rate": f.DropRate,
		"fault-lost-answer-rate": f.LostAnswerRate, "fault-rate-limit-rate": f.RateLimitRate} {
		if rate < 0 || rate > 1 {
			return nil, fmt.Errorf("-%s must be between 0 and 1, not %g", name, rate)
		}
	}
	if sum := f.ErrorRate + f.DropRate + f.LostAnswerRate + f.RateLimitRate; sum > 1 {
		return nil, fmt.Errorf("the fault rates add up to %g, more than 1", sum)
	}
	switch o.PushBouncerError {
	case "", "ADMIN_ACTION_REQUIRED", "FAILED_TO_CONNECT_BOUNCER", "INTERNAL_SERVER_ERROR_ON_BOUNCER":
	default:
		return nil, fmt.Errorf("unknown -push-bouncer-error %q", o.PushBouncerError)
	}
	if o.RateLimit < 0 {
		return nil, fmt.Errorf("-rate-limit must not be negative")
	}
	return cfg, nil
}

// run serves until ctx is done. ready, when set, receives the server's base URL
// once it accepts connections.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, ready func(baseURL string)) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logger := log.New(stderr, "", log.LstdFlags|log.Lmicroseconds)
	if !cfg.quiet {
		cfg.opts.Logger = logger
	}
	srv, err := refserver.New(cfg.opts)
	if err != nil {
		return err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", cfg.listen)
	if err != nil {
		return err
	}
	base := baseURL(ln.Addr())
	// A banner that cannot be written (a closed standard output) does not stop
	// the server; it is only logged.
	if err := printBanner(stdout, srv, base, cfg); err != nil {
		logger.Printf("writing the banner: %v", err)
	}

	// Read, write and idle timeouts and the header limit: see refserver.ConfigureHTTPServer.
	hs := srv.NewHTTPServer(logger)
	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()
	if ready != nil {
		ready(base)
	}
	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	logger.Printf("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// baseURL is the URL clients use for a listening address; a wildcard address
// is shown as the loopback one.
func baseURL(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	ip := tcp.IP
	if ip == nil || ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return "http://" + net.JoinHostPort(ip.String(), fmt.Sprint(tcp.Port))
}

// roleName names a Zulip role.
func roleName(role int, bot bool) string {
	name := map[int]string{
		refserver.RoleOwner: "owner", refserver.RoleAdministrator: "administrator",
		refserver.RoleModerator: "moderator", refserver.RoleMember: "member", refserver.RoleGuest: "guest",
	}[role]
	if bot {
		return "bot (" + name + ")"
	}
	return name
}

// printBanner prints the address, the seeded credentials and an owner zuliprc.
// The banner is composed in memory and written with one call, whose error is
// returned.
func printBanner(w io.Writer, srv *refserver.Server, base string, cfg *config) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Zulip reference server listening on %s (API: %s/api/v1, SMS API: %s/a1)\n", base, base, base)
	fmt.Fprintf(&b, "feature level %d, version %s", cfg.opts.FeatureLevel, cfg.opts.Version)
	if cfg.opts.StateFile != "" {
		fmt.Fprintf(&b, ", state file %s", cfg.opts.StateFile)
	}
	b.WriteString("\n\n")
	var rows strings.Builder
	rows.WriteString("ID\tROLE\tEMAIL\tAPI KEY\tPASSWORD\tNAME\n")
	var owner *refserver.SeedUser
	for _, u := range srv.SeedUsers() {
		role := roleName(u.Role, u.IsBot)
		if !u.Active {
			role += ", deactivated"
		}
		password := u.Password
		if u.IsBot || password == "" {
			password = "-"
		}
		fmt.Fprintf(&rows, "%d\t%s\t%s\t%s\t%s\t%s\n", u.ID, role, u.Email, u.APIKey, password, u.FullName)
		if owner == nil && u.Role == refserver.RoleOwner && u.Active && !u.IsBot {
			owner = &u
		}
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	if _, err := io.WriteString(tw, rows.String()); err != nil {
		return err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if owner != nil {
		fmt.Fprintf(&b, "\nzuliprc for %s (the organization owner):\n\n[api]\nemail=%s\nkey=%s\nsite=%s\n\n",
			owner.FullName, owner.Email, owner.APIKey, base)
	}
	fmt.Fprintf(&b, "SMS API credentials: %s / %s\n\n", cfg.opts.SMSUsername, cfg.opts.SMSPassword)
	_, err := io.WriteString(w, b.String())
	return err
}
