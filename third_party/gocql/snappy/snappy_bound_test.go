package snappy

import "testing"

// A block announcing more than a frame can hold is refused.
func TestDecompressBounds(t *testing.T) {
	var c SnappyCompressor
	// uvarint 0xf0000000 (about 3.75 GiB), then a literal
	if _, err := c.AppendDecompressedWithLength(nil, []byte{0x80, 0x80, 0x80, 0x80, 0x0f, 0x00, 'x'}); err == nil {
		t.Fatal("a block announcing 3840 MiB was accepted")
	}
}

// The Append methods append, as their names say.
func TestAppends(t *testing.T) {
	var c SnappyCompressor
	comp, err := c.AppendCompressedWithLength([]byte("head"), []byte("hello, hello"))
	if err != nil || string(comp[:4]) != "head" {
		t.Fatalf("compressed %q, %v: the prefix was overwritten", comp, err)
	}
	out, err := c.AppendDecompressedWithLength([]byte("head"), comp[4:])
	if err != nil || string(out) != "headhello, hello" {
		t.Fatalf("decompressed %q, %v", out, err)
	}
}
