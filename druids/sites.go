package druids

// This file is the catalogue of the 54 sites: two sides of each of the 27
// tiles. Names, energies, types, groups and action kinds are facts of the
// game; every effect is written here in the project's own words, as it
// plays in this engine. The eight sides whose printed text is not public
// (12A, 16A, 16B, 25B, 26A, 26B, 27A, 27B) are designs of our own, marked
// Original; they keep the patterns every known tile follows (a tile's
// energies by its number, its group numeral, the balance of types).

// Energy is one of the three energies a site is aligned with.
type Energy uint8

// The energies. Each threatens the next: Elemeen threatens Vowelon,
// Vowelon threatens Deonin, Deonin threatens Elemeen.
const (
	Elemeen Energy = iota
	Vowelon
	Deonin
	NumEnergies
)

var energyLetters = [NumEnergies]byte{'E', 'V', 'D'}

// EnergyNames are the energies' names for people.
var EnergyNames = [NumEnergies]string{"Elemeen", "Vowelon", "Deonin"}

// Threat returns the energy that threatens e: three of it unravel a site
// of energy e.
func (e Energy) Threat() Energy { return (e + 2) % 3 }

// SiteType is a site's type. Only havens matter to the rules of the base
// game.
type SiteType uint8

// The site types.
const (
	Haven SiteType = iota
	Trove
	Sanctum
	Shrine
	Ally
)

// SiteTypeNames are the types' names for people.
var SiteTypeNames = [...]string{"haven", "trove", "sanctum", "shrine", "ally"}

// ActionKind is how a site's action is used.
type ActionKind uint8

// The action kinds.
const (
	// KindInvoke: exhaust any of your refreshed druids on the board.
	KindInvoke ActionKind = iota
	// KindEldrid: exhaust your refreshed Eldrid.
	KindEldrid
	// KindTimely: a passive action used when its text says.
	KindTimely
	// KindExploration: a passive action right after exploring the site.
	KindExploration
)

// ActionKindNames are the kinds' names for people.
var ActionKindNames = [...]string{"invoke", "eldrid", "timely", "exploration"}

// Site is one side of a tile.
type Site struct {
	ID       string // "14A"
	Name     string
	Energy   Energy
	Type     SiteType
	Group    int // the tile's group numeral, 1 to 3
	Kind     ActionKind
	Once     bool // usable once per turn
	Original bool // a design of this project: the printed side is not public
	Effect   string
}

// NumTiles is the number of tiles; sites are numbered 2*tile+side, tiles
// from 0 (tile 1) to 26 (tile 27), side 0 for A and 1 for B.
const (
	NumTiles = 27
	NumSites = 2 * NumTiles
)

// Sites lists every site by number: 2*(tile-1)+side.
var Sites = [NumSites]Site{
	{"1A", "Gruu's Refuge", Elemeen, Haven, 1, KindInvoke, false, false,
		"Choose an exhausted druid of any circle, other than the invoking one, and refresh it."},
	{"1B", "Cloudtop Monastery", Vowelon, Haven, 1, KindInvoke, false, false,
		"The invoking druid travels 1, 2 or 3 hexes."},
	{"2A", "Solitude's Nest", Vowelon, Haven, 2, KindInvoke, false, false,
		"One of your druids, whichever you like, steps to a neighbouring site."},
	{"2B", "Floating Temple", Deonin, Haven, 2, KindInvoke, false, false,
		"The site under the invoking druid, if it is not locked, drifts to any space of the world, druids and all."},
	{"3A", "Roots of Creation", Deonin, Haven, 3, KindEldrid, true, false,
		"Explore: the new site may go into any space of the world, not only beside a druid. Once a turn."},
	{"3B", "Trine Labyrinth", Elemeen, Haven, 3, KindInvoke, true, false,
		"The invoking druid goes back to your supply; then refresh as many as 2 druids of any circles. Once a turn."},
	{"4A", "Hot Spring of the Phoenix", Elemeen, Haven, 1, KindTimely, false, false,
		"Whenever one of your druids unravels a site, instead of returning that druid to your supply you may set it exhausted on a haven of your choice."},
	{"4B", "Bleeding Kinoko", Vowelon, Trove, 1, KindExploration, false, false,
		"On exploring it you may send one of your druids back to your supply; if you do, one of your druids travels up to 3 hexes."},
	{"5A", "Overlook Free House", Vowelon, Haven, 2, KindInvoke, false, false,
		"The invoking druid jumps to any site where some druid stands."},
	{"5B", "Musing Kinoko", Deonin, Trove, 2, KindExploration, false, false,
		"On exploring it you may send one of your refreshed druids back to your supply; if you do, your player marker is refreshed."},
	{"6A", "Neilym's Hermitage", Deonin, Haven, 3, KindInvoke, false, false,
		"The invoking druid's site trades places with any other site where a druid stands."},
	{"6B", "Cosmic Kinoko", Elemeen, Trove, 3, KindExploration, false, false,
		"On exploring it you may send one of your refreshed druids back to your supply; if you do, refresh as many as 2 druids of any circles."},
	{"7A", "Ancient Elemeen", Elemeen, Sanctum, 1, KindTimely, true, false,
		"Once a turn, when your circle unravels a Vowelon site, this site may count as two Elemeen instead of one."},
	{"7B", "Vowelon Eidolon", Vowelon, Trove, 1, KindExploration, false, false,
		"On exploring it you may give up an Elemeen or a Deonin seed; if you do, one of your druids steps to a neighbouring site."},
	{"8A", "Ancient Vowelon", Vowelon, Sanctum, 2, KindTimely, true, false,
		"Once a turn, when your circle unravels a Deonin site, this site may count as two Vowelon instead of one."},
	{"8B", "Deonin Eidolon", Deonin, Trove, 2, KindExploration, false, false,
		"On exploring it you may give up a Vowelon or an Elemeen seed; if you do, an unlocked site your circle stands on drifts to any space."},
	{"9A", "Ancient Deonin", Deonin, Sanctum, 3, KindTimely, true, false,
		"Once a turn, when your circle unravels an Elemeen site, this site may count as two Deonin instead of one."},
	{"9B", "Elemeen Eidolon", Elemeen, Trove, 3, KindExploration, false, false,
		"On exploring it you may give up a Deonin or a Vowelon seed; if you do, refresh one exhausted druid of any circle."},
	{"10A", "Sylphina", Elemeen, Ally, 1, KindEldrid, true, false,
		"Bring a druid from your supply onto any site of the world; it arrives exhausted. Once a turn."},
	{"10B", "Drakinymph", Vowelon, Trove, 1, KindExploration, false, false,
		"On exploring it you may exhaust one of your druids; if you do, one of your exhausted druids jumps to any site where some druid stands."},
	{"11A", "Emilaphae", Vowelon, Ally, 2, KindEldrid, true, false,
		"Give up a seed, then pick a druid of any circle on a site of that seed's energy: it travels up to 3 hexes. Once a turn."},
	{"11B", "Lightning Scarab", Deonin, Trove, 2, KindExploration, false, false,
		"On exploring it you may exhaust one of your druids standing on an unlocked site; if you do, that site drifts to any space."},
	{"12A", "Fork of Destiny", Deonin, Sanctum, 3, KindEldrid, true, true,
		"Draw two tiles instead of one, keep one of them to explore beside the Eldrid's site (either side up; you gain its seed) and put the other back in the bag. Not while the bag holds fewer than two tiles. Once a turn."},
	{"12B", "Tonic Leaf", Elemeen, Trove, 3, KindExploration, false, false,
		"On exploring it you may exhaust one of your druids; if you do, refresh one exhausted druid of any circle."},
	{"13A", "Moon Gate", Elemeen, Sanctum, 1, KindTimely, false, false,
		"At the start of your turn (Begin), if your Eldrid is in your supply, you may set it refreshed on any haven."},
	{"13B", "Elkibou Herd", Vowelon, Trove, 1, KindExploration, false, false,
		"On exploring it you may exhaust one of your druids; if you do, one of your exhausted druids travels up to 2 hexes."},
	{"14A", "Eye of the Forest", Vowelon, Sanctum, 2, KindEldrid, false, false,
		"Your Eldrid, who invokes this, jumps to any site of the world."},
	{"14B", "Moon Garden", Deonin, Trove, 2, KindExploration, false, false,
		"On exploring it you may exhaust one of your druids; if you do, a site your circle stands on trades places with another site where some druid stands."},
	{"15A", "Gaea's Atlas", Deonin, Shrine, 3, KindEldrid, false, false,
		"Any unlocked site of the world drifts to any space."},
	{"15B", "Dawn Lotus", Elemeen, Trove, 3, KindExploration, false, false,
		"On exploring it you may exhaust your Eldrid to bring a druid from your supply onto any site, exhausted."},
	{"16A", "Lullaby Grove", Elemeen, Ally, 1, KindTimely, false, true,
		"At the end of your turn (End), if none of your druids on the board is refreshed, you may refresh one of them."},
	{"16B", "Windward Steps", Vowelon, Shrine, 1, KindInvoke, false, true,
		"Up to two of your druids, one after the other, each step to a neighbouring site."},
	{"17A", "Gossamer Pass", Vowelon, Sanctum, 2, KindTimely, false, false,
		"At the end of your turn (End), your Eldrid may go to any haven or to any site your circle stands on."},
	{"17B", "Saraina's Crucible", Deonin, Shrine, 2, KindInvoke, false, false,
		"The invoking druid goes back to your supply; then a site from your score area returns to the world beside the site that druid stood on. That is not exploring: no seed."},
	{"18A", "Destiny Helix", Deonin, Shrine, 3, KindEldrid, true, false,
		"Your Eldrid unravels the site it stands on without needing any energy; the unravel otherwise goes as always. Once a turn."},
	{"18B", "Songbird of Paradise", Elemeen, Ally, 3, KindTimely, false, false,
		"At the start of your turn (Begin), you may give up one or two seeds and refresh one druid of any circle for each."},
	{"19A", "Mani Temple", Elemeen, Shrine, 1, KindTimely, false, false,
		"In your Refresh step you may refresh four of your druids rather than three."},
	{"19B", "Elixona, Queen of Dreams", Vowelon, Ally, 1, KindInvoke, false, false,
		"One of your exhausted druids travels up to 2 hexes."},
	{"20A", "Neem's Mirror", Vowelon, Shrine, 2, KindInvoke, true, false,
		"Give up a seed, then two druids of any circles standing on sites of that seed's energy trade places. Once a turn."},
	{"20B", "Deonium Arch", Deonin, Sanctum, 2, KindInvoke, false, false,
		"The invoking druid's site trades places with a haven or with a site where no druid stands."},
	{"21A", "Terrapin Ancient", Deonin, Ally, 3, KindInvoke, false, false,
		"Give up a seed, then an unlocked site of that seed's energy drifts to any space."},
	{"21B", "Kindred Stone", Elemeen, Shrine, 3, KindInvoke, false, false,
		"Bring a druid from your supply onto a site your circle stands on; it arrives exhausted."},
	{"22A", "Ancestral Garden", Elemeen, Sanctum, 1, KindInvoke, false, false,
		"Give up a seed, then bring a druid from your supply onto a site of that seed's energy, exhausted."},
	{"22B", "Grizznant", Vowelon, Ally, 1, KindInvoke, false, false,
		"The invoking druid goes back to your supply; then one of your druids jumps to any site of the world."},
	{"23A", "Seedspark Heart", Vowelon, Shrine, 2, KindInvoke, false, false,
		"Give up a seed, then one of your druids jumps to a site of that seed's energy."},
	{"23B", "Jokulmas", Deonin, Ally, 2, KindInvoke, false, false,
		"Send one of your druids back to your supply; then any unlocked site drifts to any space."},
	{"24A", "Sylvant", Deonin, Ally, 3, KindInvoke, false, false,
		"Give up a seed, then two sites of the world trade places, druids and all."},
	{"24B", "Awakening Portal", Elemeen, Shrine, 3, KindTimely, false, false,
		"The first time in any turn that a site is unravelled, every circle standing here may refresh one of its druids, starting with the player on the active player's left."},
	{"25A", "Cirqus Laguun", Elemeen, Shrine, 1, KindTimely, false, false,
		"When your supply is empty you may still summon: lift one of your druids from the board and use it as the druid summoned."},
	{"25B", "Flaming Lotus", Vowelon, Sanctum, 1, KindTimely, true, true,
		"Once a turn, right after your circle unravels a site, one of your druids may travel up to 2 hexes."},
	{"26A", "Drifting Ferry", Vowelon, Sanctum, 2, KindTimely, false, true,
		"At the start of your turn (Begin), one of your druids may step to a neighbouring site."},
	{"26B", "Chaos Manifold", Deonin, Shrine, 2, KindEldrid, true, true,
		"Put an unlocked site where no druid stands back into the bag (never the only haven), then explore a new site beside your Eldrid's site. Once a turn."},
	{"27A", "Tidewright Loom", Deonin, Ally, 3, KindInvoke, true, true,
		"The invoking druid's site trades places with a neighbouring site. Once a turn."},
	{"27B", "Presence of Lagoon", Elemeen, Ally, 3, KindTimely, true, true,
		"Once a turn, when an action leaves none of your druids on the board refreshed, you may refresh one of them."},
}

// tileNumber returns the printed number of a tile index.
func tileNumber(t int) int { return t + 1 }

// siteOf returns the site number of tile t with side s.
func siteOf(t, s int) int { return 2*t + s }
