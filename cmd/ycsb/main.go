// Command ycsb is a YCSB-compatible database benchmark.
package main

import (
	"context"
	"os"

	"github.com/goycsb/ycsb/cli"
	_ "github.com/goycsb/ycsb/db/all"
	"github.com/goycsb/ycsb/internal/stopsignal"
)

func main() {
	// The first SIGINT or SIGTERM stops the run, which still reports the
	// work done; another within stopsignal.Window is the same request
	// (timeout(1) signals the process and its group); a later one exits
	// at once, even if a binding hangs.
	ctx, release := stopsignal.Watch(context.Background(), os.Stderr, func() { os.Exit(cli.ExitInterrupted) })
	code := cli.Run(ctx, cli.CommandArgs(os.Args), &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	release()
	os.Exit(code)
}
