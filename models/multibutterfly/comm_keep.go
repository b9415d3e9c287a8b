package multibutterfly

// StepCommKeep is StepComm under the literal reading of §4.1–4.2: a packet
// that reaches its destination node is not absorbed; it keeps occupying the
// node's one buffer (and is exchanged onward if a higher-priority packet
// arrives over an active line, as for any other packet). Delivered is left
// untouched (see DeliveredKeep). It returns StepComm's errors and does not
// modify s.
func StepCommKeep(s CommState, exchanges []int32) (CommState, error) {
	n := s.Clone()
	if err := exchange(n.Buf, s.Buf, s.Net.Edges, exchanges); err != nil {
		return CommState{}, err
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
