package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/yaml"

	_ "github.com/goycsb/ycsb/db/cassandra"
	_ "github.com/goycsb/ycsb/db/jdbc"
	_ "github.com/goycsb/ycsb/db/postgres"
)

func kubeJob(t *testing.T, out string) *batchv1.Job {
	t.Helper()
	docs := strings.Split(out, "\n---\n")
	job := &batchv1.Job{}
	if err := yaml.UnmarshalStrict([]byte(docs[len(docs)-1]), job); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return job
}

func TestKube(t *testing.T) {
	now = func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 300e6, time.UTC) }
	defer func() { now = time.Now }()
	const pw = "Zq9-very-secret"
	base := []string{"kube", "run", "jdbc", "-P", "../workloads/workloada", "-p", "db.url=jdbc:postgresql://pg:5432/ycsb",
		"-p", "db.passwd=" + pw, "-threads", "4", "-clients", "5"}
	for _, tt := range []struct {
		name  string
		extra []string
		want  []string // in the pod's arguments, joined by spaces
	}{
		{"default rendezvous", nil, []string{"run jdbc -P /etc/ycsb/workloads/workloada ", "-p db.passwd=$(YCSB_DB_PASSWD) -threads 4 -p client.count=5 -p client.index=auto -p client.rendezvous=ycsb-run-rendezvous:7070 -p report.json=-"}},
		{"rendezvous in a namespace, with a timeout", []string{"-namespace", "bench", "-p", "client.rendezvous.timeout=1200"}, []string{"-p client.rendezvous.timeout=1200 -p client.count=5 -p client.index=auto -p client.rendezvous=ycsb-run-rendezvous.bench:7070 -p report.json=-"}},
		{"-start-in", []string{"-start-in", "30s", "-image", "my/ycsb:1", "-name", "bench"}, []string{"starttime=2026-03-01T12:00:31Z"}},
		{"no start time", []string{"-start-in", "0"}, []string{"client.index=auto -p report.json=-"}},
		{"the user's start time", []string{"-p", "starttime=2026-03-01T13:00:00Z"}, []string{"-p starttime=2026-03-01T13:00:00Z -p client.count=5 -p client.index=auto -p report.json=-"}},
		{"an option's value that looks like ours", []string{"-p", "-clients=x"}, []string{"-p -clients=x"}},
		// Every pod carries the objectives into its report, where ycsb
		// merge finds them.
		{"slo", []string{"-p", "slo=READ.p99<=5ms,errors<=0.1%"}, []string{"-threads 4 -p slo=READ.p99<=5ms,errors<=0.1% -p client.count=5"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(append(append([]string{}, base...), tt.extra...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if strings.Contains(out+stderr, pw) {
				t.Fatalf("the password is in the output:\n%s", out)
			}
			job := kubeJob(t, out)
			if *job.Spec.Parallelism != 5 || *job.Spec.Completions != 5 || *job.Spec.CompletionMode != batchv1.IndexedCompletion {
				t.Errorf("job spec %+v", job.Spec)
			}
			args := strings.Join(job.Spec.Template.Spec.Containers[0].Args, " ")
			for _, w := range tt.want {
				if !strings.Contains(args, w) {
					t.Errorf("args %q lack %q", args, w)
				}
			}
			if strings.Count(args, "starttime=")+strings.Count(args, "client.rendezvous=") > 1 {
				t.Errorf("two ways to start: %q", args)
			}
			// The Service is there exactly when the pods meet through it.
			rendezvous := strings.Contains(args, "client.rendezvous=")
			if rendezvous != strings.Contains(out, "\nkind: Service\n") || rendezvous != strings.Contains(out, "# The clients start together once all 5 are up") {
				t.Errorf("client.rendezvous %v, but the Service or its header line disagrees:\n%s", rendezvous, out)
			}
			judged := strings.Contains(out, "# The merge judges the fleet against slo=READ.p99<=5ms,errors<=0.1% (exit code 3 when it is not met);")
			if judged != (tt.name == "slo") {
				t.Errorf("header says the merge judges: %v\n%s", judged, out)
			}
		})
	}
}

func TestKubeBadInput(t *testing.T) {
	dir := t.TempDir()
	leaky := filepath.Join(dir, "leaky")
	if err := os.WriteFile(leaky, []byte("cassandra.password=hunter2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no phase", []string{"kube"}, "needs load, run or capacity"},
		{"bad phase", []string{"kube", "shell", "basic", "-clients", "2"}, "needs load, run or capacity"},
		{"capacity without slo", []string{"kube", "capacity", "basic", "-P", "../workloads/workloadc", "-clients", "3"}, "slo: missing"},
		{"capacity without a shared start", []string{"kube", "capacity", "basic", "-P", "../workloads/workloadc", "-clients", "3", "-p", "slo=READ.p99<=5ms", "-start-in", "0"}, "-start-in 0: a fleet's capacity needs a shared start: leave -start-in out (the pods meet at a rendezvous) or give a duration"},
		{"capacity rate below the clients", []string{"kube", "capacity", "basic", "-P", "../workloads/workloadc", "-clients", "3", "-p", "slo=READ.p99<=5ms", "-p", "capacity.start=2"}, "capacity.start: 2 is less than client.count=3"},
		{"capacity resolution", []string{"kube", "capacity", "basic", "-P", "../workloads/workloadc", "-clients", "3", "-p", "slo=READ.p99<=5ms", "-p", "capacity.resolution=0.1"}, "capacity.resolution: a fleet"},
		{"no clients", []string{"kube", "run", "basic"}, "needs -clients N"},
		{"clients not a number", []string{"kube", "run", "basic", "-clients", "two"}, "-clients: expected an integer"},
		{"zero clients", []string{"kube", "run", "basic", "-clients", "0"}, "-clients 0"},
		{"more clients than client.count takes", []string{"kube", "run", "basic", "-P", "../workloads/workloada", "-clients", "1001"}, "-clients 1001: want 1 to 1000"},
		{"negative recordcount", []string{"kube", "run", "basic", "-P", "../workloads/workloada", "-clients", "3", "-p", "recordcount=-1"}, "recordcount: expected a non-negative integer"},
		{"NaN proportion", []string{"kube", "run", "basic", "-P", "../workloads/workloada", "-clients", "3", "-p", "readproportion=NaN"}, "readproportion: expected a number"},
		{"no workload", []string{"kube", "run", "basic", "-clients", "3"}, "workload: missing"},
		{"threads", []string{"kube", "run", "basic", "-P", "../workloads/workloada", "-clients", "3", "-threads", "0"}, "threadcount"},
		{"measurement type", []string{"kube", "run", "basic", "-P", "../workloads/workloada", "-clients", "3", "-p", "measurementtype=bogus"}, "measurementtype"},
		{"binding property", []string{"kube", "run", "basic", "-P", "../workloads/workloada", "-clients", "3", "-p", "basicdb.simulatedelay=-1"}, "basicdb.simulatedelay"},
		{"binding without a server", []string{"kube", "run", "cassandra-cql", "-P", "../workloads/workloada", "-clients", "3", "-p", "hosts=h", "-p", "port=70000"}, "port"},
		{"the last client's share", []string{"kube", "load", "basic", "-P", "../workloads/workloada", "-clients", "1000", "-p", "recordcount=999"}, "client 999 of 1000: client.count: 1000 clients for 999 records"},
		{"operationcount below the clients", []string{"kube", "run", "basic", "-P", "../workloads/workloada", "-clients", "20", "-p", "operationcount=10"}, "operationcount: 10 is less than client.count=20"},
		{"no binding", []string{"kube", "load", "-clients", "2"}, "missing binding"},
		{"unknown binding", []string{"kube", "load", "nosuch", "-clients", "2"}, "unknown binding"},
		{"unknown option", []string{"kube", "load", "basic", "-clients", "2", "-bogus"}, "unknown option -bogus"},
		{"missing value", []string{"kube", "load", "basic", "-clients"}, "needs a value"},
		{"missing -P file", []string{"kube", "load", "basic", "-clients", "2", "-P", filepath.Join(dir, "nope")}, "no such file"},
		{"bad -start-in", []string{"kube", "load", "basic", "-clients", "2", "-start-in", "soon"}, "-start-in"},
		{"both start times", []string{"kube", "load", "basic", "-clients", "2", "-start-in", "1m", "-p", "starttime=2026-03-01T13:00:00Z"}, "not both"},
		{"client.rendezvous", []string{"kube", "load", "basic", "-P", "../workloads/workloada", "-clients", "2", "-p", "client.rendezvous=h:7070"}, "ycsb kube sets client.rendezvous"},
		{"rendezvous timeout out of range", []string{"kube", "load", "basic", "-P", "../workloads/workloada", "-clients", "2", "-p", "client.rendezvous.timeout=0"}, "client.rendezvous.timeout: expected a number of seconds between 1 and 86400"},
		{"rendezvous timeout with a start time", []string{"kube", "load", "basic", "-P", "../workloads/workloada", "-clients", "2", "-start-in", "2m", "-p", "client.rendezvous.timeout=60"}, "client.rendezvous.timeout: needs client.rendezvous"},
		{"Service name", []string{"kube", "load", "basic", "-P", "../workloads/workloada", "-clients", "2", "-name", "1load"}, "the Service 1load-rendezvous needs a name that starts with a letter"},
		{"client.count", []string{"kube", "load", "basic", "-clients", "2", "-p", "client.count=4"}, "ycsb kube sets client.count"},
		{"password in a -P file", []string{"kube", "load", "cassandra-cql", "-clients", "2", "-P", leaky}, "cassandra.password holds a password"},
		{"password in db.url", []string{"kube", "load", "jdbc", "-clients", "2", "-p", "db.url=jdbc:postgresql://pg/y?user=a&password=hunter2"}, "has a password in it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(tt.args...)
			if code != ExitBadInput || out != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "ycsb: ") || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, and one line about %q", code, out, stderr, tt.want)
			}
			if strings.Contains(stderr, "hunter2") {
				t.Errorf("the error shows the password: %s", stderr)
			}
		})
	}
}

// TestKubeOneClient: one client has nobody to meet: no Service, no
// client.rendezvous.
func TestKubeOneClient(t *testing.T) {
	code, out, stderr := runCLI("kube", "run", "basic", "-P", "../workloads/workloada", "-clients", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(out, "kind: Service") || strings.Contains(out, "client.rendezvous") || strings.Contains(out, "starttime") {
		t.Errorf("a rendezvous or a start time for one client:\n%s", out)
	}
}

// TestKubeCapacity: the pods run ycsb capacity, each its share of the
// ladder, meeting at the rendezvous; the header says the merge finds the
// capacity.
func TestKubeCapacity(t *testing.T) {
	code, out, stderr := runCLI("kube", "capacity", "basic", "-P", "../workloads/workloadc", "-clients", "3", "-p", "slo=READ.p99<=5ms", "-p", "capacity.start=3000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"# ycsb capacity basic on 3 clients", "the merge judges each step on the merged histograms against\n#   slo=READ.p99<=5ms\n", "- capacity\n        - basic\n",
		"- client.count=3", "- client.rendezvous=ycsb-capacity-rendezvous:7070", "- report.json=-", "name: ycsb-capacity\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}
