package druids

// Every action, basic or of a site, and every triggered effect is a
// program: a list of steps (ops) resolved one after the other, each asking
// the deciding seat for one choice at a time or running by itself. A step
// that has nothing it could act on is passed over: an action does what it
// can. A program runs in a frame on the state's stack, so that an effect
// may call another (exploring calls the explored site's exploration
// action; an unravel calls the triggers of Awakening Portal).

type opCode uint8

const (
	oInvoke     opCode = iota // a: invokerFilter; choose the invoking druid and exhaust it
	oMarkerOff                // exhaust the player marker
	oMarkerOn                 // refresh the player marker
	oMay                      // yes or no; no ends the program
	oExhaust                  // a: exhaustFilter; exhaust one of your refreshed druids
	oExile                    // a: exileWho; return a druid to its supply
	oDiscard                  // a: mask of energies; give up a seed
	oRefresh                  // a: how many (0: the frame's count), b: refresh flags
	oMoveDruid                // a: moveWho, b: moveWhere
	oMoveSite                 // a: siteWhich; to any space
	oSwap                     // a: swapFirst, b: swapSecond
	oSwapDruids               // two druids on sites of the seed's energy trade places
	oSummon                   // a: summonWhere
	oExplore                  // a: exploreWhere
	oMoveIn                   // may move the invoking druid onto the explored site
	oExplAction               // the explored site's exploration action
	oUnravel                  // a: 1 to need no energy
	oReturn                   // a site of your score area back beside the invoker's site
	oFork                     // draw two tiles and keep one
	oChaos                    // an empty unlocked site back to the bag
	oSongSeeds                // give up one or two seeds
	oMoonGate                 // your Eldrid from the supply onto a haven, refreshed
	oLost                     // a circle with no druid on the board sets one on a haven
)

// Invoker filters: what the invoking druid's site must allow.
const (
	fAny      = iota
	fHasAdj   // a neighbouring site
	fHasSpace // an empty neighbouring space
	fUnlocked // the site is unlocked
	fUnravel  // the site may be unravelled and the circle has the energy
	fHelix    // the site may be unravelled
)

// Exhaust filters.
const (
	eAny = iota
	eEldrid
	eOnUnlocked
)

// Exile: whom.
const (
	xInvoker = iota
	xOwn
	xOwnRefreshed
)

// Refresh flags.
const (
	rUpTo = 1 << iota // may refresh fewer
	rOwn              // only your own druids
)

// Druid moves: who moves...
const (
	wInvoker = iota
	wOwn
	wOwnExhausted
	wAnyOnSeed
	wOwnEldrid
	wChosen
)

// ...and where to.
const (
	dAdj = iota + 1
	dUpTo2
	dUpTo3
	dOccupied
	dAnySite
	dHavenOrOwn
	dSeedSite
)

// Site moves: which site.
const (
	sInvSite = iota
	sAnyUnlocked
	sOwnUnlocked
	sSeedUnlocked
	sChosenSite
)

// Swaps: the first site...
const (
	aInvSite = iota
	aOwn
	aAny
)

// ...and the second.
const (
	bOccupied = iota
	bHavenOrEmpty
	bAnyOther
	bAdjacent
)

// Summons: where to.
const (
	uHaven = iota
	uAnySite
	uOwnSite
	uSeedSite
)

// Explores: where the new site goes.
const (
	xAdjacent = iota
	xAnySpace
)

type op struct {
	code opCode
	a, b int8
}

// The programs that are not a site's own.
const (
	progMove = NumSites + iota
	progSummon
	progExplore
	progUnravel
	progPortal   // Awakening Portal's trigger
	progLotus    // Flaming Lotus's trigger
	progPresence // Presence of Lagoon's trigger
	progLost     // a circle with no druid on the board
	numProgs
)

// Energy masks for seeds given up.
const (
	maskE   = 1 << Elemeen
	maskV   = 1 << Vowelon
	maskD   = 1 << Deonin
	maskAll = maskE | maskV | maskD
)

// programs holds each program's steps; a site without a program (the
// passive ones, handled where they act) has none.
var programs [numProgs][]op

var basicPrograms = map[int][]op{
	progMove:    {{oInvoke, fHasAdj, 0}, {oMoveDruid, wInvoker, dAdj}},
	progSummon:  {{oInvoke, fAny, 0}, {oSummon, uHaven, 0}},
	progExplore: {{oInvoke, fHasSpace, 0}, {oMarkerOff, 0, 0}, {oExplore, xAdjacent, 0}, {oMoveIn, 0, 0}, {oExplAction, 0, 0}},
	progUnravel: {{oInvoke, fUnravel, 0}, {oUnravel, 0, 0}},

	progPortal:   {{oRefresh, 1, rUpTo | rOwn}},
	progLotus:    {{oMay, 0, 0}, {oMoveDruid, wOwn, dUpTo2}},
	progPresence: {{oRefresh, 1, rUpTo | rOwn}},
	progLost:     {{oLost, 0, 0}},
}

// sitePrograms are the sites' own programs by identifier.
var sitePrograms = map[string][]op{
	"1A":  {{oInvoke, fAny, 0}, {oRefresh, 1, 0}},
	"1B":  {{oInvoke, fHasAdj, 0}, {oMoveDruid, wInvoker, dUpTo3}},
	"2A":  {{oInvoke, fAny, 0}, {oMoveDruid, wOwn, dAdj}},
	"2B":  {{oInvoke, fUnlocked, 0}, {oMoveSite, sInvSite, 0}},
	"3A":  {{oInvoke, fAny, 0}, {oExplore, xAnySpace, 0}, {oExplAction, 0, 0}},
	"3B":  {{oInvoke, fAny, 0}, {oExile, xInvoker, 0}, {oRefresh, 2, rUpTo}},
	"4B":  {{oMay, 0, 0}, {oExile, xOwn, 0}, {oMoveDruid, wOwn, dUpTo3}},
	"5A":  {{oInvoke, fAny, 0}, {oMoveDruid, wInvoker, dOccupied}},
	"5B":  {{oMay, 0, 0}, {oExile, xOwnRefreshed, 0}, {oMarkerOn, 0, 0}},
	"6A":  {{oInvoke, fAny, 0}, {oSwap, aInvSite, bOccupied}},
	"6B":  {{oMay, 0, 0}, {oExile, xOwnRefreshed, 0}, {oRefresh, 2, rUpTo}},
	"7B":  {{oMay, 0, 0}, {oDiscard, maskE | maskD, 0}, {oMoveDruid, wOwn, dAdj}},
	"8B":  {{oMay, 0, 0}, {oDiscard, maskV | maskE, 0}, {oMoveSite, sOwnUnlocked, 0}},
	"9B":  {{oMay, 0, 0}, {oDiscard, maskD | maskV, 0}, {oRefresh, 1, 0}},
	"10A": {{oInvoke, fAny, 0}, {oSummon, uAnySite, 0}},
	"10B": {{oMay, 0, 0}, {oExhaust, eAny, 0}, {oMoveDruid, wOwnExhausted, dOccupied}},
	"11A": {{oInvoke, fAny, 0}, {oDiscard, maskAll, 0}, {oMoveDruid, wAnyOnSeed, dUpTo3}},
	"11B": {{oMay, 0, 0}, {oExhaust, eOnUnlocked, 0}, {oMoveSite, sChosenSite, 0}},
	"12A": {{oInvoke, fHasSpace, 0}, {oFork, 0, 0}, {oExplore, xAdjacent, 0}, {oExplAction, 0, 0}},
	"12B": {{oMay, 0, 0}, {oExhaust, eAny, 0}, {oRefresh, 1, 0}},
	"13A": {{oMoonGate, 0, 0}},
	"13B": {{oMay, 0, 0}, {oExhaust, eAny, 0}, {oMoveDruid, wOwnExhausted, dUpTo2}},
	"14A": {{oInvoke, fAny, 0}, {oMoveDruid, wInvoker, dAnySite}},
	"14B": {{oMay, 0, 0}, {oExhaust, eAny, 0}, {oSwap, aOwn, bOccupied}},
	"15A": {{oInvoke, fAny, 0}, {oMoveSite, sAnyUnlocked, 0}},
	"15B": {{oMay, 0, 0}, {oExhaust, eEldrid, 0}, {oSummon, uAnySite, 0}},
	"16A": {{oRefresh, 1, rOwn}},
	"16B": {{oInvoke, fAny, 0}, {oMoveDruid, wOwn, dAdj}, {oMay, 0, 0}, {oMoveDruid, wOwn, dAdj}},
	"17A": {{oMoveDruid, wOwnEldrid, dHavenOrOwn}},
	"17B": {{oInvoke, fHasSpace, 0}, {oExile, xInvoker, 0}, {oReturn, 0, 0}},
	"18A": {{oInvoke, fHelix, 0}, {oUnravel, 1, 0}},
	"18B": {{oSongSeeds, 0, 0}, {oRefresh, 0, 0}},
	"19B": {{oInvoke, fAny, 0}, {oMoveDruid, wOwnExhausted, dUpTo2}},
	"20A": {{oInvoke, fAny, 0}, {oDiscard, maskAll, 0}, {oSwapDruids, 0, 0}},
	"20B": {{oInvoke, fAny, 0}, {oSwap, aInvSite, bHavenOrEmpty}},
	"21A": {{oInvoke, fAny, 0}, {oDiscard, maskAll, 0}, {oMoveSite, sSeedUnlocked, 0}},
	"21B": {{oInvoke, fAny, 0}, {oSummon, uOwnSite, 0}},
	"22A": {{oInvoke, fAny, 0}, {oDiscard, maskAll, 0}, {oSummon, uSeedSite, 0}},
	"22B": {{oInvoke, fAny, 0}, {oExile, xInvoker, 0}, {oMoveDruid, wOwn, dAnySite}},
	"23A": {{oInvoke, fAny, 0}, {oDiscard, maskAll, 0}, {oMoveDruid, wOwn, dSeedSite}},
	"23B": {{oInvoke, fAny, 0}, {oExile, xOwn, 0}, {oMoveSite, sAnyUnlocked, 0}},
	"24A": {{oInvoke, fAny, 0}, {oDiscard, maskAll, 0}, {oSwap, aAny, bAnyOther}},
	"26A": {{oMoveDruid, wOwn, dAdj}},
	"26B": {{oInvoke, fHasSpace, 0}, {oChaos, 0, 0}, {oExplore, xAdjacent, 0}, {oExplAction, 0, 0}},
	"27A": {{oInvoke, fAny, 0}, {oSwap, aInvSite, bAdjacent}},
}

func init() {
	for p, ops := range basicPrograms {
		programs[p] = ops
	}
	for id, ops := range sitePrograms {
		programs[site(id)] = ops
	}
	buildSiteMenus()
}

// site returns the number of a site by its identifier; it panics on a bad
// one, for the tables above.
func site(id string) int {
	n, err := ParseSiteID(id)
	if err != nil {
		panic(err)
	}
	return n
}

// Sites whose passive actions the engine applies where they act, and
// others the engine names, by number: (tile number-1)*2, plus 1 for side B.
// Constants, so that a test of a site in a mask is one instruction.
const (
	siteHotSpring = (4-1)*2 + 0  // 4A
	siteMoonGate  = (13-1)*2 + 0 // 13A
	siteLullaby   = (16-1)*2 + 0 // 16A
	siteGossamer  = (17-1)*2 + 0 // 17A
	siteSongbird  = (18-1)*2 + 1 // 18B
	siteMani      = (19-1)*2 + 0 // 19A
	sitePortal    = (24-1)*2 + 1 // 24B
	siteCirqus    = (25-1)*2 + 0 // 25A
	siteLotus     = (25-1)*2 + 1 // 25B
	siteFerry     = (26-1)*2 + 0 // 26A
	sitePresence  = (27-1)*2 + 1 // 27B
	siteFork      = (12-1)*2 + 0 // 12A
	siteChaos     = (26-1)*2 + 1 // 26B
	siteCrucible  = (17-1)*2 + 1 // 17B
)

// ancientFor[e] is the Ancient site that adds an energy of its own to
// unravel a site of energy e.
var ancientFor = [NumEnergies]int{site("9A"), site("7A"), site("8A")}

// Implemented reports whether the engine plays the site's action. Every
// site is, the passive ones where they act.
func Implemented(siteNumber int) bool {
	switch siteNumber {
	case siteHotSpring, siteMani, sitePortal, siteCirqus, siteLotus, sitePresence,
		ancientFor[0], ancientFor[1], ancientFor[2]:
		return true
	}
	return len(programs[siteNumber]) > 0
}
