package data

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// The statements as the original's SettingsSchema and predefined operations
// build them, for the defaults and for each option that changes the text.
func TestSchemaCQL(t *testing.T) {
	names := ColumnNames(5)
	def := DefaultSchema()
	cases := []struct{ got, want string }{
		{def.CreateKeyspace(), `CREATE KEYSPACE IF NOT EXISTS "keyspace1" WITH replication = {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'replication_factor' : '1'} AND durable_writes = true;` + "\n"},
		{def.Use(), `USE "keyspace1"`},
		{def.CreateStandard1(names), "CREATE TABLE IF NOT EXISTS standard1 (key blob PRIMARY KEY \n, \"C0\" blob\n, \"C1\" blob\n, \"C2\" blob\n, \"C3\" blob\n, \"C4\" blob) WITH compression = {};\n"},
		{def.CreateCounter1(names[:2]), "CREATE TABLE IF NOT EXISTS counter1 (key blob PRIMARY KEY,\n, \"C0\" counter\n, \"C1\" counter) WITH compression = {};\n"},
		{Schema{Keyspace: "ks", ReplicationStrategy: "org.apache.cassandra.locator.SimpleStrategy"}.CreateKeyspace(),
			`CREATE KEYSPACE IF NOT EXISTS "ks" WITH replication = {'class': 'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor': '1'} AND durable_writes = true;` + "\n"},
		{Schema{Keyspace: "ks", ReplicationStrategy: DefaultStrategy, ReplicationFactor: "3", ReplicationOptions: []Option{{"dc1", "3"}, {"dc2", "2"}}}.CreateKeyspace(),
			`CREATE KEYSPACE IF NOT EXISTS "ks" WITH replication = {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc1' : '3', 'dc2' : '2', 'replication_factor' : '3'} AND durable_writes = true;` + "\n"},
		{Schema{Keyspace: "ks", ReplicationStrategy: DefaultStrategy, Storage: "S3", StorageOptions: []Option{{"bucket", "b"}}}.CreateKeyspace(),
			`CREATE KEYSPACE IF NOT EXISTS "ks" WITH replication = {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'replication_factor' : '1'} AND storage = {'type': 'S3', 'bucket' : 'b'} AND durable_writes = true;` + "\n"},
		{Schema{Compression: "LZ4Compressor", CompactionStrategy: "LeveledCompactionStrategy", CompactionOptions: []Option{{"sstable_size_in_mb", "160"}}}.CreateStandard1(names[:1]),
			"CREATE TABLE IF NOT EXISTS standard1 (key blob PRIMARY KEY \n, \"C0\" blob) WITH compression = {'sstable_compression' : 'LZ4Compressor'} AND compaction = { 'class' : 'LeveledCompactionStrategy', 'sstable_size_in_mb' : '160'};\n"},
		{InsertCQL(names, ""), `UPDATE "standard1" SET "C0" = ?,"C1" = ?,"C2" = ?,"C3" = ?,"C4" = ? WHERE KEY=?`},
		{InsertCQL(names[:1], "12345"), `UPDATE "standard1" USING TIMESTAMP 12345 SET "C0" = ? WHERE KEY=?`},
		{ReadCQL(names, false), `SELECT "C0","C1","C2","C3","C4" FROM "standard1" WHERE KEY=?`},
		{ReadCQL(names, true), `SELECT * FROM "standard1" WHERE KEY=?`},
		{CounterAddCQL(names[:2]), `UPDATE counter1 SET "C0"="C0"+?,"C1"="C1"+? WHERE KEY=?`},
		{CounterGetCQL(), `SELECT * FROM "counter1" WHERE KEY=?`},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d:\n got %q\nwant %q", i, c.got, c.want)
		}
	}
	if s, err := ReplicationStrategy("SimpleStrategy"); err != nil || s != "org.apache.cassandra.locator.SimpleStrategy" {
		t.Errorf("SimpleStrategy resolves to %q, %v", s, err)
	}
	if _, err := ReplicationStrategy("NoSuchStrategy"); err == nil {
		t.Error("unknown strategy accepted")
	}
}

func TestColumnNames(t *testing.T) {
	got := strings.Join(ColumnNames(12), ",")
	if want := "C0,C1,C10,C11,C2,C3,C4,C5,C6,C7,C8,C9"; got != want {
		t.Errorf("ColumnNames(12) = %s, want %s", got, want)
	}
	c, err := NewColumns(0, []string{"b", "a", "C"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Names(), ","); got != "C,a,b" {
		t.Errorf("names= sorted as %s", got)
	}
}

// What the server made of the original's statements (testdata/captured.txt):
// compression = {} leaves sstables uncompressed, the compaction is the
// server's default, and replication_factor expands to the data center.
func TestCapturedSchema(t *testing.T) {
	f, err := os.Open("testdata/captured.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{
		"keyspace stressdata_vectors":           "class=org.apache.cassandra.locator.NetworkTopologyStrategy,datacenter1=1",
		"table stressdata_vectors standard1":    "compression={enabled=false} compaction={class=org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy,max_threshold=32,min_threshold=4}",
		"columns stressdata_vectors standard1":  "C0:regular:blob C1:regular:blob C2:regular:blob C3:regular:blob C4:regular:blob key:partition_key:blob",
		"columns stressdata_vectors_c counter1": "C0:regular:counter C1:regular:counter C2:regular:counter C3:regular:counter C4:regular:counter key:partition_key:blob",
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		for k, v := range want {
			if rest, ok := strings.CutPrefix(sc.Text(), k+" "); ok {
				if rest != v {
					t.Errorf("%s: %s, want %s", k, rest, v)
				}
				delete(want, k)
			}
		}
	}
	for k := range want {
		t.Errorf("%s: not captured", k)
	}
}
