package generator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// grayPMF is the exact rank distribution of YCSB's Zipfian algorithm
// (the reference's generator/ZipfianGenerator.java at 0.17.0; see
// docs/compatibility.md, "Generators"), derived from its steps rather than read from a generator:
// rank 0 has mass 1/zetan and rank 1 0.5^theta/zetan, exactly as in Zipf's
// law; ranks >= 2 come from floor(n*(eta*u-eta+1)^alpha), whose survival
// function is (1-(k/n)^(1-theta))/eta, capped at the mass left by step 3.
// That tail is Gray's approximation, not exact Zipf. items is the count eta
// was built with (the YCSB quirk keeps it when n grows).
func grayPMF(n, items int64, theta, zetan float64) []float64 {
	zeta2 := 1 + math.Pow(2, -theta)
	eta := (1 - math.Pow(2/float64(items), 1-theta)) / (1 - zeta2/zetan)
	u2 := (1 + math.Pow(0.5, theta)) / zetan
	surv := func(k int64) float64 {
		if k >= n {
			return 0
		}
		s := (1 - math.Pow(float64(k)/float64(n), 1-theta)) / eta
		return min(max(s, 0), 1-u2)
	}
	p := make([]float64, n)
	p[0] = 1 / zetan
	p[1] = u2 - p[0]
	for k := int64(2); k < n; k++ {
		p[k] = surv(k) - surv(k+1)
	}
	return p
}

func zipfLawP(n int64, theta float64) []float64 {
	p := make([]float64, n)
	z := Zeta(n, theta)
	for k := range p {
		p[k] = math.Pow(float64(k+1), -theta) / z
	}
	return p
}

func TestZipfianParams(t *testing.T) {
	theta := 0.99 // a variable, so 1-theta rounds as at run time
	z := NewZipfian(7, 106, theta)
	zetan := Zeta(100, theta)
	eta := (1 - math.Pow(2.0/100, 1-theta)) / (1 - 1.5034777750283594/zetan)
	if z.items != 100 || z.base != 7 || z.zetan != zetan {
		t.Errorf("items %d base %d zetan %v, want 100 7 %v", z.items, z.base, z.zetan, zetan)
	}
	if relErr(z.eta, eta) > 1e-15 || z.zeta2theta != 1.5034777750283594 || z.alpha != 1/(1-theta) {
		t.Errorf("eta %v zeta2 %v alpha %v", z.eta, z.zeta2theta, z.alpha)
	}
}

func TestZipfianDistribution(t *testing.T) {
	for _, c := range []struct {
		theta      float64
		wrongTheta float64
	}{{0.99, 0.94}, {0.5, 0.45}, {1.5, 1.45}} {
		r := newRand(10)
		const min, items, draws = 1000, 100, 1_000_000
		z := NewZipfian(min, min+items-1, c.theta)
		obs := make([]int64, items)
		for range draws {
			v := z.Next(r)
			if v < min || v >= min+items {
				t.Fatalf("theta %v: Next = %d, outside [%d, %d]", c.theta, v, min, min+items-1)
			}
			obs[v-min]++
		}
		zetan := Zeta(items, c.theta)
		if !binomialOK(t, "rank 0 vs 1/zetan", obs[0], draws, 1/zetan) {
			t.Errorf("theta %v: rank 0 frequency is not Zipf's", c.theta)
		}
		if !binomialOK(t, "rank 1 vs 0.5^theta/zetan", obs[1], draws, math.Pow(0.5, c.theta)/zetan) {
			t.Errorf("theta %v: rank 1 frequency is not Zipf's", c.theta)
		}
		if !chiSquareOK(t, "zipfian vs Gray pmf", obs, grayPMF(items, items, c.theta, zetan)) {
			t.Errorf("theta %v: draws do not fit the algorithm's distribution", c.theta)
		}
		if chiSquareOK(t, "zipfian vs Gray pmf, wrong theta", obs, grayPMF(items, items, c.wrongTheta, Zeta(items, c.wrongTheta))) {
			t.Errorf("theta %v: chi-square cannot tell theta %v", c.theta, c.wrongTheta)
		}
		if chiSquareOK(t, "zipfian vs uniform", obs, uniformP(items)) {
			t.Errorf("theta %v: chi-square cannot tell zipfian from uniform", c.theta)
		}
		// Gray's tail is close to Zipf's law but not equal; log how close.
		law := zipfLawP(items, c.theta)
		gray := grayPMF(items, items, c.theta, zetan)
		worst := 0.0
		for k := range law {
			worst = max(worst, math.Abs(gray[k]-law[k])/law[k])
		}
		t.Logf("theta %v: Gray vs Zipf's law, worst relative mass difference %.3f", c.theta, worst)
	}
}

func TestZipfianSmall(t *testing.T) {
	r := newRand(11)
	for _, c := range []struct{ min, max int64 }{{5, 5}, {5, 6}, {5, 7}, {5, 4}, {0, -1}} {
		z := NewZipfian(c.min, c.max, 0.99)
		hi := max(c.max, c.min) // an empty range returns min
		for range 10_000 {
			if v := z.Next(r); v < c.min || v > hi {
				t.Fatalf("NewZipfian(%d, %d).Next = %d", c.min, c.max, v)
			}
		}
	}
	for _, theta := range []float64{0, 1, -0.5, math.Inf(1), math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewZipfian with theta %v did not panic", theta)
				}
			}()
			NewZipfian(0, 10, theta)
		}()
	}
}

func TestZipfianGrowth(t *testing.T) {
	theta := 0.99
	z := NewZipfian(0, 99, theta)
	ref := z.Clone()
	r := newRand(12)
	z.NextN(r, 200)
	if z.countForZeta != 200 || relErr(z.zetan, Zeta(200, theta)) > 1e-15 {
		t.Fatalf("after NextN(200): count %d zetan %v, want 200 %v", z.countForZeta, z.zetan, Zeta(200, theta))
	}
	if ref.countForZeta != 100 || ref.zetan != Zeta(100, theta) {
		t.Fatal("Clone shares state with the original")
	}
	// The eta quirk: the (2/items) term keeps items = 100.
	quirk := (1 - math.Pow(2.0/100, 1-theta)) / (1 - z.zeta2theta/z.zetan)
	if z.eta != quirk {
		t.Errorf("eta after growth = %v, want YCSB's %v", z.eta, quirk)
	}
	// Its distribution follows the quirky eta: ranks 2 and 3 are unreachable.
	obs := make([]int64, 200)
	const draws = 400_000
	for range draws {
		obs[z.NextN(r, 200)]++
	}
	if obs[2] != 0 || obs[3] != 0 {
		t.Errorf("ranks 2, 3 drawn %d, %d times; YCSB's eta makes them unreachable", obs[2], obs[3])
	}
	if !chiSquareOK(t, "grown vs quirky Gray pmf", obs, grayPMF(200, 100, theta, z.zetan)) {
		t.Error("grown generator does not fit the quirky distribution")
	}
	if chiSquareOK(t, "grown vs fresh Gray pmf", obs, grayPMF(200, 200, theta, z.zetan)) {
		t.Error("chi-square cannot tell the eta quirk apart")
	}
	// A smaller count keeps zeta and stays inside the smaller range.
	for range 10_000 {
		if v := z.NextN(r, 50); v < 0 || v >= 50 {
			t.Fatalf("NextN(50) = %d", v)
		}
	}
	if z.countForZeta != 200 {
		t.Errorf("NextN(50) changed the zeta count to %d", z.countForZeta)
	}
	// A large jump uses the fast path and still matches zeta from scratch.
	z.NextN(r, 1_000_000_000)
	if relErr(z.zetan, Zeta(1_000_000_000, theta)) > 1e-13 {
		t.Errorf("zetan after jump to 1e9 = %v, want %v", z.zetan, Zeta(1_000_000_000, theta))
	}
}

func TestScrambledZipfian(t *testing.T) {
	// Expected bucket masses: the inner ranks' Gray masses summed by
	// fnvhash64(rank) % m, exactly for ranks below K; the remaining tail mass
	// is spread evenly, which hashing makes true to about 1e-3 relative per
	// bucket, well below the 1% sampling noise of these draws.
	const (
		min, m = 500, 100
		K      = 1_000_000
		draws  = 1_000_000
	)
	for _, theta := range []float64{0.99, 0.5} {
		s := NewScrambledZipfian(min, min+m-1, theta)
		zetan := s.z.zetan
		if theta == 0.99 && zetan != 26.46902820178302 {
			t.Errorf("theta 0.99 zetan = %v, want YCSB's ZETAN", zetan)
		}
		if theta != 0.99 && relErr(zetan, Zeta(scrambledItemCount+1, theta)) > 1e-15 {
			t.Errorf("theta %v zetan = %v, want zeta(10^10+1)", theta, zetan)
		}
		const n = scrambledItemCount + 1
		zeta2 := 1 + math.Pow(2, -theta)
		eta := (1 - math.Pow(2/float64(n), 1-theta)) / (1 - zeta2/zetan)
		u2 := (1 + math.Pow(0.5, theta)) / zetan
		surv := func(k int64) float64 { return (1 - math.Pow(float64(k)/n, 1-theta)) / eta }
		p := make([]float64, m)
		p[FNVHash64(0)%m] += 1 / zetan
		p[FNVHash64(1)%m] += u2 - 1/zetan
		for k := int64(2); k < K; k++ {
			p[FNVHash64(k)%m] += surv(k) - surv(k+1)
		}
		for i := range p {
			p[i] += surv(K) / m
		}

		r := newRand(14)
		obs := make([]int64, m)
		for range draws {
			v := s.Next(r)
			if v < min || v >= min+m {
				t.Fatalf("Next = %d, outside [%d, %d]", v, min, min+m-1)
			}
			obs[v-min]++
		}
		if !chiSquareOK(t, "scrambled vs hashed Gray masses", obs, p) {
			t.Errorf("theta %v: scrambled draws do not fit", theta)
		}
		if theta == 0.99 && chiSquareOK(t, "scrambled vs uniform", obs, uniformP(m)) {
			t.Error("chi-square cannot tell scrambled zipfian from uniform")
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("NewScrambledZipfian(1, 0) did not panic")
		}
	}()
	NewScrambledZipfian(1, 0, 0.99)
}

func TestSkewedLatest(t *testing.T) {
	const theta, draws = 0.99, 200_000
	basis := NewAcknowledgedCounter(1000)
	s := NewSkewedLatest(basis, theta)
	r := newRand(15)

	check := func(name string, max, items int64, zetan float64) []int64 {
		obs := make([]int64, max) // index = rank = max - value
		for range draws {
			v := s.Next(r)
			if v < 1 || v > max {
				t.Fatalf("%s: Next = %d, outside [1, %d]", name, v, max)
			}
			obs[max-v]++
		}
		if !binomialOK(t, name+": newest key", obs[0], draws, 1/zetan) {
			t.Errorf("%s: newest key frequency is not 1/zetan", name)
		}
		if !chiSquareOK(t, name, obs, grayPMF(max, items, theta, zetan)) {
			t.Errorf("%s: draws do not fit", name)
		}
		return obs
	}
	check("latest over 999", 999, 999, Zeta(999, theta))

	for range 1000 {
		if err := basis.Acknowledge(basis.Next()); err != nil {
			t.Fatal(err)
		}
	}
	if basis.Last() != 1999 {
		t.Fatalf("Last = %d, want 1999", basis.Last())
	}
	// Zeta grows with the acknowledged keys; eta keeps the first item count.
	obs := check("latest over 1999", 1999, 999, Zeta(1999, theta))
	if chiSquareOK(t, "latest over 1999 vs a fresh generator", obs, grayPMF(1999, 1999, theta, Zeta(1999, theta))) {
		t.Error("chi-square cannot tell a grown generator from a fresh one")
	}

	c := s.Clone()
	if c.z == s.z || c.basis != s.basis {
		t.Error("Clone must share the basis and own its Zipfian")
	}
}

// "latest" over an empty or one-row table: YCSB's eta quirk with 0 or 1
// initial items breaks the distribution once keys arrive; ours follows the
// current count.
func TestSkewedLatestFromEmpty(t *testing.T) {
	const theta, draws = 0.99, 200_000
	for _, start := range []int64{0, 1, 2, 3} {
		basis := NewAcknowledgedCounter(start)
		s := NewSkewedLatest(basis, theta)
		r := newRand(16)
		if v := s.Next(r); v != start-1 {
			t.Errorf("start %d: Next on an empty table = %d, want %d", start, v, start-1)
		}
		for basis.Last() < 999 {
			if err := basis.Acknowledge(basis.Next()); err != nil {
				t.Fatal(err)
			}
		}
		obs := make([]int64, 999)
		for range draws {
			v := s.Next(r)
			if v < 1 || v > 999 {
				t.Fatalf("start %d: Next = %d, outside [1, 999]", start, v)
			}
			obs[999-v]++
		}
		if !chiSquareOK(t, fmt.Sprintf("latest from %d items", start-1), obs, grayPMF(999, 999, theta, Zeta(999, theta))) {
			t.Errorf("start %d: draws do not fit", start)
		}
	}
}

func TestPowUintMatchesPow(t *testing.T) {
	if got := wholeExponent(1 / (1 - 0.99)); got != 100 {
		t.Fatalf("wholeExponent(theta 0.99) = %d, want 100", got)
	}
	if got := wholeExponent(1 / (1 - 0.9)); got != 10 {
		t.Fatalf("wholeExponent(theta 0.9) = %d, want 10", got)
	}
	if got := wholeExponent(1 / (1 - 0.95)); got != 20 {
		t.Fatalf("wholeExponent(theta 0.95) = %d, want 20", got)
	}
	if got := wholeExponent(1 / (1 - 0.7)); got != 0 {
		t.Fatalf("wholeExponent(theta 0.7) = %d, want 0 (alpha 3.33)", got)
	}
	for _, x := range []float64{0, 1e-5, 0.3, 0.5, 0.9, 0.999999, 1} {
		for _, n := range []uint{1, 2, 10, 100, 1024} {
			want := math.Pow(x, float64(n))
			got := powUint(x, n)
			if want == 0 && got == 0 {
				continue
			}
			if math.Abs(got-want)/want > 1e-13 {
				t.Errorf("powUint(%v, %d) = %v, want %v", x, n, got, want)
			}
		}
	}
}

func TestModMatchesDivision(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []uint64{1, 2, 3, 7, 1000, 100001, 1<<31 - 1, 1 << 32, 1e10 + 1, 1<<62 + 12345, 1<<63 - 1} {
		m := ^uint64(0) / n
		for i := 0; i < 20000; i++ {
			x := r.Uint64() >> 1
			if i < 4 {
				x = []uint64{0, n - 1, n, 1<<63 - 1}[i]
			}
			if got, want := mod(x, n, m), x%n; got != want {
				t.Fatalf("mod(%d, %d) = %d, want %d", x, n, got, want)
			}
		}
	}
}
