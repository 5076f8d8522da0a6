// Package profile reads the YAML profiles of cassandra-stress's user command
// (`user profile=blogpost.yaml ops(insert=1,singlepost=2)`): the schema, how
// each column's values are generated, how rows are grouped into partitions
// and batches, and the named queries. The keys and their defaults are the
// original's StressYaml.java and StressProfile.java (init, prepareQuery and
// getQuery) in scylladb/cassandra-stress.
//
// Parse only checks and types what the file says; everything that needs
// the table itself (the column types) is done once connected (workload/cassandrastress/data's
// NewPartitionGen, stress's user command).
package profile

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/goycsb/ycsb/internal/infile"

	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
)

// Defaults of the original (generate/values/Generator.java and
// StressProfile.prepareQuery).
const (
	DefaultSize          = "uniform(4..8)"
	DefaultPopulation    = "uniform(1..100B)"
	DefaultCluster       = "fixed(1)"
	DefaultPartitions    = "fixed(1)"
	DefaultSelect        = "fixed(1)/1"
	DefaultRowPopulation = "fixed(1)/1"
	DefaultPageSize      = 5000
)

// Profile is one YAML file.
type Profile struct {
	File               string
	SpecName           string // specname:, or keyspace.table
	Keyspace           string
	KeyspaceDefinition string // "" when the keyspace exists
	Table              string
	TableDefinition    string // "" when the table exists
	ExtraDefinitions   []string
	Columns            []ColumnSpec // in the file's order, names lower-cased
	Insert             Insert
	Queries            []Query // in the file's order, names lower-cased
	TokenRangeQueries  []TokenRangeQuery
}

// ColumnSpec is one entry of columnspec:. A nil distribution is the
// default of the column's type.
type ColumnSpec struct {
	Name                      string
	Size, Population, Cluster *data.Dist
}

// Insert is insert:. Nil means not given (the command line's -insert, then
// the default, apply).
type Insert struct {
	Partitions        *data.Dist
	Select            *data.Ratio
	RowPopulation     *data.Ratio
	BatchType         string // LOGGED, UNLOGGED, COUNTER; "" when not given
	Consistency       string // consistencyLevel:
	SerialConsistency string
}

// Fields says where a query's bound values come from.
type Fields int

const (
	// MultiRow binds each value from a random row of the partition (the
	// original's default).
	MultiRow Fields = iota
	// SameRow binds all values from one row.
	SameRow
)

func (f Fields) String() string { return [...]string{"multirow", "samerow"}[f] }

// Query is one entry of queries:.
type Query struct {
	Name              string
	CQL               string
	Fields            Fields
	Consistency       string
	SerialConsistency string
}

// TokenRangeQuery is one entry of token_range_queries:.
type TokenRangeQuery struct {
	Name     string
	Columns  string
	PageSize int
}

// Column returns the spec of the named column, or nil.
func (p *Profile) Column(name string) *ColumnSpec {
	for i := range p.Columns {
		if p.Columns[i].Name == strings.ToLower(name) {
			return &p.Columns[i]
		}
	}
	return nil
}

// Query returns the named query, or nil.
func (p *Profile) Query(name string) *Query {
	for i := range p.Queries {
		if p.Queries[i].Name == strings.ToLower(name) {
			return &p.Queries[i]
		}
	}
	return nil
}

// Load reads and parses a profile file: a regular file or a pipe of at
// most infile.MaxText bytes, read until ctx ends. A file that cannot be
// read is named as the option is typed, "profile=PATH".
func Load(ctx context.Context, path string) (*Profile, error) {
	b, err := infile.ReadAs(ctx, path, "profile="+path, infile.MaxText)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Error is a profile that cannot be used: the file, the line (0 if not
// known), the key and what was expected.
type Error struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	where := e.File
	if e.Line > 0 {
		where += fmt.Sprintf(":%d", e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("profile %s: %s: %s", where, e.Key, e.Msg)
	}
	return fmt.Sprintf("profile %s: %s", where, e.Msg)
}

type parser struct{ file string }

func (p parser) errf(n *yaml.Node, key, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: p.file, Line: line, Key: key, Msg: oneLine(fmt.Sprintf(format, args...))}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Parse parses the profile in b; file names it in errors.
func Parse(file string, b []byte) (*Profile, error) {
	ps := parser{file}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, &Error{File: file, Msg: "the file is empty"}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, &Error{File: file, Msg: "not YAML: " + oneLine(strings.TrimPrefix(err.Error(), "yaml: "))}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, ps.errf(&doc, "", "expected a mapping of keys (keyspace:, table:, queries:, ...)")
	}
	root := doc.Content[0]
	p := &Profile{File: file}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := k.Value
		if seen[key] {
			return nil, ps.errf(k, key, "given twice")
		}
		seen[key] = true
		var err error
		switch key {
		case "specname":
			p.SpecName, err = ps.str(v, key)
		case "keyspace":
			p.Keyspace, err = ps.str(v, key)
		case "keyspace_definition":
			p.KeyspaceDefinition, err = ps.str(v, key)
		case "table":
			p.Table, err = ps.str(v, key)
		case "table_definition":
			p.TableDefinition, err = ps.str(v, key)
		case "extra_definitions":
			p.ExtraDefinitions, err = ps.strList(v, key)
		case "columnspec":
			err = ps.columnspec(p, v)
		case "insert":
			err = ps.insert(p, v)
		case "queries":
			err = ps.queries(p, v)
		case "token_range_queries":
			err = ps.tokenRange(p, v)
		default:
			err = ps.errf(k, key, "unknown key; expected one of specname, keyspace, keyspace_definition, table, table_definition, extra_definitions, columnspec, insert, queries, token_range_queries")
		}
		if err != nil {
			return nil, err
		}
	}
	if p.Keyspace == "" {
		return nil, ps.errf(root, "keyspace", "required: the keyspace name")
	}
	if p.Table == "" {
		return nil, ps.errf(root, "table", "required: the table name")
	}
	if !seen["queries"] {
		// The original asserts "queries map is required in yaml file".
		return nil, ps.errf(root, "queries", "required: a mapping of query names to {cql, fields} (it may be empty: {})")
	}
	if p.SpecName == "" {
		p.SpecName = p.Keyspace + "." + p.Table
	}
	if strings.TrimSpace(p.KeyspaceDefinition) != "" {
		if n := createdName(createKeyspace, p.KeyspaceDefinition); n == "" {
			return nil, &Error{File: file, Key: "keyspace_definition", Msg: "expected a CREATE KEYSPACE statement"}
		} else if !strings.EqualFold(n, p.Keyspace) {
			return nil, &Error{File: file, Key: "keyspace_definition", Msg: fmt.Sprintf("creates keyspace %q, but keyspace: is %q", n, p.Keyspace)}
		}
	} else {
		p.KeyspaceDefinition = ""
	}
	if strings.TrimSpace(p.TableDefinition) != "" {
		if n := createdName(createTable, p.TableDefinition); n == "" {
			return nil, &Error{File: file, Key: "table_definition", Msg: "expected a CREATE TABLE statement"}
		} else if !strings.EqualFold(n, p.Table) {
			return nil, &Error{File: file, Key: "table_definition", Msg: fmt.Sprintf("creates table %q, but table: is %q", n, p.Table)}
		}
	} else {
		p.TableDefinition = ""
	}
	for _, q := range p.Queries {
		for _, t := range p.TokenRangeQueries {
			if q.Name == t.Name {
				return nil, &Error{File: file, Key: "queries." + q.Name, Msg: "also in token_range_queries; use different names"}
			}
		}
	}
	return p, nil
}

var (
	createKeyspace = regexp.MustCompile(`(?is)^\s*create\s+(?:keyspace|schema)\s+(?:if\s+not\s+exists\s+)?("(?:[^"]|"")+"|[A-Za-z0-9_]+)`)
	createTable    = regexp.MustCompile(`(?is)^\s*create\s+(?:table|columnfamily)\s+(?:if\s+not\s+exists\s+)?(?:(?:"(?:[^"]|"")+"|[A-Za-z0-9_]+)\s*\.\s*)?("(?:[^"]|"")+"|[A-Za-z0-9_]+)`)
)

// createdName is the name a CREATE statement creates, unquoted, or "".
func createdName(re *regexp.Regexp, cql string) string {
	m := re.FindStringSubmatch(cql)
	if m == nil {
		return ""
	}
	n := m[1]
	if strings.HasPrefix(n, `"`) {
		return strings.ReplaceAll(n[1:len(n)-1], `""`, `"`)
	}
	return n
}

func (p parser) str(v *yaml.Node, key string) (string, error) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return "", p.errf(v, key, "expected a string")
	}
	return v.Value, nil
}

func (p parser) strList(v *yaml.Node, key string) ([]string, error) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, p.errf(v, key, "expected a list of CQL statements")
	}
	var out []string
	for i, e := range v.Content {
		s, err := p.str(e, fmt.Sprintf("%s[%d]", key, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (p parser) dist(v *yaml.Node, key string) (*data.Dist, error) {
	s, err := p.str(v, key)
	if err != nil {
		return nil, p.errf(v, key, "expected a distribution such as uniform(1..10)")
	}
	d, err := data.ParseDist(s)
	if err != nil {
		return nil, p.errf(v, key, "%q: %v (expected e.g. fixed(N), uniform(a..b), gaussian(a..b), exp(a..b), extreme(a..b,shape), seq(a..b))", s, err)
	}
	return d, nil
}

func (p parser) ratio(v *yaml.Node, key string) (*data.Ratio, error) {
	s, err := p.str(v, key)
	if err != nil {
		return nil, p.errf(v, key, "expected a ratio distribution such as uniform(1..10)/10")
	}
	r, err := data.ParseRatio(s)
	if err != nil {
		return nil, p.errf(v, key, "%q: %v (expected DIST/divisor, e.g. fixed(1)/1)", s, err)
	}
	return &r, nil
}

// checkSize refuses a size: that can be negative (as -col size= does) or
// above settings.MaxFrameBytes: the size of a text or blob value, or the
// element count of a list or set (see CheckTable for those).
func (p parser) checkSize(v *yaml.Node, key string, d *data.Dist) error {
	if d.Least() < 0 {
		return p.errf(v, key, "%q: a size cannot be negative", d)
	}
	if d.Most() > settings.MaxFrameBytes {
		return p.errf(v, key, "%q: values of up to %d bytes; at most %d (256 MiB, the largest native-protocol frame Cassandra accepts by default: a value travels in one)", d, d.Most(), settings.MaxFrameBytes)
	}
	return nil
}

// checkCluster refuses a cluster: below 1, where the original's meaning
// is a clustering level without values, so a partition without rows: its
// insert finds nothing to write and draws another seed, for ever when all
// are so, and its read throws (PartitionIterator.reset). Above
// settings.MaxClusterValues the level's values would not fit the memory
// they are kept in while a partition is visited.
func (p parser) checkCluster(v *yaml.Node, key string, d *data.Dist) error {
	if d.Least() < 1 {
		return p.errf(v, key, "%q: can draw %d; a clustering column has at least 1 value per partition (with 0 a partition has no rows, which the original loops on to insert and cannot read)", d, d.Least())
	}
	if d.Most() > settings.MaxClusterValues {
		return p.errf(v, key, "%q: up to %d values of one clustering column per partition; at most %d (each partition's are generated and kept while it is visited)", d, d.Most(), settings.MaxClusterValues)
	}
	return nil
}

// mapping checks v is a mapping and yields its keys lower-cased, as the
// original's lowerCase does.
func (p parser) mapping(v *yaml.Node, key, expect string, f func(k string, kn, vn *yaml.Node) error) error {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		return p.errf(v, key, "expected %s", expect)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		kn, vn := v.Content[i], v.Content[i+1]
		k := strings.ToLower(kn.Value)
		if seen[k] {
			return p.errf(kn, key+"."+k, "given twice")
		}
		seen[k] = true
		if err := f(k, kn, vn); err != nil {
			return err
		}
	}
	return nil
}

func (p parser) columnspec(pr *Profile, v *yaml.Node) error {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return p.errf(v, "columnspec", "expected a list of {name, size, population, cluster}")
	}
	for i, e := range v.Content {
		key := fmt.Sprintf("columnspec[%d]", i)
		var c ColumnSpec
		err := p.mapping(e, key, "a mapping {name, size, population, cluster}", func(k string, kn, vn *yaml.Node) error {
			var err error
			switch k {
			case "name":
				c.Name, err = p.str(vn, key+".name")
				c.Name = strings.ToLower(c.Name)
			case "size":
				if c.Size, err = p.dist(vn, key+".size"); err == nil {
					err = p.checkSize(vn, key+".size", c.Size)
				}
			case "population":
				c.Population, err = p.dist(vn, key+".population")
			case "cluster":
				if c.Cluster, err = p.dist(vn, key+".cluster"); err == nil {
					err = p.checkCluster(vn, key+".cluster", c.Cluster)
				}
			default:
				err = p.errf(kn, key+"."+k, "unknown option; expected name, size, population or cluster")
			}
			return err
		})
		if err != nil {
			return err
		}
		if e.Kind != yaml.MappingNode {
			return p.errf(e, key, "expected a mapping {name, size, population, cluster}")
		}
		if c.Name == "" {
			return p.errf(e, key+".name", "required: the column's name")
		}
		if pr.Column(c.Name) != nil {
			return p.errf(e, key+".name", "column %s is specified twice", c.Name)
		}
		pr.Columns = append(pr.Columns, c)
	}
	return nil
}

func (p parser) insert(pr *Profile, v *yaml.Node) error {
	in := &pr.Insert
	return p.mapping(v, "insert", "a mapping {partitions, select, row-population, batchtype, consistencyLevel}", func(k string, kn, vn *yaml.Node) error {
		key := "insert." + k
		var err error
		switch k {
		case "partitions":
			if in.Partitions, err = p.dist(vn, key); err == nil && in.Partitions.Most() > settings.MaxBatchStatements {
				err = p.errf(vn, key, "%q: at most %d partitions per insert (a batch holds at most %d statements, one per row)", in.Partitions, settings.MaxBatchStatements, settings.MaxBatchStatements)
			}
		case "select":
			in.Select, err = p.ratio(vn, key)
		case "row-population":
			in.RowPopulation, err = p.ratio(vn, key)
		case "batchtype":
			var s string
			if s, err = p.str(vn, key); err == nil {
				switch u := strings.ToUpper(s); u {
				case "LOGGED", "UNLOGGED", "COUNTER":
					in.BatchType = u
				default:
					err = p.errf(vn, key, "%q: expected LOGGED, UNLOGGED or COUNTER", s)
				}
			}
		case "consistencylevel":
			in.Consistency, err = p.consistency(vn, key)
		case "serialconsistencylevel":
			in.SerialConsistency, err = p.consistency(vn, key)
		default:
			err = p.errf(kn, key, "unknown option; expected partitions, select, row-population, batchtype, consistencyLevel or serialConsistencyLevel")
		}
		return err
	})
}

var consistencies = []string{"ANY", "ONE", "TWO", "THREE", "QUORUM", "ALL", "LOCAL_QUORUM", "EACH_QUORUM", "SERIAL", "LOCAL_SERIAL", "LOCAL_ONE"}

func (p parser) consistency(v *yaml.Node, key string) (string, error) {
	s, err := p.str(v, key)
	if err != nil {
		return "", err
	}
	u := strings.ToUpper(s)
	for _, c := range consistencies {
		if c == u {
			return u, nil
		}
	}
	return "", p.errf(v, key, "%q: expected one of %s", s, strings.Join(consistencies, ", "))
}

func (p parser) queries(pr *Profile, v *yaml.Node) error {
	return p.mapping(v, "queries", "a mapping of query names to {cql, fields, consistencyLevel}", func(name string, kn, vn *yaml.Node) error {
		key := "queries." + name
		if name == "insert" {
			return p.errf(kn, key, "the name insert is reserved; use another name")
		}
		q := Query{Name: name}
		err := p.mapping(vn, key, "a mapping {cql, fields, consistencyLevel}", func(k string, kn2, vn2 *yaml.Node) error {
			var err error
			switch k {
			case "cql":
				q.CQL, err = p.str(vn2, key+".cql")
			case "fields":
				var s string
				if s, err = p.str(vn2, key+".fields"); err == nil {
					switch strings.ToLower(s) {
					case "samerow":
						q.Fields = SameRow
					case "multirow":
						q.Fields = MultiRow
					default:
						err = p.errf(vn2, key+".fields", "%q: expected samerow or multirow", s)
					}
				}
			case "consistencylevel":
				q.Consistency, err = p.consistency(vn2, key+".consistencyLevel")
			case "serialconsistencylevel":
				q.SerialConsistency, err = p.consistency(vn2, key+".serialConsistencyLevel")
			default:
				err = p.errf(kn2, key+"."+k, "unknown option; expected cql, fields, consistencyLevel or serialConsistencyLevel")
			}
			return err
		})
		if err != nil {
			return err
		}
		if vn.Kind != yaml.MappingNode {
			return p.errf(vn, key, "expected a mapping {cql, fields, consistencyLevel}")
		}
		if strings.TrimSpace(q.CQL) == "" {
			return p.errf(vn, key+".cql", "required: the query's CQL")
		}
		pr.Queries = append(pr.Queries, q)
		return nil
	})
}

func (p parser) tokenRange(pr *Profile, v *yaml.Node) error {
	return p.mapping(v, "token_range_queries", "a mapping of query names to {columns, page_size}", func(name string, kn, vn *yaml.Node) error {
		key := "token_range_queries." + name
		t := TokenRangeQuery{Name: name, PageSize: DefaultPageSize}
		err := p.mapping(vn, key, "a mapping {columns, page_size}", func(k string, kn2, vn2 *yaml.Node) error {
			switch k {
			case "columns":
				var err error
				t.Columns, err = p.str(vn2, key+".columns")
				return err
			case "page_size":
				var n int
				if vn2.Decode(&n) != nil || n <= 0 || n > settings.MaxInt {
					return p.errf(vn2, key+".page_size", "expected a positive integer up to %d (the original's is a Java int)", settings.MaxInt)
				}
				t.PageSize = n
				return nil
			}
			return p.errf(kn2, key+"."+k, "unknown option; expected columns or page_size")
		})
		if err != nil {
			return err
		}
		if vn.Kind != yaml.MappingNode {
			return p.errf(vn, key, "expected a mapping {columns, page_size}")
		}
		pr.TokenRangeQueries = append(pr.TokenRangeQueries, t)
		return nil
	})
}
