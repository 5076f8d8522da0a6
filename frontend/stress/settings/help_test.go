package settings

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/goycsb/ycsb/internal/ycsbtest"
)

func TestHelp(t *testing.T) {
	var out strings.Builder
	for _, topic := range []string{"", "write", "mixed", "user", "help", "distributions"} {
		out.WriteString("=== help " + topic + "\n" + Help(topic) + "\n")
	}
	for _, g := range groupOrder {
		out.WriteString("=== help " + g.name + "\n" + Help(g.name) + "\n")
	}
	ycsbtest.Golden(t, filepath.Join("testdata", "help.txt"), []byte(out.String()))
	if !strings.Contains(Help(""), "file named =16") || !strings.Contains(Help("-rate"), "file named =16") {
		t.Error("help does not warn that threads>=16 must be quoted")
	}
	if Help("rate") != Help("-rate") || Help("counter_add") != Help("counter_write") {
		t.Error("aliases give different help")
	}
}

// Every topic that Parse accepts for help has its own text.
func TestHelpTopicsParse(t *testing.T) {
	for _, topic := range []string{"write", "insert", "-rate", "rate", "dist", "-graph", "-tokenrange"} {
		s, _, err := Parse([]string{"help", topic})
		if err != nil {
			t.Fatalf("help %s: %v", topic, err)
		}
		if Help(s.HelpTopic) == Help("") {
			t.Errorf("help %s (%q) gives the overview", topic, s.HelpTopic)
		}
	}
}
