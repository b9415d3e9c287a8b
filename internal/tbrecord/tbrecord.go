// Package tbrecord is a testing.TB for tests of test helpers: it records
// Errorf and Fatalf instead of failing, so a test can assert that a helper
// reports a broken property (and how often) without failing itself.
package tbrecord

import (
	"fmt"
	"testing"
)

// Recorder wraps a testing.TB; its Errorf and Fatalf append the formatted
// message to Errs and Fatals and return (Fatalf does not stop the
// goroutine, so a helper that goes on after it is seen going on).
// Everything else is the wrapped TB's.
type Recorder struct {
	testing.TB
	Errs, Fatals []string
}

// New returns a Recorder around t.
func New(t testing.TB) *Recorder { return &Recorder{TB: t} }

// Helper does nothing (the recorded calls are not the test's failures).
func (r *Recorder) Helper() {}

// Errorf records the message.
func (r *Recorder) Errorf(format string, args ...any) {
	r.Errs = append(r.Errs, fmt.Sprintf(format, args...))
}

// Fatalf records the message and returns.
func (r *Recorder) Fatalf(format string, args ...any) {
	r.Fatals = append(r.Fatals, fmt.Sprintf(format, args...))
}
