package profile

import (
	"regexp"
	"strings"
)

// DefinedColumn is a column of the profile's table_definition.
type DefinedColumn struct {
	// Name as system_schema spells it: lower-cased unless quoted.
	Name string
	// Type as written, without spaces: text, frozen<list<int>>, ...
	Type string
	// Kind as system_schema says it: partition_key, clustering, regular
	// or static.
	Kind string
	// Position in the partition key or among the clustering columns; -1
	// for the others.
	Position int
}

var (
	rePrimaryKey = regexp.MustCompile(`(?is)^primary\s+key\s*(\(.*\))$`)
	reModifiers  = regexp.MustCompile(`(?is)(\s+static)?(\s+primary\s+key)?\s*$`)
	reBareName   = regexp.MustCompile(`^[A-Za-z0-9_]+`)
)

// DefinedColumns reads the columns of table_definition, for the checks
// that need the table's column types before it is created. ok is false
// when there is no table_definition or it is not understood: the checks
// then wait for the table's own columns (system_schema's).
func (p *Profile) DefinedColumns() (cols []DefinedColumn, ok bool) {
	def := strings.TrimSpace(p.TableDefinition)
	m := createTable.FindStringIndex(def)
	if m == nil {
		return nil, false
	}
	rest := strings.TrimSpace(def[m[1]:])
	if !strings.HasPrefix(rest, "(") {
		return nil, false
	}
	end := closing(rest, 0)
	if end < 0 {
		return nil, false
	}
	var pk, ck []string
	for _, item := range splitTop(rest[1:end]) {
		item = strings.TrimSpace(item)
		if k := rePrimaryKey.FindStringSubmatch(item); k != nil {
			if pk != nil {
				return nil, false
			}
			if pk, ck, ok = primaryKey(k[1]); !ok {
				return nil, false
			}
			continue
		}
		name, typ, ok := nameAndRest(item)
		if !ok {
			return nil, false
		}
		mods := reModifiers.FindStringSubmatchIndex(typ)
		kind := "regular"
		if mods[2] >= 0 {
			kind = "static"
		}
		if mods[4] >= 0 {
			if pk != nil {
				return nil, false
			}
			pk = []string{name}
		}
		typ = strings.Join(strings.Fields(typ[:mods[0]]), "")
		if typ == "" {
			return nil, false
		}
		cols = append(cols, DefinedColumn{Name: name, Type: strings.ToLower(typ), Kind: kind, Position: -1})
	}
	if len(pk) == 0 {
		return nil, false
	}
	for kind, names := range map[string][]string{"partition_key": pk, "clustering": ck} {
		for i, n := range names {
			found := false
			for j := range cols {
				if cols[j].Name == n && cols[j].Position < 0 {
					cols[j].Kind, cols[j].Position, found = kind, i, true
					break
				}
			}
			if !found {
				return nil, false
			}
		}
	}
	return cols, true
}

// primaryKey reads (k, c1, c2) or ((k1, k2), c1).
func primaryKey(s string) (pk, ck []string, ok bool) {
	if closing(s, 0) != len(s)-1 {
		return nil, nil, false
	}
	items := splitTop(s[1 : len(s)-1])
	for i, item := range items {
		item = strings.TrimSpace(item)
		if i == 0 && strings.HasPrefix(item, "(") {
			if closing(item, 0) != len(item)-1 {
				return nil, nil, false
			}
			for _, k := range splitTop(item[1 : len(item)-1]) {
				n, rest, ok := nameAndRest(strings.TrimSpace(k))
				if !ok || strings.TrimSpace(rest) != "" {
					return nil, nil, false
				}
				pk = append(pk, n)
			}
			continue
		}
		n, rest, ok := nameAndRest(item)
		if !ok || strings.TrimSpace(rest) != "" {
			return nil, nil, false
		}
		if i == 0 {
			pk = append(pk, n)
		} else {
			ck = append(ck, n)
		}
	}
	return pk, ck, len(pk) > 0
}

// nameAndRest reads the identifier that starts s (lower-cased unless
// quoted) and returns what follows it.
func nameAndRest(s string) (name, rest string, ok bool) {
	if strings.HasPrefix(s, `"`) {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			if s[i] == '"' {
				if i+1 < len(s) && s[i+1] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				return b.String(), s[i+1:], b.Len() > 0
			}
			b.WriteByte(s[i])
		}
		return "", "", false
	}
	n := reBareName.FindString(s)
	if n == "" {
		return "", "", false
	}
	return strings.ToLower(n), s[len(n):], true
}

// closing is the index of the bracket closing the one at s[open], or -1;
// quoted names and strings are skipped.
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			j := strings.IndexByte(s[i+1:], s[i])
			if j < 0 {
				return -1
			}
			i += j + 1
		case '(', '<':
			depth++
		case ')', '>':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTop splits s at its commas outside brackets and quotes.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			if j := strings.IndexByte(s[i+1:], s[i]); j >= 0 {
				i += j + 1
			}
		case '(', '<':
			depth++
		case ')', '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" || len(out) > 0 {
		out = append(out, s[start:])
	}
	return out
}
