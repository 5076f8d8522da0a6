package javafmt

import "strconv"

// Remaining returns seconds as YCSB's RemainingFormatter renders the "est
// completion in" time of the status line, quirks included:
//
//   - Each unit ends with a space: 61 → "1 minute ".
//   - Days and hours are shown when non-zero; minutes only below one day:
//     90061 → "1 day 1 hour ", 3661 → "1 hour 1 minute ".
//   - Seconds are shown only when nothing else was, and the plural test looks
//     at the length of the text after the number was appended, so one-digit
//     counts are singular: 5 → "5 second ", 0 → "0 second ", 10 → "10 seconds ".
//
// Negative values print as seconds ("-5 seconds "), as Java's do.
func Remaining(seconds int64) string {
	const minute, hour, day = 60, 60 * 60, 24 * 60 * 60
	b := make([]byte, 0, 32)
	days := seconds / day // TimeUnit conversions truncate toward zero, as Go's /
	if days > 0 {
		b = appendUnit(b, days, " day ", " days ")
		seconds -= days * day
	}
	if hours := seconds / hour; hours > 0 {
		b = appendUnit(b, hours, " hour ", " hours ")
		seconds -= hours * hour
	}
	if days < 1 {
		if minutes := seconds / minute; minutes > 0 {
			b = appendUnit(b, minutes, " minute ", " minutes ")
			// Java subtracts MINUTES.toSeconds(seconds) here, a bug without
			// visible effect: seconds are only printed when b is empty.
			seconds -= minutes * minute
		}
	}
	if len(b) == 0 {
		b = strconv.AppendInt(b, seconds, 10)
		if len(b) == 1 {
			b = append(b, " second "...)
		} else {
			b = append(b, " seconds "...)
		}
	}
	return string(b)
}

func appendUnit(b []byte, n int64, one, many string) []byte {
	b = strconv.AppendInt(b, n, 10)
	if n == 1 {
		return append(b, one...)
	}
	return append(b, many...)
}
