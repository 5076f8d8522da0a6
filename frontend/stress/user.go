package stress

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/goycsb/ycsb/db/cassandra"
	"github.com/goycsb/ycsb/frontend/stress/settings"
	"github.com/goycsb/ycsb/workload/cassandrastress"
)

// The user command: `user profile=a.yaml[,b.yaml] ops(insert=1,q=2)`, run
// as the original's StressAction runs it; its workload (the profiles,
// their tables and statements, the ops) is workload/cassandrastress's
// UserSetup.

func runUser(ctx context.Context, s *settings.Settings, notes []settings.Note, env Env) error {
	r, err := newRun(ctx, s, env)
	if err != nil {
		return err
	}
	// The sizes the profiles generate are checked before anything is
	// created when their table_definition says the columns, else once the
	// node does.
	us := cassandrastress.NewUserSetup(s, env.Stderr, r.checkMemory)
	if err := us.Load(ctx); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(env.Stderr, n.String())
	}
	where := strings.Join(s.Node.Nodes, ",") + " port " + strconv.Itoa(s.Port.Native)
	conn, err := cassandra.Dial(ctx, r.options(""))
	if err != nil {
		return setupErr(ctx, fmt.Errorf("connect to %s: %v", where, err))
	}
	// closed together at the end, in cqlcluster.CloseWait at most
	r.conn = conn
	defer conn.Close()
	if err := r.checkCompression(ctx, conn.Admin(), where); err != nil {
		return setupErr(ctx, err)
	}
	if err := us.Setup(ctx, conn, where, func(err error) error { return setupErr(ctx, err) }); err != nil {
		return err
	}
	defer r.close()
	if err := r.openLog(); err != nil {
		return &BadInput{Err: err}
	}
	if !s.Log.NoSettings {
		fmt.Fprint(r.out, s.String())
	}
	if s.Command.Stop == settings.StopCount && s.Command.Count == 0 {
		r.println("N=0: SCHEMA CREATED, NOTHING ELSE DONE.")
		return nil
	}
	if err := us.Open(ctx); err != nil {
		return setupErr(ctx, fmt.Errorf("connect to %s: %v", where, err))
	}
	u := &userRun{stressRun: r, user: us}
	return r.judged(r.closeLog(u.work(ctx)))
}

// userRun is what every run of a user command shares: the warm-up's, the
// run's or each of a ramp's.
type userRun struct {
	*stressRun
	user *cassandrastress.UserSetup
}

// work is StressAction.run for user once all is set up: the pause, the
// warm-up of each op, the truncates, then the run or the thread ramp.
func (u *userRun) work(ctx context.Context) error {
	r, s := u.stressRun, u.s
	truncate := func() error { return u.user.Truncate(ctx) }
	r.println("Sleeping " + strconv.Itoa(int(pause/time.Second)) + "s...")
	sleep(ctx, pause)
	fail := func(err error) error { return r.failure(ctx, err) }
	if !s.Command.NoWarmup {
		// StressAction.warmup: each op of ops(...) on its own, as typed.
		it, threads := r.warmupSize()
		for i, name := range u.user.OpNames() {
			if it <= 0 {
				break
			}
			r.println(fmt.Sprintf("Warming up %s with %d iterations...", name, it))
			if _, err := u.runOnce(ctx, []int{i}, threads, it, true); err != nil || ctx.Err() != nil {
				return fail(err)
			}
		}
	}
	if s.Command.Truncate == settings.TruncateOnce || !s.Rate.Ramp() && s.Command.Truncate == settings.TruncateAlways {
		if err := truncate(); err != nil || ctx.Err() != nil {
			return fail(err)
		}
	}
	var err error
	if s.Rate.Capacity != nil {
		err = r.capacitySearch(ctx, func(ctx context.Context, threads int) error {
			_, err := u.runOnce(ctx, nil, threads, -1, false)
			return err
		})
	} else if s.Rate.Ramp() {
		r.println("Thread count was not specified")
		err = r.ramp(ctx, func(ctx context.Context, threads int) (rampResult, error) {
			if s.Command.Truncate == settings.TruncateAlways {
				if err := truncate(); err != nil {
					return nil, err
				}
			}
			met, err := u.runOnce(ctx, nil, threads, r.count(), false)
			if met == nil {
				return nil, err
			}
			return met, err
		})
	} else {
		_, err = u.runOnce(ctx, nil, s.Rate.Threads, r.count(), false)
	}
	if err != nil || ctx.Err() != nil {
		return fail(err)
	}
	r.println("END")
	return nil
}

// runOnce is StressAction.run for ops (indexes into ops(...); nil: all):
// count (-1: none) is the permits, partitions in all, as the original's
// FixedWorkManager counts them. Each run draws from a fresh -pop, as the
// original makes a SeedManager per run (SettingsCommandUser.getFactory).
func (u *userRun) runOnce(ctx context.Context, ops []int, threads int, count int64, warmup bool) (*metrics, error) {
	r, s := u.stressRun, u.s
	mode := r.stopMode(count, warmup)
	out := r.out
	if warmup {
		out = io.Discard
	}
	// SampledOpDistributionFactory.desc: the op names.
	all := u.user.OpNames()
	names := all
	if ops != nil {
		names = nil
		for _, i := range ops {
			names = append(names, all[i])
		}
	}
	fmt.Fprintf(out, "Running [%s] with %d threads %s\n", strings.Join(names, ", "), threads, mode)

	wl := u.user.NewWorkload(ops, r.population(), count, warmup)
	plan := r.plan(wl, threads, 0, warmup)
	met, err := newUserMetrics(out, plan.Target > 0 && (s.Rate.Fixed || r.step != nil), all, u.user.Tally)
	if err != nil {
		return nil, err
	}
	return r.measure(ctx, wl, &wl.RunState, plan, met, threads, count, warmup)
}
