package props

// recordedTable holds the ledger verdict of every Table I/II claim, keyed by
// "1/A/n=…/d=…g", "2/mu/…", "2/sigma/…", "2/max/…". Cells not listed are
// recorded as consistent.
var recordedTable = map[string]Verdict{}

func recordedVerdict(key string) Verdict {
	if v, ok := recordedTable[key]; ok {
		return v
	}
	return Consistent
}
