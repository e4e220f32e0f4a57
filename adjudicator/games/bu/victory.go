package bu

// Side is one of the three sides of the game.
type Side string

// The sides.
const (
	Serb    Side = "Serb"
	Croat   Side = "Croat"
	Bosniak Side = "Bosniak"
)

// InitialFactor is the side's Initial Factor in the Victory Score (3.1.4).
func InitialFactor(s Side) int {
	switch s {
	case Croat:
		return 11
	case Bosniak:
		return 16
	}
	return 0
}

// VictoryCondition is the SW a side must reach, with all its Key Regions,
// to win at once (3.1.2).
func VictoryCondition(s Side) int {
	switch s {
	case Croat:
		return 60
	case Bosniak:
		return 55
	}
	return 71
}

// VictoryScore is IF + SW - the Region Points of the side's Key Regions it
// does not control - 5 x its Intervention Level (3.1.4).
func VictoryScore(s Side, sw, uncontrolledKeyRegionPoints, interventionLevel int) int {
	return InitialFactor(s) + sw - uncontrolledKeyRegionPoints - 5*interventionLevel
}
