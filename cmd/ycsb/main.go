// Command ycsb is a YCSB-compatible database benchmark.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/goycsb/ycsb/cli"
	_ "github.com/goycsb/ycsb/db/all"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	// The first SIGINT or SIGTERM stops the run, which still reports the
	// work done; a second one exits at once, even if a binding hangs.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		cancel()
		<-sigs
		fmt.Fprintln(os.Stderr, "ycsb: interrupted again: exiting without a report")
		os.Exit(cli.ExitInterrupted)
	}()
	code := cli.Run(ctx, cli.CommandArgs(os.Args), &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	signal.Stop(sigs)
	cancel()
	os.Exit(code)
}
