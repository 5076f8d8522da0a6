package redis

import (
	"errors"
	"net"
	"strings"
	"syscall"

	"github.com/redis/rueidis"

	"github.com/goycsb/ycsb/db"
)

// kind is what an attempt's error says.
type kind struct {
	// retry: another attempt may succeed (the cluster is failing over, a
	// connection broke, the server is loading). Every operation of the
	// binding is idempotent, writes included, so any of them may be tried
	// again.
	retry bool
	// mayHaveApplied: the request may have reached the server and been
	// applied (the connection broke or timed out with it sent).
	mayHaveApplied bool
}

// classify judges an attempt's error. A server's error reply is definite:
// the command was refused, not applied. Of those, the ones a Redis
// Cluster gives while it moves or loses a master are worth another
// attempt (MOVED and ASK the client follows itself, up to its limit). A
// connection that could not be made sent nothing. Any other failure of
// the connection may have come after the request was written.
func classify(err error) kind {
	if re, ok := rueidis.IsRedisErr(err); ok {
		if _, moved := re.IsRedirect(); moved {
			return kind{retry: true}
		}
		msg := re.Error()
		for _, p := range transientReplies {
			if strings.HasPrefix(msg, p) {
				return kind{retry: true}
			}
		}
		return kind{}
	}
	var se *db.StatusError
	if errors.As(err, &se) || rueidis.IsParseErr(err) || errors.Is(err, rueidis.ErrClosing) {
		return kind{} // a reply not as expected, or the binding's own Close
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" || errors.Is(err, syscall.ECONNREFUSED) {
		return kind{retry: true}
	}
	return kind{retry: true, mayHaveApplied: true}
}

// transientReplies are the error replies of a server that cannot take the
// command now but may soon: a cluster without a master for the slot
// (CLUSTERDOWN), a slot moving (TRYAGAIN), a server loading its data
// (LOADING), a replica that was a master (READONLY), a replica whose
// master is down (MASTERDOWN).
var transientReplies = []string{"CLUSTERDOWN", "TRYAGAIN", "LOADING", "READONLY", "MASTERDOWN"}
