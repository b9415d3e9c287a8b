package props

// memTable holds the memory estimates of the claims that peak above
// DefaultMem at some budget (Claim.Mem, set at registration, overrides it).
// Each entry is the claim's peak Go heap (objects plus unused spans) when it
// runs alone, check and planted faults, rounded up with about 25% room.
var memTable = map[string]MemEstimate{}
