package javafmt

import (
	"math"
	"testing"
)

func TestRemaining(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "0 second "},
		{1, "1 second "},
		{5, "5 second "}, // the plural test looks at the text length
		{9, "9 second "},
		{10, "10 seconds "},
		{50, "50 seconds "},
		{59, "59 seconds "},
		{60, "1 minute "},
		{61, "1 minute "}, // seconds only when nothing else is shown
		{120, "2 minutes "},
		{3599, "59 minutes "},
		{3600, "1 hour "},
		{3661, "1 hour 1 minute "},
		{7322, "2 hours 2 minutes "},
		{86399, "23 hours 59 minutes "},
		{86400, "1 day "},
		{90061, "1 day 1 hour "}, // no minutes from one day on
		{86400 + 59*60, "1 day "},
		{2*86400 + 2*3600, "2 days 2 hours "},
		{math.MaxInt64, "106751991167300 days 15 hours "},
		{-5, "-5 seconds "},
		{-90061, "-90061 seconds "},
	}
	for _, tt := range tests {
		if got := Remaining(tt.in); got != tt.want {
			t.Errorf("Remaining(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
