package data

import (
	"fmt"
	"strings"
)

// Table names of the predefined commands (settings/Command.java).
const (
	Standard1 = "standard1" // write, read, mixed
	Counter1  = "counter1"  // counter_write, counter_read
)

// Option is one name=value of -schema replication(...) or compaction(...),
// kept in the order given, as the original keeps them (a LinkedHashMap).
type Option struct{ Name, Value string }

// Schema is what -schema decides (settings/SettingsSchema.java).
type Schema struct {
	Keyspace string // keyspace=, default keyspace1

	// replication(strategy=... factor=... name=value...)
	ReplicationStrategy string   // full class name; see ReplicationStrategy
	ReplicationFactor   string   // factor=; "" when not given (then "1")
	ReplicationOptions  []Option // the other name=value pairs

	// storage(type=... name=value...), the Scylla fork's keyspace storage option
	Storage        string
	StorageOptions []Option

	Compression        string   // compression=, the sstable compressor class; "" for none
	CompactionStrategy string   // compaction(strategy=...); "" for the server's default
	CompactionOptions  []Option // the other name=value pairs of compaction(...)
}

// DefaultStrategy is the original's default replication strategy.
const DefaultStrategy = "org.apache.cassandra.locator.NetworkTopologyStrategy"

// DefaultSchema is the schema of a run without -schema.
func DefaultSchema() Schema {
	return Schema{Keyspace: "keyspace1", ReplicationStrategy: DefaultStrategy}
}

// ReplicationStrategy resolves strategy= as the original does: a class name
// as given, or else under org.apache.cassandra.locator. Only the strategies
// the original's classpath has are known.
func ReplicationStrategy(name string) (string, error) {
	known := []string{"SimpleStrategy", "NetworkTopologyStrategy", "LocalStrategy", "EverywhereStrategy", "OldNetworkTopologyStrategy"}
	for _, k := range known {
		if name == k || name == "org.apache.cassandra.locator."+k {
			return "org.apache.cassandra.locator." + k, nil
		}
	}
	return "", fmt.Errorf("invalid replication strategy: %s", name)
}

// replication is OptionReplication.getOptions: the extra options, plus
// replication_factor when not among them and either the strategy is the
// default or factor= was given.
func (s Schema) replication() []Option {
	opts := append([]Option(nil), s.ReplicationOptions...)
	for _, o := range opts {
		if o.Name == "replication_factor" {
			return opts
		}
	}
	strategy := s.ReplicationStrategy
	if strategy == "" {
		strategy = DefaultStrategy
	}
	if strategy == DefaultStrategy || s.ReplicationFactor != "" {
		f := s.ReplicationFactor
		if f == "" {
			f = "1"
		}
		opts = append(opts, Option{"replication_factor", f})
	}
	return opts
}

func appendOptions(b *strings.Builder, opts []Option) {
	for _, o := range opts {
		fmt.Fprintf(b, ", '%s' : '%s'", o.Name, o.Value)
	}
}

// CreateKeyspace is the original's CREATE KEYSPACE statement, byte for byte
// (including its irregular spacing and trailing ";\n").
func (s Schema) CreateKeyspace() string {
	strategy := s.ReplicationStrategy
	if strategy == "" {
		strategy = DefaultStrategy
	}
	var b strings.Builder
	fmt.Fprintf(&b, `CREATE KEYSPACE IF NOT EXISTS "%s" WITH replication = {'class': '%s'`, s.Keyspace, strategy)
	if opts := s.replication(); len(opts) == 0 {
		b.WriteString(", 'replication_factor': '1'}")
	} else {
		appendOptions(&b, opts)
		b.WriteString("}")
	}
	if s.Storage != "" {
		fmt.Fprintf(&b, " AND storage = {'type': '%s'", s.Storage)
		appendOptions(&b, s.StorageOptions)
		b.WriteString("}")
	}
	b.WriteString(" AND durable_writes = true;\n")
	return b.String()
}

// Use is the statement the original runs before creating its tables.
func (s Schema) Use() string { return `USE "` + s.Keyspace + `"` }

func (s Schema) tableOptions(b *strings.Builder) {
	b.WriteString(") WITH compression = {")
	if s.Compression != "" {
		fmt.Fprintf(b, "'sstable_compression' : '%s'", s.Compression)
	}
	b.WriteString("}")
	if s.CompactionStrategy != "" {
		fmt.Fprintf(b, " AND compaction = { 'class' : '%s'", s.CompactionStrategy)
		appendOptions(b, s.CompactionOptions)
		b.WriteString("}")
	}
	b.WriteString(";\n")
}

// CreateStandard1 is the original's CREATE TABLE for standard1: a blob
// key and one blob column per name. The table name is unqualified: it runs
// after Use.
func (s Schema) CreateStandard1(names []string) string {
	return s.createTable("CREATE TABLE IF NOT EXISTS standard1 (key blob PRIMARY KEY ", "blob", names)
}

// CreateCounter1 is the original's CREATE TABLE for counter1, which it
// creates only for counter_write. Its column list starts with ",\n,": the
// original's text, which Cassandra's grammar accepts.
func (s Schema) CreateCounter1(names []string) string {
	return s.createTable("CREATE TABLE IF NOT EXISTS counter1 (key blob PRIMARY KEY,", "counter", names)
}

// createTable is head, one column of colType per name, and the table's
// options.
func (s Schema) createTable(head, colType string, names []string) string {
	var b strings.Builder
	b.WriteString(head)
	for _, n := range names {
		fmt.Fprintf(&b, "\n, \"%s\" %s", n, colType)
	}
	s.tableOptions(&b)
	return b.String()
}

func quoted(b *strings.Builder, names []string, sep, format string) {
	for i, n := range names {
		if i > 0 {
			b.WriteString(sep)
		}
		fmt.Fprintf(b, format, n, n)
	}
}

// InsertCQL is the original's write (operations/predefined/CqlInserter.java):
// the column values bind in names order, then the key. timestamp is -col
// timestamp=, "" for none.
func InsertCQL(names []string, timestamp string) string {
	var b strings.Builder
	b.WriteString(`UPDATE "standard1"`)
	if timestamp != "" {
		b.WriteString(" USING TIMESTAMP " + timestamp)
	}
	b.WriteString(" SET ")
	quoted(&b, names, ",", `"%s" = ?%.0s`)
	b.WriteString(" WHERE KEY=?")
	return b.String()
}

// ReadCQL is the original's read (CqlReader.java), binding the key; slice
// is -col slice, which selects *.
func ReadCQL(names []string, slice bool) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	if slice {
		b.WriteString("*")
	} else {
		quoted(&b, names, ",", `"%s"%.0s`)
	}
	b.WriteString(` FROM "standard1" WHERE KEY=?`)
	return b.String()
}

// CounterAddCQL is the original's counter_write (CqlCounterAdder.java): one
// bigint increment per column, each a fresh draw of add=, then the key.
func CounterAddCQL(names []string) string {
	var b strings.Builder
	b.WriteString("UPDATE counter1 SET ")
	quoted(&b, names, ",", `"%s"="%s"+?`)
	b.WriteString(" WHERE KEY=?")
	return b.String()
}

// CounterGetCQL is the original's counter_read (CqlCounterGetter.java),
// which succeeds when a row comes back.
func CounterGetCQL() string { return `SELECT * FROM "counter1" WHERE KEY=?` }
