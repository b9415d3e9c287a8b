package mbfly

import (
	"testing"

	"pgregory.net/rapid"
)

func TestMbflyRouteProperty(t *testing.T) {
	rapid.Check(t, MbflyRouteProperty)
}
