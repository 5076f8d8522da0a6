package engine

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
// merge operators fold operands into the record field by field (Combine), so
// two workers updating different fields of a key never lose either change,
// and an update needs no read. Operands with no record below them (an update
// of a missing or deleted key) merge into a KindUpdate value, which reads and
// scans treat as absent: an update never brings a record into existence.
const (
	KindRecord byte = 'R'
	KindUpdate byte = 'U'
)

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

// AppendKey appends the stored key of (table, key): the table name, a zero
// byte, the key. Keys of one table are contiguous and in key order.
func AppendKey(dst []byte, table, key string) []byte {
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

// Combine appends to dst the merge of newer over older: older's fields in
// their order, with the values newer gives them, then newer's other fields.
// The result is a record if either side is one. Combine is associative, as
// both engines require of a merge operator.
func Combine(dst, newer, older []byte) ([]byte, error) {
	if len(newer) == 0 || len(older) == 0 {
		return dst, ErrCorrupt
	}
	kind := KindUpdate
	if newer[0] == KindRecord || older[0] == KindRecord {
		kind = KindRecord
	}
	if newer[0] == KindRecord {
		// A full record replaces what is below it. Only a put is a record,
		// and a put is never a merge operand, but stay correct if asked.
		return append(append(dst, KindRecord), newer[1:]...), nil
	}
	dst = append(dst, kind)
	for b := older[1:]; len(b) > 0; {
		name, v, rest, ok := next(b)
		if !ok {
			return dst, ErrCorrupt
		}
		b = rest
		if nv, found, err := lookup(newer[1:], name); err != nil {
			return dst, err
		} else if found {
			v = nv
		}
		dst = appendField(dst, name, v)
	}
	for b := newer[1:]; len(b) > 0; {
		name, v, rest, ok := next(b)
		if !ok {
			return dst, ErrCorrupt
		}
		b = rest
		if _, found, _ := lookup(older[1:], name); !found {
			dst = appendField(dst, name, v)
		}
	}
	return dst, nil
}

func appendField(dst, name, value []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(name)))
	dst = append(dst, name...)
	dst = binary.AppendUvarint(dst, uint64(len(value)))
	return append(dst, value...)
}

// lookup finds the last value of name in the encoded fields b.
func lookup(b, name []byte) (value []byte, found bool, err error) {
	for len(b) > 0 {
		n, v, rest, ok := next(b)
		if !ok {
			return nil, false, ErrCorrupt
		}
		if string(n) == string(name) {
			value, found = v, true
		}
		b = rest
	}
	return value, found, nil
}
