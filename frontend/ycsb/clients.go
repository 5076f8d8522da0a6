package ycsb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/fleet/partition"
	"github.com/goycsb/ycsb/fleet/rendezvous"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/internal/within"
	"github.com/goycsb/ycsb/props"
	"github.com/goycsb/ycsb/workload"
)

// clientShare is a client's share of a total of all clients (operationcount,
// target). A share of 0 would mean "no limit" (or "unthrottled"), the
// opposite of what was asked, so it is refused.
func clientShare(cl partition.Clients, name string, total int64) (int64, error) {
	share := cl.Share(total)
	if total > 0 && share == 0 {
		return 0, props.Errorf(name, "%d is less than client.count=%d: it is the total of all clients, and client %d would get none", total, cl.Count, cl.Index)
	}
	return share, nil
}

// checkEmbeddedFleet refuses client.count with an embedded engine
// (db.Embedded), whose store is each client process's own: every client
// would benchmark a store of its own, holding only its slice of the
// records, and processes cannot share one directory (the engine locks
// it). A fleet of one is refused too: it is one process, which needs no
// client.count. binding is the binding's primary name.
func checkEmbeddedFleet(cl partition.Clients, binding string) error {
	if !cl.Split() || db.KindOf(binding) != db.Embedded {
		return nil
	}
	return props.Errorf("client.count", "%s is an embedded engine, in each client's own process: every client would benchmark a store of its own (and processes cannot share engine.dir: the engine locks it); run one process, with -threads for more work", binding)
}

// How far from now a starttime may be: one a minute or more in the past is
// a stale command line (or a clock off by that much), one more than a day
// ahead most likely a mistake in the date.
const (
	startTimePast   = time.Minute
	startTimeFuture = 24 * time.Hour
)

// parseStartTime reads starttime: an RFC 3339 time or seconds since the
// Unix epoch, at most startTimePast before now and startTimeFuture after.
func parseStartTime(p *props.Properties, now time.Time) (time.Time, error) {
	raw, ok := p.Word("starttime")
	if !ok {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil {
		secs, ferr := strconv.ParseFloat(raw, 64)
		if ferr != nil || math.IsNaN(secs) || math.IsInf(secs, 0) || secs < 0 || secs > 1e11 {
			return time.Time{}, props.Invalid("starttime", raw, "an RFC 3339 time (2025-06-01T12:00:00Z) or seconds since the Unix epoch")
		}
		whole, frac := math.Modf(secs)
		t = time.Unix(int64(whole), int64(frac*1e9))
	}
	switch d := t.Sub(now); {
	case d < -startTimePast:
		return time.Time{}, props.Errorf("starttime", "%s is %s in the past: give a time ahead of every client's start (clocks in sync)", t.UTC().Format(time.RFC3339), (-d).Round(time.Second))
	case d > startTimeFuture:
		return time.Time{}, props.Errorf("starttime", "%s is %s ahead, more than %s", t.UTC().Format(time.RFC3339), d.Round(time.Second), startTimeFuture)
	}
	return t, nil
}

// clientLine is the start-up line of a client of several: what it derived
// from the totals, as users would otherwise compute by hand.
func (p *prepared) clientLine(wl *workload.Config) string {
	cl, s := p.s.clients, p.s
	if !cl.Split() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Client %d of %d (client.index=%d):", cl.Index+1, cl.Count, cl.Index)
	switch {
	case p.o.capacity:
		fmt.Fprintf(&b, " its share of each step's rate; its inserts take key numbers %d+%d·k", wl.RecordCount+int64(cl.Index), cl.Count)
	case s.transactions:
		fmt.Fprintf(&b, " %d operations", s.opCount)
		if s.opCount == 0 {
			b.WriteString(" (no limit)")
		}
		if s.target > 0 {
			fmt.Fprintf(&b, ", target %d ops/sec", s.target)
		}
		fmt.Fprintf(&b, "; its inserts take key numbers %d+%d·k", wl.RecordCount+int64(cl.Index), cl.Count)
	default:
		fmt.Fprintf(&b, " records %d to %d of %d", wl.InsertStart, wl.InsertStart+wl.InsertCount-1, wl.RecordCount)
		if s.target > 0 {
			fmt.Fprintf(&b, ", target %d ops/sec", s.target)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// waitForStart waits until the starttime, with a countdown on w: rewritten
// every second on a terminal (tty), a line a minute, then every ten
// seconds in the last minute, otherwise. It returns ctx's error when ctx
// ends first (Ctrl-C: nothing has run).
func waitForStart(ctx context.Context, w io.Writer, at time.Time, tty bool) error {
	if at.IsZero() {
		return nil
	}
	stamp := at.UTC().Format(time.RFC3339Nano)
	left := time.Until(at)
	if left <= 0 {
		fmt.Fprintf(w, "starttime %s passed %s ago, during setup: starting now\n", stamp, (-left).Round(time.Millisecond))
		return nil
	}
	start := time.NewTimer(left)
	defer start.Stop()
	for {
		left := time.Until(at)
		if tty {
			fmt.Fprintf(w, "\rWaiting for starttime %s: %s ", stamp, left.Round(time.Second))
		} else {
			fmt.Fprintf(w, "Waiting for starttime %s: %s\n", stamp, left.Round(time.Second))
		}
		next := time.Second
		if !tty {
			next = 10 * time.Second
			if left > time.Minute {
				next = time.Minute
			}
		}
		// The next line comes at a whole multiple of next before the start.
		step := left % next
		if step < next/10 {
			step += next
		}
		line := time.NewTimer(step)
		select {
		case <-start.C:
			line.Stop()
			if tty {
				fmt.Fprintln(w)
			}
			return nil
		case <-line.C:
		case <-ctx.Done():
			line.Stop()
			if tty {
				fmt.Fprintln(w)
			}
			return ctx.Err()
		}
	}
}

// The rendezvous of a fleet (docs/clients.md, "Rendezvous"): a start
// without clocks that agree, in the client.* family since it is the
// clients' business, like client.count.
const (
	propRendezvous        = "client.rendezvous"
	propRendezvousTimeout = "client.rendezvous.timeout"
	// Pods of one Job may come up minutes apart (scheduling, image pulls).
	defaultRendezvousTimeout = 10 * time.Minute
	maxRendezvousTimeout     = 24 * time.Hour
)

// meetSettings are client.rendezvous and its timeout; addr is "" without.
type meetSettings struct {
	addr    string
	timeout time.Duration
}

// parseRendezvous reads client.rendezvous=HOST:PORT and
// client.rendezvous.timeout (seconds), which need a fleet (client.count of
// 2 or more) and replace starttime.
func parseRendezvous(r *props.Reader, cl partition.Clients) meetSettings {
	m := meetSettings{addr: r.String(propRendezvous, "")}
	m.timeout = r.Duration(propRendezvousTimeout, time.Second, defaultRendezvousTimeout, time.Second, maxRendezvousTimeout)
	if r.Err() != nil {
		return m
	}
	switch {
	case !r.Has(propRendezvous) && r.Has(propRendezvousTimeout):
		r.Errorf(propRendezvousTimeout, "needs client.rendezvous, the HOST:PORT where the clients meet")
	case !r.Has(propRendezvous):
	case cl.Count < 2:
		r.Errorf(propRendezvous, "needs a fleet to meet: client.count of 2 or more")
	case r.Has("starttime"):
		r.Errorf(propRendezvous, "give client.rendezvous or starttime, not both: both say when the clients start")
	default:
		host, port, err := net.SplitHostPort(m.addr)
		n, perr := strconv.Atoi(port)
		if err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			r.Fail(props.Invalid(propRendezvous, m.addr, "HOST:PORT, where client 0 listens and the others connect (for example 10.0.0.5:7070)"))
		}
	}
	return m
}

// Properties left out of the experiment's fingerprint: the client's own
// index, outputs and settings of the wait, which differ between clients of
// one experiment, and secrets, which are not sent anywhere, even hashed.
var notInFingerprint = map[string]bool{
	"client.index": true, propRendezvousTimeout: true, "report.json": true, "exportfile": true,
	"exporter": true, "label": true, "status": true, "status.interval": true, "progress": true,
	"cpuprofile": true, "prometheus.addr": true, "prometheus.linger": true,
	"hdrhistogram.output.path": true, "measurement.raw.output_file": true,
}

// fingerprint sums up the experiment a client takes part in: a hash of
// its properties but those of notInFingerprint, so that client 0 refuses
// a client of another run.
func fingerprint(m map[string]string) string {
	names := make([]string, 0, len(m))
	for k := range m {
		if !notInFingerprint[k] && !secret.IsSecret(k) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	h := sha256.New()
	for _, k := range names {
		fmt.Fprintf(h, "%q=%q\n", k, m[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// meet waits for the rendezvous, then for the start it announces, and
// records that start as the run's starttime (on this machine's clock).
func (b *bench) meet(ctx context.Context) error {
	s := b.s
	at, err := rendezvous.Meet(ctx, rendezvous.Config{
		Addr: s.meet.addr, Count: s.clients.Count, Index: s.clients.Index,
		Fingerprint: fingerprint(b.o.Props.Map()), Timeout: s.meet.timeout,
		Say: func(line string) { fmt.Fprintln(b.o.Stderr, line) },
	})
	if err == nil && !within.Sleep(ctx, time.Until(at)) {
		err = ctx.Err()
	}
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted while waiting for the rendezvous at %s: nothing was run", s.meet.addr)
	case err != nil:
		return fmt.Errorf("%s=%s (nothing was run): %w", propRendezvous, s.meet.addr, err)
	}
	s.startTime = at
	return nil
}
