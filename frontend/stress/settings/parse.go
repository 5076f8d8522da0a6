package settings

import (
	"crypto/tls"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/internal/hostaddr"
	"github.com/goycsb/ycsb/measurement/slo"
)

var (
	reSpaceBefore = regexp.MustCompile(`\s+([,=()])`)
	reSpaceAfter  = regexp.MustCompile(`([,=(])\s+`)
	reSpaces      = regexp.MustCompile(` +`)
)

// repair joins the words and splits them again after removing spaces
// around , = ( ), as StressSettings.repairParams does, so that
// "ratio(read=1, write=2)" stays one word whatever the shell did.
func repair(args []string) []string {
	s := strings.Join(args, " ")
	s = reSpaceBefore.ReplaceAllString(s, "$1")
	s = reSpaceAfter.ReplaceAllString(s, "$1")
	var out []string
	for _, w := range reSpaces.Split(s, -1) {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// typographic quotes arrive from copy-pasted instructions
// (keyspace=”keyspace1”): the shell does not remove them. They are
// rejected rather than stripped: no name the tool uses may contain them,
// and guessing which quotes the user meant could pick the wrong value.
const curlyQuotes = "\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb"

var commandList = "write, read, mixed, counter_write, counter_read, user, help, print or version"

// section is the command or a group, with the words that follow it.
type section struct {
	name   string
	params []string
	// afterSecret: the word before the group's name was a secret's (the
	// name may be the rest of a password the shell split)
	afterSecret         bool
	prevGroup, prevWord string
}

// splitWords turns the arguments into words as the original's repairParams
// does (see repair), except that the argument of a secret option with its
// value (password=a b) is one word as typed: a value cannot be repaired,
// and a password may hold spaces, quotes and any character.
func splitWords(args []string) ([]string, error) {
	var words, chunk []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if secretKeyWord(a) && i+1 < len(args) && args[i+1] != "" {
			// password= "a b": the value is the next argument, as the
			// original's repair joins them
			a += args[i+1]
			i++
		}
		if secretArg(a) {
			words = append(words, repair(chunk)...)
			words = append(words, a)
			chunk = nil
			continue
		}
		if j := strings.IndexAny(a, curlyQuotes); j >= 0 {
			r := []rune(a[j:])[0]
			return nil, &Error{Word: a, Reason: fmt.Sprintf("contains the typographic quote %c (from copy-paste?); type plain quotes, which the shell removes, or none", r)}
		}
		chunk = append(chunk, a)
	}
	return append(words, repair(chunk)...), nil
}

// Parse parses a cassandra-stress command line (without the program name).
// It returns the settings, notes about options that have no effect here,
// or an *Error.
func Parse(args []string) (*Settings, []Note, error) {
	words, err := splitWords(args)
	if err != nil {
		return nil, nil, err
	}
	if len(words) == 0 {
		return nil, nil, &Error{Reason: "no command given; expected " + commandList}
	}
	sections, err := splitSections(words)
	if err != nil {
		return nil, nil, err
	}
	cmd, err := command(sections[0].name, words[0])
	if err != nil {
		return nil, nil, err
	}
	s := &Settings{}
	s.Command.Type = cmd
	if done, err := parseNonRun(s, words, sections); err != nil {
		return nil, nil, err
	} else if done {
		return s, nil, nil
	}
	if err := parseCommand(s, sections[0].name, sections[0].params); err != nil {
		return nil, nil, err
	}
	setDefaults(s)
	var notes []Note
	for _, sec := range sections[1:] {
		n, err := parseGroup(s, sec)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, n...)
	}
	if err := checkMaxPending(s); err != nil {
		return nil, nil, err
	}
	if cmd == CmdUser && !s.Mode.Prepared {
		return nil, nil, &Error{Group: "-mode", Word: "unprepared", Reason: "is only for the predefined commands; user prepares its profile's statements"}
	}
	if cmd == CmdUser && slices.ContainsFunc(sections, func(sec section) bool { return sec.name == "-schema" }) {
		return nil, nil, &Error{Word: "-schema", Reason: "is only for the predefined commands; with user the profile's YAML defines the schema"}
	}
	return s, notes, nil
}

// splitSections groups the words: the first word is the command; each word
// starting with '-' opens a group that takes the words up to the next one.
func splitSections(words []string) ([]section, error) {
	var sections []section
	seen := map[string]bool{}
	for i, w := range words {
		if i == 0 || strings.HasPrefix(w, "-") {
			name := strings.ToLower(w)
			if seen[name] {
				if i > 0 && secretArg(words[i-1]) {
					return nil, afterSecretError(sections[len(sections)-1].name, words[i-1])
				}
				return nil, &Error{Word: w, Reason: "is given more than once; each command or option may appear once"}
			}
			seen[name] = true
			sec := section{name: name}
			if i > 0 && secretArg(words[i-1]) {
				sec.afterSecret, sec.prevGroup, sec.prevWord = true, sections[len(sections)-1].name, words[i-1]
			}
			sections = append(sections, sec)
			continue
		}
		last := &sections[len(sections)-1]
		last.params = append(last.params, w)
	}
	return sections, nil
}

// command is the command named by the first word, as typed in word.
func command(name, word string) (Command, error) {
	cmd, ok := commandAliases[name]
	switch {
	case ok:
		return cmd, nil
	case name == "legacy":
		return 0, &Error{Word: word, Reason: "the legacy (pre-2.1) syntax is not supported; expected " + commandList}
	case strings.HasPrefix(word, "-"):
		return 0, &Error{Word: word, Reason: "the command must come first; expected " + commandList}
	}
	return 0, &Error{Word: word, Reason: "unknown command; expected " + commandList}
}

// parseNonRun parses the commands that run nothing (help, version, print)
// and "-?" after a command, which asks for that command's help; done
// reports whether s is complete.
func parseNonRun(s *Settings, words []string, sections []section) (done bool, err error) {
	cmd := s.Command.Type
	switch cmd {
	case CmdHelp:
		s.HelpTopic, err = helpTopic(sections[0].params, sections[1:])
		return true, err
	case CmdVersion:
		if len(words) > 1 {
			return true, &Error{Group: "version", Word: words[1], Reason: "version takes no options"}
		}
		return true, nil
	case CmdPrint:
		return true, parsePrint(s, words)
	}
	for _, sec := range sections[1:] {
		if sec.name == "-?" {
			s.HelpTopic = cmd.String()
			s.Command = CommandSettings{Type: CmdHelp}
			return true, nil
		}
	}
	return false, nil
}

// parseGroup parses one -option group into s.
func parseGroup(s *Settings, sec section) ([]Note, error) {
	switch sec.name {
	case "-rate":
		return nil, parseRate(s, sec.params)
	case "-pop":
		return parsePop(s, sec.params)
	case "-col":
		return nil, parseCol(s, sec.params)
	case "-insert":
		return nil, parseInsert(s, sec.params)
	case "-schema":
		return nil, parseSchema(s, sec.params)
	case "-mode":
		return parseMode(s, sec.params)
	case "-node":
		return nil, parseNode(s, sec.params)
	case "-port":
		return parsePort(s, sec.params)
	case "-log":
		return nil, parseLog(s, sec.params)
	case "-graph":
		return nil, parseGraph(s, sec.params)
	case "-errors":
		return nil, parseErrors(s, sec.params)
	case "-transport":
		return parseTransport(s, sec.params)
	case "-tokenrange":
		return nil, parseTokenRange(s, sec.params)
	case "-slo":
		return nil, parseSLO(s, sec.params)
	case "-send-to", "-sendto":
		return nil, &Error{Word: sec.name, Reason: "sending the run to a stress daemon is not supported"}
	case "-credentials-file", "-jmx", "-reporting":
		return nil, &Error{Word: sec.name, Reason: "is an option of Apache Cassandra 4's tool that this grammar (the scylladb/cassandra-stress options) does not have; expected " + groupList()}
	}
	if sec.afterSecret {
		return nil, afterSecretError(sec.prevGroup, sec.prevWord)
	}
	return nil, &Error{Word: sec.name, Reason: "unknown option; expected " + groupList() + " (name=value options of the command go before the first -option)"}
}

func groupList() string {
	var names []string
	for _, g := range groupOrder {
		names = append(names, g.name)
	}
	return "one of " + strings.Join(names, " ")
}

// helpTopic accepts "help", "help TOPIC" and "help -option" (the original
// takes a lone following option without parameters as the topic).
func helpTopic(params []string, rest []section) (string, error) {
	var words []string
	words = append(words, params...)
	for _, r := range rest {
		words = append(words, r.name)
		words = append(words, r.params...)
	}
	switch len(words) {
	case 0:
		return "", nil
	case 1:
		t := strings.ToLower(words[0])
		if c, ok := commandAliases[t]; ok {
			return c.String(), nil
		}
		if t == "-sendto" || t == "-send-to" {
			return "", &Error{Group: "help", Word: words[0], Reason: "sending the run to a stress daemon is not supported"}
		}
		if lookupGroup(t) != nil {
			return t, nil
		}
		if lookupGroup("-"+t) != nil {
			return "-" + t, nil
		}
		if t == "dist" || t == "distribution" || t == "distributions" {
			return "distributions", nil
		}
		return "", &Error{Group: "help", Word: words[0], Reason: "unknown topic; expected a command (" + commandList + ") or " + groupList()}
	}
	return "", &Error{Group: "help", Word: words[1], Reason: "help takes one command or option"}
}

func parsePrint(s *Settings, words []string) error {
	if len(words) != 2 || !strings.HasPrefix(strings.ToLower(words[1]), "dist=") {
		w := ""
		if len(words) > 2 {
			w = words[2]
		} else if len(words) == 2 {
			w = words[1]
		}
		return &Error{Group: "print", Word: w, Reason: "expected print dist=DIST(?), e.g. print dist=GAUSSIAN(1..100)"}
	}
	d, err := ParseDist(words[1][len("dist="):])
	if err != nil {
		return &Error{Group: "print", Word: words[1], Reason: err.Error()}
	}
	s.PrintDist = d
	return nil
}

var (
	reCount    = regexp.MustCompile(`^[0-9]+[bmkBMK]?$`)
	reDuration = regexp.MustCompile(`^([0-9]+)([smhSMH])$`)
	reFraction = regexp.MustCompile(`^0\.[0-9]+$`)
	reUint     = regexp.MustCompile(`^[0-9]+$`)
	reRate     = regexp.MustCompile(`^([0-9]+)/[sS]$`)
	reRatioVal = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)
	reInterval = regexp.MustCompile(`^([0-9]+)(ms|s|MS|Ms|mS|S|)$`)
	reNodeList = regexp.MustCompile(`^[^=,]+(,[^=,]+)*$`)
)

// uintOpt parses a whole number option, at most MaxInt (the original
// reads these as a Java int); positive also rejects 0.
func uintOpt(w *words, name string, positive bool, def int) (int, error) {
	return boundedOpt(w, name, positive, def, MaxInt, "the original reads it as a Java int")
}

// boundedOpt is uintOpt with the bound most and why it is so.
func boundedOpt(w *words, name string, positive bool, def, most int, why string) (int, error) {
	v, ok := w.get(name)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if !reUint.MatchString(v) || (err == nil && positive && n == 0) {
		what := "a whole number"
		if positive {
			what = "a positive whole number"
		}
		return 0, w.errf(name, "expected %sN, N %s", name, what)
	}
	if err != nil || n > most {
		return 0, w.errf(name, "expected at most %d (%s)", most, why)
	}
	return n, nil
}

func portOpt(w *words, name string, def int) (int, error) {
	n, err := uintOpt(w, name, true, def)
	if err == nil && n > 65535 {
		err = w.errf(name, "expected %sPORT with PORT in 1..65535", name)
	}
	return n, err
}

func distOpt(w *words, name string, def Dist) (Dist, error) {
	v, ok := w.get(name)
	if !ok {
		return def, nil
	}
	d, err := ParseDist(v)
	if err != nil {
		return Dist{}, w.errf(name, "%v", err)
	}
	return d, nil
}

func optDistOpt(w *words, name string) (*Dist, error) {
	if !w.has(name) {
		return nil, nil
	}
	d, err := distOpt(w, name, Dist{})
	if err != nil {
		return nil, err
	}
	return &d, nil
}

func ratioOpt(w *words, name string) (*RatioDist, error) {
	v, ok := w.get(name)
	if !ok {
		return nil, nil
	}
	r, err := ParseRatioDist(v)
	if err != nil {
		return nil, w.errf(name, "%v", err)
	}
	return &r, nil
}

// enumOpt matches a value case-insensitively against choices and returns
// its index.
func enumOpt(w *words, name string, choices ...string) (int, bool, error) {
	v, ok := w.get(name)
	if !ok {
		return 0, false, nil
	}
	for i, c := range choices {
		if strings.EqualFold(v, c) {
			return i, true, nil
		}
	}
	return 0, false, w.errf(name, "expected %s%s", name, strings.Join(choices, "|"))
}

func conflict(w *words, a, b, why string) error {
	if w.has(a) && w.has(b) {
		first, second := a, b
		for _, n := range w.order {
			if n == b {
				first, second = b, a
				break
			}
			if n == a {
				break
			}
		}
		return w.errf(second, "cannot be combined with %s; %s", maskWord(w.group, w.word[first]), why)
	}
	return nil
}

func parseCommand(s *Settings, name string, params []string) error {
	c := &s.Command
	g := &group{name: c.Type.String(), opts: predefinedOpts}
	switch c.Type {
	case CmdMixed:
		g.opts = mixedOpts
	case CmdUser:
		g.opts = userOpts
	}
	w, err := s.match(g, c.Type.String(), params)
	if err != nil {
		return err
	}
	if err := parseStop(c, w); err != nil {
		return err
	}
	c.NoWarmup = w.has("no-warmup")
	t, _, err := enumOpt(w, "truncate=", "never", "once", "always")
	if err != nil {
		return err
	}
	c.Truncate = Truncate(t)
	c.CL = LocalOne
	if v, ok := w.get("cl="); ok {
		if c.CL, ok = ParseConsistencyLevel(v); !ok {
			return w.errf("cl=", "unknown consistency level; expected one of ONE TWO THREE QUORUM LOCAL_QUORUM EACH_QUORUM ALL ANY LOCAL_ONE SERIAL LOCAL_SERIAL")
		}
	}
	c.SerialCL = Serial
	if v, ok := w.get("serial-cl="); ok {
		switch strings.ToUpper(v) {
		case "SERIAL":
		case "LOCAL_SERIAL":
			c.SerialCL = LocalSerial
		default:
			return w.errf("serial-cl=", "expected serial-cl=SERIAL or serial-cl=LOCAL_SERIAL")
		}
	}
	if c.Type != CmdUser {
		if c.KeySize, err = boundedOpt(w, "keysize=", true, 10, MaxKeyBytes, "Cassandra refuses a partition key of more bytes"); err != nil {
			return err
		}
		if c.Add, err = distOpt(w, "add=", Fixed(1)); err != nil {
			return err
		}
	}
	if c.Type == CmdMixed || c.Type == CmdUser {
		if c.Clustering, err = distOpt(w, "clustering=", Gaussian(1, 10, 3)); err != nil {
			return err
		}
	}
	switch c.Type {
	case CmdMixed:
		return parseRatios(c, w)
	case CmdUser:
		return parseUser(c, w)
	}
	return nil
}

// parseStop reads when the command stops: after n= operations, after
// duration=, or (the default) when the uncertainty falls below err<.
func parseStop(c *CommandSettings, w *words) error {
	stopWhy := "give one of n=, duration= or err< (with n> n<)"
	for _, pair := range [][2]string{{"n=", "duration="}, {"n=", "err<"}, {"n=", "n>"}, {"n=", "n<"},
		{"duration=", "err<"}, {"duration=", "n>"}, {"duration=", "n<"}} {
		if err := conflict(w, pair[0], pair[1], stopWhy); err != nil {
			return err
		}
	}
	switch {
	case w.has("n="):
		v, _ := w.get("n=")
		if !reCount.MatchString(v) {
			return w.errf("n=", "expected n=N, a whole number with an optional k, m or b suffix")
		}
		n, err := ParseLong(v)
		if err != nil {
			return w.errf("n=", "%v", err)
		}
		if n > MaxDistValue {
			return w.errf("n=", "expected at most 10^18 (1000000000b): n= is also the largest seed of the default population, and a population is bounded so")
		}
		c.Stop, c.Count = StopCount, n
	case w.has("duration="):
		v, _ := w.get("duration=")
		m := reDuration.FindStringSubmatch(v)
		if m == nil {
			return w.errf("duration=", "expected duration=N followed by s, m or h, e.g. duration=3m")
		}
		n, err := strconv.ParseInt(m[1], 10, 64)
		unit := map[string]time.Duration{"s": time.Second, "m": time.Minute, "h": time.Hour}[strings.ToLower(m[2])]
		if err != nil || n > int64(math.MaxInt64/unit) {
			return w.errf("duration=", "is too long")
		}
		if n == 0 {
			return w.errf("duration=", "expected a duration above zero")
		}
		c.Stop, c.Duration = StopDuration, time.Duration(n)*unit
	default:
		c.Stop = StopUncertainty
		c.TargetUncertainty = 0.02
		if v, ok := w.get("err<"); ok {
			if !reFraction.MatchString(v) {
				return w.errf("err<", "expected err<0.F, a fraction such as 0.02")
			}
			c.TargetUncertainty, _ = strconv.ParseFloat(v, 64)
		}
		var err error
		if c.MinMeasurements, err = uintOpt(w, "n>", false, 30); err != nil {
			return err
		}
		if c.MaxMeasurements, err = uintOpt(w, "n<", false, 200); err != nil {
			return err
		}
		if c.MinMeasurements > c.MaxMeasurements {
			return w.errf("n>", "is above n<%d", c.MaxMeasurements)
		}
	}
	return nil
}

func parseRatios(c *CommandSettings, w *words) error {
	inner, ok := w.get("ratio")
	if !ok {
		c.Ratios = []CommandRatio{{CmdRead, 1}, {CmdWrite, 1}}
		return nil
	}
	kvs, err := splitInner(w.group, w.word["ratio"], inner)
	if err != nil {
		return err
	}
	weights := map[Command]float64{}
	for _, kv := range kvs {
		var cmd Command
		switch strings.ToLower(kv.Key) {
		case "read":
			cmd = CmdRead
		case "write":
			cmd = CmdWrite
		case "counter_write":
			cmd = CmdCounterWrite
		case "counter_read":
			cmd = CmdCounterRead
		default:
			return w.errf("ratio", "unknown operation %s; expected read, write, counter_write or counter_read", show(kv.Key))
		}
		if !reRatioVal.MatchString(kv.Value) {
			return w.errf("ratio", "%s=%s: expected a weight such as 1 or 0.5", kv.Key, show(kv.Value))
		}
		weights[cmd], _ = strconv.ParseFloat(kv.Value, 64)
	}
	total := 0.0
	for _, cmd := range []Command{CmdRead, CmdWrite, CmdCounterWrite, CmdCounterRead} {
		if wt, ok := weights[cmd]; ok {
			c.Ratios = append(c.Ratios, CommandRatio{cmd, wt})
			total += wt
		}
	}
	if total == 0 {
		return w.errf("ratio", "give at least one operation a weight above zero, e.g. ratio(read=3,write=1)")
	}
	return nil
}

func parseUser(c *CommandSettings, w *words) error {
	v, ok := w.get("profile=")
	if !ok || v == "" {
		return &Error{Group: "user", Reason: "profile=FILE.yaml is required"}
	}
	for _, p := range strings.Split(v, ",") {
		if p == "" {
			return w.errf("profile=", "has an empty file name")
		}
		c.Profiles = append(c.Profiles, p)
	}
	inner, ok := w.get("ops")
	if !ok {
		return &Error{Group: "user", Reason: "ops(...) is required, e.g. ops(insert=1) or ops(insert=1,QUERY=2)"}
	}
	kvs, err := splitInner(w.group, w.word["ops"], inner)
	if err != nil {
		return err
	}
	total := 0.0
	for _, kv := range kvs {
		f, err := strconv.ParseFloat(kv.Value, 64)
		if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
			return w.errf("ops", "%s=%s: expected a weight such as 1 or 0.5", kv.Key, show(kv.Value))
		}
		c.Ops = append(c.Ops, OpRatio{kv.Key, f})
		total += f
	}
	if total == 0 {
		return w.errf("ops", "give at least one operation a weight above zero, e.g. ops(insert=1)")
	}
	return nil
}

// setDefaults fills the groups that depend on the command, as each
// Settings*.get does when its group is absent.
func setDefaults(s *Settings) {
	c := s.Command
	// SettingsRate: writes with a count run 200 threads, all else ramps.
	if (c.Type == CmdWrite || c.Type == CmdCounterWrite) && c.Stop == StopCount && c.Count > 0 {
		s.Rate = RateSettings{Threads: 200}
	} else {
		s.Rate = RateSettings{MinThreads: 4, MaxThreads: 1000, Auto: true}
	}
	// SettingsPopulation: the range is n=, or 1M when the run has no count.
	s.Population = PopulationSettings{SeqMin: 1, SeqMax: popLimit(c), Wrap: true}
	insertOnly := c.Type == CmdUser && len(c.Ops) == 1 && strings.EqualFold(c.Ops[0].Op, "insert")
	if !(c.Type == CmdWrite || c.Type == CmdCounterWrite || insertOnly) {
		d := Gaussian(1, popLimit(c), 3)
		s.Population = PopulationSettings{Dist: &d}
	}
	s.Insert = InsertSettings{Revisit: Uniform(1, 1000000), Visits: Fixed(1),
		RowPopulationRatio: RatioDist{Fixed(1), 1}}
	s.Columns = ColumnSettings{Count: Fixed(5), Size: Fixed(34), Comparator: "AsciiType"}
	s.Errors = ErrorSettings{Retries: 9, MaxDelay: 20 * time.Second}
	s.Log = LogSettings{Interval: time.Second}
	s.Mode = ModeSettings{API: APINative, Prepared: true, ConnectionsPerHost: 8, RequestTimeout: 12 * time.Second}
	s.Node = NodeSettings{Nodes: []string{"localhost"}}
	s.Schema = SchemaSettings{Keyspace: "keyspace1", ReplicationStrategy: ntsClass,
		ReplicationOptions: []KV{{"replication_factor", "1"}}}
	if c.Type == CmdUser {
		s.Schema.Keyspace = "" // the profile names it
	}
	s.Transport = TransportSettings{Factory: defaultFactory, SSLProtocol: "TLS", SSLAlgorithm: "SunX509",
		StoreType: "JKS", Ciphers: strings.Split(defaultCiphers, ",")}
	s.Port = PortSettings{Native: 9042, Thrift: 9160, JMX: 7199}
	s.Graph = GraphSettings{Revision: "unknown", Op: strings.ToUpper(c.Type.String())}
	s.TokenRange = TokenRangeSettings{SplitFactor: 1}
}

func popLimit(c CommandSettings) int64 {
	if c.Stop == StopCount && c.Count > 0 {
		return c.Count
	}
	return 1000000
}

func parseRate(s *Settings, params []string) error {
	w, err := s.match(rateGroup, "-rate", params)
	if err != nil {
		return err
	}
	r := RateSettings{}
	capOpts := []string{"start=", "growth=", "resolution=", "step=", "cooldown="}
	if !w.has("capacity") {
		for _, o := range capOpts {
			if w.has(o) {
				return w.errf(o, "is an option of capacity (-rate capacity %s...)", o)
			}
		}
	}
	if w.has("capacity") {
		for _, other := range []string{"threads=", "throttle=", "fixed=", "auto"} {
			if err := conflict(w, "capacity", other, "capacity chooses each step's rate and its threads"); err != nil {
				return err
			}
		}
	}
	for _, other := range []string{"threads>=", "threads<=", "auto"} {
		if err := conflict(w, "threads=", other, "threads= fixes the thread count, threads>= threads<= auto ramp it"); err != nil {
			return err
		}
	}
	if err := conflict(w, "throttle=", "fixed=", "choose one rate limit"); err != nil {
		return err
	}
	if !w.has("threads=") {
		for _, lim := range []string{"throttle=", "fixed="} {
			if w.has(lim) {
				return w.errf(lim, "needs threads=N: a rate limit applies to a fixed thread count")
			}
		}
		if r.MinThreads, err = boundedOpt(w, "threads>=", true, 4, MaxThreads, "the most workers a run takes"); err != nil {
			return err
		}
		if r.MaxThreads, err = boundedOpt(w, "threads<=", true, 1000, MaxThreads, "the most workers a run takes"); err != nil {
			return err
		}
		if r.MinThreads > r.MaxThreads {
			if w.has("threads>=") {
				return w.errf("threads>=", "is above threads<=%d", r.MaxThreads)
			}
			return w.errf("threads<=", "is below threads>=%d", r.MinThreads)
		}
		r.Auto = w.has("auto")
		if w.has("capacity") {
			c, err := parseCapacity(w)
			if err != nil {
				return err
			}
			r.Capacity = c
		}
		s.Rate = r
		return nil
	}
	if r.Threads, err = boundedOpt(w, "threads=", true, 0, MaxThreads, "the most workers a run takes"); err != nil {
		return err
	}
	for _, lim := range []string{"throttle=", "fixed="} {
		if v, ok := w.get(lim); ok {
			m := reRate.FindStringSubmatch(v)
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSuffix(v, "/s"), "/S"))
			if m == nil || n == 0 {
				return w.errf(lim, "expected %sN/s, N operations per second above zero", lim)
			}
			if err != nil || n > MaxInt {
				return w.errf(lim, "expected at most %d operations per second (the original reads it as a Java int)", MaxInt)
			}
			r.OpsPerSecond, r.Fixed = n, lim == "fixed="
		}
	}
	s.Rate = r
	return nil
}

// parseCapacity reads -rate capacity's options.
func parseCapacity(w *words) (*CapacitySettings, error) {
	c := &CapacitySettings{Start: 1000, Growth: 2, Resolution: 0.05, Step: 10 * time.Second, Cooldown: DefaultCooldown}
	if v, ok := w.get("start="); ok {
		n, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(v, "/s"), "/S"), 64)
		// Below 1 op/s a step's rate rounds to 0, which is unthrottled.
		if err != nil || !(n >= 1) || n > 1e9 {
			return nil, w.errf("start=", "expected start=N/s, N operations per second from 1 to 1e9")
		}
		c.Start = n
	}
	if v, ok := w.get("growth="); ok {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || !(n > 1) || n > 100 {
			return nil, w.errf("growth=", "expected growth=X, above 1 and at most 100")
		}
		c.Growth = n
	}
	if v, ok := w.get("resolution="); ok {
		num, pct := strings.CutSuffix(v, "%")
		n, err := strconv.ParseFloat(num, 64)
		if pct {
			n /= 100
		}
		if err != nil || !(n > 0) || n > 1 {
			return nil, w.errf("resolution=", "expected resolution=N%%, above 0 and at most 100%%")
		}
		c.Resolution = n
	}
	if v, ok := w.get("step="); ok {
		d, ok := capDuration(v, time.Second)
		if !ok {
			return nil, w.errf("step=", "expected step=N[s|m], from 1s to 1h")
		}
		c.Step = d
	}
	if v, ok := w.get("cooldown="); ok {
		d, ok := capDuration(v, 0)
		if !ok {
			return nil, w.errf("cooldown=", "expected cooldown=N[s|m], from 0 to 1h")
		}
		c.Cooldown = d
	}
	return c, nil
}

// DefaultCooldown is -rate capacity's cooldown=, as the YCSB mode's
// capacity.cooldown: time for what a step left queued to drain.
const DefaultCooldown = 2 * time.Second

// capDuration reads a capacity duration, from lo to an hour: a Go
// duration or a bare number of seconds.
func capDuration(v string, lo time.Duration) (time.Duration, bool) {
	d, err := time.ParseDuration(v)
	if err != nil {
		// A bare number is seconds, range-checked before it is
		// multiplied into a Duration, which would overflow.
		if n, nerr := strconv.ParseInt(v, 10, 64); nerr == nil && n >= 0 && n <= 3600 {
			d, err = time.Duration(n)*time.Second, nil
		}
	}
	return d, err == nil && d >= lo && d <= time.Hour
}

var reSeq = regexp.MustCompile(`^[0-9]+[MBKmbk]?\.\.+[0-9]+[MBKmbk]?$`)

func parsePop(s *Settings, params []string) ([]Note, error) {
	w, err := s.match(popGroup, "-pop", params)
	if err != nil {
		return nil, err
	}
	if err := conflict(w, "seq=", "dist=", "choose seq= or dist="); err != nil {
		return nil, err
	}
	p := PopulationSettings{}
	o, _, err := enumOpt(w, "contents=", "sorted", "shuffled")
	if err != nil {
		return nil, err
	}
	if w.has("contents=") {
		p.Order = PopOrder(o + 1)
	}
	var notes []Note
	if !w.has("seq=") {
		for _, n := range []string{"no-wrap", "read-lookback="} {
			if w.has(n) {
				return nil, w.errf(n, "applies to seq= only; add seq=MIN..MAX")
			}
		}
		// As the original: -pop without seq= selects a distribution, even
		// for writes.
		d := Gaussian(1, popLimit(s.Command), 3)
		if d, err = distOpt(w, "dist=", d); err != nil {
			return nil, err
		}
		if !w.has("dist=") && (s.Command.Type == CmdWrite || s.Command.Type == CmdCounterWrite) {
			notes = append(notes, Note{Option: "-pop", Text: "without seq= the keys are drawn from dist=" + d.String() + ", as the original does; add seq=1.." + strconv.FormatInt(popLimit(s.Command), 10) + " to write them in sequence"})
		}
		p.Dist = &d
		s.Population = p
		return notes, nil
	}
	v, _ := w.get("seq=")
	if !reSeq.MatchString(v) {
		return nil, w.errf("seq=", "expected seq=MIN..MAX, e.g. seq=1..1M")
	}
	if p.SeqMin, p.SeqMax, err = ParseRange(v); err != nil {
		return nil, w.errf("seq=", "%v", err)
	}
	if p.SeqMin > p.SeqMax {
		return nil, w.errf("seq=", "min %d is above max %d", p.SeqMin, p.SeqMax)
	}
	if err := checkDistValue(p.SeqMax); err != nil {
		return nil, w.errf("seq=", "%v", err)
	}
	p.Wrap = !w.has("no-wrap")
	if p.ReadLookback, err = optDistOpt(w, "read-lookback="); err != nil {
		return nil, err
	}
	s.Population = p
	return notes, nil
}

func parseCol(s *Settings, params []string) error {
	w, err := s.match(colGroup, "-col", params)
	if err != nil {
		return err
	}
	if err := conflict(w, "names=", "n=", "names= fixes the columns"); err != nil {
		return err
	}
	c := &s.Columns
	if v, ok := w.get("names="); ok {
		for _, n := range strings.Split(v, ",") {
			if n == "" {
				return w.errf("names=", "has an empty column name")
			}
			c.Names = append(c.Names, n)
		}
		c.Count = Fixed(int64(len(c.Names)))
	}
	if c.Count, err = distOpt(w, "n=", c.Count); err != nil {
		return err
	}
	if c.Count.Min < 0 || c.Count.Max < 1 || c.Count.Max > MaxColumns {
		return w.errf("n=", "expected a column count between 1 and %d", MaxColumns)
	}
	if c.Size, err = distOpt(w, "size=", c.Size); err != nil {
		return err
	}
	if c.Size.Min < 0 {
		return w.errf("size=", "a cell size cannot be negative")
	}
	if c.Size.Max > MaxFrameBytes {
		return w.errf("size=", "cells of up to %d bytes; at most %d (256 MiB, the largest native-protocol frame Cassandra accepts by default: a cell travels in one)", c.Size.Max, MaxFrameBytes)
	}
	// A write sends the key and every cell in one statement, one frame.
	if row := int64(s.Command.KeySize) + c.Count.Max*c.Size.Max; row > MaxFrameBytes {
		name := "size="
		if !w.has(name) {
			name = "n="
		}
		return w.errf(name, "rows of up to %d bytes (%d cells of up to %d bytes and a key of %d); at most %d (256 MiB, the largest native-protocol frame Cassandra accepts by default: a row is written in one)",
			row, c.Count.Max, c.Size.Max, s.Command.KeySize, MaxFrameBytes)
	}
	i, ok, err := enumOpt(w, "comparator=", "AsciiType", "UTF8Type", "TimeUUIDType")
	if err != nil {
		return err
	}
	if ok {
		c.Comparator = []string{"AsciiType", "UTF8Type", "TimeUUIDType"}[i]
	}
	if v, ok := w.get("timestamp="); ok {
		t, err := strconv.ParseInt(v, 10, 64)
		if err != nil || !reUint.MatchString(v) {
			return w.errf("timestamp=", "expected timestamp=N, a whole number")
		}
		c.Timestamp = &t
	}
	c.Slice = w.has("slice")
	c.Super, err = uintOpt(w, "super=", false, 0)
	return err
}

func parseInsert(s *Settings, params []string) error {
	for _, p := range params {
		lp := strings.ToLower(p)
		if strings.HasPrefix(lp, "cl=") || strings.HasPrefix(lp, "serial-cl=") {
			// Declared in the original's SettingsInsert but left out of its
			// option list, so it rejects them too.
			return &Error{Group: "-insert", Word: p, Reason: "is not an -insert option; give cl= and serial-cl= after the command"}
		}
	}
	w, err := s.match(insertGroup, "-insert", params)
	if err != nil {
		return err
	}
	in := &s.Insert
	if in.Revisit, err = distOpt(w, "revisit=", in.Revisit); err != nil {
		return err
	}
	// SeedManager: an index into the partitions being revisited, a Java int.
	if in.Revisit.Min < 0 || in.Revisit.Max-in.Revisit.Min+1 > MaxInt {
		return w.errf("revisit=", "expected a range of at least 0 and at most 2147483647 values")
	}
	if in.Visits, err = distOpt(w, "visits=", in.Visits); err != nil {
		return err
	}
	if in.Visits.Min < 1 || in.Visits.Max > MaxInt {
		return w.errf("visits=", "expected 1 to 2147483647 inserts per partition (the original divides a partition's rows by it, a Java int)")
	}
	if in.Partitions, err = optDistOpt(w, "partitions="); err != nil {
		return err
	}
	if in.Partitions != nil && in.Partitions.Max > MaxBatchStatements {
		return w.errf("partitions=", "expected at most %d partitions per batch (a batch holds at most %d statements, one per row)", MaxBatchStatements, MaxBatchStatements)
	}
	b, ok, err := enumOpt(w, "batchtype=", "logged", "unlogged", "counter")
	if err != nil {
		return err
	}
	if ok {
		in.BatchType = BatchType(b + 1)
	}
	if in.SelectRatio, err = ratioOpt(w, "select-ratio="); err != nil {
		return err
	}
	r, err := ratioOpt(w, "row-population-ratio=")
	if r != nil {
		in.RowPopulationRatio = *r
	}
	for _, o := range insertGroup.opts {
		if w.has(o.name) {
			in.Given = append(in.Given, o.name)
		}
	}
	return err
}

const (
	locatorPkg = "org.apache.cassandra.locator."
	ntsClass   = locatorPkg + "NetworkTopologyStrategy"
)

// The replication strategies and compaction strategies the original finds
// on its class path (src/java/org/apache/cassandra/locator and db/compaction
// in scylladb/cassandra-stress).
var (
	replicationStrategies = []string{"SimpleStrategy", "NetworkTopologyStrategy", "LocalStrategy", "EverywhereStrategy", "OldNetworkTopologyStrategy"}
	compactionStrategies  = []string{"SizeTieredCompactionStrategy", "LeveledCompactionStrategy", "TimeWindowCompactionStrategy", "DateTieredCompactionStrategy", "IncrementalCompactionStrategy"}
)

// strategyName accepts a short or fully qualified class name,
// case-insensitively (the original needs the exact case), and returns the
// spelling the original stores: full for replication, as given for
// compaction.
func strategyName(v, pkg string, known []string, full bool) (string, bool) {
	short := v
	if len(v) > len(pkg) && strings.EqualFold(v[:len(pkg)], pkg) {
		short = v[len(pkg):]
	}
	for _, k := range known {
		if strings.EqualFold(short, k) {
			if full || short != v {
				return pkg + k, true
			}
			return k, true
		}
	}
	return "", false
}

func parseSchema(s *Settings, params []string) error {
	w, err := s.match(schemaGroup, "-schema", params)
	if err != nil {
		return err
	}
	sc := &s.Schema
	if v, ok := w.get("keyspace="); ok {
		if v == "" {
			return w.errf("keyspace=", "expected keyspace=NAME")
		}
		sc.Keyspace = v
	}
	sc.Compression, _ = w.get("compression=")
	if inner, ok := w.get("replication"); ok {
		kvs, err := splitInner("-schema", w.word["replication"], inner)
		if err != nil {
			return err
		}
		factor, factorSet := "1", false
		var extra []KV
		for _, kv := range kvs {
			switch strings.ToLower(kv.Key) {
			case "strategy":
				name, ok := strategyName(kv.Value, locatorPkg, replicationStrategies, true)
				if !ok {
					return w.errf("replication", "unknown replication strategy %s; expected one of %s", show(kv.Value), strings.Join(replicationStrategies, " "))
				}
				sc.ReplicationStrategy = name
			case "factor":
				if !reUint.MatchString(kv.Value) {
					return w.errf("replication", "factor=%s: expected a whole number", show(kv.Value))
				}
				factor, factorSet = kv.Value, true
			default:
				extra = append(extra, kv)
			}
		}
		// OptionReplication.getOptions: replication_factor is added for
		// the default strategy or when factor= is given.
		sc.ReplicationOptions = extra
		hasRF := false
		for _, kv := range extra {
			hasRF = hasRF || kv.Key == "replication_factor"
		}
		if !hasRF && (sc.ReplicationStrategy == ntsClass || factorSet) {
			sc.ReplicationOptions = append(sc.ReplicationOptions, KV{"replication_factor", factor})
		}
	}
	if inner, ok := w.get("compaction"); ok {
		kvs, err := splitInner("-schema", w.word["compaction"], inner)
		if err != nil {
			return err
		}
		for _, kv := range kvs {
			if strings.EqualFold(kv.Key, "strategy") {
				name, ok := strategyName(kv.Value, "org.apache.cassandra.db.compaction.", compactionStrategies, false)
				if !ok {
					return w.errf("compaction", "unknown compaction strategy %s; expected one of %s", show(kv.Value), strings.Join(compactionStrategies, " "))
				}
				sc.CompactionStrategy = name
				continue
			}
			sc.CompactionOptions = append(sc.CompactionOptions, kv)
		}
	}
	if inner, ok := w.get("storage"); ok {
		kvs, err := splitInner("-schema", w.word["storage"], inner)
		if err != nil {
			return err
		}
		typ := ""
		has := map[string]bool{}
		for _, kv := range kvs {
			k := strings.ToLower(kv.Key)
			has[k] = true
			if k == "type" {
				typ = strings.ToUpper(kv.Value)
				if typ != "LOCAL" && typ != "S3" {
					return w.errf("storage", "type=%s: expected LOCAL or S3", show(kv.Value))
				}
				kv.Value = typ
			}
			sc.StorageOptions = append(sc.StorageOptions, kv)
		}
		if typ == "S3" && !(has["endpoint"] && has["bucket"]) {
			return w.errf("storage", "type=S3 needs endpoint= and bucket=")
		}
	}
	return nil
}

// checkMaxPending refuses a -mode maxPending= that the run's requests in
// flight could reach on one connection: each thread has one request in
// flight, so one at most as many as the threads; below that, the
// original's driver queues the requests beyond it, which is not done here.
func checkMaxPending(s *Settings) error {
	m, r := s.Mode, s.Rate
	threads := r.Threads
	if threads == 0 {
		threads = r.MaxThreads
	}
	if m.MaxPending > 0 && m.MaxPending < threads {
		return &Error{Group: "-mode", Word: fmt.Sprintf("maxPending=%d", m.MaxPending),
			Reason: fmt.Sprintf("is below the %d threads: requests beyond it would wait in the original's driver, which is not done here; give at least the threads", threads)}
	}
	return nil
}

func parseMode(s *Settings, params []string) ([]Note, error) {
	w, err := s.match(modeGroup, "-mode", params)
	if err != nil {
		return nil, err
	}
	for _, n := range []string{"thrift", "simplenative", "smart"} {
		if w.has(n) {
			return nil, w.errf(n, "is not supported; this tool speaks the native protocol: -mode native cql3")
		}
	}
	if err := conflict(w, "native", "4x", "choose one"); err != nil {
		return nil, err
	}
	if err := conflict(w, "prepared", "unprepared", "choose one"); err != nil {
		return nil, err
	}
	if !w.has("native") && !w.has("4x") {
		return nil, &Error{Group: "-mode", Reason: "expected native cql3 [options]"}
	}
	if !w.has("cql3") {
		return nil, &Error{Group: "-mode", Reason: "native needs cql3: -mode native cql3"}
	}
	var notes []Note
	m := &s.Mode
	if w.has("4x") {
		m.API = APINative4
		notes = append(notes, Note{Option: "-mode 4x", Text: "the original's Java driver 4 mode; the same native client is used here"})
	}
	m.Prepared = !w.has("unprepared")
	if v, ok := w.get("protocolVersion="); ok {
		if len(v) != 1 || v[0] < '2' || v[0] > '4' {
			return nil, w.errf("protocolVersion=", "expected protocolVersion=2, 3 or 4")
		}
		m.ProtocolVersion = int(v[0] - '0')
	}
	c, _, err := enumOpt(w, "compression=", "none", "lz4", "snappy")
	if err != nil {
		return nil, err
	}
	m.Compression = Compression(c)
	if err := parseModeAuth(w, m); err != nil {
		return nil, err
	}
	if m.MaxPending, err = boundedOpt(w, "maxPending=", true, 0, MaxPending, "the original's driver takes at most 32768 requests per connection"); err != nil {
		return nil, err
	}
	if m.ConnectionsPerHost, err = uintOpt(w, "connectionsPerHost=", true, 8); err != nil {
		return nil, err
	}
	ms, err := uintOpt(w, "requestTimeout=", true, 12000)
	if err != nil {
		return nil, err
	}
	m.RequestTimeout = time.Duration(ms) * time.Millisecond
	if err := parseSpeculativeDelay(s, w, ms); err != nil {
		return nil, err
	}
	if _, err := uintOpt(w, "port=", true, 0); err != nil {
		return nil, err
	}
	if w.has("port=") {
		notes = append(notes, Note{Option: w.word["port="], Text: "unused, as in the original; the native port is -port native="})
	}
	// Unprepared statements go on the lean request path's QUERY frames,
	// which speak v4; the driver prepares every statement with values.
	if !m.Prepared && m.Protocol() != 4 {
		if m.ProtocolVersion > 0 {
			return nil, w.errf("unprepared", "needs protocol v4 (the default), not protocolVersion=%d: on other versions every statement is prepared", m.ProtocolVersion)
		}
		return nil, w.errf("unprepared", "needs protocol v4, which 4x negotiates above (add protocolVersion=4): on other versions every statement is prepared")
	}
	return notes, nil
}

// parseModeAuth reads user=, password= and auth-provider=.
func parseModeAuth(w *words, m *ModeSettings) error {
	for _, n := range []string{"user=", "password="} {
		if v, ok := w.get(n); ok && v == "" {
			return w.errf(n, "expected %sVALUE", n)
		}
	}
	m.User, _ = w.get("user=")
	m.Password, _ = w.get("password=")
	m.AuthProvider, _ = w.get("auth-provider=")
	if w.has("auth-provider=") {
		// The original loads a Java class by this name; the password
		// authenticator, which user= and password= give, is the only one
		// here.
		switch m.AuthProvider {
		case "PlainTextAuthProvider", "com.datastax.driver.core.PlainTextAuthProvider":
			if m.User == "" || m.Password == "" {
				return w.errf("auth-provider=", "PlainTextAuthProvider needs user= and password=")
			}
		default:
			return w.errf("auth-provider=", "no Java class is loaded here: only PlainTextAuthProvider, the password authenticator of user= and password=, is available")
		}
	}
	return nil
}

// parseSpeculativeDelay reads speculativeDelay= (ours), below the request
// timeout of ms milliseconds, and refuses it where it would not apply.
func parseSpeculativeDelay(s *Settings, w *words, ms int) error {
	m := &s.Mode
	spec, err := uintOpt(w, "speculativeDelay=", false, 0)
	if err != nil {
		return err
	}
	if spec > 0 && spec >= ms {
		// The request would have timed out before its second was sent.
		return w.errf("speculativeDelay=", "expected below requestTimeout= (%d ms)", ms)
	}
	m.SpeculativeDelay = time.Duration(spec) * time.Millisecond
	if spec > 0 {
		// Refused where no request would be speculated, rather than
		// parsed and not done (docs/stress.md).
		switch {
		case s.Command.Type == CmdUser:
			return w.errf("speculativeDelay=", "applies to the predefined commands' reads and writes only, not to user profiles' queries")
		case (m.ProtocolVersion != 0 && m.ProtocolVersion != 4) || (m.API == APINative4 && m.ProtocolVersion == 0 && m.Compression != CompressionSnappy):
			return w.errf("speculativeDelay=", "needs protocol v4's request path (the default), not 4x's negotiated version nor protocolVersion=2 or 3")
		}
	}
	return nil
}

func parseNode(s *Settings, params []string) error {
	w, err := s.match(nodeGroup, "-node", params)
	if err != nil {
		return err
	}
	n := &s.Node
	if err := conflict(w, "", "file=", "give the nodes either on the command line or in a file"); err != nil {
		return err
	}
	if v, ok := w.get(""); ok {
		if !reNodeList.MatchString(v) {
			return w.errf("", "expected a comma-separated list of hosts")
		}
		n.Nodes = strings.Split(v, ",")
		for _, h := range n.Nodes {
			if err := hostaddr.Check(h); err != nil {
				return w.errf("", "%v", err)
			}
		}
	}
	if v, ok := w.get("file="); ok {
		if v == "" {
			return w.errf("file=", "expected file=FILE")
		}
		n.Nodes, n.File = nil, v
	}
	n.WhiteList = w.has("whitelist")
	n.Datacenter, _ = w.get("datacenter=")
	n.Rack, _ = w.get("rack=")
	if v, ok := w.get("loadbalance="); ok {
		switch strings.ToLower(v) {
		case "rr", "roundrobin", "round-robin":
			n.LoadBalance = LoadBalanceRoundRobin
		case "dc", "dc-aware":
			n.LoadBalance = LoadBalanceDCAware
		case "rack", "rack-aware":
			n.LoadBalance = LoadBalanceRackAware
		default:
			return w.errf("loadbalance=", "expected loadbalance=round-robin, dc-aware or rack-aware")
		}
	}
	// The rack- and DC-aware policies prefer nodes of a named DC and rack:
	// without the name there would be no local node.
	switch {
	case n.Rack != "" && n.Datacenter == "":
		return w.errf("rack=", "rack= needs datacenter=, the rack's data centre")
	case n.LoadBalance == LoadBalanceDCAware && n.Datacenter == "":
		return w.errf("loadbalance=", "loadbalance=dc-aware needs datacenter=")
	case n.LoadBalance == LoadBalanceRackAware && n.Rack == "":
		return w.errf("loadbalance=", "loadbalance=rack-aware needs datacenter= and rack=")
	}
	n.RemoteDCHosts, err = uintOpt(w, "remote-dc=", true, 0)
	return err
}

func parsePort(s *Settings, params []string) ([]Note, error) {
	w, err := s.match(portGroup, "-port", params)
	if err != nil {
		return nil, err
	}
	p := &s.Port
	if p.Native, err = portOpt(w, "native=", 9042); err != nil {
		return nil, err
	}
	if p.Thrift, err = portOpt(w, "thrift=", 9160); err != nil {
		return nil, err
	}
	if p.JMX, err = portOpt(w, "jmx=", 7199); err != nil {
		return nil, err
	}
	var notes []Note
	if w.has("thrift=") {
		notes = append(notes, Note{Option: w.word["thrift="], Text: "unused: this tool does not speak thrift"})
	}
	if w.has("jmx=") {
		notes = append(notes, Note{Option: w.word["jmx="], Text: "unused: this tool does not read GC statistics over JMX, so the gc columns stay 0"})
	}
	return notes, nil
}

// parseSLO reads -slo: objectives as slo.Parse reads them, in one word or
// several (joined by commas), and the abort flag.
func parseSLO(s *Settings, params []string) error {
	var parts []string
	for _, p := range params {
		if strings.EqualFold(p, "abort") {
			s.SLO.Abort = true
			continue
		}
		parts = append(parts, p)
	}
	text := strings.Join(parts, ",")
	objs, err := slo.Parse(text)
	if err != nil {
		return &Error{Group: "-slo", Reason: err.Error()}
	}
	s.SLO.Text, s.SLO.Objectives = text, objs
	return nil
}

func parseLog(s *Settings, params []string) error {
	w, err := s.match(logGroup, "-log", params)
	if err != nil {
		return err
	}
	l := &s.Log
	for _, f := range []string{"file=", "hdrfile=", "json="} {
		if v, ok := w.get(f); ok && v == "" {
			return w.errf(f, "expected %sFILE", f)
		}
	}
	l.File, _ = w.get("file=")
	l.HDRFile, _ = w.get("hdrfile=")
	l.JSONFile, _ = w.get("json=")
	if v, ok := w.get("interval="); ok {
		m := reInterval.FindStringSubmatch(v)
		var n int64
		if m != nil {
			n, err = strconv.ParseInt(m[1], 10, 32)
		}
		if m == nil || err != nil || n == 0 {
			return w.errf("interval=", "expected interval=N, Ns or Nms with N above zero")
		}
		unit := time.Second
		if strings.EqualFold(m[2], "ms") {
			unit = time.Millisecond
		}
		l.Interval = time.Duration(n) * unit
	}
	lv, ok, err := enumOpt(w, "level=", "minimal", "normal", "verbose")
	if err != nil {
		return err
	}
	if ok {
		l.Level = []LogLevel{LevelMinimal, LevelNormal, LevelVerbose}[lv]
	}
	l.NoSummary = w.has("no-summary")
	l.NoSettings = w.has("no-settings")
	l.PrintStatementsOnError = w.has("print-statements-on-error")
	return nil
}

func parseGraph(s *Settings, params []string) error {
	w, err := s.match(graphGroup, "-graph", params)
	if err != nil {
		return err
	}
	g := &s.Graph
	v, ok := w.get("file=")
	if !ok || v == "" {
		return &Error{Group: "-graph", Reason: "file=FILE.html is required"}
	}
	g.File = v
	if v, ok := w.get("revision="); ok {
		g.Revision = v
	}
	g.Title, _ = w.get("title=")
	if v, ok := w.get("op="); ok {
		g.Op = v
	}
	return nil
}

func parseErrors(s *Settings, params []string) error {
	w, err := s.match(errorsGroup, "-errors", params)
	if err != nil {
		return err
	}
	e := &s.Errors
	if e.Retries, err = boundedOpt(w, "retries=", false, 9, MaxInt-1, "the original counts the tries, retries+1, in a Java int"); err != nil {
		return err
	}
	e.Ignore = w.has("ignore")
	e.FailFast = w.has("fail-fast")
	e.SkipReadValidation = w.has("skip-read-validation")
	e.SkipUnsupportedColumns = w.has("skip-unsupported-columns")
	p, _, err := enumOpt(w, "delay-policy=", "constant", "linear", "exponential")
	if err != nil {
		return err
	}
	e.DelayPolicy = DelayPolicy(p)
	minMS, err := boundedOpt(w, "min-delay-ms=", false, 0, MaxDelayMS, "the longest wait this tool can hold")
	if err != nil {
		return err
	}
	maxMS, err := boundedOpt(w, "max-delay-ms=", false, 20000, MaxDelayMS, "the longest wait this tool can hold")
	if err != nil {
		return err
	}
	if minMS > maxMS {
		return w.errf("min-delay-ms=", "is above max-delay-ms=%d", maxMS)
	}
	if e.DelayPolicy == DelayExponential && minMS == 0 {
		return &Error{Group: "-errors", Word: w.word["delay-policy="], Reason: "needs min-delay-ms= above zero"}
	}
	e.MinDelay, e.MaxDelay = time.Duration(minMS)*time.Millisecond, time.Duration(maxMS)*time.Millisecond
	return nil
}

func parseTransport(s *Settings, params []string) ([]Note, error) {
	w, err := s.match(transportGroup, "-transport", params)
	if err != nil {
		return nil, err
	}
	t := &s.Transport
	for name, dst := range map[string]*string{"truststore=": &t.TrustStore, "truststore-password=": &t.TrustStorePassword,
		"keystore=": &t.KeyStore, "keystore-password=": &t.KeyStorePassword, "ssl-protocol=": &t.SSLProtocol,
		"ssl-alg=": &t.SSLAlgorithm, "store-type=": &t.StoreType, "factory=": &t.Factory} {
		if v, ok := w.get(name); ok {
			*dst = v
		}
	}
	if v, ok := w.get("ssl-ciphers="); ok {
		t.Ciphers = strings.Split(v, ",")
	}
	h, _, err := enumOpt(w, "hostname-verification=", "false", "true")
	if err != nil {
		return nil, err
	}
	t.HostnameVerification = h == 1
	for name, dst := range map[string]*string{"truststore=": &t.TrustStore, "keystore=": &t.KeyStore} {
		if w.has(name) && *dst == "" {
			return nil, w.errf(name, "expected %sFILE", name)
		}
	}
	if t.KeyStore != "" && t.TrustStore == "" {
		// The original turns TLS on only for truststore= and would connect
		// in the clear with the keystore unused.
		return nil, w.errf("keystore=", "needs truststore=FILE: TLS is on only with a truststore, as in the original")
	}
	p, _, err := enumOpt(w, "ssl-protocol=", "TLS", "TLSv1.2", "TLSv1.3")
	if err != nil {
		return nil, err
	}
	t.SSLProtocol = []string{"TLS", "TLSv1.2", "TLSv1.3"}[p]
	st, _, err := enumOpt(w, "store-type=", "JKS", "PKCS12", "PEM")
	if err != nil {
		return nil, err
	}
	t.StoreType = []string{"JKS", "PKCS12", "PEM"}[st]
	if _, _, err := enumOpt(w, "ssl-alg=", "SunX509", "NewSunX509", "PKIX"); err != nil {
		return nil, err
	}
	var tls12 bool
	for _, c := range t.Ciphers {
		v12, ok := CipherSuite(c)
		if !ok {
			return nil, w.errf("ssl-ciphers=", "unknown cipher suite %q; expected IANA names such as TLS_AES_128_GCM_SHA256 or TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", c)
		}
		tls12 = tls12 || v12 != 0
	}
	if !tls12 && t.SSLProtocol == "TLSv1.2" {
		return nil, w.errf("ssl-ciphers=", "has only TLS 1.3 suites, which ssl-protocol=TLSv1.2 cannot use")
	}
	var notes []Note
	if w.has("factory=") {
		notes = append(notes, Note{Option: w.word["factory="], Text: "unused: the thrift transport factory has no effect on the native protocol"})
	}
	if w.has("ssl-alg=") {
		notes = append(notes, Note{Option: w.word["ssl-alg="], Text: "unused: the JVM's key manager algorithm; the client certificate is keystore='s as it is"})
	}
	return notes, nil
}

// tls13Suites are the TLS 1.3 suites, which Go always offers all of (its
// crypto/tls does not let them be chosen).
var tls13Suites = map[string]bool{"TLS_AES_128_GCM_SHA256": true, "TLS_AES_256_GCM_SHA384": true, "TLS_CHACHA20_POLY1305_SHA256": true}

// CipherSuite is the crypto/tls ID of a TLS 1.2 cipher suite named as Java
// and IANA name it, 0 for a TLS 1.3 suite, and whether the name is known.
func CipherSuite(name string) (uint16, bool) {
	if tls13Suites[name] {
		return 0, true
	}
	for _, list := range [][]*tls.CipherSuite{tls.CipherSuites(), tls.InsecureCipherSuites()} {
		for _, c := range list {
			if c.Name == name && c.ID != tls.TLS_AES_128_GCM_SHA256 && c.ID != tls.TLS_AES_256_GCM_SHA384 && c.ID != tls.TLS_CHACHA20_POLY1305_SHA256 {
				return c.ID, true
			}
		}
	}
	return 0, false
}

func parseTokenRange(s *Settings, params []string) error {
	w, err := s.match(tokenRangeGroup, "-tokenrange", params)
	if err != nil {
		return err
	}
	s.TokenRange.Wrap = w.has("wrap")
	if v, ok := w.get("split-factor="); ok {
		n, err := ParseLong(v)
		if !reCount.MatchString(v) || err != nil || n <= 0 {
			return w.errf("split-factor=", "expected split-factor=N, a positive whole number (suffixes k, m, b)")
		}
		if n > MaxTokenRanges {
			return w.errf("split-factor=", "expected at most %d (the ranges, the ring's times this, are kept in memory: at most %d)", MaxTokenRanges, MaxTokenRanges)
		}
		s.TokenRange.SplitFactor = int(n)
	}
	return nil
}
