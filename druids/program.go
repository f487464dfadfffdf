package druids

import "strconv"

// Every action, basic or of a site, and every triggered effect is a
// program: a list of steps (ops) resolved one after the other, each asking
// the deciding seat for one choice at a time or running by itself. A step
// that has nothing it could act on is passed over: an action does what it
// can. A program runs in a frame on the state's stack, so that an effect
// may call another (exploring calls the explored site's exploration
// action; an unravel calls the triggers of Awakening Portal).

// An opCode names what a step does. Each op's parts in the engine (what
// it runs by itself, the choices it offers, how it plays one) are
// together in the file of its kind, op*.go.
type opCode uint8

const (
	oInvoke     opCode = iota // choose the invoking druid and exhaust it
	oMarkerOff                // exhaust the player marker
	oMarkerOn                 // refresh the player marker
	oMay                      // yes or no; no ends the program
	oExhaust                  // exhaust one of your refreshed druids
	oExile                    // return a druid to its supply
	oDiscard                  // give up a seed
	oRefresh                  // refresh exhausted druids
	oMoveDruid                // move a druid
	oMoveSite                 // move a site to any space
	oSwap                     // two sites trade places
	oSwapDruids               // two druids on sites of the seed's energy trade places
	oSummon                   // a druid from the supply, or moved from the board, onto a site
	oExplore                  // draw a tile and place it
	oMoveIn                   // may move the invoking druid onto the explored site
	oExplAction               // the explored site's exploration action
	oUnravel                  // unravel the invoker's site
	oReturn                   // a site of your score area back beside the invoker's site
	oFork                     // draw two tiles and keep one
	oChaos                    // an empty unlocked site back to the bag
	oSongSeeds                // give up one or two seeds
	oMoonGate                 // your Eldrid from the supply onto a haven, refreshed
	oLost                     // a circle with no druid on the board sets one on a haven
	numOps
)

var opNames = [numOps]string{"invoke", "markerOff", "markerOn", "may", "exhaust", "exile", "discard", "refresh",
	"moveDruid", "moveSite", "swap", "swapDruids", "summon", "explore", "moveIn", "explAction", "unravel",
	"returnSite", "fork", "chaos", "songSeeds", "moonGate", "lost"}

// String names the op as the function that builds it.
func (c opCode) String() string {
	if c < numOps {
		return opNames[c]
	}
	return "op" + strconv.Itoa(int(c))
}

// An op is a step of a program: what it does and up to two arguments.
// It is kept compact (the engine reads a step at every decision) and
// built only by the functions below, one an op, whose arguments have
// types of their own: an argument of one op given to another does not
// compile. Each op reads its arguments back with the method of the
// argument's type name.
type op struct {
	code opCode
	a, b uint8
}

// An invokerFilter is what the invoking druid's site must allow.
type invokerFilter uint8

const (
	invokeAny      invokerFilter = iota
	invokeHasAdj                 // a neighbouring site
	invokeHasSpace               // an empty neighbouring space
	invokeUnlocked               // the site is unlocked
	invokeUnravel                // the site may be unravelled and the circle has the energy
	invokeHelix                  // the site may be unravelled
	numInvokerFilters
)

// An exhaustFilter is which druid a step may exhaust.
type exhaustFilter uint8

const (
	exhaustAny        exhaustFilter = iota
	exhaustEldrid                   // the Eldrid
	exhaustOnUnlocked               // a druid on an unlocked site
)

// An exileWho is whom a step returns to the supply.
type exileWho uint8

const (
	exileInvoker      exileWho = iota // the invoking druid, with no choice
	exileOwn                          // one of your druids
	exileOwnRefreshed                 // one of your refreshed druids
)

// A seedMask is the energies of which a step may give up a seed.
type seedMask uint8

const (
	maskE   seedMask = 1 << Elemeen
	maskV   seedMask = 1 << Vowelon
	maskD   seedMask = 1 << Deonin
	maskAll          = maskE | maskV | maskD
)

// refreshFlags qualify a refresh.
type refreshFlags uint8

const (
	refreshUpTo refreshFlags = 1 << iota // may refresh fewer
	refreshOwn                           // only your own druids
)

// A moveWho is which druid a step moves...
type moveWho uint8

const (
	moverInvoker      moveWho = iota // the invoking druid
	moverOwn                         // one of yours
	moverOwnExhausted                // one of your exhausted druids
	moverAnyOnSeed                   // any on a site of the seed's energy
	moverOwnEldrid                   // your Eldrid
	moverChosen                      // the druid the program chose before
)

// ...and a moveWhere where it may go.
type moveWhere uint8

const (
	toAdjacent   moveWhere = iota // a neighbouring site
	toUpTo2                       // up to two steps
	toUpTo3                       // up to three steps
	toOccupied                    // a site with a druid on it
	toAnySite                     // any site
	toHavenOrOwn                  // a haven or a site of yours
	toSeedSite                    // a site of the seed's energy
)

// A movedSite is which site a step moves to another space.
type movedSite uint8

const (
	movedInvokerSite  movedSite = iota // the invoking druid's site
	movedAnyUnlocked                   // any unlocked site
	movedOwnUnlocked                   // an unlocked site of yours
	movedSeedUnlocked                  // an unlocked site of the seed's energy
	movedChosenSite                    // the site of the druid the program chose
)

// A swapFirst is the first site of a swap...
type swapFirst uint8

const (
	firstInvokerSite swapFirst = iota // the invoking druid's site
	firstOwn                          // a site of yours
	firstAny                          // any site
)

// ...and a swapSecond the site it trades places with.
type swapSecond uint8

const (
	secondOccupied     swapSecond = iota // a site with a druid on it
	secondHavenOrEmpty                   // a haven or a site with no druid
	secondAnyOther                       // any other site
	secondAdjacent                       // a neighbouring site
)

// A summonWhere is where a step may summon to.
type summonWhere uint8

const (
	summonHaven    summonWhere = iota // a haven
	summonAnySite                     // any site
	summonOwnSite                     // a site of yours
	summonSeedSite                    // a site of the seed's energy
)

// An exploreWhere is where an explored site goes.
type exploreWhere uint8

const (
	exploreAdjacent exploreWhere = iota // beside the invoking druid's site
	exploreAnySpace                     // any empty space
)

// The ops, each built by the function of its name.

func invoke(f invokerFilter) op            { return op{code: oInvoke, a: uint8(f)} }
func markerOff() op                        { return op{code: oMarkerOff} }
func markerOn() op                         { return op{code: oMarkerOn} }
func may() op                              { return op{code: oMay} }
func exhaust(f exhaustFilter) op           { return op{code: oExhaust, a: uint8(f)} }
func exile(who exileWho) op                { return op{code: oExile, a: uint8(who)} }
func discard(m seedMask) op                { return op{code: oDiscard, a: uint8(m)} }
func moveDruid(w moveWho, to moveWhere) op { return op{code: oMoveDruid, a: uint8(w), b: uint8(to)} }
func moveSite(w movedSite) op              { return op{code: oMoveSite, a: uint8(w)} }
func swap(a swapFirst, b swapSecond) op    { return op{code: oSwap, a: uint8(a), b: uint8(b)} }
func swapDruids() op                       { return op{code: oSwapDruids} }
func summon(to summonWhere) op             { return op{code: oSummon, a: uint8(to)} }
func explore(to exploreWhere) op           { return op{code: oExplore, a: uint8(to)} }
func moveIn() op                           { return op{code: oMoveIn} }
func explAction() op                       { return op{code: oExplAction} }
func returnSite() op                       { return op{code: oReturn} }
func fork() op                             { return op{code: oFork} }
func chaos() op                            { return op{code: oChaos} }
func songSeeds() op                        { return op{code: oSongSeeds} }
func moonGate() op                         { return op{code: oMoonGate} }
func lost() op                             { return op{code: oLost} }

// refresh refreshes up to n druids; n 0 refreshes as many as the seeds the
// program gave up.
func refresh(n uint8, fl refreshFlags) op { return op{code: oRefresh, a: n, b: uint8(fl)} }

// unravel unravels the invoker's site; free needs no energy.
func unravel(free bool) op { return op{code: oUnravel, a: uint8(b2i(free))} }

func (o op) invokerFilter() invokerFilter { return invokerFilter(o.a) }
func (o op) exhaustFilter() exhaustFilter { return exhaustFilter(o.a) }
func (o op) exileWho() exileWho           { return exileWho(o.a) }
func (o op) seedMask() seedMask           { return seedMask(o.a) }
func (o op) refreshCount() int8           { return int8(o.a) }
func (o op) refreshFlags() refreshFlags   { return refreshFlags(o.b) }
func (o op) moveWho() moveWho             { return moveWho(o.a) }
func (o op) moveWhere() moveWhere         { return moveWhere(o.b) }
func (o op) movedSite() movedSite         { return movedSite(o.a) }
func (o op) swapFirst() swapFirst         { return swapFirst(o.a) }
func (o op) swapSecond() swapSecond       { return swapSecond(o.b) }
func (o op) summonWhere() summonWhere     { return summonWhere(o.a) }
func (o op) exploreWhere() exploreWhere   { return exploreWhere(o.a) }
func (o op) unravelFree() bool            { return o.a != 0 }

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

// programs holds each program's steps; a site without a program (the
// passive ones, handled where they act) has none.
var programs [numProgs][]op

var basicPrograms = map[int][]op{
	progMove:    {invoke(invokeHasAdj), moveDruid(moverInvoker, toAdjacent)},
	progSummon:  {invoke(invokeAny), summon(summonHaven)},
	progExplore: {invoke(invokeHasSpace), markerOff(), explore(exploreAdjacent), moveIn(), explAction()},
	progUnravel: {invoke(invokeUnravel), unravel(false)},

	progPortal:   {refresh(1, refreshUpTo|refreshOwn)},
	progLotus:    {may(), moveDruid(moverOwn, toUpTo2)},
	progPresence: {refresh(1, refreshUpTo|refreshOwn)},
	progLost:     {lost()},
}

// sitePrograms are the sites' own programs by identifier.
var sitePrograms = map[string][]op{
	"1A":  {invoke(invokeAny), refresh(1, 0)},
	"1B":  {invoke(invokeHasAdj), moveDruid(moverInvoker, toUpTo3)},
	"2A":  {invoke(invokeAny), moveDruid(moverOwn, toAdjacent)},
	"2B":  {invoke(invokeUnlocked), moveSite(movedInvokerSite)},
	"3A":  {invoke(invokeAny), explore(exploreAnySpace), explAction()},
	"3B":  {invoke(invokeAny), exile(exileInvoker), refresh(2, refreshUpTo)},
	"4B":  {may(), exile(exileOwn), moveDruid(moverOwn, toUpTo3)},
	"5A":  {invoke(invokeAny), moveDruid(moverInvoker, toOccupied)},
	"5B":  {may(), exile(exileOwnRefreshed), markerOn()},
	"6A":  {invoke(invokeAny), swap(firstInvokerSite, secondOccupied)},
	"6B":  {may(), exile(exileOwnRefreshed), refresh(2, refreshUpTo)},
	"7B":  {may(), discard(maskE | maskD), moveDruid(moverOwn, toAdjacent)},
	"8B":  {may(), discard(maskV | maskE), moveSite(movedOwnUnlocked)},
	"9B":  {may(), discard(maskD | maskV), refresh(1, 0)},
	"10A": {invoke(invokeAny), summon(summonAnySite)},
	"10B": {may(), exhaust(exhaustAny), moveDruid(moverOwnExhausted, toOccupied)},
	"11A": {invoke(invokeAny), discard(maskAll), moveDruid(moverAnyOnSeed, toUpTo3)},
	"11B": {may(), exhaust(exhaustOnUnlocked), moveSite(movedChosenSite)},
	"12A": {invoke(invokeHasSpace), fork(), explore(exploreAdjacent), explAction()},
	"12B": {may(), exhaust(exhaustAny), refresh(1, 0)},
	"13A": {moonGate()},
	"13B": {may(), exhaust(exhaustAny), moveDruid(moverOwnExhausted, toUpTo2)},
	"14A": {invoke(invokeAny), moveDruid(moverInvoker, toAnySite)},
	"14B": {may(), exhaust(exhaustAny), swap(firstOwn, secondOccupied)},
	"15A": {invoke(invokeAny), moveSite(movedAnyUnlocked)},
	"15B": {may(), exhaust(exhaustEldrid), summon(summonAnySite)},
	"16A": {refresh(1, refreshOwn)},
	"16B": {invoke(invokeAny), moveDruid(moverOwn, toAdjacent), may(), moveDruid(moverOwn, toAdjacent)},
	"17A": {moveDruid(moverOwnEldrid, toHavenOrOwn)},
	"17B": {invoke(invokeHasSpace), exile(exileInvoker), returnSite()},
	"18A": {invoke(invokeHelix), unravel(true)},
	"18B": {songSeeds(), refresh(0, 0)},
	"19B": {invoke(invokeAny), moveDruid(moverOwnExhausted, toUpTo2)},
	"20A": {invoke(invokeAny), discard(maskAll), swapDruids()},
	"20B": {invoke(invokeAny), swap(firstInvokerSite, secondHavenOrEmpty)},
	"21A": {invoke(invokeAny), discard(maskAll), moveSite(movedSeedUnlocked)},
	"21B": {invoke(invokeAny), summon(summonOwnSite)},
	"22A": {invoke(invokeAny), discard(maskAll), summon(summonSeedSite)},
	"22B": {invoke(invokeAny), exile(exileInvoker), moveDruid(moverOwn, toAnySite)},
	"23A": {invoke(invokeAny), discard(maskAll), moveDruid(moverOwn, toSeedSite)},
	"23B": {invoke(invokeAny), exile(exileOwn), moveSite(movedAnyUnlocked)},
	"24A": {invoke(invokeAny), discard(maskAll), swap(firstAny, secondAnyOther)},
	"26A": {moveDruid(moverOwn, toAdjacent)},
	"26B": {invoke(invokeHasSpace), chaos(), explore(exploreAdjacent), explAction()},
	"27A": {invoke(invokeAny), swap(firstInvokerSite, secondAdjacent)},
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
