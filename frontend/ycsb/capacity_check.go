package ycsb

import (
	"time"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/measurement"
	"github.com/goycsb/ycsb/props"
)

// CheckCapacity is Check for ycsb capacity: the capacity.* properties
// too, and what capacity refuses (ycsb kube capacity checks each pod's
// configuration with it).
func CheckCapacity(p *props.Properties, d db.Driver, binding string, now time.Time) error {
	if err := Check(p, d, binding, now); err != nil {
		return err
	}
	s, err := parseSettingsOn(p, false, now)
	if err != nil {
		return err
	}
	mcfg, err := measurement.ParseConfig(p)
	if err != nil {
		return err
	}
	_, err = parseCapacity(p, s, mcfg)
	return err
}
