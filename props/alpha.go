package props

// Alpha is the false-alarm probability of every statistical claim: with
// fixed seeds the verdicts are deterministic, and a claim that is true is
// reported inconsistent with probability at most Alpha over seeds.
const Alpha = 1e-9
