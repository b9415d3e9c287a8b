//go:build linux && (amd64 || arm64)

package sot

import (
	"math"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"routecheck/models/perm"
)

// NewState's packet limit is exactly MaxInt32 − 3 (ids and Inject slots stay
// in int32). A relation of that length cannot be allocated in a test, so it
// is an address-space reservation (PROT_NONE, no backing memory) of which
// only the first page is made writable; packet 0 goes from processor −1, so
// NewState fails fast either way and only reads Rel[0]: at the limit with
// the packet's error, one over it with the count's error before reading
// anything.
func TestNewStatePacketLimit(t *testing.T) {
	const limit = math.MaxInt32 - 3
	size := (limit + 1) * int(unsafe.Sizeof(perm.Pair{}))
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot reserve %d bytes of address space: %v", size, err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[:syscall.Getpagesize()], syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
		t.Fatal(err)
	}
	all := unsafe.Slice((*perm.Pair)(unsafe.Pointer(&mem[0])), limit+1)
	all[0] = perm.Pair{Src: -1, Dst: 0}
	for _, c := range []struct {
		k   int
		msg string
	}{
		{limit, "packet 0 goes -1 → 0"},
		{limit + 1, "2147483645 packets, at most 2147483644 allowed"},
	} {
		_, err := NewState(2, all[:c.k])
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%d packets: error %v, want one mentioning %q", c.k, err, c.msg)
		}
	}
}
