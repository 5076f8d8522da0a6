package ycsb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

// testDriver is a binding for this package's tests.
type testDriver struct {
	openBlocks bool // Open waits for ctx to end
	opBlocks   bool // every operation waits for ctx to end
	// unknownAtStop: a write that opBlocks held fails as of unknown
	// outcome, as one in flight to a hung server does when cancelled.
	unknownAtStop bool
	insertErr     error // what every insert returns
	readErr       func(key string) error
	// failInserts, when set, says which inserts fail (with errDuplicate),
	// by their number in the order the binding got them, from 1.
	failInserts func(n int64) bool
	// insertErrs, when set, gives the error of each insert by its number
	// (nil: it went in).
	insertErrs func(n int64) error
	inserts    atomic.Int64
	// threadcount is the property as Open got it: the sessions it is told
	// to expect at most.
	threadcount string
}

func (d *testDriver) Open(ctx context.Context, p *props.Properties, _ io.Writer) (db.DB, error) {
	d.threadcount, _ = p.Get("threadcount")
	if d.openBlocks {
		<-ctx.Done()
		return nil, fmt.Errorf("test: open: %w", ctx.Err())
	}
	return testDB{d}, nil
}

type testDB struct{ d *testDriver }

func (t testDB) Session(context.Context, int, int) (db.Session, error) { return testSession(t), nil }
func (t testDB) Close() error                                          { return nil }

type testSession struct{ d *testDriver }

func (s testSession) wait(ctx context.Context) error {
	if s.d.opBlocks {
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}

func (s testSession) Read(ctx context.Context, _, key string, _ []string, _ *db.Record) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	if s.d.readErr != nil {
		return s.d.readErr(key)
	}
	return nil
}

func (s testSession) Scan(ctx context.Context, _, _ string, _ int, _ []string, _ *db.Rows) error {
	return s.wait(ctx)
}

// waitWrite is wait for a write.
func (s testSession) waitWrite(ctx context.Context) error {
	err := s.wait(ctx)
	if err != nil && s.d.unknownAtStop {
		return db.OutcomeUnknown(err)
	}
	return err
}

func (s testSession) Update(ctx context.Context, _, _ string, _ []db.Field) error {
	return s.waitWrite(ctx)
}

func (s testSession) Insert(ctx context.Context, _, _ string, _ []db.Field) error {
	if err := s.waitWrite(ctx); err != nil {
		return err
	}
	if f := s.d.failInserts; f != nil && f(s.d.inserts.Add(1)) {
		return errDuplicate
	}
	if f := s.d.insertErrs; f != nil {
		return f(s.d.inserts.Add(1))
	}
	return s.d.insertErr
}

func (s testSession) Delete(ctx context.Context, _, _ string) error { return s.waitWrite(ctx) }
func (s testSession) Close(context.Context) error                   { return nil }

var errDuplicate = db.WithStatus(db.Error, errors.New(`duplicate key value violates unique constraint "usertable_pkey"`))

// runWith runs d with the workload A mix and extra properties.
func runWith(ctx context.Context, d db.Driver, extra map[string]string) (string, string, error) {
	m := map[string]string{
		"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "100", "operationcount": "100",
		"readproportion": "0.5", "updateproportion": "0.5", "dotransactions": "true",
	}
	for k, v := range extra {
		m[k] = v
	}
	var stdout, stderr syncBuffer
	err := Run(ctx, Options{Props: props.FromMap(m), Driver: d, Binding: "test", Stdout: &stdout, Stderr: &stderr})
	return stdout.String(), stderr.String(), err
}
