package stress

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// jf formats v as Java's String.format("%.<prec>f") does (with grouping
// for "%,.<prec>f"): Java rounds HALF_UP from the shortest decimal that
// reads back as v (FormattedFloatingDecimal), so 0.15 prints 0.2 where
// Go's exact-value rounding prints 0.1.
func jf(v float64, prec int, group bool) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	neg := math.Signbit(v) && v != 0
	if neg {
		v = -v
	}
	// Shortest digits d1d2...dn with exponent e: v = 0.d1...dn × 10^point.
	s := strconv.FormatFloat(v, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(exp)
	point := e + 1
	// Keep point+prec digits, rounding half up on the next one.
	keep := point + prec
	var d []byte
	switch {
	case keep < 0:
		d = nil
	case keep >= len(digits):
		d = []byte(digits + strings.Repeat("0", keep-len(digits)))
	default:
		d = []byte(digits[:keep])
		if digits[keep] >= '5' {
			i := len(d) - 1
			for ; i >= 0; i-- {
				if d[i] == '9' {
					d[i] = '0'
					continue
				}
				d[i]++
				break
			}
			if i < 0 {
				// A carry out of the top digit: one more integer digit.
				d = append([]byte{'1'}, d...)
			}
		}
	}
	// d now holds the digits of round(v × 10^prec), the integer part first.
	intLen := len(d) - prec
	var ip, fp string
	if intLen <= 0 {
		ip = "0"
		fp = strings.Repeat("0", -intLen) + string(d)
	} else {
		ip, fp = string(d[:intLen]), string(d[intLen:])
	}
	ip = strings.TrimLeft(ip, "0")
	if ip == "" {
		ip = "0"
	}
	if group {
		ip = groupDigits(ip)
	}
	out := ip
	if prec > 0 {
		out += "." + fp
	}
	if neg && strings.Trim(out, "0.,") != "" {
		out = "-" + out
	}
	return out
}

// jd formats n as Java's "%,d" (group) or "%d".
func jd(n int64, group bool) string {
	s := strconv.FormatInt(n, 10)
	if !group {
		return s
	}
	if n < 0 {
		return "-" + groupDigits(s[1:])
	}
	return groupDigits(s)
}

func groupDigits(s string) string {
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// pad right-aligns s in width, as Java's %<width>s.
func pad(s string, width int) string { return fmt.Sprintf("%*s", width, s) }

// hhmmss is commons-lang's DurationFormatUtils.formatDuration(ms,
// "HH:mm:ss", true), the original's Total operation time.
func hhmmss(d time.Duration) string {
	ms := d.Milliseconds()
	h := ms / 3600000
	m := ms / 60000 % 60
	s := ms / 1000 % 60
	return fmt.Sprintf("%02d:%02d:%02d", h, m, s)
}

// prettyMemory is Cassandra's FBUtilities.prettyPrintMemory(bytes, true).
func prettyMemory(b int64) string {
	switch {
	case b >= 1<<30:
		return jf(float64(b)/(1<<30), 3, false) + " GiB"
	case b >= 1<<20:
		return jf(float64(b)/(1<<20), 3, false) + " MiB"
	}
	return jf(float64(b)/(1<<10), 3, false) + " KiB"
}
