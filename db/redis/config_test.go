package redis

import (
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/redis/rueidis"

	"github.com/goycsb/ycsb/db"
	"github.com/goycsb/ycsb/props"
)

func TestParseConfig(t *testing.T) {
	cases := []struct {
		m       map[string]string
		addrs   string
		cluster bool
		layout  layout
		err     string // a part of the error; "" for none
	}{
		{m: nil, addrs: "localhost:6379"},
		{m: map[string]string{"redis.host": "10.0.0.1"}, addrs: "10.0.0.1:6379"},
		{m: map[string]string{"redis.host": "h", "redis.port": "7000", "redis.cluster": "true"}, addrs: "h:7000", cluster: true},
		{m: map[string]string{"redis.addr": "a:1;b:2", "redis.mode": "cluster"}, addrs: "a:1,b:2", cluster: true},
		{m: map[string]string{"redis.addr": "a:1,b:2", "redis.cluster": "true", "redis.mode": "cluster"}, addrs: "a:1,b:2", cluster: true},
		{m: map[string]string{"redis.addr": "a:1", "redis.host": "a", "redis.port": "1"}, addrs: "a:1"},
		{m: map[string]string{"redis.layout": "go-ycsb", "redis.datatype": "string"}, addrs: "localhost:6379", layout: layoutGoYCSB},
		{m: map[string]string{"redis.addr": "a:1", "redis.host": "b"}, err: "redis.host"},
		{m: map[string]string{"redis.addr": "a:1", "redis.port": "2"}, err: "redis.host"},
		{m: map[string]string{"redis.cluster": "true", "redis.mode": "single"}, err: "contradicts"},
		{m: map[string]string{"redis.cluster": "false", "redis.mode": "cluster"}, err: "contradicts"},
		{m: map[string]string{"redis.mode": "cluster", "redis.db": "2"}, err: "redis.db"},
		{m: map[string]string{"redis.mode": "sentinel"}, err: "redis.mode"},
		{m: map[string]string{"redis.addr": "a:1;b:2"}, err: "single server takes one"},
		{m: map[string]string{"redis.addr": "a"}, err: "redis.addr"},
		{m: map[string]string{"redis.addr": "a:0"}, err: "redis.addr"},
		{m: map[string]string{"redis.port": "70000"}, err: "redis.port"},
		{m: map[string]string{"redis.pool_size": "3"}, err: "redis.pool_size"},
		{m: map[string]string{"redis.pool_size": "512"}, err: "redis.pool_size"},
		{m: map[string]string{"redis.timeout": "0"}, err: "redis.timeout"},
		{m: map[string]string{"redis.retries": "-1"}, err: "redis.retries"},
		{m: map[string]string{"redis.tls_cert": "c.pem"}, err: "redis.tls_cert"},
		{m: map[string]string{"redis.datatype": "string"}, err: "redis.layout=go-ycsb"},
		{m: map[string]string{"redis.layout": "go-ycsb", "redis.datatype": "json"}, err: "redis.datatype"},
		{m: map[string]string{"redis.layout": "go-ycsb", "scanproportion": "0.05"}, err: "no index"},
		{m: map[string]string{"redis.username": "u"}, err: "redis.password"},
		{m: map[string]string{"redis.layout": "jedis"}, err: "redis.layout"},
	}
	for _, c := range cases {
		cfg, err := parseConfig(props.FromMap(c.m))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want one with %q", c.m, err, c.err)
			} else if strings.Contains(err.Error(), "\n") {
				t.Errorf("%v: error on several lines: %q", c.m, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.m, err)
			continue
		}
		want := c.layout
		if want == "" {
			want = layoutReference
		}
		if got := strings.Join(cfg.addrs, ","); got != c.addrs || cfg.cluster != c.cluster || cfg.layout != want {
			t.Errorf("%v: addrs %s cluster %v layout %s, want %s %v %s", c.m, got, cfg.cluster, cfg.layout, c.addrs, c.cluster, want)
		}
	}
}

// The password is in no error of the configuration.
func TestConfigErrorsHidePassword(t *testing.T) {
	_, err := parseConfig(props.FromMap(map[string]string{"redis.password": "hunter2secret", "redis.mode": "x"}))
	if err == nil || strings.Contains(err.Error(), "hunter2secret") {
		t.Errorf("error %v", err)
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want kind
	}{
		{"a broken connection", io.EOF, kind{retry: true, mayHaveApplied: true}},
		{"a timeout", os.ErrDeadlineExceeded, kind{retry: true, mayHaveApplied: true}},
		{"no connection", &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, kind{retry: true}},
		{"a reply not as expected", fmt.Errorf("HGETALL reply: %w", db.ErrUnexpectedState), kind{}},
		{"the client closed", rueidis.ErrClosing, kind{}},
	}
	for _, c := range cases {
		if got := classify(c.err); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
