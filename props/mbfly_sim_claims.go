package props

func registerMbflySim() {}
