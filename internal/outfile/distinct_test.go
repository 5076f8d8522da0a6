package outfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestDistinct: two outputs naming one file, however they name it, are
// refused naming both options; a device, a FIFO or a descriptor may be
// named by several (what is written there is not replaced).
func TestDistinct(t *testing.T) {
	o := func(opt, path, suffix string) Output {
		return Output{Name: opt + "=" + path, Path: path, Suffix: suffix}
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	os.Mkdir(real, 0o755)
	os.Symlink(real, filepath.Join(dir, "via"))                               // a directory through a link
	os.Symlink(filepath.Join(real, "x.json"), filepath.Join(dir, "dangling")) // a link to a file not yet there
	existing := filepath.Join(real, "old.txt")
	os.WriteFile(existing, []byte("x"), 0o644)
	os.Link(existing, filepath.Join(real, "hard.txt"))
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o600)
	x := filepath.Join(real, "x.json")
	for _, tt := range []struct {
		name string
		outs []Output
		want string // "" for none
	}{
		{"distinct", []Output{o("exportfile", x, ""), o("report.json", filepath.Join(real, "y.json"), "")}, ""},
		{"same path", []Output{o("exportfile", x, ""), o("cpuprofile", x, "")}, "cpuprofile=" + x + ": the same file as exportfile=" + x + "; give each output a file of its own"},
		{"./ and ..", []Output{o("-o", x, ""), o("-html", filepath.Join(real, "..", "real", ".", "x.json"), "")},
			"-html=" + filepath.Join(real, "..", "real", ".", "x.json") + ": the same file as -o=" + x + "; give each output a file of its own"},
		{"a directory link, the file not there yet", []Output{o("exportfile", x, ""), o("report.json", filepath.Join(dir, "via", "x.json"), "")},
			"report.json=" + filepath.Join(dir, "via", "x.json") + ": the same file as exportfile=" + x + "; give each output a file of its own"},
		{"a dangling link", []Output{o("exportfile", filepath.Join(dir, "dangling"), ""), o("report.json", x, "")},
			"report.json=" + x + ": the same file as exportfile=" + filepath.Join(dir, "dangling") + "; give each output a file of its own"},
		{"a hard link", []Output{o("exportfile", existing, ""), o("cpuprofile", filepath.Join(real, "hard.txt"), "")},
			"cpuprofile=" + filepath.Join(real, "hard.txt") + ": the same file as exportfile=" + existing + "; give each output a file of its own"},
		{"an HDR log under a prefix", []Output{o("hdrhistogram.output.path", filepath.Join(real, "h-"), ".hdr"), o("exportfile", filepath.Join(dir, "via", "h-READ.hdr"), "")},
			"exportfile=" + filepath.Join(dir, "via", "h-READ.hdr") + ": may be one of the files of hdrhistogram.output.path=" + filepath.Join(real, "h-") + " (" + filepath.Join(real, "h-") + "<NAME>.hdr); give each output a file of its own"},
		{"beside a prefix", []Output{o("hdrhistogram.output.path", filepath.Join(real, "h-"), ".hdr"), o("exportfile", filepath.Join(real, "h-READ.txt"), "")}, ""},
		{"a FIFO twice", []Output{o("exportfile", fifo, ""), o("report.json", fifo, "")}, ""},
		{"a device twice", []Output{o("exportfile", "/dev/null", ""), o("cpuprofile", "/dev/null", "")}, ""},
		{"stdout twice", []Output{o("exportfile", "/dev/stdout", ""), o("report.json", "/dev/fd/1", "")}, ""},
		{"unset", []Output{o("exportfile", "", ""), o("report.json", "", "")}, ""},
	} {
		err := Distinct(tt.outs)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: Distinct = %q, want %q", tt.name, got, tt.want)
		}
	}
}
