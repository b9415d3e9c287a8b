package props

// Exported for the ledger tests in package props_test.
var ValidClass = validClass
