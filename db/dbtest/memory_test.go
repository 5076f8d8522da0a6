package dbtest

import (
	"testing"

	"github.com/goycsb/ycsb/db"
)

func TestMemoryConforms(t *testing.T) {
	Run(t, func(*testing.T) db.DB { return NewMemory() }, Options{})
}
