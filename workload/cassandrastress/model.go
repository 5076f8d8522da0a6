package cassandrastress

import (
	"fmt"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/workload/cassandrastress/data"
)

// NewModel is the model of s's predefined commands (write, read,
// counter_write, counter_read, mixed): the columns of -col, the counter
// increments of add=, the population of -pop (made afresh for each run by
// Fresh), the tries and validation of -errors. Its errors name the option.
func NewModel(s *settings.Settings) (*Model, error) {
	m := &Model{keySize: s.Command.KeySize, tries: s.Errors.Tries(), errs: s.Errors, validate: !s.Errors.SkipReadValidation}
	size := data.FromSpec(s.Columns.Size)
	names := s.Columns.Names
	var err error
	if m.cols, err = data.NewColumns(int(s.Columns.Count.Max), names, size); err != nil {
		return nil, fmt.Errorf("-col: %v", err)
	}
	m.add = data.FromSpec(s.Command.Add)
	m.slice = s.Columns.Slice
	return m, nil
}

// NewPopulation is a fresh -pop of s: each run starts the population anew,
// as the original's getFactory makes a new SeedManager for the warm-up,
// for the run and for each thread count of a ramp (StressAction.java).
// Its error is a read lookback= the sequence does not allow.
func NewPopulation(p settings.PopulationSettings) (*data.Population, error) {
	switch {
	case p.Dist != nil:
		return data.DistPopulation(data.FromSpec(*p.Dist)), nil
	case p.ReadLookback != nil:
		return data.SeqPopulationLookback(p.SeqMin, p.SeqMax, p.Wrap, data.FromSpec(*p.ReadLookback))
	}
	return data.SeqPopulation(p.SeqMin, p.SeqMax, p.Wrap), nil
}

// Columns are the names of the columns of -col.
func (m *Model) Columns() []string { return m.cols.Names() }

// SpecDelay is -mode speculativeDelay= on the lean path (0: off).
func (m *Model) SpecDelay() time.Duration { return m.specDelay }

// Consistency is cl as the driver names it (LOCAL_ONE if it names none).
func Consistency(cl settings.ConsistencyLevel) gocql.Consistency {
	var c gocql.Consistency
	if err := c.UnmarshalText([]byte(cl.String())); err != nil {
		return gocql.LocalOne
	}
	return c
}

// Connected sets what the statements run with once the schema is made:
// keyspace, the consistency levels and -mode's; lean says that the
// connection's lean request path is on (protocol v4), where -mode
// speculativeDelay= and unprepared run.
func (m *Model) Connected(s *settings.Settings, keyspace string, lean bool) {
	m.keyspace = keyspace
	if lean {
		m.specDelay = s.Mode.SpeculativeDelay
	}
	m.cl = Consistency(s.Command.CL)
	m.serial = Consistency(s.Command.SerialCL)
	m.unprepared = !s.Mode.Prepared
}

// Fresh gives m pop, a fresh -pop, and with -insert visits= averaging
// above 1 the SeedManager of the original's writes over it (nil
// otherwise: the writes then take the population's seeds in turn, as the
// original's SeedManager hands them out).
func (m *Model) Fresh(pop *data.Population, s *settings.Settings) {
	m.pop = pop
	m.seeds = nil
	if s.Command.Type == settings.CmdUser {
		return
	}
	if sm := data.NewSeedManager(m.pop, s.Insert.Visits, s.Insert.Revisit); sm.Revisits() {
		m.seeds = sm
	}
}

// NewPredefined is one run's workload of m: kinds, mixed as -mixed's
// ratios and clustering= say when there are several.
func NewPredefined(m *Model, kinds []Kind, s *settings.Settings) *Predefined {
	wl := &Predefined{m: m, kinds: kinds}
	if len(kinds) > 1 {
		var sum float64
		for _, cr := range s.Command.Ratios {
			if cr.Weight > 0 {
				sum += cr.Weight
				wl.weights = append(wl.weights, sum)
			}
		}
		wl.cluster = data.FromSpec(s.Command.Clustering)
	}
	return wl
}

// Insert applies -insert to the predefined commands as the
// original's PredefinedOperation does: each operation is one partition of
// one row (DataSpec with partitions fixed(1) and one row), so partitions=,
// select-ratio= and batchtype= change nothing; visits= matters only by
// averaging above 1, when the writes revisit partitions as revisit= says
// (see data.SeedManager.Revisits); row-population-ratio= leaves the
// columns past the ratio null. Its notes are the options it gives no
// effect, printed with the parser's.
func (m *Model) Insert(s *settings.Settings) (notes []string, err error) {
	in := s.Insert
	if s.Command.Type == settings.CmdUser {
		return nil, nil
	}
	// Options the original's predefined operations never read: its
	// PartitionGenerator is ARBITRARY and one row (SettingsCommandPreDefined),
	// and super= and comparator= were for thrift.
	if s.Population.Order != settings.OrderArbitrary {
		notes = append(notes, "-pop contents=: no effect on the predefined commands, as in the original: their partitions have one row")
	}
	if s.Columns.Super != 0 {
		notes = append(notes, "-col super=: no effect, as in the original over CQL (super columns were thrift's)")
	}
	if s.Columns.Comparator != "AsciiType" {
		notes = append(notes, "-col comparator=: no effect, as in the original over CQL (the column names' type was thrift's)")
	}
	// The original makes its SeedManager, which checks revisit=, for every
	// command: so does the parser (settings.parseInsert).
	revisits := data.NewSeedManager(data.SeqPopulation(1, 1, true), in.Visits, in.Revisit).Revisits()
	for _, o := range in.Given {
		switch o {
		case "visits=":
			if !revisits {
				notes = append(notes, "-insert visits=: no effect on the predefined commands unless it averages above 1, as in the original: each operation writes one partition of one row")
			}
		case "revisit=":
			if !revisits {
				notes = append(notes, "-insert revisit=: no effect on the predefined commands without visits= averaging above 1, as in the original")
			}
		case "row-population-ratio=":
			if in.RowPopulationRatio.String() != "FIXED(1)/1" {
				rp, err := data.ParseRatio(in.RowPopulationRatio.String())
				if err != nil {
					return nil, fmt.Errorf("-insert row-population-ratio=%s: %v", in.RowPopulationRatio, err)
				}
				m.rowPop = &rp
			}
		default:
			notes = append(notes, "-insert "+o+": no effect on the predefined commands, as in the original: each operation writes one partition of one row")
		}
	}
	return notes, nil
}
