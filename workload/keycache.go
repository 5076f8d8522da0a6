package workload

// keyCache remembers the names of recently used keys: skewed request
// distributions ask for the same hot keys again and again, and hashing and
// formatting a key is a good part of a transaction's client cost.
//
// Direct-mapped, per worker, and sized by need: it starts with
// keyCacheMinSlots and doubles each time it has missed as many keys as it
// has slots, up to keyCacheMaxSlots (160 KiB) and to twice the keys that
// exist. A worker of a thousand-thread run that does a hundred operations
// keeps a few KiB, not the full size.
type keyCache struct {
	// slots is noSlots until the first run-phase key: one empty slot that
	// every key number maps to and none matches, so that a lookup needs no
	// check for a cache not yet made.
	slots []keySlot
	// budget is the misses left before the cache considers growing.
	budget int
}

// keySlot is one cached key. tag is keynum+1 in its low bits (0 is an empty
// slot) and the key's length in its top byte, so that a hit is one load and
// compare before the key is used.
type keySlot struct {
	tag uint64
	key [keyCacheWidth]byte
}

const (
	keyCacheMinSlots = 64
	keyCacheMaxSlots = 4096
	keyCacheBits     = 12 // log2(keyCacheMaxSlots)
	keyCacheWidth    = 32
	// maxCachedPadding is the largest zeropadding whose keys ("user", at
	// most 20 characters of number) fit a slot with AppendKey's 8 bytes of
	// store slack.
	maxCachedPadding = keyCacheWidth - 8 - 4

	keyTagLenShift = 56
	keyTagNum      = 1<<keyTagLenShift - 1 // key numbers at or past it are not cached (MaxCount is far below)
)

// noSlots is every keyCache's until its first miss; it is never written.
var noSlots [1]keySlot

func newKeyCache() keyCache { return keyCache{slots: noSlots[:]} }

// lookup returns keynum's slot, whichever key it holds. The slot is the
// low bits of the hash's top keyCacheBits: doubling the cache moves a key
// from slot i to i or i+len(slots), never onto another moved key.
func (c *keyCache) lookup(keynum int64) *keySlot {
	s := c.slots
	return &s[uint64(keynum)*0x9e3779b97f4a7c15>>(64-keyCacheBits)&uint64(len(s)-1)]
}

// missed is called on each miss before the key is stored; it makes the
// cache on the first one and grows it once the misses have used up the
// budget, unless it is full size or already has twice the keys that exist
// (keys: how many key numbers the workload can ask for now). It reports
// whether the slots moved. A refusal is reconsidered only after as many
// misses again.
//
//go:noinline
func (c *keyCache) missed(keys int64) bool {
	switch {
	case len(c.slots) == len(noSlots):
		c.resize(keyCacheMinSlots)
		return true
	case len(c.slots) >= keyCacheMaxSlots || int64(len(c.slots)) >= 2*keys:
		c.budget = len(c.slots)
		return false
	}
	c.resize(2 * len(c.slots))
	return true
}

// resize moves the cached keys into n slots (a power of two).
func (c *keyCache) resize(n int) {
	old := c.slots
	c.slots = make([]keySlot, n)
	c.budget = n
	for i := range old {
		if t := old[i].tag; t != 0 {
			*c.lookup(int64(t&keyTagNum) - 1) = old[i]
		}
	}
}
