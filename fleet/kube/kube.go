// Package kube writes the Kubernetes manifests of a distributed run (ycsb
// kube): an Indexed Job whose pods are the clients, each told its share by
// client.count and client.index=auto (which reads JOB_COMPLETION_INDEX),
// a headless Service through which the pods meet client 0 to start
// together (client.rendezvous), a ConfigMap holding the -P workload
// files, and a reference to a Secret
// that the user creates, so that no password is ever in the output. Each
// pod prints its JSON report as a block on stdout (report.json=-), which
// ycsb merge reads from kubectl logs. docs/distributed.md walks through it.
//
// The manifests are this package's own small structs with the Kubernetes
// API's field names, so that the program does not link k8s.io/api; the
// tests decode the output strictly into the real API types.
package kube

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/goycsb/ycsb/fleet/partition"
	"github.com/goycsb/ycsb/internal/secret"
	"github.com/goycsb/ycsb/props"
)

// Properties that ycsb kube sets on every pod.
const (
	PropClientCount = "client.count"
	PropClientIndex = "client.index"
	PropStartTime   = "starttime"
	PropRendezvous  = "client.rendezvous"
	PropReportJSON  = "report.json"
)

// RendezvousPort is the port client 0 listens on for the others, in its
// pod (client.rendezvous), and the Service's.
const RendezvousPort = 7070

// The labels the Job controller gives its pods (Kubernetes 1.27 and 1.28
// on), which the Service selects client 0 by.
const (
	jobNameLabel  = "batch.kubernetes.io/job-name"
	podIndexLabel = "batch.kubernetes.io/job-completion-index"
)

// IndexEnv is the environment variable an Indexed Job's pod finds its
// completion index in; client.index=auto reads it.
const IndexEnv = "JOB_COMPLETION_INDEX"

// indexAnnotation is where the Job controller writes the index; IndexEnv
// is set from it explicitly, as clusters before the controller set the
// variable itself required.
const indexAnnotation = "metadata.annotations['batch.kubernetes.io/job-completion-index']"

// SecretKey is the key of the password in the user's Secret
// (kubectl create secret generic NAME --from-literal=password=...).
const SecretKey = "password"

// WorkloadDir is where the ConfigMap's files are mounted in the pod.
const WorkloadDir = "/etc/ycsb/workloads"

// File is one -P file: the path as given and its content.
type File struct {
	Path string
	Data []byte
}

// Spec is one distributed run.
type Spec struct {
	Phase   string   // load, run or capacity
	Binding string   // as given on the command line
	Args    []string // the ycsb options after the binding, as given
	Files   []File   // the -P files, in the order of Args
	Clients int

	Image     string
	Name      string // of the Job; the ConfigMap is Name-workloads
	Namespace string // "" for kubectl's current one
	Secret    string // the Secret holding SecretKey
	StartTime time.Time
	// Rendezvous makes the pods meet client 0 through a headless Service,
	// Name-rendezvous, and start together; it excludes StartTime.
	Rendezvous bool
	CPU        string // request per pod
	Memory     string // request and limit per pod
	// SLO is the run's objectives (slo), which every pod carries in its
	// report and ycsb merge judges the fleet against; "" for none. The
	// header comment names it without its whitespace, as slo.Parse reads it.
	SLO string
}

// Error is bad input to Generate: the command exits with code 2.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// BadInput marks the error as bad input (props.IsBadInput).
func (e *Error) BadInput() {}

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

var (
	dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	quantity = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|Ki|Mi|Gi|Ti|Pi)?$`)
	keyChars = regexp.MustCompile(`[^-._a-zA-Z0-9]`)
)

// MaxClients bounds -clients: every pod runs with client.count=-clients,
// which partition.MaxCount bounds (run-phase insert keys must stay within
// an int64), so a larger Job would be refused by every pod. An Indexed
// Job itself takes up to 100000 completions.
const MaxClients = partition.MaxCount

// check validates s's own fields.
func (s *Spec) check() error {
	switch {
	case s.Phase != "load" && s.Phase != "run" && s.Phase != "capacity":
		return errorf("phase %q: want load, run or capacity", s.Phase)
	case s.Clients < 1 || s.Clients > MaxClients:
		return errorf("-clients %d: want 1 to %d", s.Clients, MaxClients)
	case s.Image == "" || strings.ContainsAny(s.Image, " \t\n"):
		return errorf("-image %q: want an image reference", s.Image)
	case len(s.Name) > 52 || !dnsLabel.MatchString(s.Name):
		// 52: the ConfigMap adds "-workloads" and pod names add the index
		// and a suffix to a 63-character label.
		return errorf("-name %q: want lower-case letters, digits and -, at most 52", s.Name)
	case s.Namespace != "" && (len(s.Namespace) > 63 || !dnsLabel.MatchString(s.Namespace)):
		return errorf("-namespace %q: not a namespace name", s.Namespace)
	case len(s.Secret) > 253 || !dnsLabel.MatchString(s.Secret):
		return errorf("-secret %q: not a Secret name", s.Secret)
	case !quantity.MatchString(s.CPU):
		return errorf("-cpu %q: want a quantity such as 1, 500m or 2", s.CPU)
	case !quantity.MatchString(s.Memory):
		return errorf("-memory %q: want a quantity such as 512Mi or 2Gi", s.Memory)
	case s.Rendezvous && !s.StartTime.IsZero():
		return errorf("a rendezvous and a start time: the pods start at one of them")
	case s.Rendezvous && s.Clients < 2:
		return errorf("-clients %d: a rendezvous needs 2 clients or more", s.Clients)
	case s.Rendezvous && (s.Name[0] < 'a' || s.Name[0] > 'z'):
		// A Service's name is a DNS-1035 label: a letter first.
		return errorf("-name %q: the Service %s needs a name that starts with a letter", s.Name, s.ServiceName())
	}
	return nil
}

// ServiceName is the name of the rendezvous Service: at most 63
// characters with a Name of at most 52.
func (s *Spec) ServiceName() string { return s.Name + "-rendezvous" }

// RendezvousAddr is client.rendezvous in the pods: the Service's name,
// qualified by the namespace when one is given (the pods resolve it in
// their own namespace otherwise), and the port.
func (s *Spec) RendezvousAddr() string {
	host := s.ServiceName()
	if s.Namespace != "" {
		host += "." + s.Namespace
	}
	return host + ":" + strconv.Itoa(RendezvousPort)
}

// EnvName is the environment variable a password property's value comes
// from: YCSB_ and the name in upper case, db.passwd as YCSB_DB_PASSWD.
func EnvName(prop string) string {
	return "YCSB_" + strings.ToUpper(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(prop, "_"))
}

// escape keeps Kubernetes from expanding $(VAR) in an argument of the
// user's: $$ is a literal $ in container args.
func escape(s string) string { return strings.ReplaceAll(s, "$", "$$") }

// container is the pod's arguments and the password variables.
type container struct {
	args []string
	env  []envVar
}

// arguments rewrites the ycsb options for the pod: -P files point into the
// mounted ConfigMap, a password property takes its value from the Secret
// through an environment variable, and ycsb kube's own properties follow.
func (s *Spec) arguments(keys map[string]string) (*container, error) {
	c := &container{args: []string{s.Phase, escape(s.Binding)}}
	seen := map[string]bool{}
	for i := 0; i < len(s.Args); i++ {
		a := s.Args[i]
		name := strings.TrimLeft(a, "-")
		if (name == "P" || name == "p") && strings.HasPrefix(a, "-") && i+1 < len(s.Args) {
			i++
			v := s.Args[i]
			if name == "P" {
				c.args = append(c.args, "-P", path.Join(WorkloadDir, keys[v]))
				continue
			}
			k, val, err := props.ParseOverride(v)
			if err != nil {
				return nil, errorf("-p %s: %v", v, err)
			}
			switch k {
			case PropClientCount, PropClientIndex, PropReportJSON, PropRendezvous:
				return nil, errorf("-p %s: ycsb kube sets %s on each pod", v, k)
			}
			if !secret.IsPassword(k) && secret.IsSecret(k) {
				return nil, errorf("-p %s: a secret other than the password, which would be in the Job in clear: ycsb kube passes one password, through the Secret %s", k, s.Secret)
			}
			if secret.IsPassword(k) {
				// The value stays on this machine: the pod reads it from
				// the Secret, which Kubernetes puts into the argument.
				env := EnvName(k)
				if !seen[env] {
					seen[env] = true
					c.env = append(c.env, envVar{Name: env, ValueFrom: &envSource{SecretKeyRef: &keyRef{Name: s.Secret, Key: SecretKey}}})
				}
				c.args = append(c.args, "-p", k+"=$("+env+")")
				continue
			}
			if secret.InText(val) != val {
				return nil, errorf("-p %s: the value has a password in it, which would be in the manifest; give it as a password property (db.passwd, cassandra.password) and put it in the Secret %s", secret.Args([]string{"-p", v})[1], s.Secret)
			}
			c.args = append(c.args, "-p", escape(v))
			continue
		}
		if secret.InText(a) != a {
			return nil, errorf("argument %s has a password in it, which would be in the manifest", secret.InText(a))
		}
		c.args = append(c.args, escape(a))
	}
	c.args = append(c.args, "-p", PropClientCount+"="+strconv.Itoa(s.Clients), "-p", PropClientIndex+"=auto")
	if !s.StartTime.IsZero() {
		c.args = append(c.args, "-p", PropStartTime+"="+s.StartTime.UTC().Format(time.RFC3339))
	}
	if s.Rendezvous {
		c.args = append(c.args, "-p", PropRendezvous+"="+s.RendezvousAddr())
	}
	c.args = append(c.args, "-p", PropReportJSON+"=-")
	return c, nil
}

// configKeys names each -P file's key in the ConfigMap: its base name,
// made unique and valid.
func configKeys(files []File) map[string]string {
	keys := map[string]string{}
	used := map[string]bool{}
	for _, f := range files {
		if _, ok := keys[f.Path]; ok {
			continue
		}
		base := keyChars.ReplaceAllString(path.Base(strings.ReplaceAll(f.Path, `\`, "/")), "_")
		if base == "" || base == "." || base == ".." {
			base = "workload"
		}
		k := base
		for n := 2; used[k]; n++ {
			k = base + "-" + strconv.Itoa(n)
		}
		used[k] = true
		keys[f.Path] = k
	}
	return keys
}

// checkFile refuses a -P file with a password in it: the file goes into
// the ConfigMap, which anyone who can read the namespace reads.
func checkFile(f File, secretName string) error {
	p, err := props.Parse(f.Path, f.Data)
	if err != nil {
		return errorf("%v", err)
	}
	for k, v := range p.Map() {
		if v == "" {
			continue
		}
		if !secret.IsPassword(k) && secret.IsSecret(k) {
			return errorf("%s: %s holds a secret, which would be in the ConfigMap in clear; ycsb kube passes one password, through the Secret %s", f.Path, k, secretName)
		}
		if secret.IsPassword(k) || secret.InText(v) != v {
			return errorf("%s: %s holds a password, which would be in the ConfigMap; remove it there, give -p %s=... on the command line and put the password in the Secret %s", f.Path, k, k, secretName)
		}
	}
	return nil
}

// Generate returns the manifests of s as YAML documents: the ConfigMap
// (when there are -P files), the Service (with a rendezvous), then the
// Job.
func Generate(s Spec) ([]byte, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	for _, f := range s.Files {
		if err := checkFile(f, s.Secret); err != nil {
			return nil, err
		}
	}
	keys := configKeys(s.Files)
	c, err := s.arguments(keys)
	if err != nil {
		return nil, err
	}
	labels := map[string]string{
		"app.kubernetes.io/name":      "ycsb",
		"app.kubernetes.io/component": s.Phase,
		"app.kubernetes.io/instance":  s.Name,
	}
	var docs []any
	ctr := containerSpec{
		Name:  "ycsb",
		Image: s.Image,
		Args:  c.args,
		Env:   append([]envVar{{Name: IndexEnv, ValueFrom: &envSource{FieldRef: &fieldRef{FieldPath: indexAnnotation}}}}, c.env...),
		// No CPU limit: throttling a benchmark client distorts its
		// latencies. Memory is limited to the request so that an
		// overcommitted node evicts nothing else first.
		Resources: resources{
			Requests: map[string]string{"cpu": s.CPU, "memory": s.Memory},
			Limits:   map[string]string{"memory": s.Memory},
		},
		SecurityContext: &securityContext{AllowPrivilegeEscalation: new(false), RunAsNonRoot: new(true), RunAsUser: new(int64(65532))},
	}
	if s.Rendezvous {
		// Every pod has it, client 0's is listened on.
		ctr.Ports = []containerPort{{Name: "rendezvous", ContainerPort: RendezvousPort, Protocol: "TCP"}}
	}
	pod := podSpec{RestartPolicy: "Never", Containers: []containerSpec{ctr}}
	if len(s.Files) > 0 {
		cm := configMap{
			APIVersion: "v1", Kind: "ConfigMap",
			Metadata: meta{Name: s.Name + "-workloads", Namespace: s.Namespace, Labels: labels},
			Data:     map[string]string{},
		}
		for _, f := range s.Files {
			cm.Data[keys[f.Path]] = string(f.Data)
		}
		docs = append(docs, cm)
		pod.Containers[0].VolumeMounts = []volumeMount{{Name: "workloads", MountPath: WorkloadDir, ReadOnly: true}}
		pod.Volumes = []volume{{Name: "workloads", ConfigMap: &configMapSource{Name: cm.Metadata.Name}}}
	}
	if s.Rendezvous {
		docs = append(docs, service{
			APIVersion: "v1", Kind: "Service",
			Metadata: meta{Name: s.ServiceName(), Namespace: s.Namespace, Labels: labels},
			Spec: serviceSpec{
				// Headless: the name resolves to client 0's pod address,
				// with publishNotReadyAddresses even before the pod
				// counts as ready.
				ClusterIP:                "None",
				PublishNotReadyAddresses: true,
				Selector:                 map[string]string{jobNameLabel: s.Name, podIndexLabel: "0"},
				Ports:                    []servicePort{{Name: "rendezvous", Port: RendezvousPort, TargetPort: RendezvousPort, Protocol: "TCP"}},
			},
		})
	}
	job := job{
		APIVersion: "batch/v1", Kind: "Job",
		Metadata: meta{Name: s.Name, Namespace: s.Namespace, Labels: labels},
		Spec: jobSpec{
			CompletionMode: "Indexed",
			Completions:    s.Clients,
			Parallelism:    s.Clients,
			// A client that fails is not retried: a second run of its
			// share would not be the same experiment (ycsb merge refuses
			// two reports of one client.index).
			BackoffLimit: new(0),
			Template:     podTemplate{Metadata: meta{Labels: labels}, Spec: pod},
		},
	}
	docs = append(docs, job)
	var out bytes.Buffer
	out.WriteString(header(&s, c))
	for _, d := range docs {
		b, err := yaml.Marshal(d)
		if err != nil {
			return nil, fmt.Errorf("kube: %w", err)
		}
		out.WriteString("---\n")
		out.Write(b)
	}
	return out.Bytes(), nil
}

// header is the YAML comment before the documents: what to do with them.
// It never repeats the command line, which may hold a password.
func header(s *Spec, c *container) string {
	var b strings.Builder
	ns := ""
	if s.Namespace != "" {
		ns = " -n " + s.Namespace
	}
	fmt.Fprintf(&b, "# ycsb %s %s on %d clients: an Indexed Job, one pod per client (docs/distributed.md).\n", s.Phase, s.Binding, s.Clients)
	if len(c.env) > 0 {
		fmt.Fprintf(&b, "# The password comes from the Secret %s; create it once:\n#   kubectl create secret generic %s%s --from-literal=%s=...\n", s.Secret, s.Secret, ns, SecretKey)
	}
	if !s.StartTime.IsZero() {
		fmt.Fprintf(&b, "# The clients start together at %s: apply before then.\n", s.StartTime.UTC().Format(time.RFC3339))
	}
	if s.Rendezvous {
		fmt.Fprintf(&b, "# The clients start together once all %d are up: client 0 listens on port %d,\n# the others reach it through the headless Service %s (client.rendezvous).\n", s.Clients, RendezvousPort, s.ServiceName())
	}
	fmt.Fprintf(&b, "#   kubectl apply%s -f FILE\n", ns)
	fmt.Fprintf(&b, "#   kubectl wait%s --for=condition=complete --timeout=24h job/%s\n", ns, s.Name)
	fmt.Fprintf(&b, "#   kubectl logs%s -l job-name=%s --tail=-1 --prefix | ycsb merge -\n", ns, s.Name)
	// The objectives without whitespace, as slo.Parse reads them: a line
	// break in the value would end the comment line.
	objectives := strings.Join(strings.Fields(s.SLO), "")
	switch {
	case s.Phase == "capacity":
		fmt.Fprintf(&b, "# Each pod runs its share of every step of a fixed ladder of rates, on one schedule;\n# the merge judges each step on the merged histograms against\n#   slo=%s\n# and finds the fleet's capacity (exit code 3 when no step passes).\n", objectives)
	case objectives != "":
		fmt.Fprintf(&b, "# The merge judges the fleet against slo=%s (exit code 3 when it is not met);\n# each pod reports its share without judging it.\n", objectives)
	}
	return b.String()
}
