package multibutterfly

import "fmt"

// StepCommKeep is StepComm under the literal reading of §4.1–4.2: a packet
// that reaches its destination node is not absorbed; it keeps occupying the
// node's one buffer (and is exchanged onward if a higher-priority packet
// arrives over an active line, as for any other packet). Delivered is left
// untouched (see DeliveredKeep). It returns StepComm's errors and does not
// modify s.
func StepCommKeep(s CommState, exchanges []int32) (CommState, error) {
	n := s.Clone()
	busy := make(map[int32]bool, 2*len(exchanges))
	for _, ei := range exchanges {
		if ei < 0 || int(ei) >= len(s.Net.Edges) {
			return CommState{}, fmt.Errorf("multibutterfly: edge %d out of range", ei)
		}
		e := s.Net.Edges[ei]
		if busy[e.From] || busy[e.To] {
			return CommState{}, fmt.Errorf("multibutterfly: edge %d: node with two active lines in one step", ei)
		}
		busy[e.From], busy[e.To] = true, true
		n.Buf[e.From], n.Buf[e.To] = s.Buf[e.To], s.Buf[e.From]
	}
	return n, nil
}

// DoneKeep reports, under the literal reading, whether every packet sits
// in its destination node's buffer.
func (s CommState) DoneKeep() bool {
	for v, p := range s.Buf {
		if p >= 0 && s.Dest[p] != int32(v) {
			return false
		}
	}
	return true
}
