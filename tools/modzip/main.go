// Command modzip serves a commit of a module the way a module proxy does:
// it writes the proxy's files of one version (list, .info, .mod, .zip)
// under a directory usable as GOPROXY=file://DIR. The zip is made by
// golang.org/x/mod/zip from the commit's tree in git, as proxies make it
// (no vendor directories, no nested modules, the size limits), so that
// `go install MODULE/cmd/...@VERSION` can be tried before anything is
// published (scripts/install-check.sh).
//
// It is a module of its own so that its dependency never enters the
// product's go.mod.
//
//	modzip -repo DIR -rev HEAD -out PROXYDIR
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	repo := flag.String("repo", ".", "the module's git work tree (its go.mod at the root)")
	rev := flag.String("rev", "HEAD", "the commit to serve")
	out := flag.String("out", "", "the proxy directory to write into")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "modzip: usage: modzip -repo DIR -rev REV -out PROXYDIR")
		os.Exit(2)
	}
	v, err := run(*repo, *rev, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "modzip:", err)
		os.Exit(1)
	}
	fmt.Println(v)
}

// run writes the version of rev and prints MODULE@VERSION.
func run(repo, rev, out string) (string, error) {
	git := func(args ...string) (string, error) {
		b, err := exec.Command("git", append([]string{"-C", repo}, args...)...).Output()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, ee.Stderr)
		}
		return strings.TrimSpace(string(b)), err
	}
	hash, err := git("rev-parse", rev+"^{commit}")
	if err != nil {
		return "", err
	}
	unix, err := git("show", "-s", "--format=%ct", hash)
	if err != nil {
		return "", err
	}
	var secs int64
	if _, err := fmt.Sscan(unix, &secs); err != nil {
		return "", fmt.Errorf("commit time %q: %w", unix, err)
	}
	when := time.Unix(secs, 0).UTC()
	gomod, err := git("show", hash+":go.mod")
	if err != nil {
		return "", err
	}
	gomod += "\n"
	path := modfile.ModulePath([]byte(gomod))
	if path == "" {
		return "", errors.New("go.mod names no module")
	}
	// A pseudo-version of a commit with no tag before it, as the go
	// command makes (golang.org/x/mod/module.PseudoVersion).
	version := module.PseudoVersion("v0", "", when, hash[:12])
	mv := module.Version{Path: path, Version: version}
	esc, err := module.EscapePath(path)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(out, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	zf, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		return "", err
	}
	// The commit's tree, as git archive gives it (a linked work tree
	// too, which zip.CreateFromVCS does not recognise).
	tree, err := os.MkdirTemp("", "modzip")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tree)
	archive := exec.Command("sh", "-c", `git -C "$1" archive "$2" | tar -x -C "$3"`, "sh", repo, hash, tree)
	if b, err := archive.CombinedOutput(); err != nil {
		return "", fmt.Errorf("git archive %s: %v: %s", hash, err, b)
	}
	if err := zip.CreateFromDir(zf, mv, tree); err != nil {
		zf.Close()
		return "", fmt.Errorf("zip of %s: %w", mv, err)
	}
	if err := zf.Close(); err != nil {
		return "", err
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, when})
	for name, body := range map[string]string{
		"list":            version + "\n",
		version + ".info": string(info),
		version + ".mod":  gomod,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return "", err
		}
	}
	return path + "@" + version, nil
}
