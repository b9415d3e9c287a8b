package props

// Exported for the ledger tests in package props_test.
var (
	SlowInShort = slowInShort
	ValidClass  = validClass
)
