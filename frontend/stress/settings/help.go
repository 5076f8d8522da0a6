package settings

import (
	"fmt"
	"strings"
)

var commandHelp = []struct {
	cmd  Command
	desc string
}{
	{CmdRead, "read from the cluster with many clients; populate it with write first"},
	{CmdWrite, "write to the cluster with many clients (alias insert)"},
	{CmdMixed, "interleave reads and writes (and counter operations) in a given ratio; populate the cluster first"},
	{CmdCounterWrite, "update counters (aliases counterwrite, counter_add)"},
	{CmdCounterRead, "read counters; populate them with counter_write first (aliases counterread, counter_get)"},
	{CmdUser, "run the inserts and queries of a YAML profile in a given ratio"},
	{CmdHelp, "show help for a command or option (alias -?)"},
	{CmdPrint, "show what a distribution produces: print dist=DIST(?)"},
	{CmdVersion, "show the version"},
}

const distHelp = `Distributions (names are case-insensitive; numbers take k, m, b suffixes):
  EXP(min..max)                     exponential over [min..max]
  EXTREME(min..max,shape)           extreme value (Weibull) over [min..max]
  QEXTREME(min..max,shape,quantas)  extreme value split into quantas, uniform within each
  GAUSSIAN(min..max,stdvrng)        gaussian with mean (min+max)/2 and stdev (max-min)/2/stdvrng (default 3)
  GAUSSIAN(min..max,mean,stdev)     gaussian with the given mean and stdev
  UNIFORM(min..max)                 uniform over [min..max]
  FIXED(val)                        always val
  SEQ(min..max)                     min to max in sequence, wrapping
  A leading ~ inverts a distribution: ~EXP(1..10) yields 10 most often.
  Aliases: extr, qextr, gauss, normal, norm.
  A ratio distribution is DIST/divisor, e.g. FIXED(1)/1000 or UNIFORM(1..10)/10.
`

const quoteNote = "Quote threads>=N and threads<=N in a shell: unquoted, threads>=16 redirects the output to a file named =16."

// CmdHelp returns the help text for a topic: "" for the overview, a command
// (or alias), an option such as -rate (the '-' may be left out), or
// "distributions". An unknown topic gives the overview.
func Help(topic string) string {
	t := strings.ToLower(strings.TrimSpace(topic))
	if c, ok := commandAliases[t]; ok && c != CmdHelp {
		return commandUsage(c)
	}
	if g := lookupGroup(t); g != nil {
		return groupUsage(g)
	}
	if g := lookupGroup("-" + t); g != nil {
		return groupUsage(g)
	}
	switch t {
	case "dist", "distribution", "distributions":
		return distHelp
	case "help", "-?":
		var b strings.Builder
		b.WriteString("Usage: cassandra-stress help <command|option>\nCommands:\n")
		for _, c := range commandHelp {
			fmt.Fprintf(&b, "    %s\n", c.cmd)
		}
		b.WriteString("Options:\n")
		for _, g := range groupOrder {
			fmt.Fprintf(&b, "    %s\n", g.name)
		}
		return b.String()
	}
	var b strings.Builder
	b.WriteString("Usage:      cassandra-stress <command> [options]\n")
	b.WriteString("Help usage: cassandra-stress help <command|option>\n\n---Commands---\n")
	for _, c := range commandHelp {
		fmt.Fprintf(&b, "%-20s : %s\n", c.cmd, c.desc)
	}
	b.WriteString("\n---Options---\n")
	for _, g := range groupOrder {
		fmt.Fprintf(&b, "%-21s : %s\n", g.name, g.desc)
	}
	b.WriteString("\nThe command's name=value options come first, then the -options, each with its sub-options.\n")
	b.WriteString(quoteNote + "\n")
	return b.String()
}

func optLines(b *strings.Builder, opts []opt) {
	for _, o := range opts {
		d := o.display()
		if o.def != "" {
			d += " (default " + o.def + ")"
		}
		fmt.Fprintf(b, "  %-44s %s\n", d, o.desc)
	}
}

func commandUsage(c Command) string {
	var b strings.Builder
	var extra string
	opts := predefinedOpts
	switch c {
	case CmdMixed:
		opts, extra = mixedOpts, " [ratio(?)] [clustering=?] [keysize=?] [add=?]"
	case CmdUser:
		opts, extra = userOpts, " profile=? ops(?) [clustering=?]"
	default:
		extra = " [keysize=?] [add=?]"
	}
	for i, f := range stopForms {
		if i > 0 {
			b.WriteString(" OR\n")
		}
		fmt.Fprintf(&b, "Usage: %s %s [no-warmup] [truncate=?] [cl=?] [serial-cl=?]%s\n", c, f, extra)
	}
	b.WriteString("\n")
	optLines(&b, opts)
	b.WriteString("\nDistributions are written DIST(?); see help distributions.\n")
	if c == CmdWrite || c == CmdCounterWrite {
		b.WriteString("With n= and no -rate, 200 threads run; otherwise the thread count ramps (see help -rate).\n")
	}
	return b.String()
}

func groupUsage(g *group) string {
	var b strings.Builder
	for i, f := range g.forms {
		if i > 0 {
			b.WriteString(" OR\n")
		}
		fmt.Fprintf(&b, "Usage: %s %s\n", g.name, f)
	}
	b.WriteString("\n")
	optLines(&b, g.opts)
	if len(g.notes) > 0 {
		b.WriteString("\n")
		for _, n := range g.notes {
			b.WriteString(n + "\n")
		}
	}
	return b.String()
}
