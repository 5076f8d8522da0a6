package kv

import (
	"encoding/binary"
	"errors"

	"github.com/goycsb/ycsb/db"
)

// A stored value is one kind byte followed by the fields, each as
// uvarint(len(name)) name uvarint(len(value)) value, in the order written.
//
// Insert stores a full record (KindRecord) with a plain put. Update stores
// only the changed fields (KindUpdate) as a merge operand; the engines'
// merge operators fold operands into the record field by field (Folder), so
// two workers updating different fields of a key never lose either change,
// and an update needs no read. Operands with no record below them (an update
// of a missing or deleted key) merge into a KindUpdate value, which reads and
// scans treat as absent: an update never brings a record into existence.
const (
	KindRecord byte = 'R'
	KindUpdate byte = 'U'
)

// MergerName names the field-wise merge operator of both engines. They store
// it with the database (Pebble in its OPTIONS, RocksDB in its OPTIONS file),
// so a directory written with another merge operator refuses to open.
const MergerName = "ycsb.fieldmerge.v1"

// ErrCorrupt is a stored value that does not decode.
var ErrCorrupt = errors.New("corrupt record encoding")

// AppendValue appends the encoding of fields with the given kind to dst.
func AppendValue(dst []byte, kind byte, fields []db.Field) []byte {
	dst = append(dst, kind)
	for i := range fields {
		dst = binary.AppendUvarint(dst, uint64(len(fields[i].Name)))
		dst = append(dst, fields[i].Name...)
		dst = binary.AppendUvarint(dst, uint64(len(fields[i].Value)))
		dst = append(dst, fields[i].Value...)
	}
	return dst
}

// AppendStoreKey appends the stored key of (table, key): the table name, a zero
// byte, the key. Keys of one table are contiguous and in key order.
func AppendStoreKey(dst []byte, table, key string) []byte {
	dst = append(dst, table...)
	dst = append(dst, 0)
	return append(dst, key...)
}

// AppendTableEnd appends the exclusive upper bound of table's keys.
func AppendTableEnd(dst []byte, table string) []byte {
	dst = append(dst, table...)
	return append(dst, 1)
}

// next splits the field at the head of b.
func next(b []byte) (name, value, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return nil, nil, nil, false
	}
	b = b[k:]
	name, b = b[:n], b[n:]
	n, k = binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return nil, nil, nil, false
	}
	b = b[k:]
	return name, b[:n], b[n:], true
}

// Decoder turns stored values into db.Records. It interns field names, so
// reading all fields allocates nothing once the names are known. One per
// session; not safe for concurrent use.
type Decoder struct {
	names map[string]string
}

const maxInterned = 4096

func (d *Decoder) name(b []byte) string {
	if s, ok := d.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if d.names == nil {
		d.names = make(map[string]string, 16)
	}
	if len(d.names) < maxInterned {
		d.names[s] = s
	}
	return s
}

// Exists reports whether value holds a record (and not only updates of a
// missing key).
func Exists(value []byte) bool { return len(value) > 0 && value[0] == KindRecord }

// Decode appends the requested fields of value to out (all when fields is
// nil), in stored order. The caller checks Exists first.
func (d *Decoder) Decode(value []byte, fields []string, out *db.Record) error {
	if len(value) == 0 {
		return ErrCorrupt
	}
	b := value[1:]
	for len(b) > 0 {
		name, v, rest, ok := next(b)
		if !ok {
			return ErrCorrupt
		}
		b = rest
		if fields == nil {
			out.Add(d.name(name), v)
			continue
		}
		for _, f := range fields {
			if f == string(name) {
				out.Add(f, v)
				break
			}
		}
	}
	return nil
}

func appendField(dst, name, value []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(name)))
	dst = append(dst, name...)
	dst = binary.AppendUvarint(dst, uint64(len(value)))
	return append(dst, value...)
}

// Folder merges a key's values one at a time, in either direction, at a cost
// proportional to each operand rather than to the record: under a skewed
// update mix a hot key collects thousands of operands between flushes, and a
// read folds them all. Fields keep the order in which the fold met them.
// The zero value is ready; Reset reuses the storage.
type Folder struct {
	arena []byte
	ents  []folderEnt
	kind  byte
}

type folderEnt struct{ name, nameLen, val, valLen int }

// Reset empties f.
func (f *Folder) Reset() {
	f.arena = f.arena[:0]
	f.ents = f.ents[:0]
	f.kind = 0
}

func (f *Folder) find(name []byte) int {
	for i := range f.ents {
		e := &f.ents[i]
		if string(f.arena[e.name:e.name+e.nameLen]) == string(name) {
			return i
		}
	}
	return -1
}

func (f *Folder) add(name, value []byte) {
	e := folderEnt{name: len(f.arena), nameLen: len(name)}
	f.arena = append(f.arena, name...)
	e.val, e.valLen = len(f.arena), len(value)
	f.arena = append(f.arena, value...)
	f.ents = append(f.ents, e)
}

// AddOlder folds in v, older than everything so far: it only supplies the
// fields not set yet.
func (f *Folder) AddOlder(v []byte) error {
	if len(v) == 0 {
		return ErrCorrupt
	}
	if f.kind != KindRecord {
		f.kind = v[0]
	}
	for b := v[1:]; len(b) > 0; {
		name, val, rest, ok := next(b)
		if !ok {
			return ErrCorrupt
		}
		b = rest
		if f.find(name) < 0 {
			f.add(name, val)
		}
	}
	return nil
}

// AddNewer folds in v, newer than everything so far: its fields win.
func (f *Folder) AddNewer(v []byte) error {
	if len(v) == 0 {
		return ErrCorrupt
	}
	if v[0] == KindRecord { // a full record replaces what is below it
		f.Reset()
		return f.AddOlder(v)
	}
	if f.kind == 0 {
		f.kind = KindUpdate
	}
	for b := v[1:]; len(b) > 0; {
		name, val, rest, ok := next(b)
		if !ok {
			return ErrCorrupt
		}
		b = rest
		if i := f.find(name); i >= 0 {
			f.ents[i].val, f.ents[i].valLen = len(f.arena), len(val)
			f.arena = append(f.arena, val...)
		} else {
			f.add(name, val)
		}
	}
	return nil
}

// AppendTo appends the folded value to dst.
func (f *Folder) AppendTo(dst []byte) []byte {
	kind := f.kind
	if kind == 0 {
		kind = KindUpdate
	}
	dst = append(dst, kind)
	for i := range f.ents {
		e := &f.ents[i]
		dst = appendField(dst, f.arena[e.name:e.name+e.nameLen], f.arena[e.val:e.val+e.valLen])
	}
	return dst
}
