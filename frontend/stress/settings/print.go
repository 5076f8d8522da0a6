package settings

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/hostaddr"
	"github.com/goycsb/ycsb/internal/infile"
	"github.com/goycsb/ycsb/internal/javafmt"
)

// String renders the settings block the original prints before a run
// (StressSettings.printSettings and each Settings*.printSettings), line for
// line, with its quirks: "null" for unset values, Thread Count -1 for a ramp
// without auto, "Distibution". Distributions the original echoes as typed
// (add=, clustering=) are shown in canonical form. For user, the profile
// block that follows in the original is left to whoever loads the profiles.
func (s *Settings) String() string {
	var b strings.Builder
	p := printer(func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) })
	p("******************** Stress Settings ********************")
	s.Command.print(p)
	s.Rate.print(p)
	s.Population.print(p)
	s.Insert.print(p)
	if s.Command.Type != CmdUser {
		s.Columns.print(p)
	}
	s.Errors.print(p)
	s.Log.print(p)
	s.Mode.print(p)
	s.Node.print(p)
	s.Schema.print(p)
	s.Transport.print(p)
	s.Port.print(p)
	p("Send To Daemon:")
	p("  *not set*")
	s.Graph.print(p)
	s.TokenRange.print(p)
	if s.SLO.Objectives != nil {
		p("Objectives (ours):")
		p("  Objectives: %s", s.SLO.Text)
		p("  Abort: %t", s.SLO.Abort)
	}
	p("")
	return b.String()
}

// printer prints one line of the settings block.
type printer func(format string, args ...any)

// print is the Command: group, as SettingsCommand.printSettings prints it
// (and, for mixed and user, its subclasses).
func (c *CommandSettings) print(p printer) {
	p("Command:")
	p("  Type: %s", c.Type)
	count := int64(-1)
	if c.Stop == StopCount {
		count = c.Count
	}
	p("  Count: %s", javafmt.Grouped(count))
	if c.Stop == StopDuration {
		n, unit := durationUnits(c.Duration)
		p("  Duration: %s %s", javafmt.Grouped(n), unit)
	}
	p("  No Warmup: %t", c.NoWarmup)
	p("  Consistency Level: %s", c.CL)
	p("  Serial Consistency Level: %s", c.SerialCL)
	if c.Stop == StopUncertainty {
		p("  Target Uncertainty: %s", javafmt.Fixed(c.TargetUncertainty, 3))
		p("  Minimum Uncertainty Measurements: %s", javafmt.Grouped(int64(c.MinMeasurements)))
		p("  Maximum Uncertainty Measurements: %s", javafmt.Grouped(int64(c.MaxMeasurements)))
	} else {
		p("  Target Uncertainty: not applicable")
	}
	if c.Type != CmdUser {
		p("  Key Size (bytes): %d", c.KeySize)
		p("  Counter Increment Distibution: add=%s", c.Add)
	}
	switch c.Type {
	case CmdMixed:
		var kv []string
		for _, r := range c.Ratios {
			kv = append(kv, strings.ToUpper(r.Command.String())+"="+javafmt.Double(r.Weight))
		}
		p("  Command Ratios: {%s}", strings.Join(kv, ", "))
		p("  Command Clustering Distribution: clustering=%s", c.Clustering)
	case CmdUser:
		var kv []string
		for _, r := range c.Ops {
			kv = append(kv, r.Op+"="+javafmt.Double(r.Weight))
		}
		p("  Command Ratios: {%s}", strings.Join(kv, ", "))
		p("  Command Clustering Distribution: clustering=%s", c.Clustering)
		p("  Profile File(s): %s", strings.Join(c.Profiles, ","))
	}
}

func (r *RateSettings) print(p printer) {
	p("Rate:")
	if c := r.Capacity; c != nil {
		p("  Capacity (ours): start=%g/s growth=%g resolution=%g%% step=%v cooldown=%v", c.Start, c.Growth, c.Resolution*100, c.Step, c.Cooldown)
		p("  Min Threads: %d", r.MinThreads)
		p("  Max Threads: %d", r.MaxThreads)
		return
	}
	p("  Auto: %t", r.Auto)
	if r.Auto {
		p("  Min Threads: %d", r.MinThreads)
		p("  Max Threads: %d", r.MaxThreads)
		return
	}
	tc := r.Threads
	if r.Ramp() {
		tc = -1
	}
	p("  Thread Count: %d", tc)
	p("  OpsPer Sec: %d", r.OpsPerSecond)
}

func (pop *PopulationSettings) print(p printer) {
	p("Population:")
	if pop.Dist != nil {
		p("  Distribution: %s", pop.Dist.describe())
	} else {
		p("  Sequence: %d..%d", pop.SeqMin, pop.SeqMax)
	}
	if pop.ReadLookback != nil {
		p("  Read Look Back: %s", pop.ReadLookback.describe())
	}
	p("  Order: %s", pop.Order)
	p("  Wrap: %t", pop.Wrap)
}

func (in *InsertSettings) print(p printer) {
	p("Insert:")
	p("  Revisits: %s", in.Revisit.describe())
	p("  Visits: %s", in.Visits.describe())
	if in.Partitions != nil {
		p("  Batchsize: %s", in.Partitions.describe())
		if in.SelectRatio != nil {
			p("  Select Ratio: %s", in.SelectRatio.describe())
		}
	}
	p("  Row Population Ratio: %s", in.RowPopulationRatio.describe())
	if in.BatchType != BatchNone {
		p("  Batch Type: %s", in.BatchType)
	} else {
		p("  Batch Type: not batching")
	}
}

// print is the Columns: group, which the original prints for the
// predefined commands only.
func (col *ColumnSettings) print(p printer) {
	p("Columns:")
	p("  Max Columns Per Key: %d", col.Count.Max)
	p("  Column Names: [%s]", strings.Join(col.ColumnNames(), ", "))
	p("  Comparator: %s", col.Comparator)
	if col.Timestamp != nil {
		p("  Timestamp: %d", *col.Timestamp)
	} else {
		p("  Timestamp: null")
	}
	p("  Variable Column Count: %t", col.Count.Min < col.Count.Max)
	p("  Slice: %t", col.Slice)
	p("  Size Distribution: %s", col.Size.describe())
	if len(col.Names) > 0 {
		p("  Count Distribution: Count:  fixed=%d", len(col.Names))
	} else {
		p("  Count Distribution: %s", col.Count.describe())
	}
}

func (e *ErrorSettings) print(p printer) {
	p("Errors:")
	p("  Ignore: %t", e.Ignore)
	p("  Fail fast setting: %t", e.FailFast)
	p("  Tries: %d", e.Tries())
	if e.DelayPolicy != DelayConstant || e.MinDelay != 0 {
		p("  RetryPolicy: %s", e.DelayPolicy)
		p("  Minimum Delay: %s MILLISECONDS", javafmt.Grouped(e.MinDelay.Milliseconds()))
		if e.DelayPolicy != DelayConstant {
			p("  Maximum Delay: %s MILLISECONDS", javafmt.Grouped(e.MaxDelay.Milliseconds()))
		}
	}
}

func (l *LogSettings) print(p printer) {
	p("Log:")
	p("  No Summary: %t", l.NoSummary)
	p("  No Settings: %t", l.NoSettings)
	p("  File: %s", orNull(l.File))
	p("  Interval Millis: %d", l.Interval.Milliseconds())
	p("  Level: %s", l.Level)
}

func (m *ModeSettings) print(p printer) {
	p("Mode:")
	p("  API: %s", m.API)
	if m.Prepared {
		p("  Connection Style: CQL_PREPARED")
	} else {
		p("  Connection Style: CQL")
	}
	p("  CQL Version: CQL3")
	if m.ProtocolVersion == 0 {
		p("  Protocol Version: DEFAULT")
	} else {
		p("  Protocol Version: %d", m.ProtocolVersion)
	}
	p("  Username: %s", orNull(m.User))
	p("  Password: %s", suppressed(m.Password))
	p("  Auth Provide Class: %s", orNull(m.AuthProvider))
	if m.MaxPending > 0 {
		p("  Max Pending Per Connection: %d", m.MaxPending)
	} else {
		p("  Max Pending Per Connection: null")
	}
	p("  Connections Per Host: %d", m.ConnectionsPerHost)
	p("  Request Timeout: %d ms", m.RequestTimeout.Milliseconds())
	if m.SpeculativeDelay > 0 {
		// Ours, only when set: the original has no speculation.
		p("  Speculative Delay: %d ms", m.SpeculativeDelay.Milliseconds())
	}
	p("  Compression: %s", m.Compression)
}

func (n *NodeSettings) print(p printer) {
	p("Node:")
	if n.File != "" && len(n.Nodes) == 0 {
		p("  Nodes: (file %s)", n.File)
	} else {
		p("  Nodes: [%s]", strings.Join(n.Nodes, ", "))
	}
	p("  Is White List: %t", n.WhiteList)
	p("  Datacenter: %s", orNull(n.Datacenter))
	p("  Rack: %s", orNull(n.Rack))
	p("  Load Balance: %s", n.LoadBalance)
	if n.RemoteDCHosts > 0 {
		p("  Remote DC Hosts: %d", n.RemoteDCHosts)
	} else {
		p("  Remote DC Hosts: disabled")
	}
}

func (sc *SchemaSettings) print(p printer) {
	p("Schema:")
	p("  Keyspace: %s", orNull(sc.Keyspace))
	p("  Replication Strategy: %s", sc.ReplicationStrategy)
	p("  Replication Strategy Options: %s", javaMap(sc.ReplicationOptions))
	p("  Storage Options: %s", javaMap(sc.StorageOptions))
	p("  Table Compression: %s", orNull(sc.Compression))
	p("  Table Compaction Strategy: %s", orNull(sc.CompactionStrategy))
	p("  Table Compaction Strategy Options: %s", javaMap(sc.CompactionOptions))
}

func (t *TransportSettings) print(p printer) {
	p("Transport:")
	p("  factory=%s; truststore=%s; truststore-password=%s; keystore=%s; keystore-password=%s; ssl-protocol=%s; ssl-alg=%s; store-type=%s; ssl-ciphers=%s; hostname-verification=%t; ",
		t.Factory, orNull(t.TrustStore), suppressed(t.TrustStorePassword), orNull(t.KeyStore), suppressed(t.KeyStorePassword),
		t.SSLProtocol, t.SSLAlgorithm, t.StoreType, strings.Join(t.Ciphers, ","), t.HostnameVerification)
}

func (pt *PortSettings) print(p printer) {
	p("Port:")
	p("  Native Port: %d", pt.Native)
	p("  Thrift Port: %d", pt.Thrift)
	p("  JMX Port: %d", pt.JMX)
}

func (g *GraphSettings) print(p printer) {
	p("Graph:")
	p("  File: %s", orNull(g.File))
	p("  Revision: %s", g.Revision)
	p("  Title: %s", orNull(g.Title))
	p("  Operation: %s", g.Op)
}

func (tr *TokenRangeSettings) print(p printer) {
	p("TokenRange:")
	p("  Wrap: %t", tr.Wrap)
	p("  Split Factor: %d", tr.SplitFactor)
}

// ReadNodeFile fills Nodes from File (one host per line, blank lines
// skipped), as the original does while parsing -node file=. The file is a
// regular file or a pipe of at most infile.MaxText bytes, read until ctx
// ends; errors name it as typed, "-node file=PATH".
func (n *NodeSettings) ReadNodeFile(ctx context.Context) error {
	if n.File == "" {
		return nil
	}
	text, err := infile.ReadAs(ctx, n.File, "-node file="+n.File, infile.MaxText)
	if err != nil {
		return err
	}
	var nodes []string
	for i, line := range strings.Split(string(text), "\n") {
		if line := strings.TrimSpace(line); line != "" {
			if err := hostaddr.Check(line); err != nil {
				return fmt.Errorf("-node file=%s: line %d: %v", n.File, i+1, err)
			}
			nodes = append(nodes, line)
		}
	}
	if len(nodes) == 0 {
		return fmt.Errorf("-node file=%s: no nodes in the file", n.File)
	}
	n.Nodes = nodes
	return nil
}

func orNull(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

// durationUnits renders d in the largest whole TimeUnit, as the original
// keeps the unit typed (3m prints as 3 MINUTES).
func durationUnits(d time.Duration) (int64, string) {
	switch {
	case d%time.Hour == 0:
		return int64(d / time.Hour), "HOURS"
	case d%time.Minute == 0:
		return int64(d / time.Minute), "MINUTES"
	}
	return int64(d / time.Second), "SECONDS"
}

func javaMap(kvs []KV) string {
	var parts []string
	for _, kv := range kvs {
		parts = append(parts, kv.Key+"="+maskKV(kv))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// suppressed prints a password as -mode password= is printed: never itself.
func suppressed(s string) string {
	if s == "" {
		return "null"
	}
	return "*suppressed*"
}
