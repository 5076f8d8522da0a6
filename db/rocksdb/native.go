//go:build rocksdb

package rocksdb

// The per-operation paths in C, beside grocksdb: a read is one cgo call
// that copies the value into a buffer the session owns (grocksdb's pinned
// get is three: the get, the value and the release of the pinned slice),
// no call allocates (grocksdb's error out-parameters escape to the heap),
// and the field-wise merge operator is C, so that RocksDB's reads, flushes
// and compactions fold update operands without calling into Go (grocksdb's
// Go merge operators are called back through cgo, once per merge).

/*
#cgo LDFLAGS: -lrocksdb
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <rocksdb/c.h>

// ycsb_thread_perf_off turns RocksDB's per-thread performance counters
// off on the calling thread, once a thread. RocksDB counts them by default
// (perf_level kEnableCount, a thread_local in monitoring/perf_level.cc)
// on every get and write, and nothing here reads them; db_bench turns
// them off in each of its threads (--perf_level, default 1: kDisable).
// The flag is the executable's own thread-local, so its check is a load,
// where RocksDB's thread-locals are reached through __tls_get_addr.
static __thread int ycsb_perf_off;

static inline void ycsb_thread_perf_off(void) {
	if (!ycsb_perf_off) {
		rocksdb_set_perf_level(rocksdb_disable);
		ycsb_perf_off = 1;
	}
}

// ycsb_get reads key's value into buf when it fits in cap bytes. It
// returns 1 with the value's length in *vlen (a length over cap means
// that nothing was copied: call again with a larger buf), 0 when the key
// has no value, -1 with *err set (free it) on an error.
static int ycsb_get(rocksdb_t* db, const rocksdb_readoptions_t* ro, const char* key, size_t klen,
		char* buf, size_t cap, size_t* vlen, char** err) {
	ycsb_thread_perf_off();
	rocksdb_pinnableslice_t* p = rocksdb_get_pinned(db, ro, key, klen, err);
	if (*err != NULL) return -1;
	if (p == NULL) return 0;
	size_t n = 0;
	const char* v = rocksdb_pinnableslice_value(p, &n);
	*vlen = n;
	if (n <= cap && n > 0) memcpy(buf, v, n);
	rocksdb_pinnableslice_destroy(p);
	return 1;
}

// ycsb_write puts value at key, or with merge adds it as a merge operand.
static void ycsb_write(rocksdb_t* db, const rocksdb_writeoptions_t* wo, const char* key, size_t klen, const char* val,
		size_t vlen, int merge, char** err) {
	ycsb_thread_perf_off();
	if (merge) {
		rocksdb_merge(db, wo, key, klen, val, vlen, err);
	} else {
		rocksdb_put(db, wo, key, klen, val, vlen, err);
	}
}

static void ycsb_delete(rocksdb_t* db, const rocksdb_writeoptions_t* wo, const char* key, size_t klen, char** err) {
	ycsb_thread_perf_off();
	rocksdb_delete(db, wo, key, klen, err);
}

// The record encoding of db/internal/kv (record.go): a kind byte, then
// each field as uvarint(len(name)) name uvarint(len(value)) value. The
// fold below is kv.Folder's AddOlder, step for step, so that both engines
// store the same bytes (TestNativeMergeMatchesFolder compares them).

enum { YCSB_KIND_RECORD = 'R', YCSB_KIND_UPDATE = 'U' };

typedef struct {
	const unsigned char *name, *val;
	size_t name_len, val_len;
} ycsb_field;

typedef struct {
	ycsb_field* f;
	int n, cap;
	unsigned char kind;
	ycsb_field small[16];
} ycsb_fold;

// ycsb_uvarint decodes a uvarint as Go's encoding/binary.Uvarint does:
// the bytes it took, or 0 when b is cut short or the value overflows.
static size_t ycsb_uvarint(const unsigned char* b, size_t len, uint64_t* v) {
	uint64_t x = 0;
	unsigned s = 0;
	for (size_t i = 0; i < len; i++) {
		if (i == 10) return 0;
		unsigned char c = b[i];
		if (c < 0x80) {
			if (i == 9 && c > 1) return 0;
			*v = x | (uint64_t)c << s;
			return i + 1;
		}
		x |= (uint64_t)(c & 0x7f) << s;
		s += 7;
	}
	return 0;
}

// ycsb_span splits a length-prefixed byte string off the head of *b.
static int ycsb_span(const unsigned char** b, size_t* rest, const unsigned char** out, size_t* out_len) {
	uint64_t n;
	size_t k = ycsb_uvarint(*b, *rest, &n);
	if (k == 0 || (uint64_t)(*rest - k) < n) return 0;
	*out = *b + k;
	*out_len = (size_t)n;
	*b += k + (size_t)n;
	*rest -= k + (size_t)n;
	return 1;
}

// ycsb_add_older folds in v, older than everything so far: it only
// supplies the fields not set yet. 0 when v does not decode.
static int ycsb_add_older(ycsb_fold* f, const unsigned char* v, size_t len) {
	if (len == 0) return 0;
	if (f->kind != YCSB_KIND_RECORD) f->kind = v[0];
	const unsigned char* b = v + 1;
	size_t rest = len - 1;
	while (rest > 0) {
		ycsb_field e;
		if (!ycsb_span(&b, &rest, &e.name, &e.name_len) || !ycsb_span(&b, &rest, &e.val, &e.val_len)) return 0;
		int seen = 0;
		for (int i = 0; i < f->n && !seen; i++) {
			seen = f->f[i].name_len == e.name_len && memcmp(f->f[i].name, e.name, e.name_len) == 0;
		}
		if (seen) continue;
		if (f->n == f->cap) {
			int cap = f->cap * 2;
			ycsb_field* g = malloc(sizeof(ycsb_field) * (size_t)cap);
			if (g == NULL) return 0;
			memcpy(g, f->f, sizeof(ycsb_field) * (size_t)f->n);
			if (f->f != f->small) free(f->f);
			f->f = g;
			f->cap = cap;
		}
		f->f[f->n++] = e;
	}
	return 1;
}

static size_t ycsb_uvarint_len(uint64_t v) {
	size_t n = 1;
	for (; v >= 0x80; v >>= 7) n++;
	return n;
}

static unsigned char* ycsb_put_uvarint(unsigned char* p, uint64_t v) {
	for (; v >= 0x80; v >>= 7) *p++ = (unsigned char)(v | 0x80);
	*p++ = (unsigned char)v;
	return p;
}

// ycsb_fold_value folds existing (NULL: none) under operands (oldest
// first) into a malloc'ed value, NULL when one of them does not decode.
static char* ycsb_fold_value(const char* existing, size_t existing_len, const char* const* ops, const size_t* op_lens, int n,
		size_t* out_len) {
	ycsb_fold f;
	f.f = f.small;
	f.n = 0;
	f.cap = (int)(sizeof f.small / sizeof f.small[0]);
	f.kind = 0;
	char* out = NULL;
	int ok = 1;
	for (int i = n - 1; i >= 0 && ok; i--) ok = ycsb_add_older(&f, (const unsigned char*)ops[i], op_lens[i]);
	if (ok && existing != NULL && existing_len > 0) ok = ycsb_add_older(&f, (const unsigned char*)existing, existing_len);
	if (ok) {
		size_t size = 1;
		for (int i = 0; i < f.n; i++) {
			size += ycsb_uvarint_len(f.f[i].name_len) + f.f[i].name_len + ycsb_uvarint_len(f.f[i].val_len) + f.f[i].val_len;
		}
		out = malloc(size);
		if (out != NULL) {
			unsigned char* p = (unsigned char*)out;
			*p++ = f.kind == 0 ? YCSB_KIND_UPDATE : f.kind;
			for (int i = 0; i < f.n; i++) {
				p = ycsb_put_uvarint(p, f.f[i].name_len);
				memcpy(p, f.f[i].name, f.f[i].name_len);
				p += f.f[i].name_len;
				p = ycsb_put_uvarint(p, f.f[i].val_len);
				memcpy(p, f.f[i].val, f.f[i].val_len);
				p += f.f[i].val_len;
			}
			*out_len = size;
		}
	}
	if (f.f != f.small) free(f.f);
	return out;
}

static char* ycsb_full_merge(void* state, const char* key, size_t key_len, const char* existing, size_t existing_len,
		const char* const* ops, const size_t* op_lens, int n, unsigned char* success, size_t* out_len) {
	char* v = ycsb_fold_value(existing, existing_len, ops, op_lens, n, out_len);
	*success = v != NULL;
	return v;
}

static char* ycsb_partial_merge(void* state, const char* key, size_t key_len, const char* const* ops, const size_t* op_lens,
		int n, unsigned char* success, size_t* out_len) {
	char* v = ycsb_fold_value(NULL, 0, ops, op_lens, n, out_len);
	*success = v != NULL;
	return v;
}

static void ycsb_delete_value(void* state, const char* v, size_t len) { free((void*)v); }
static void ycsb_destroy(void* state) {}
static const char* ycsb_merger_name(void* state) { return "ycsb.fieldmerge.v1"; }

static rocksdb_mergeoperator_t* ycsb_merge_operator(void) {
	return rocksdb_mergeoperator_create(NULL, ycsb_destroy, ycsb_full_merge, ycsb_partial_merge, ycsb_delete_value,
		ycsb_merger_name);
}

// ycsb_thread_perf_for_test is what RocksDB's performance counters of the
// calling thread have counted since the last call (key comparisons and
// bytes read), and resets them.
static uint64_t ycsb_thread_perf_for_test(void) {
	rocksdb_perfcontext_t* c = rocksdb_perfcontext_create();
	uint64_t n = rocksdb_perfcontext_metric(c, rocksdb_user_key_comparison_count) + rocksdb_perfcontext_metric(c, rocksdb_get_read_bytes);
	rocksdb_perfcontext_reset(c);
	rocksdb_perfcontext_destroy(c);
	return n;
}

// ycsb_thread_perf_on_for_test turns the calling thread's counters back
// on, as RocksDB leaves a new thread.
static void ycsb_thread_perf_on_for_test(void) {
	rocksdb_set_perf_level(rocksdb_enable_count);
	ycsb_perf_off = 0;
}

// ycsb_fold_for_test runs the full merge as RocksDB calls it.
static char* ycsb_fold_for_test(const char* existing, size_t existing_len, int has_existing, const char* const* ops,
		const size_t* op_lens, int n, size_t* out_len) {
	return ycsb_fold_value(has_existing ? existing : NULL, existing_len, ops, op_lens, n, out_len);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"time"
	"unsafe"

	"github.com/linxGnu/grocksdb"

	"github.com/goycsb/ycsb/internal/clock"
)

// newMergeOperator is the field-wise merge operator in C, named
// kv.MergerName (the name must match C's ycsb_merger_name: checked by
// TestNativeMergerName).
func newMergeOperator() grocksdb.MergeOperator {
	return grocksdb.NewNativeMergeOperator(unsafe.Pointer(C.ycsb_merge_operator()))
}

// nativeDB is the C handle under a grocksdb.DB. grocksdb v1.7.14 (go.mod)
// keeps it in the unexported field c and has no accessor; it is read once
// at Open, and a version without the field fails Open, not a read.
func nativeDB(d *grocksdb.DB) (*C.rocksdb_t, error) {
	f := reflect.ValueOf(d).Elem().FieldByName("c")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return nil, errors.New("rocksdb: this grocksdb version has no C handle in DB.c (the binding reads through it)")
	}
	return (*C.rocksdb_t)(f.UnsafePointer()), nil
}

// native is the C handles the per-operation calls take. Shared by the
// sessions: RocksDB's reads, writes and their options are safe for
// concurrent use.
type native struct {
	db *C.rocksdb_t
	ro *C.rocksdb_readoptions_t
	wo *C.rocksdb_writeoptions_t
}

func newNative(db *C.rocksdb_t, sync bool) native {
	n := native{db: db, ro: C.rocksdb_readoptions_create(), wo: C.rocksdb_writeoptions_create()}
	C.rocksdb_writeoptions_set_sync(n.wo, C.uchar(boolByte(sync)))
	return n
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func (n native) close() {
	C.rocksdb_readoptions_destroy(n.ro)
	C.rocksdb_writeoptions_destroy(n.wo)
}

// callArgs are the out-parameters of a call, kept in the session: locals
// whose address goes to C would escape, an allocation per call.
type callArgs struct {
	n       C.size_t
	err     *C.char
	yielded int64 // now() at the session's last yield
}

// yieldAfter is how long a session runs between yields (see done): a
// tenth of the runtime's 10 ms time slice, and seldom enough that the
// yield's own cost stays small. When a P is idle, a yield wakes a thread
// to run the yielding goroutine (two context switches and a move to
// another thread): with a yield every 32 calls, as before, a worker alone
// on 2 Ps made 28,900-30,400 voluntary context switches per 1M merges,
// against 7,900-10,000 now (docs/engines.md).
const yieldAfter = time.Millisecond

// now is the clock the yields read; a variable for tests.
var now = clock.Now

// done is called after each call of a session, and yields the processor
// once yieldAfter has passed since the last yield. A worker that does
// nothing but cgo calls never blocks, so it keeps one scheduling tick;
// after 10 ms on it, the runtime's sysmon takes its P at the next call,
// hands it to another thread, and polls every 20 µs while it keeps taking
// Ps (retake and sysmon in runtime/proc.go, Go 1.26). On 2 cores that cost
// 45-56k involuntary and 60-76k voluntary context switches per 1M reads,
// and reads at 0.62-0.80 of db_bench's rate; a yield starts a new tick,
// sysmon stays asleep, and reads went to 0.91-0.93 (docs/engines.md has
// the figures). Time rather than a count of calls, because a call's
// length ranges from a microsecond (a cached read) to milliseconds (a
// read from disk).
func (a *callArgs) done() {
	if t := now(); t-a.yielded >= int64(yieldAfter) {
		a.yielded = t
		runtime.Gosched()
		threadPerfOff() // the goroutine may go on on another thread
	}
}

// error returns and frees the error C reported, if any.
func (a *callArgs) error() error {
	if a.err == nil {
		return nil
	}
	err := errors.New(C.GoString(a.err))
	C.free(unsafe.Pointer(a.err))
	a.err = nil
	return err
}

func cBytes(b []byte) (*C.char, C.size_t) {
	return (*C.char)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b))
}

// get returns key's value in *buf (grown when too small), or found=false.
func (n native) get(a *callArgs, key []byte, buf *[]byte) (value []byte, found bool, err error) {
	if len(*buf) == 0 {
		*buf = make([]byte, 4096)
	}
	k, klen := cBytes(key)
	for {
		b := *buf
		v, vcap := cBytes(b)
		rc := C.ycsb_get(n.db, n.ro, k, klen, v, vcap, &a.n, &a.err)
		a.done()
		switch {
		case rc < 0:
			return nil, false, a.error()
		case rc == 0:
			return nil, false, nil
		case int(a.n) <= len(b):
			return b[:a.n], true, nil
		}
		// Larger than the buffer: nothing was copied; grow it and read
		// again (the value may have grown in between: loop).
		*buf = make([]byte, max(int(a.n), 2*len(b)))
	}
}

// write puts value at key, or with merge adds it as a merge operand.
func (n native) write(a *callArgs, key, value []byte, merge bool) error {
	k, klen := cBytes(key)
	v, vlen := cBytes(value)
	m := C.int(0)
	if merge {
		m = 1
	}
	C.ycsb_write(n.db, n.wo, k, klen, v, vlen, m, &a.err)
	a.done()
	return a.error()
}

func (n native) delete(a *callArgs, key []byte) error {
	k, klen := cBytes(key)
	C.ycsb_delete(n.db, n.wo, k, klen, &a.err)
	a.done()
	return a.error()
}

// threadPerfOff turns RocksDB's performance counters off on the calling
// thread (ycsb_thread_perf_off), for the calls made through grocksdb.
func threadPerfOff() { C.ycsb_thread_perf_off() }

// threadPerfOn turns them back on, for tests (on a locked thread).
func threadPerfOn() { C.ycsb_thread_perf_on_for_test() }

// threadPerfCounted is what RocksDB's performance counters of the calling
// thread have counted since the last call, for tests (on a locked thread).
func threadPerfCounted() uint64 { return uint64(C.ycsb_thread_perf_for_test()) }

// nativeFold runs the C merge operator's full merge over existing (nil:
// none) and operands (oldest first), for tests.
func nativeFold(existing []byte, operands [][]byte) ([]byte, error) {
	n := len(operands)
	ptrs := C.malloc(C.size_t(max(n, 1)) * C.size_t(unsafe.Sizeof(uintptr(0))))
	lens := C.malloc(C.size_t(max(n, 1)) * C.size_t(unsafe.Sizeof(C.size_t(0))))
	defer C.free(ptrs)
	defer C.free(lens)
	ps := unsafe.Slice((**C.char)(ptrs), max(n, 1))
	ls := unsafe.Slice((*C.size_t)(lens), max(n, 1))
	for i, op := range operands {
		ps[i] = (*C.char)(C.CBytes(op))
		ls[i] = C.size_t(len(op))
	}
	defer func() {
		for i := range operands {
			C.free(unsafe.Pointer(ps[i]))
		}
	}()
	var ex *C.char
	has := C.int(0)
	if existing != nil {
		ex, has = (*C.char)(C.CBytes(existing)), 1
		defer C.free(unsafe.Pointer(ex))
	}
	var outLen C.size_t
	out := C.ycsb_fold_for_test(ex, C.size_t(len(existing)), has, (**C.char)(ptrs), (*C.size_t)(lens), C.int(n), &outLen)
	if out == nil {
		return nil, fmt.Errorf("merge failed")
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoBytes(unsafe.Pointer(out), C.int(outLen)), nil
}

func nativeMergerName() string { return C.GoString(C.ycsb_merger_name(nil)) }
