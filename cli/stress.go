package cli

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/goycsb/ycsb/frontend/stress"
)

// stressName is the program name that makes this binary the
// cassandra-stress compatible mode (a symlink named cassandra-stress).
const stressName = "cassandra-stress"

// CommandArgs returns the command line Run takes from the process's argv:
// the arguments, with "stress" in front when the program was invoked as
// cassandra-stress.
func CommandArgs(argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	if strings.TrimSuffix(filepath.Base(argv[0]), ".exe") == stressName {
		return append([]string{"stress"}, argv[1:]...)
	}
	return argv[1:]
}

// runStress is `ycsb stress <command> ...`: the cassandra-stress command
// line, parsed and run by package stress.
func runStress(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		args = []string{"help"}
	}
	return stress.Main(ctx, args, stress.Env{Stdout: env.Stdout, Stderr: env.Stderr, Version: Version})
}
