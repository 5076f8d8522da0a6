package stress

import (
	"context"
	"strings"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/internal/cql/cqlcompress"
)

// clientsOf is the node's view (system_views.clients) of the connections
// using keyspace ks: their protocol version and client_options.
func clientsOf(t *testing.T, s *gocql.Session, ks string) (versions []int, opts []map[string]string) {
	t.Helper()
	iter := s.Query("SELECT keyspace_name, protocol_version, client_options FROM system_views.clients").Iter()
	var name string
	var v int
	var o map[string]string
	for iter.Scan(&name, &v, &o) {
		if name == ks {
			versions = append(versions, v)
			opts = append(opts, o)
		}
		o = nil
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	return versions, opts
}

// TestCompression: -mode compression= makes the run's connections
// compressed, as the node sees them, and they speak the original's protocol:
// v4, its Java driver 3's highest, unless -mode 4x (driver 4 negotiates v5).
func TestCompression(t *testing.T) {
	t.Parallel()
	s := cluster(t)
	ks := keyspace(t, s, "compression")
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + ks).Exec() })
	for _, c := range []struct {
		name    string
		driver4 bool
		version int
	}{{"lz4", false, 4}, {"snappy", false, 4}, {"none", false, 4}, {"lz4", true, 5}, {"snappy", true, 4}, {"none", true, 5}} {
		var versions []int
		var opts []map[string]string
		onStart := func() { versions, opts = clientsOf(t, s, ks) }
		mode := []string{"-mode", "native", "cql3", "compression=" + c.name}
		if c.driver4 {
			mode = []string{"-mode", "4x", "cql3", "compression=" + c.name}
		}
		args := append([]string{"write", "n=500", "no-warmup", "-rate", "threads=4"}, mode...)
		out := runLineOnStart(t, onStart, append(args, "-schema", "replication(factor=1)", "keyspace="+ks, "-node", testNode)...)
		if !strings.Contains(out, "Compression: "+strings.ToUpper(c.name)) {
			t.Errorf("%s: the settings do not show it\n%s", c.name, out)
		}
		if pk, errs, _ := results(t, out); pk != 500 || errs != 0 {
			t.Errorf("%s: %d partitions, %d errors", c.name, pk, errs)
		}
		if len(versions) != 8 {
			t.Fatalf("%s: the node shows %d connections on %s, want 8 (connectionsPerHost=8, the original's default)", c.name, len(versions), ks)
		}
		for i, o := range opts {
			want := c.name
			if c.name == "none" {
				want = ""
			}
			if o["COMPRESSION"] != want || versions[i] != c.version {
				t.Errorf("%s: a connection with protocol v%d and options %v, want v%d and COMPRESSION %q", c.name, versions[i], o, c.version, want)
			}
		}
		t.Logf("compression=%s: %d connections, protocol v%d, %v", c.name, len(opts), versions[0], opts[0])
	}

	// A user profile's connections too.
	var opts []map[string]string
	uks := ks + "_user"
	t.Cleanup(func() { s.Query("DROP KEYSPACE IF EXISTS " + uks).Exec() })
	runLineOnStart(t, func() { _, opts = clientsOf(t, s, uks) }, "user", "profile="+profileIn(t, "blogpost.yaml", uks), "ops(insert=1)", "n=50", "-rate", "threads=2",
		"-mode", "native", "cql3", "compression=lz4", "-node", testNode, "-log", "no-settings")
	if len(opts) == 0 {
		t.Errorf("user: the node shows no connection on %s", uks)
	}
	for _, o := range opts {
		if o["COMPRESSION"] != "lz4" {
			t.Errorf("user: a connection with options %v", o)
		}
	}

	// A compressor the node does not list in its SUPPORTED options is
	// dropped by the driver without a word: refused in one line, before
	// anything is created.
	r := &stressRun{s: parseOrFatal(t, "write", "-mode", "native", "cql3", "compression=lz4", "-node", testNode)}
	r.comp = &usedCompressor{Compressor: unknownCompressor{}}
	admin, err := r.cluster("").CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	err = r.checkCompression(context.Background(), admin, "127.0.0.1 port 9042")
	if err == nil || !strings.HasPrefix(err.Error(), "-mode compression=lz4: the node at 127.0.0.1 port 9042 (Cassandra 5.") ||
		!strings.HasSuffix(err.Error(), "did not accept lz4 compression") {
		t.Errorf("a compressor the node does not offer: %v", err)
	}
}

// unknownCompressor is lz4 under a name no node offers.
type unknownCompressor struct{ cqlcompress.LZ4 }

func (unknownCompressor) Name() string { return "lz4-unknown" }
