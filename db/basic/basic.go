// Package basic is the reference's BasicDB: a binding that stores nothing and
// answers OK at once, to measure the client itself.
//
// Properties (defaults): basicdb.verbose (false), basicdb.simulatedelay (0 ms),
// basicdb.randomizedelay (true), basicdb.count (false). Unlike the reference,
// verbose is off by default: printing every operation makes a client
// benchmark measure the terminal.
package basic

import (
	"context"
	"fmt"
	"github.com/goycsb/ycsb/internal/clock"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/props"
)

func init() {
	db.Register("basic", "no-op binding that measures the client itself", db.CheckedDriver{OpenFunc: open, CheckFunc: check},
		"site.ycsb.BasicDB", "com.yahoo.ycsb.BasicDB")
}

type basicDB struct {
	verbose   bool
	delay     time.Duration
	randomize bool

	out   io.Writer
	outMu sync.Mutex // verbose lines from all workers go to one writer

	count   bool
	countMu sync.Mutex
	uniques [5]map[uint64]struct{} // read, scan, update, insert, delete
}

// check is open's validation of the properties (db.Checker).
func check(p *props.Properties) error {
	_, err := parse(p, nil)
	return err
}

// parse reads basic's properties.
func parse(p *props.Properties, out io.Writer) (*basicDB, error) {
	b := &basicDB{out: out}
	var err error
	if b.verbose, err = p.Bool("basicdb.verbose", false); err != nil {
		return nil, err
	}
	if b.delay, err = p.Duration("basicdb.simulatedelay", time.Millisecond, 0, 0, props.MaxDuration); err != nil {
		return nil, err
	}
	if b.randomize, err = p.Bool("basicdb.randomizedelay", true); err != nil {
		return nil, err
	}
	if b.count, err = p.Bool("basicdb.count", false); err != nil {
		return nil, err
	}
	return b, nil
}

func open(ctx context.Context, p *props.Properties, out io.Writer) (db.DB, error) {
	b, err := parse(p, out)
	if err != nil {
		return nil, err
	}
	for i := range b.uniques {
		b.uniques[i] = map[uint64]struct{}{}
	}
	if b.verbose {
		var sb strings.Builder
		sb.WriteString("***************** properties *****************\n")
		for _, k := range p.Keys() {
			v, _ := p.Get(k)
			fmt.Fprintf(&sb, "%q=%q\n", k, secret.Value(k, v))
		}
		sb.WriteString(strings.Repeat("*", 46) + "\n")
		b.print(sb.String())
	}
	return b, nil
}

func (b *basicDB) print(s string) {
	b.outMu.Lock()
	io.WriteString(b.out, s)
	b.outMu.Unlock()
}

func (b *basicDB) Session(_ context.Context, worker, _ int) (db.Session, error) {
	s := &session{b: b}
	if b.delay > 0 {
		s.rng = rand.New(rand.NewPCG(uint64(worker), uint64(time.Now().UnixNano())))
		s.timer = clock.NewTimer()
	}
	return s, nil
}

func (b *basicDB) Close() error {
	if !b.count {
		return nil
	}
	var sb strings.Builder
	for i, name := range [...]string{"READS", "SCANS", "UPDATES", "INSERTS", "DELETES"} {
		fmt.Fprintf(&sb, "[%s], Uniques, %d\n", name, len(b.uniques[i]))
	}
	b.print(sb.String())
	return nil
}

// Indexes of basicDB.uniques, in the order of the summary lines.
const (
	countReads = iota
	countScans
	countUpdates
	countInserts
	countDeletes
)

type session struct {
	b   *basicDB
	rng *rand.Rand
	// timer sleeps the simulated delay: the runtime's timers wake up to a
	// millisecond late on Linux (internal/clock), which would make a 1 ms
	// delay take nearly 2.
	timer *clock.Timer
	line  strings.Builder
}

func (s *session) wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.b.delay <= 0 {
		return nil
	}
	d := s.b.delay
	if s.b.randomize {
		// Whole milliseconds below the delay, as the reference draws them.
		ms := int64(d / time.Millisecond)
		if ms == 0 {
			return nil
		}
		if d = time.Duration(s.rng.Int64N(ms)) * time.Millisecond; d == 0 {
			return nil
		}
	}
	start := clock.Now()
	stop := context.AfterFunc(ctx, s.timer.Interrupt)
	slept := s.timer.SleepUntil(start + int64(d))
	if !stop() {
		// ctx ended: the Timer is interrupted for good, or is being, and
		// the next wait needs a new one. This one is left to its
		// finalizer, as Interrupt may still be running.
		s.timer = clock.NewTimer()
		if !slept {
			return ctx.Err()
		}
	}
	return nil
}

func (s *session) countOp(i int, parts ...string) {
	h := fnv.New64a()
	for _, p := range parts {
		io.WriteString(h, p)
	}
	s.b.countMu.Lock()
	s.b.uniques[i][h.Sum64()] = struct{}{}
	s.b.countMu.Unlock()
}

func sortedFields(fields []string) string {
	f := append([]string(nil), fields...)
	sort.Strings(f)
	return strings.Join(f, ",")
}

func sortedValues(values []db.Field) string {
	parts := make([]string, len(values))
	for i, f := range values {
		parts[i] = f.Name + "=" + string(f.Value)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func (s *session) fieldList(fields []string) {
	s.line.WriteString("[ ")
	if fields == nil {
		s.line.WriteString("<all fields>")
	}
	for _, f := range fields {
		s.line.WriteString(f)
		s.line.WriteByte(' ')
	}
	s.line.WriteString("]\n")
}

func (s *session) valueList(values []db.Field) {
	s.line.WriteString("[ ")
	for _, f := range values {
		s.line.WriteString(f.Name)
		s.line.WriteByte('=')
		s.line.Write(f.Value)
		s.line.WriteByte(' ')
	}
	s.line.WriteString("]\n")
}

func (s *session) flush() {
	s.b.print(s.line.String())
	s.line.Reset()
}

func (s *session) Read(ctx context.Context, table, key string, fields []string, _ *db.Record) error {
	return s.read(ctx, "READ", countReads, fields, table, key)
}

func (s *session) Scan(ctx context.Context, table, start string, count int, fields []string, _ *db.Rows) error {
	return s.read(ctx, "SCAN", countScans, fields, table, start, strconv.Itoa(count))
}

// read is Read and Scan, which differ in their name and their arguments
// (the table and key, and a scan's count), printed and counted in order
// before the fields.
func (s *session) read(ctx context.Context, op string, counter int, fields []string, args ...string) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	if s.b.verbose {
		s.line.WriteString(op)
		for _, a := range args {
			s.line.WriteByte(' ')
			s.line.WriteString(a)
		}
		s.line.WriteByte(' ')
		s.fieldList(fields)
		s.flush()
	}
	if s.b.count {
		s.countOp(counter, append(args, sortedFields(fields))...)
	}
	return nil
}

func (s *session) Update(ctx context.Context, table, key string, values []db.Field) error {
	return s.write(ctx, "UPDATE", countUpdates, table, key, values)
}

func (s *session) Insert(ctx context.Context, table, key string, values []db.Field) error {
	return s.write(ctx, "INSERT", countInserts, table, key, values)
}

// write is Update and Insert, which differ only in their name.
func (s *session) write(ctx context.Context, op string, counter int, table, key string, values []db.Field) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	if s.b.verbose {
		fmt.Fprintf(&s.line, "%s %s %s ", op, table, key)
		s.valueList(values)
		s.flush()
	}
	if s.b.count {
		s.countOp(counter, table, key, sortedValues(values))
	}
	return nil
}

func (s *session) Delete(ctx context.Context, table, key string) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	if s.b.verbose {
		fmt.Fprintf(&s.line, "DELETE %s %s\n", table, key)
		s.flush()
	}
	if s.b.count {
		s.countOp(countDeletes, table, key)
	}
	return nil
}

func (s *session) Close(context.Context) error {
	if s.timer != nil {
		s.timer.Close()
	}
	return nil
}
