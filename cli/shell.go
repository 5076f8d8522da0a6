package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/internal/shown"
)

const shellHelp = `Commands:
  read key [field1 field2 ...] - Read a record
  scan key recordcount [field1 field2 ...] - Scan starting at key
  insert key name1=value1 [name2=value2 ...] - Insert a new record
  update key name1=value1 [name2=value2 ...] - Update a record
  delete key - Delete a record
  table [tablename] - Get or [set] the name of the table
  quit - Quit
`

// runShell is the reference's CommandLine: one operation per input line,
// straight to the binding (no measurement), with the elapsed time.
func runShell(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usagef("missing binding: ycsb shell <binding> [options]; bindings: %s", strings.Join(db.Drivers(), ", "))
	}
	p, err := parseArgs(args[1:], true)
	if err != nil {
		return err
	}
	p.printNotes(env.Stderr)
	all, err := p.properties(ctx)
	if err != nil {
		return err
	}
	d, name, err := binding(args[0], all)
	if err != nil {
		return err
	}
	table := p.table
	if table == "" {
		table = all.String("table", "usertable")
	}
	conn, err := d.Open(ctx, all, env.Stdout)
	if err != nil {
		return &UsageError{Msg: fmt.Sprintf("%s: %v", name, err)}
	}
	defer conn.Close()
	sess, err := conn.Session(ctx, 0, 1)
	if err != nil {
		return &UsageError{Msg: fmt.Sprintf("%s: session: %v", name, err)}
	}
	defer sess.Close(ctx)

	out := bufio.NewWriter(env.Stdout)
	defer out.Flush()
	fmt.Fprintln(out, "YCSB Command Line client")
	fmt.Fprintln(out, `Type "help" for command line help`)
	fmt.Fprintf(out, "Connected to %s.\n", name)
	in := bufio.NewScanner(env.Stdin)
	in.Buffer(make([]byte, 64*1024), maxShellLine)
	for {
		fmt.Fprint(out, "> ")
		out.Flush()
		if !in.Scan() || ctx.Err() != nil {
			fmt.Fprintln(out)
			if errors.Is(in.Err(), bufio.ErrTooLong) {
				return usagef("stdin: a line longer than %d MiB", maxShellLine>>20)
			}
			return in.Err()
		}
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		tokens := strings.Split(line, " ")
		if tokens[0] == "quit" || tokens[0] == "exit" {
			return nil
		}
		start := time.Now()
		shellCommand(ctx, out, sess, &table, tokens)
		fmt.Fprintf(out, "%d ms\n", time.Since(start).Milliseconds())
	}
}

// maxShellLine bounds a line typed to the shell (infile.MaxText).
const maxShellLine = 16 << 20

func printRecord(out *bufio.Writer, r *db.Record) {
	for _, f := range r.Fields {
		fmt.Fprintf(out, "%s=%s\n", f.Name, f.Value)
	}
}

// parseValues reads name=value pairs; an error for a pair without a name.
func parseValues(tokens []string) ([]db.Field, bool, error) {
	var vals []db.Field
	for i, t := range tokens {
		n, v, ok := strings.Cut(t, "=")
		if !ok {
			return nil, false, nil
		}
		if n == "" {
			return nil, false, fmt.Errorf("field %d (%s) has no name", i+1, shown.Quote(t))
		}
		vals = append(vals, db.Field{Name: n, Value: []byte(v)})
	}
	return vals, len(vals) > 0, nil
}

// printable says whether every token is printable text: a table, key or
// field with control characters (an escape sequence typed by accident)
// would reach the database and the binding's verbose lines.
func printable(out *bufio.Writer, tokens []string) bool {
	for _, t := range tokens {
		if strings.IndexFunc(t, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			fmt.Fprintf(out, "Error: %s holds control characters; type printable text\n", shown.Quote(t))
			return false
		}
	}
	return true
}

func shellCommand(ctx context.Context, out *bufio.Writer, sess db.Session, table *string, tokens []string) {
	var fields []string
	switch tokens[0] {
	case "help", "table", "read", "scan", "update", "insert", "delete":
		if !printable(out, tokens[1:]) {
			return
		}
	}
	switch tokens[0] {
	case "help":
		out.WriteString(shellHelp)
	case "table":
		if len(tokens) == 1 {
			fmt.Fprintf(out, "Using table \"%s\"\n", *table)
		} else if len(tokens) == 2 {
			*table = tokens[1]
			fmt.Fprintf(out, "Using table \"%s\"\n", *table)
		} else {
			out.WriteString("Error: syntax is \"table tablename\"\n")
		}
	case "read":
		if len(tokens) < 2 {
			out.WriteString("Error: syntax is \"read keyname [field1 field2 ...]\"\n")
			return
		}
		if len(tokens) > 2 {
			fields = tokens[2:]
		}
		var r db.Record
		err := sess.Read(ctx, *table, tokens[1], fields, &r)
		fmt.Fprintf(out, "Return code: %s\n", db.StatusOf(err))
		printErr(out, err)
		printRecord(out, &r)
	case "scan":
		if len(tokens) < 3 {
			out.WriteString("Error: syntax is \"scan keyname scanlength [field1 field2 ...]\"\n")
			return
		}
		n, err := strconv.Atoi(tokens[2])
		if err != nil || n < 0 {
			out.WriteString("Error: scanlength must be a non-negative integer\n")
			return
		}
		if len(tokens) > 3 {
			fields = tokens[3:]
		}
		var rows db.Rows
		err = sess.Scan(ctx, *table, tokens[1], n, fields, &rows)
		fmt.Fprintf(out, "Result: %s\n", db.StatusOf(err))
		printErr(out, err)
		if rows.Len() == 0 {
			out.WriteString("0 records\n")
		} else {
			out.WriteString("--------------------------------\n")
		}
		for i := 0; i < rows.Len(); i++ {
			r := rows.At(i)
			fmt.Fprintf(out, "Record %d\n", i)
			if len(r.Key) > 0 {
				fmt.Fprintf(out, "key=%s\n", r.Key)
			}
			printRecord(out, r)
			out.WriteString("--------------------------------\n")
		}
	case "update", "insert":
		vals, ok, err := parseValues(tokens[min(2, len(tokens)):])
		if err != nil {
			fmt.Fprintf(out, "Error: %v; syntax is \"%s keyname name1=value1 [name2=value2 ...]\"\n", err, tokens[0])
			return
		}
		if len(tokens) < 3 || !ok {
			fmt.Fprintf(out, "Error: syntax is \"%s keyname name1=value1 [name2=value2 ...]\"\n", tokens[0])
			return
		}
		if tokens[0] == "update" {
			err = sess.Update(ctx, *table, tokens[1], vals)
		} else {
			err = sess.Insert(ctx, *table, tokens[1], vals)
		}
		fmt.Fprintf(out, "Result: %s\n", db.StatusOf(err))
		printErr(out, err)
	case "delete":
		if len(tokens) != 2 {
			out.WriteString("Error: syntax is \"delete keyname\"\n")
			return
		}
		err := sess.Delete(ctx, *table, tokens[1])
		fmt.Fprintf(out, "Return code: %s\n", db.StatusOf(err))
		printErr(out, err)
	default:
		fmt.Fprintf(out, "Error: unknown command %s\n", shown.Quote(tokens[0]))
	}
}

func printErr(out *bufio.Writer, err error) {
	if s := db.StatusOf(err); err != nil && s != db.NotFound && s != db.BatchedOK {
		fmt.Fprintf(out, "Error: %v\n", err)
	}
}
