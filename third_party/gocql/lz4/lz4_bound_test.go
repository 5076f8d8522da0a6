package lz4

import "testing"

// A block announcing more than a frame can hold is refused before anything
// is allocated; one whose content is shorter than announced is an error.
func TestDecompressBounds(t *testing.T) {
	var c LZ4Compressor
	if _, err := c.AppendDecompressedWithLength(nil, []byte{0xf0, 0, 0, 0, 0x10, 'x'}); err == nil {
		t.Fatal("a block announcing 3840 MiB was accepted")
	}
	comp, err := c.AppendCompressedWithLength(nil, []byte("hello, hello, hello"))
	if err != nil {
		t.Fatal(err)
	}
	comp[3]++ // announce one byte more than the block holds
	if _, err := c.AppendDecompressedWithLength(nil, comp); err == nil {
		t.Fatal("a block shorter than announced was accepted")
	}
	comp[3]--
	out, err := c.AppendDecompressedWithLength(nil, comp)
	if err != nil || string(out) != "hello, hello, hello" {
		t.Fatalf("round trip: %q, %v", out, err)
	}
}
