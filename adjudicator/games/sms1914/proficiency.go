package sms1914

// PRDRM is the combat DRM on the white die: the highest defending unit's PR
// minus the highest attacking unit's PR; it may be negative (9.7).
func PRDRM(attackerPR, defenderPR int) int {
	return defenderPR - attackerPR
}
