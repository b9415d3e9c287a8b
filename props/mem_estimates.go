package props

import (
	"fmt"
	"sort"
	"sync"
)

// The memory estimates of the claims that peak above DefaultMem at some
// budget. Claim.Mem, set at registration, takes precedence; a network
// package may instead declare estimates by ID (DeclareMem), next to what
// they are computed from, without touching the registration. An estimate is
// the claim's peak live heap (check and planted faults, run alone) with some
// room: the CLI sets the collector's memory limit to the budget, which
// keeps the garbage on top of the live heap within it.
var (
	memMu    sync.Mutex
	memTable = map[string]MemEstimate{}
)

// DeclareMem records the memory estimate of claim id (see MemFor). It
// panics when id already has one (a programmer error at init time).
func DeclareMem(id string, m MemEstimate) {
	memMu.Lock()
	defer memMu.Unlock()
	if _, dup := memTable[id]; dup {
		panic(fmt.Sprintf("props: memory estimate of %q declared twice", id))
	}
	memTable[id] = m
}

// DeclaredMem lists the IDs with a declared memory estimate, sorted (a test
// checks that each names a registered claim).
func DeclaredMem() []string {
	memMu.Lock()
	defer memMu.Unlock()
	ids := make([]string, 0, len(memTable))
	for id := range memTable {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func declaredMem(id string) MemEstimate {
	memMu.Lock()
	defer memMu.Unlock()
	return memTable[id]
}

// MiB is 2^20 bytes, for writing estimates.
const MiB int64 = 1 << 20
