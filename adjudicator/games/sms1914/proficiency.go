package sms1914

// prdrm is the combat DRM on the white die: the highest defending unit's PR
// minus the highest attacking unit's PR; it may be negative (9.7).
func prdrm(attackerPR, defenderPR int) int {
	return defenderPR - attackerPR
}
