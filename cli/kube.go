package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/fleet/kube"
	"github.com/goycsb/ycsb/frontend/ycsb"
	"github.com/goycsb/ycsb/props"
)

const kubeUsage = "ycsb kube <load|run|capacity> <binding> [ycsb options] -clients N [-image IMAGE] [-name NAME] [-namespace NS] [-secret NAME] [-start-in DURATION] [-cpu 1] [-memory 1Gi]"

// now is the clock of -start-in; tests set it.
var now = time.Now

// runKube is ycsb kube: the manifests go to stdout, for kubectl apply.
func runKube(ctx context.Context, env *Env, args []string) error {
	s, startIn, startInSet, err := parseKubeArgs(args)
	if err != nil {
		return err
	}
	n := s.Clients
	// The usual options are checked as load and run check them.
	p, err := parseArgs(s.Args, false)
	if err != nil {
		return err
	}
	all, texts, err := p.propertiesAndFiles(ctx)
	if err != nil {
		return err
	}
	if s.Binding == "" {
		if !all.Has("db") {
			return usagef("missing binding: ycsb kube %s <binding> [options]; bindings: %s", s.Phase, strings.Join(db.Drivers(), ", "))
		}
		s.Binding = all.String("db", "")
	}
	driver, primary, err := binding(s.Binding, all)
	if err != nil {
		return err
	}
	if db.KindOf(primary) == db.Embedded {
		// Each pod's engine would be its own, and a run's pods would not
		// have the store the load's pods wrote.
		return usagef("ycsb kube cannot run %s, an embedded engine in each pod's own process: every pod would benchmark a store of its own, and a run's pods an empty one; run ycsb load and ycsb run on one machine, with -threads for more work", primary)
	}
	// The pods meet through a Service and start together, unless told a
	// time (starttime, -start-in) or to start each on its own (-start-in 0).
	switch {
	case p.cmdline.Has(kube.PropStartTime) && startInSet:
		return usagef("give -start-in or -p %s, not both", kube.PropStartTime)
	case s.Phase == "capacity" && startInSet && startIn == 0 && n > 1:
		// Named here: the capacity check would name starttime and
		// client.rendezvous, which ycsb kube sets itself.
		return usagef("-start-in 0: a fleet's capacity needs a shared start: leave -start-in out (the pods meet at a rendezvous) or give a duration")
	case startIn > 0:
		// Whole seconds: the time is read by people as well.
		s.StartTime = now().Add(startIn + time.Second - 1).Truncate(time.Second)
	case !startInSet && !all.Has(kube.PropStartTime) && n > 1:
		s.Rendezvous = true
	}
	if s.Name == "" {
		s.Name = "ycsb-" + s.Phase
	}
	for i, f := range p.files {
		s.Files = append(s.Files, kube.File{Path: f, Data: texts[i]})
	}
	s.SLO = all.String("slo", "")
	out, err := kube.Generate(s)
	if err != nil {
		return err
	}
	if err := checkPods(&s, all, driver); err != nil {
		return err
	}
	if _, err := env.Stdout.Write(out); err != nil {
		return fmt.Errorf("stdout: %w", err)
	}
	return nil
}

// parseKubeArgs reads ycsb kube's command line: the phase, the binding,
// its own options into a Spec, and the rest as the pods' arguments
// (Spec.Args); startInSet says whether -start-in was given.
func parseKubeArgs(args []string) (s kube.Spec, startIn time.Duration, startInSet bool, err error) {
	if len(args) == 0 || (args[0] != "load" && args[0] != "run" && args[0] != "capacity") {
		return kube.Spec{}, 0, false, usagef("ycsb kube needs load, run or capacity first (usage: %s)", kubeUsage)
	}
	s = kube.Spec{Phase: args[0], Image: "ycsb:" + Version, Secret: "ycsb-db", CPU: "1", Memory: "1Gi"}
	rest := args[1:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		s.Binding, rest = rest[0], rest[1:]
	}
	clients := ""
	values := map[string]*string{"image": &s.Image, "name": &s.Name, "namespace": &s.Namespace, "secret": &s.Secret,
		"cpu": &s.CPU, "memory": &s.Memory, "clients": &clients}
	var start string
	for i := 0; i < len(rest); i++ {
		name := strings.TrimPrefix(strings.TrimPrefix(rest[i], "-"), "-")
		v, ok := values[name]
		if name == "start-in" {
			v, ok, startInSet = &start, true, true
		}
		if !ok || !strings.HasPrefix(rest[i], "-") {
			s.Args = append(s.Args, rest[i])
			if (rest[i] == "-p" || rest[i] == "-P") && i+1 < len(rest) {
				i++ // a value, even one that looks like an option of ours
				s.Args = append(s.Args, rest[i])
			}
			continue
		}
		if i+1 >= len(rest) {
			return kube.Spec{}, 0, false, usagef("option %s needs a value (usage: %s)", rest[i], kubeUsage)
		}
		i++
		*v = rest[i]
	}
	if clients == "" {
		return kube.Spec{}, 0, false, usagef("ycsb kube needs -clients N (usage: %s)", kubeUsage)
	}
	n, err := strconv.Atoi(clients)
	if err != nil {
		return kube.Spec{}, 0, false, usagef("-clients: expected an integer, got %q", clients)
	}
	if n < 1 || n > kube.MaxClients {
		return kube.Spec{}, 0, false, usagef("-clients %d: want 1 to %d (client.count's bound)", n, kube.MaxClients)
	}
	s.Clients = n
	if startInSet {
		if startIn, err = time.ParseDuration(start); err != nil || startIn < 0 {
			return kube.Spec{}, 0, false, usagef("-start-in: expected a duration such as 2m or 0, got %q", start)
		}
	}
	return s, startIn, startInSet, nil
}

// checkPods checks the configuration as the pods will read it, before
// anything is printed: the first client and the last (which has the
// smallest share of the records), each with the properties ycsb kube
// adds. A manifest whose every pod would refuse its configuration is
// never written.
func checkPods(s *kube.Spec, all *props.Properties, driver db.Driver) error {
	for _, index := range []int{0, s.Clients - 1} {
		pod := all.Clone()
		pod.Set("dotransactions", strconv.FormatBool(s.Phase != "load"))
		pod.Set(kube.PropClientCount, strconv.Itoa(s.Clients))
		pod.Set(kube.PropClientIndex, strconv.Itoa(index))
		if !s.StartTime.IsZero() {
			pod.Set(kube.PropStartTime, s.StartTime.UTC().Format(time.RFC3339))
		}
		if s.Rendezvous {
			pod.Set(kube.PropRendezvous, s.RendezvousAddr())
		}
		pod.Set(kube.PropReportJSON, "-")
		check := ycsb.Check
		if s.Phase == "capacity" {
			check = ycsb.CheckCapacity
		}
		if err := check(pod, driver, s.Binding, now()); err != nil {
			if index > 0 {
				return fmt.Errorf("client %d of %d: %w", index, s.Clients, err)
			}
			return err
		}
	}
	return nil
}
