package db

// Field is one named value of a record.
type Field struct {
	Name  string
	Value []byte
}

// Record is an ordered list of fields, plus the key for scan results.
// Records are reused: Reset keeps the storage of the fields and their values,
// so a worker that reads into the same Record allocates only while it grows.
type Record struct {
	Key    []byte
	Fields []Field
}

// Reset empties r and keeps its storage.
func (r *Record) Reset() {
	r.Key = r.Key[:0]
	r.Fields = r.Fields[:0]
}

// Len returns the number of fields.
func (r *Record) Len() int { return len(r.Fields) }

// Add appends a field, copying value into storage owned by r.
func (r *Record) Add(name string, value []byte) {
	n := len(r.Fields)
	if n < cap(r.Fields) {
		r.Fields = r.Fields[:n+1]
		f := &r.Fields[n]
		f.Name = name
		f.Value = append(f.Value[:0], value...)
		return
	}
	r.Fields = append(r.Fields, Field{Name: name, Value: append([]byte(nil), value...)})
}

// SetKey copies key into r.
func (r *Record) SetKey(key []byte) { r.Key = append(r.Key[:0], key...) }

// Get returns the value of the first field called name.
func (r *Record) Get(name string) ([]byte, bool) {
	for i := range r.Fields {
		if r.Fields[i].Name == name {
			return r.Fields[i].Value, true
		}
	}
	return nil, false
}

// Rows holds scan results, reusing its records across scans.
type Rows struct {
	recs []Record
	n    int
}

// Reset empties rs and keeps its storage.
func (rs *Rows) Reset() { rs.n = 0 }

// Len returns the number of rows.
func (rs *Rows) Len() int { return rs.n }

// At returns row i, valid until the next Reset.
func (rs *Rows) At(i int) *Record { return &rs.recs[i] }

// Next appends an empty row and returns it for the binding to fill.
func (rs *Rows) Next() *Record {
	if rs.n == len(rs.recs) {
		rs.recs = append(rs.recs, Record{})
	}
	r := &rs.recs[rs.n]
	r.Reset()
	rs.n++
	return r
}
