package hostcpu

import (
	"bytes"
	"path"
	"strconv"
	"strings"
)

// maxDepth bounds the walk from the process's cgroup up to its mount.
const maxDepth = 64

// Quota is the CPU quota of the process's cgroup, in cores: the smallest of
// its own and its ancestors' (cgroup v2 cpu.max, v1 cpu.cfs_quota_us over
// cpu.cfs_period_us). ok is false when there is none or it cannot be read.
func (s Source) Quota() (cores float64, ok bool) {
	cg, err := readSmall(s.path("/proc/self/cgroup"))
	if err != nil {
		return 0, false
	}
	mi, err := readSmall(s.path("/proc/self/mountinfo"))
	if err != nil {
		return 0, false
	}
	v2Path, v1Path := cgroupPaths(cg)
	for _, m := range cgroupMounts(mi) {
		p, read := v1Path, s.quotaV1
		if m.v2 {
			p, read = v2Path, s.quotaV2
		}
		if p == "" {
			continue
		}
		// The process's cgroup as seen in this mount: a container's mount
		// root is its own cgroup.
		rel, found := strings.CutPrefix(p, m.root)
		if !found || m.root != "/" && rel != "" && !strings.HasPrefix(rel, "/") {
			continue
		}
		dir := path.Join(m.point, rel)
		best, any := 0.0, false
		for i := 0; i < maxDepth; i++ {
			if q, ok := read(dir); ok && (!any || q < best) {
				best, any = q, true
			}
			if dir == m.point || dir == "/" {
				break
			}
			dir = path.Dir(dir)
		}
		if any {
			return best, true
		}
	}
	return 0, false
}

// cgroupPaths reads /proc/self/cgroup: the v2 path ("0::/path") and the
// v1 path of the cpu controller ("4:cpu,cpuacct:/path").
func cgroupPaths(b []byte) (v2, v1 string) {
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		if f[0] == "0" && f[1] == "" {
			v2 = f[2]
			continue
		}
		for _, c := range strings.Split(f[1], ",") {
			if c == "cpu" {
				v1 = f[2]
			}
		}
	}
	return v2, v1
}

// mount is a cgroup file system: its root within the hierarchy and where
// it is mounted.
type mount struct {
	root, point string
	v2          bool
}

// cgroupMounts reads /proc/self/mountinfo for the cgroup2 mount and the
// cgroup v1 mount holding the cpu controller:
// "ID parent maj:min root point options [optional...] - fstype source super".
func cgroupMounts(b []byte) []mount {
	var out []mount
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		sep := -1
		for i, x := range f {
			if x == "-" {
				sep = i
				break
			}
		}
		if sep < 5 || sep+3 >= len(f) {
			continue
		}
		switch f[sep+1] {
		case "cgroup2":
			out = append(out, mount{root: unescape(f[3]), point: unescape(f[4]), v2: true})
		case "cgroup":
			for _, o := range strings.Split(f[sep+3], ",") {
				if o == "cpu" {
					out = append(out, mount{root: unescape(f[3]), point: unescape(f[4])})
				}
			}
		}
	}
	return out
}

// unescape undoes mountinfo's octal escapes of space, tab, newline and
// backslash.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// quotaV2 reads cpu.max in dir: "max 100000" (none) or "150000 100000".
func (s Source) quotaV2(dir string) (float64, bool) {
	b, err := readSmall(s.path(path.Join(dir, "cpu.max")))
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) != 2 || f[0] == "max" {
		return 0, false
	}
	return ratio(f[0], f[1])
}

// quotaV1 reads cpu.cfs_quota_us (-1: none) over cpu.cfs_period_us in dir.
func (s Source) quotaV1(dir string) (float64, bool) {
	q, err := readSmall(s.path(path.Join(dir, "cpu.cfs_quota_us")))
	if err != nil {
		return 0, false
	}
	p, err := readSmall(s.path(path.Join(dir, "cpu.cfs_period_us")))
	if err != nil {
		return 0, false
	}
	return ratio(string(bytes.TrimSpace(q)), string(bytes.TrimSpace(p)))
}

// ratio is quota over period, both positive integers (µs).
func ratio(quota, period string) (float64, bool) {
	q, err := strconv.ParseInt(quota, 10, 64)
	if err != nil || q <= 0 {
		return 0, false
	}
	p, err := strconv.ParseInt(period, 10, 64)
	if err != nil || p <= 0 {
		return 0, false
	}
	return float64(q) / float64(p), true
}
