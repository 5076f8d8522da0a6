// Command ycsb is a YCSB-compatible database benchmark.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/goycsb/ycsb/db/all"
	"github.com/goycsb/ycsb/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}
