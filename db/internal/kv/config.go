// Package kv holds what the embedded-engine bindings (pebble, rocksdb,
// badger, bbolt, sqlite) share so that a comparison between them is fair by
// construction: the engine-neutral properties and their defaults, the data
// directory checks, the record encoding with its field-wise merge, the
// session that runs the operations over each engine's Conn, the
// amplification measured the same way for all, and the shape of the engine
// statistics in the report.
package kv

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/props"
)

// Property names read by every engine (an engine refuses those that mean
// nothing to it: Spec.NotApplicable). docs/engines.md documents each.
const (
	PropDir               = "engine.dir"
	PropSync              = "engine.sync"
	PropCacheSize         = "engine.cachesize"
	PropMemtableSize      = "engine.memtablesize"
	PropCompression       = "engine.compression"
	PropBloomBits         = "engine.bloombits"
	PropBlockSize         = "engine.blocksize"
	PropMaxOpenFiles      = "engine.maxopenfiles"
	PropCompactionThreads = "engine.compactionthreads"
	PropFresh             = "engine.fresh"
	PropSettle            = "engine.settle"
	PropSettleTimeout     = "engine.settle.timeout"
)

// Defaults, identical for every engine.
const (
	DefaultCacheSize         = 64 << 20
	DefaultMemtableSize      = 64 << 20
	DefaultCompression       = Snappy
	DefaultBloomBits         = 10
	DefaultBlockSize         = 4 << 10
	DefaultMaxOpenFiles      = 1000
	DefaultCompactionThreads = 2
	// DefaultSettleTimeout bounds engine.settle: a full compaction of a
	// few GiB takes minutes on a small machine.
	DefaultSettleTimeout = 30 * time.Minute
)

// Compression is engine.compression: a codec both engines support.
type Compression string

const (
	NoCompression Compression = "none"
	Snappy        Compression = "snappy"
	Zstd          Compression = "zstd"
)

// Compressions lists the values of engine.compression.
var Compressions = []Compression{NoCompression, Snappy, Zstd}

// Config is the engine-neutral configuration of one embedded engine.
type Config struct {
	Binding           string // the binding's name: "pebble", "rocksdb", ...
	Dir               string
	Sync              bool
	CacheSize         int64
	MemtableSize      int64
	Compression       Compression
	BloomBits         int
	BlockSize         int
	MaxOpenFiles      int
	CompactionThreads int
	Fresh             bool
	// Settle: after the measured phase, flush and compact until the engine
	// reports no compaction debt (Settle), for at most SettleTimeout.
	Settle        bool
	SettleTimeout time.Duration
	// NotApplicable are the engine.* properties that mean nothing to this
	// engine (Spec): refused when set, left out of the opening line.
	NotApplicable map[string]string
	// aliased maps an engine.* property to the alias the user set it with.
	aliased map[string]string
}

// Name is the name the user gave prop: the alias it was set with (Spec),
// or prop itself, for an error about its value.
func (c *Config) Name(prop string) string {
	if a, ok := c.aliased[prop]; ok {
		return a
	}
	return prop
}

// named renames err's property to the alias the user set it with.
func (c *Config) named(err error) error {
	var pe *props.Error
	if errors.As(err, &pe) && c.aliased[pe.Name] != "" {
		e := *pe
		e.Name = c.aliased[pe.Name]
		return &e
	}
	return err
}

// DefaultDir is engine.dir's default: ycsb-data/<binding> under the working
// directory.
func DefaultDir(binding string) string { return filepath.Join("ycsb-data", binding) }

// between is the check of an integer in [lo, hi], worded as expected.
func between(lo, hi int64, expected string) props.Check[int64] {
	return props.Range(expected, func(n int64) bool { return n >= lo && n <= hi })
}

// ParseConfig reads the engine.* properties. dirAliases are older names for
// engine.dir (the reference's rocksdb.dir), read when engine.dir is absent.
// Every error names the property and is a props error (exit code 2).
func ParseConfig(binding string, p *props.Properties, dirAliases ...string) (Config, error) {
	return Parse(binding, p, Spec{Aliases: map[string][]string{PropDir: dirAliases}})
}

// Spec is what an engine takes beyond ParseConfig's defaults.
type Spec struct {
	// Aliases are other bindings' names of an engine.* property (go-ycsb's
	// badger.dir, bolt.path, ...), read when it is absent. Two of them set to
	// different values are a contradiction, refused.
	Aliases map[string][]string
	// NotApplicable are the engine.* properties that mean nothing to the
	// engine, with the reason the refusal gives: a property set but ignored
	// would make a comparison claim what did not happen.
	NotApplicable map[string]string
}

// resolveAliases returns p with each alias's value under its engine.*
// name, which aliases were used, or the one-line contradiction.
func resolveAliases(p *props.Properties, aliases map[string][]string) (*props.Properties, map[string]string, error) {
	var q *props.Properties
	used := map[string]string{}
	for prop, names := range aliases {
		setBy, value := "", ""
		for _, n := range append([]string{prop}, names...) {
			v, ok := p.Get(n)
			if !ok {
				continue
			}
			if setBy != "" && !sameValue(value, v) {
				return nil, nil, props.Errorf(n, "%q contradicts %s=%q: set one of them", v, setBy, value)
			}
			if setBy == "" {
				setBy, value = n, v
			}
		}
		if setBy != "" && setBy != prop {
			if q == nil {
				q = p.Clone()
			}
			q.Set(prop, value)
			used[prop] = setBy
		}
	}
	if q == nil {
		return p, used, nil
	}
	return q, used, nil
}

// sameValue: two spellings of one value (true and TRUE, paths with and
// without a trailing slash).
func sameValue(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if strings.EqualFold(a, b) {
		return true
	}
	return a != "" && b != "" && filepath.Clean(a) == filepath.Clean(b)
}

// Parse reads the engine.* properties as s says.
func Parse(binding string, p *props.Properties, s Spec) (Config, error) {
	c := Config{Binding: binding, Dir: DefaultDir(binding), NotApplicable: s.NotApplicable}
	for name, why := range s.NotApplicable {
		if p.Has(name) {
			return c, props.Errorf(name, "does not apply to %s: %s", binding, why)
		}
	}
	p, used, err := resolveAliases(p, s.Aliases)
	if err != nil {
		return c, err
	}
	if len(used) > 0 {
		c.aliased = used
	}
	if v, ok := p.Get(PropDir); ok {
		c.Dir = v
	}
	if strings.TrimSpace(c.Dir) == "" {
		return c, props.Invalid(c.Name(PropDir), c.Dir, "a directory path")
	}
	r := props.NewReader(p)
	c.Sync = r.Bool(PropSync, false)
	c.CacheSize = ReadSize(r, PropCacheSize, DefaultCacheSize)
	c.MemtableSize = ReadSize(r, PropMemtableSize, DefaultMemtableSize, between(1<<20, 4<<30, "a size between 1MiB and 4GiB"))
	c.Compression = props.OneOf(r, PropCompression, DefaultCompression, Compressions...)
	c.BloomBits = r.Int(PropBloomBits, DefaultBloomBits, props.NonNegative, between(0, 64, "bits per key between 0 (no filter) and 64"))
	c.BlockSize = int(ReadSize(r, PropBlockSize, DefaultBlockSize, between(256, 1<<30, "a size between 256 bytes and 1GiB")))
	c.MaxOpenFiles = r.Int(PropMaxOpenFiles, DefaultMaxOpenFiles, between(16, 1<<31-1, "an integer of at least 16"))
	c.CompactionThreads = r.Int(PropCompactionThreads, DefaultCompactionThreads, between(1, 64, "an integer between 1 and 64"))
	c.Fresh = r.Bool(PropFresh, false)
	c.Settle = r.Bool(PropSettle, false)
	c.SettleTimeout = r.Duration(PropSettleTimeout, time.Second, DefaultSettleTimeout, time.Second, 24*time.Hour)
	return c, c.named(r.Err())
}

// AtLeastMiB is the check of the engines' level sizes.
var AtLeastMiB = between(1<<20, 1<<62, "a size of at least 1MiB")

// ReadSize reads a byte size: a plain integer, or one with a binary suffix
// (k, m, g, t; KB/KiB, MB/MiB, ... all mean powers of 1024).
func ReadSize(r *props.Reader, name string, def int64, checks ...props.Check[int64]) int64 {
	return props.Parsed(r, name, def, func(s string) (int64, bool) {
		n, err := ParseSize(s)
		return n, err == nil
	}, "a size in bytes such as 67108864 or 64MiB", checks...)
}

// Size reads one byte size (see ReadSize).
func Size(p *props.Properties, name string, def int64) (int64, error) {
	r := props.NewReader(p)
	n := ReadSize(r, name, def)
	return n, r.Err()
}

// ParseSize parses a byte size (see Size).
func ParseSize(s string) (int64, error) {
	t := strings.ToLower(s)
	shift := 0
	for _, suf := range []struct {
		s     string
		shift int
	}{{"tib", 40}, {"gib", 30}, {"mib", 20}, {"kib", 10}, {"tb", 40}, {"gb", 30}, {"mb", 20}, {"kb", 10}, {"t", 40}, {"g", 30}, {"m", 20}, {"k", 10}, {"b", 0}} {
		if strings.HasSuffix(t, suf.s) {
			t, shift = t[:len(t)-len(suf.s)], suf.shift
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	if n > (1<<62)>>shift {
		return 0, fmt.Errorf("size %q too large", s)
	}
	return n << shift, nil
}

// FormatSize renders n in the unit it divides evenly (64MiB, 4KiB, 1000).
func FormatSize(n int64) string {
	for _, u := range []struct {
		s     string
		shift int
	}{{"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		if n != 0 && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.s
		}
	}
	return strconv.FormatInt(n, 10)
}

// Summary is the one line a binding prints when it opens, so a run's output
// says which engine settings produced it: the engine.* settings that apply
// to it, then extra (the engine's own, "name=value ...", or "").
func (c *Config) Summary(state string, extra ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %s (sync=%t", c.Binding, state, c.Dir, c.Sync)
	for _, s := range []struct {
		prop, name, value string
	}{
		{PropCacheSize, "cache", FormatSize(c.CacheSize)},
		{PropMemtableSize, "memtable", FormatSize(c.MemtableSize)},
		{PropCompression, "compression", string(c.Compression)},
		{PropBloomBits, "bloombits", strconv.Itoa(c.BloomBits)},
		{PropBlockSize, "blocksize", FormatSize(int64(c.BlockSize))},
		{PropMaxOpenFiles, "maxopenfiles", strconv.Itoa(c.MaxOpenFiles)},
		{PropCompactionThreads, "compactionthreads", strconv.Itoa(c.CompactionThreads)},
	} {
		if _, no := c.NotApplicable[s.prop]; !no {
			fmt.Fprintf(&b, " %s=%s", s.name, s.value)
		}
	}
	if c.Settle {
		fmt.Fprintf(&b, " settle=%v", c.SettleTimeout)
	}
	for _, e := range extra {
		if e != "" {
			b.WriteString(" " + e)
		}
	}
	b.WriteString(")\n")
	return b.String()
}

// Configure reads an engine's configuration (parse) and its own options
// (options) from p, as its Check and its Open both do.
func Configure[O any](p *props.Properties, parse func(*props.Properties) (Config, error), options func(*Config, *props.Properties) (O, error)) (cfg Config, o O, err error) {
	if cfg, err = parse(p); err != nil {
		return cfg, o, err
	}
	o, err = options(&cfg, p)
	return cfg, o, err
}

// Prepare is the start of an engine's Open: Configure, then engine.dir
// prepared (PrepareDir, whose state it returns).
func Prepare[O any](p *props.Properties, parse func(*props.Properties) (Config, error), options func(*Config, *props.Properties) (O, error)) (cfg Config, o O, state string, err error) {
	if cfg, o, err = Configure(p, parse, options); err != nil {
		return cfg, o, "", err
	}
	state, err = PrepareDir(&cfg)
	return cfg, o, state, err
}
