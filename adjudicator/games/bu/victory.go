package bu

// Side is one of the three sides of the game.
type Side string

// The sides.
const (
	serb    Side = "Serb"
	croat   Side = "Croat"
	bosniak Side = "Bosniak"
)

// initialFactor is the side's Initial Factor in the Victory Score (3.1.4).
func initialFactor(s Side) int {
	switch s {
	case croat:
		return 11
	case bosniak:
		return 16
	}
	return 0
}

// victoryCondition is the SW a side must reach, with all its Key Regions,
// to win at once (3.1.2).
func victoryCondition(s Side) int {
	switch s {
	case croat:
		return 60
	case bosniak:
		return 55
	}
	return 71
}

// victoryScore is IF + SW - the Region Points of the side's Key Regions it
// does not control - 5 x its Intervention Level (3.1.4).
func victoryScore(s Side, sw, uncontrolledKeyRegionPoints, interventionLevel int) int {
	return initialFactor(s) + sw - uncontrolledKeyRegionPoints - 5*interventionLevel
}
