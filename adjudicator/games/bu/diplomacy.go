package bu

// diplomacyFA is the FA gained by a Diplomatic Action with a card of value
// cv (11.1.1): +1 for CV 2 or 3, +2 for CV 4.
func diplomacyFA(cv int) int {
	if cv >= 4 {
		return 2
	}
	return 1
}
