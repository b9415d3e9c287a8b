package bfly

import (
	"reflect"
	"testing"

	"routecheck/props"
)

// statMemoCase is one memoized claim: its check at the claim's factor, a
// way to drop its memo entry, and a way to corrupt the stored runs (the
// planted difference the comparison must see).
type statMemoCase struct {
	name    string
	check   func(props.Env) props.Outcome
	forget  func(statRunsKey)
	corrupt func(statRunsKey)
}

var statMemoCases = []statMemoCase{
	{"thm-1", bflyThm1Check(1), thm1Memo.forget, func(k statRunsKey) {
		v, _ := thm1Memo.get(k)
		cells := append([]thm1Cell(nil), v.cells...)
		c := &cells[0]
		c.runs = append([]thm1Run(nil), c.runs...)
		c.runs[0].steps += 1000 // over 3·C: a hit the fresh runs do not have
		thm1Memo.put(k, keptRuns[thm1Cell]{cells: cells})
	}},
	{"thm-2-time", bflyThm2TimeCheck(1), thm2TimeMemo.forget, func(k statRunsKey) {
		v, _ := thm2TimeMemo.get(k)
		steps := append([][]int(nil), v.cells...)
		steps[0] = append([]int(nil), steps[0]...)
		steps[0][0] += 1000
		thm2TimeMemo.put(k, keptRuns[[]int]{cells: steps})
	}},
	{"thm-8", bflyThm8Check(1), thm8Memo.forget, func(k statRunsKey) {
		v, _ := thm8Memo.get(k)
		runs := append([][]thm8Run(nil), v.cells...)
		runs[0] = append([]thm8Run(nil), runs[0]...)
		for i := range runs[0] {
			if !runs[0][i].excluded {
				runs[0][i].steps += 1000
				break
			}
		}
		thm8Memo.put(k, keptRuns[[]thm8Run]{cells: runs})
	}},
	{"thm-11", bflyThm11Check(1, nil), thm11Memo.forget, func(k statRunsKey) {
		v, _ := thm11Memo.get(k)
		cells := append([]thm11Cell(nil), v.cells...)
		c := &cells[0]
		c.last = append([][]int32(nil), c.last...)
		last := append([]int32(nil), c.last[0]...)
		for f := range last {
			last[f] += 1000
		}
		c.last[0] = last
		thm11Memo.put(k, keptRuns[thm11Cell]{cells: cells})
	}},
}

// The runs a claim recalls from its memo give the outcome (verdict,
// evidence, counterexample, slack) that freshly computed runs give, for the
// four claims whose planted fault shares the claim's runs; and the
// comparison sees a difference: with one run's routing time raised by
// 1000 steps in the memo the outcome differs from the fresh one.
func TestStatRunsMemoSame(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	k := statRunsKey{env.Seed, env.Budget}
	for _, c := range statMemoCases {
		t.Run(c.name, func(t *testing.T) {
			c.forget(k)
			fresh := c.check(env)
			recalled := c.check(env) // from the memo
			if !reflect.DeepEqual(fresh, recalled) {
				t.Fatalf("recalled outcome differs from the fresh one:\n%+v\n%+v", recalled, fresh)
			}
			c.corrupt(k)
			planted := c.check(env)
			c.forget(k)
			if reflect.DeepEqual(fresh, planted) {
				t.Fatalf("a corrupted memo entry gives the fresh outcome: the comparison cannot see a difference")
			}
			if again := c.check(env); !reflect.DeepEqual(fresh, again) {
				t.Fatalf("recomputed outcome differs from the first:\n%+v\n%+v", again, fresh)
			}
		})
	}
}
