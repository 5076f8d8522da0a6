package kube

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

const password = "s3cr3t-Pa55"

func spec() Spec {
	return Spec{
		Phase: "run", Binding: "jdbc", Clients: 3, Image: "registry.example/ycsb:0.1.0", Name: "ycsb-run",
		Namespace: "bench", Secret: "ycsb-db", CPU: "2", Memory: "1Gi",
		Rendezvous: true,
		Args: []string{"-P", "workloads/workloada", "-P", "other/workloada", "-p", "db.url=jdbc:postgresql://pg:5432/ycsb",
			"-p", "db.user=ycsb", "-p", "db.passwd=" + password, "-threads", "8", "-s"},
		Files: []File{{"workloads/workloada", []byte("recordcount=1000\nreadproportion=0.5\n")}, {"other/workloada", []byte("operationcount=5000\n")}},
	}
}

// decode splits the output into its documents and decodes them strictly
// (an unknown field is an error) into the Kubernetes API types.
func decode(t *testing.T, out []byte) (*corev1.ConfigMap, *batchv1.Job) {
	t.Helper()
	cm, _, job := decodeAll(t, out)
	return cm, job
}

// decodeAll is decode with the Service, nil without.
func decodeAll(t *testing.T, out []byte) (*corev1.ConfigMap, *corev1.Service, *batchv1.Job) {
	t.Helper()
	var cm *corev1.ConfigMap
	var svc *corev1.Service
	var job *batchv1.Job
	for _, doc := range strings.Split(string(out), "\n---\n") {
		doc = strings.TrimPrefix(doc, "---\n")
		if strings.TrimSpace(doc) == "" || !strings.Contains(doc, "kind:") {
			continue // the header comment
		}
		var tm struct{ Kind string }
		if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
			t.Fatal(err)
		}
		switch tm.Kind {
		case "ConfigMap":
			cm = &corev1.ConfigMap{}
			if err := yaml.UnmarshalStrict([]byte(doc), cm); err != nil {
				t.Fatalf("ConfigMap: %v\n%s", err, doc)
			}
		case "Service":
			svc = &corev1.Service{}
			if err := yaml.UnmarshalStrict([]byte(doc), svc); err != nil {
				t.Fatalf("Service: %v\n%s", err, doc)
			}
		case "Job":
			job = &batchv1.Job{}
			if err := yaml.UnmarshalStrict([]byte(doc), job); err != nil {
				t.Fatalf("Job: %v\n%s", err, doc)
			}
		default:
			t.Fatalf("unexpected document of kind %q", tm.Kind)
		}
	}
	if job == nil {
		t.Fatalf("no Job in:\n%s", out)
	}
	return cm, svc, job
}

func TestGenerate(t *testing.T) {
	out, err := Generate(spec())
	if err != nil {
		t.Fatal(err)
	}
	ycsbtest.Golden(t, filepath.Join("testdata", "run.yaml"), out)
	if strings.Contains(string(out), password) {
		t.Fatalf("the password is in the output:\n%s", out)
	}
	cm, job := decode(t, out)

	if job.APIVersion != "batch/v1" || job.Name != "ycsb-run" || job.Namespace != "bench" {
		t.Errorf("job %s %s/%s", job.APIVersion, job.Namespace, job.Name)
	}
	js := job.Spec
	if js.CompletionMode == nil || *js.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("completionMode %v, want Indexed", js.CompletionMode)
	}
	if js.Parallelism == nil || js.Completions == nil || *js.Parallelism != 3 || *js.Completions != 3 {
		t.Errorf("parallelism %v, completions %v, want 3 and 3", js.Parallelism, js.Completions)
	}
	if js.BackoffLimit == nil || *js.BackoffLimit != 0 {
		t.Errorf("backoffLimit %v, want 0", js.BackoffLimit)
	}
	pod := js.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever || len(pod.Containers) != 1 {
		t.Fatalf("pod %+v", pod)
	}
	c := pod.Containers[0]
	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	if e := env[IndexEnv]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil ||
		e.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("%s = %+v", IndexEnv, e)
	}
	pw := env["YCSB_DB_PASSWD"]
	if pw.Value != "" || pw.ValueFrom == nil || pw.ValueFrom.SecretKeyRef == nil ||
		pw.ValueFrom.SecretKeyRef.Name != "ycsb-db" || pw.ValueFrom.SecretKeyRef.Key != SecretKey {
		t.Errorf("YCSB_DB_PASSWD = %+v, want a secretKeyRef to ycsb-db/password", pw)
	}
	args := strings.Join(c.Args, " ")
	for _, want := range []string{
		"run jdbc -P /etc/ycsb/workloads/workloada -P /etc/ycsb/workloads/workloada-2 ",
		"-p db.passwd=$(YCSB_DB_PASSWD) ",
		"-threads 8 -s -p client.count=3 -p client.index=auto -p client.rendezvous=ycsb-run-rendezvous.bench:7070 -p report.json=-",
	} {
		if !strings.Contains(args, want) {
			t.Errorf("args %q lack %q", args, want)
		}
	}
	if q := c.Resources.Requests[corev1.ResourceCPU]; q.String() != "2" {
		t.Errorf("cpu request %s", q.String())
	}
	if q := c.Resources.Limits[corev1.ResourceMemory]; q.String() != "1Gi" {
		t.Errorf("memory limit %s", q.String())
	}
	if _, ok := c.Resources.Limits[corev1.ResourceCPU]; ok {
		t.Error("a CPU limit throttles the client")
	}
	if cm == nil || cm.Name != "ycsb-run-workloads" || cm.Data["workloada"] != "recordcount=1000\nreadproportion=0.5\n" || cm.Data["workloada-2"] != "operationcount=5000\n" {
		t.Fatalf("ConfigMap %+v", cm)
	}
	if len(pod.Volumes) != 1 || pod.Volumes[0].ConfigMap == nil || pod.Volumes[0].ConfigMap.Name != cm.Name ||
		len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != WorkloadDir || c.VolumeMounts[0].Name != pod.Volumes[0].Name {
		t.Errorf("volumes %+v, mounts %+v", pod.Volumes, c.VolumeMounts)
	}
}

func TestGenerateVariants(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(*Spec)
		check  func(t *testing.T, cm *corev1.ConfigMap, job *batchv1.Job)
	}{
		{"no -P, no password, no start time", func(s *Spec) {
			s.Args, s.Files, s.Rendezvous, s.Namespace = []string{"-p", "recordcount=10"}, nil, false, ""
		}, func(t *testing.T, cm *corev1.ConfigMap, job *batchv1.Job) {
			c := job.Spec.Template.Spec.Containers[0]
			args := strings.Join(c.Args, " ")
			if cm != nil || len(job.Spec.Template.Spec.Volumes) != 0 || len(c.Env) != 1 || len(c.Ports) != 0 || strings.Contains(args, "starttime") || strings.Contains(args, "client.rendezvous") {
				t.Errorf("cm %v, job %+v", cm, job.Spec.Template.Spec)
			}
		}},
		{"a start time, no rendezvous", func(s *Spec) {
			s.Rendezvous, s.StartTime = false, time.Date(2026, 3, 1, 12, 2, 0, 0, time.UTC)
		}, func(t *testing.T, cm *corev1.ConfigMap, job *batchv1.Job) {
			c := job.Spec.Template.Spec.Containers[0]
			if args := strings.Join(c.Args, " "); !strings.Contains(args, "-p client.index=auto -p starttime=2026-03-01T12:02:00Z -p report.json=-") || strings.Contains(args, "client.rendezvous") || len(c.Ports) != 0 {
				t.Errorf("args %q, ports %v", args, c.Ports)
			}
		}},
		{"cassandra password, one client", func(s *Spec) {
			s.Binding, s.Clients, s.Secret, s.Rendezvous = "cassandra-cql", 1, "cass", false
			s.Args = []string{"-p", "hosts=cass.db", "-p", "cassandra.password=" + password, "-p", "cassandra.password=" + password + "2"}
			s.Files = nil
		}, func(t *testing.T, cm *corev1.ConfigMap, job *batchv1.Job) {
			c := job.Spec.Template.Spec.Containers[0]
			if *job.Spec.Parallelism != 1 || len(c.Env) != 2 || c.Env[1].Name != "YCSB_CASSANDRA_PASSWORD" || c.Env[1].ValueFrom.SecretKeyRef.Name != "cass" {
				t.Errorf("env %+v", c.Env)
			}
			if got := strings.Count(strings.Join(c.Args, " "), "cassandra.password=$(YCSB_CASSANDRA_PASSWORD)"); got != 2 {
				t.Errorf("args %q", c.Args)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := spec()
			tt.change(&s)
			out, err := Generate(s)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(out), password) {
				t.Fatalf("the password is in the output:\n%s", out)
			}
			cm, job := decode(t, out)
			tt.check(t, cm, job)
		})
	}
}

// TestGenerateSLOComment: the header comment names the objectives on
// its own lines, whatever whitespace the slo value held (slo.Parse drops
// it, a line break included): every line before the first document is a
// comment.
func TestGenerateSLOComment(t *testing.T) {
	for _, phase := range []string{"run", "capacity"} {
		s := spec()
		s.Phase, s.SLO = phase, "READ.p99<=5\nms, UPDATE.p99 <=\r10ms"
		out, err := Generate(s)
		if err != nil {
			t.Fatal(err)
		}
		header, _, _ := strings.Cut(string(out), "\n---\n")
		for _, line := range strings.Split(strings.TrimSuffix(header, "\n"), "\n") {
			if !strings.HasPrefix(line, "#") {
				t.Errorf("%s: header line %q is not a comment", phase, line)
			}
		}
		if !strings.Contains(header, "slo=READ.p99<=5ms,UPDATE.p99<=10ms") {
			t.Errorf("%s: header lacks the objectives:\n%s", phase, header)
		}
	}
}

func TestGenerateRefuses(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(*Spec)
		want   string
	}{
		{"no clients", func(s *Spec) { s.Clients = 0 }, "-clients 0"},
		{"too many", func(s *Spec) { s.Clients = MaxClients + 1 }, "-clients"},
		{"name", func(s *Spec) { s.Name = "YCSB_run" }, "-name"},
		{"long name", func(s *Spec) { s.Name = strings.Repeat("a", 53) }, "-name"},
		{"namespace", func(s *Spec) { s.Namespace = "a b" }, "-namespace"},
		{"secret", func(s *Spec) { s.Secret = "" }, "-secret"},
		{"cpu", func(s *Spec) { s.CPU = "two" }, "-cpu"},
		{"memory", func(s *Spec) { s.Memory = "1 GB" }, "-memory"},
		{"image", func(s *Spec) { s.Image = "" }, "-image"},
		{"rendezvous and start time", func(s *Spec) { s.StartTime = time.Now() }, "a rendezvous and a start time"},
		{"rendezvous of one", func(s *Spec) { s.Clients = 1 }, "-clients 1: a rendezvous needs 2 clients or more"},
		{"Service name", func(s *Spec) { s.Name = "1run" }, `-name "1run": the Service 1run-rendezvous needs a name that starts with a letter`},
		{"client.rendezvous given", func(s *Spec) { s.Args = []string{"-p", "client.rendezvous=h:1"} }, "ycsb kube sets client.rendezvous"},
		{"client.index given", func(s *Spec) { s.Args = []string{"-p", "client.index=2"} }, "ycsb kube sets client.index"},
		{"report.json given", func(s *Spec) { s.Args = []string{"-p", "report.json=r.json"} }, "ycsb kube sets report.json"},
		{"password in a URL", func(s *Spec) { s.Args = []string{"-p", "db.url=postgresql://u:" + password + "@pg/ycsb"} }, "has a password in it"},
		{"password in a URL parameter", func(s *Spec) { s.Args = []string{"-p", "db.url=jdbc:postgresql://pg/ycsb?password=" + password} }, "has a password in it"},
		// The Secret holds one password; any other secret would be in the
		// Job's arguments or the ConfigMap in clear.
		{"token on the command line", func(s *Spec) { s.Args = []string{"-p", "s3.apitoken=" + password} }, "-p s3.apitoken: a secret"},
		{"key in a -P file", func(s *Spec) {
			s.Files[1].Data = []byte("s3.secretkey=" + password + "\n")
		}, "other/workloada: s3.secretkey holds a secret"},
		{"password in a -P file", func(s *Spec) {
			s.Files[1].Data = []byte("db.passwd=" + password + "\n")
		}, "other/workloada: db.passwd holds a password, which would be in the ConfigMap"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := spec()
			tt.change(&s)
			_, err := Generate(s)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Generate = %v, want one line about %q", err, tt.want)
			}
			if strings.Contains(err.Error(), password) {
				t.Errorf("the error shows the password: %v", err)
			}
			if _, ok := err.(*Error); !ok {
				t.Errorf("%T is not bad input", err)
			}
		})
	}
}

func TestEscape(t *testing.T) {
	s := spec()
	s.Args = []string{"-l", "$(HOME) costs $5"}
	s.Files = nil
	out, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	_, job := decode(t, out)
	if got := job.Spec.Template.Spec.Containers[0].Args[3]; got != "$$(HOME) costs $$5" {
		t.Errorf("label argument %q: Kubernetes would expand $(HOME)", got)
	}
}

// TestRendezvousService: the headless Service selects client 0's pod of
// this Job, publishes it before it is ready, and forwards the port every
// pod declares and client.rendezvous names.
func TestRendezvousService(t *testing.T) {
	s := spec()
	out, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	_, svc, job := decodeAll(t, out)
	if svc == nil {
		t.Fatalf("no Service:\n%s", out)
	}
	sp := svc.Spec
	if svc.Name != "ycsb-run-rendezvous" || svc.Namespace != "bench" || sp.ClusterIP != corev1.ClusterIPNone || !sp.PublishNotReadyAddresses {
		t.Errorf("Service %s/%s, clusterIP %q, publishNotReadyAddresses %v", svc.Namespace, svc.Name, sp.ClusterIP, sp.PublishNotReadyAddresses)
	}
	want := map[string]string{"batch.kubernetes.io/job-name": job.Name, "batch.kubernetes.io/job-completion-index": "0"}
	if len(sp.Selector) != 2 || sp.Selector["batch.kubernetes.io/job-name"] != want["batch.kubernetes.io/job-name"] || sp.Selector["batch.kubernetes.io/job-completion-index"] != "0" {
		t.Errorf("selector %v, want %v", sp.Selector, want)
	}
	c := job.Spec.Template.Spec.Containers[0]
	if len(sp.Ports) != 1 || sp.Ports[0].Port != RendezvousPort || sp.Ports[0].TargetPort.IntValue() != RendezvousPort || sp.Ports[0].Protocol != corev1.ProtocolTCP ||
		len(c.Ports) != 1 || c.Ports[0].ContainerPort != RendezvousPort || c.Ports[0].Protocol != corev1.ProtocolTCP {
		t.Errorf("Service ports %+v, container ports %+v", sp.Ports, c.Ports)
	}
	if !strings.Contains(strings.Join(c.Args, " "), "-p client.rendezvous=ycsb-run-rendezvous.bench:7070 ") {
		t.Errorf("args %q", c.Args)
	}
	// Without a namespace the pods resolve the name in their own.
	s.Namespace = ""
	if out, err = Generate(s); err != nil || !strings.Contains(string(out), "client.rendezvous=ycsb-run-rendezvous:7070\n") {
		t.Errorf("without a namespace: %v\n%s", err, out)
	}
}

// TestNamesValid: the names, labels and selectors of the manifests pass
// the API server's own checks (k8s.io/apimachinery), for the longest
// name ycsb kube takes as well as the usual one.
func TestNamesValid(t *testing.T) {
	for _, name := range []string{"ycsb-run", "r" + strings.Repeat("0", 51)} {
		s := spec()
		s.Name = name
		out, err := Generate(s)
		if err != nil {
			t.Fatal(err)
		}
		cm, svc, job := decodeAll(t, out)
		check := func(what string, errs []string) {
			t.Helper()
			if len(errs) > 0 {
				t.Errorf("%s (name %s): %v", what, name, errs)
			}
		}
		labels := func(what string, m map[string]string) {
			t.Helper()
			for k, v := range m {
				check(what+" key "+k, content.IsLabelKey(k))
				check(what+" value "+v, content.IsLabelValue(v))
			}
		}
		check("Job name", validation.IsDNS1123Label(job.Name))
		check("ConfigMap name", validation.IsDNS1123Subdomain(cm.Name))
		check("Service name", validation.IsDNS1035Label(svc.Name))
		check("namespace", validation.IsDNS1123Label(job.Namespace))
		check("Secret name", validation.IsDNS1123Subdomain(s.Secret))
		for _, o := range []map[string]string{job.Labels, job.Spec.Template.Labels, cm.Labels, svc.Labels} {
			labels("label", o)
		}
		labels("selector", svc.Spec.Selector)
		for _, p := range svc.Spec.Ports {
			check("Service port name", validation.IsValidPortName(p.Name))
			check("Service port", validation.IsValidPortNum(int(p.Port)))
		}
		for _, c := range job.Spec.Template.Spec.Containers {
			check("container name", validation.IsDNS1123Label(c.Name))
			for _, p := range c.Ports {
				check("container port name", validation.IsValidPortName(p.Name))
			}
			for _, e := range c.Env {
				check("env name", validation.IsEnvVarName(e.Name))
			}
		}
		for k := range cm.Data {
			check("ConfigMap key", validation.IsConfigMapKey(k))
		}
		// The selector's job name is the label the Job controller gives
		// its pods: the Job's own name.
		if svc.Spec.Selector["batch.kubernetes.io/job-name"] != job.Name {
			t.Errorf("selector %v for job %s", svc.Spec.Selector, job.Name)
		}
	}
}
