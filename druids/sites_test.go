package druids

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// A test for each site's action, in a position built for it. The world is
// mostly a row of sites, west to east from 10,16 (see line).

// exploreB explores with seat 1's druid on 1A at 10,16, draws the only
// tile in the bag, lays its B side at 9,16 and does not move in: what
// follows is the tile's exploration action.
func exploreB(t *testing.T, s *State, tile int) {
	t.Helper()
	onlyInBag(s, tile)
	play(t, s, "explore", "1E@1A", "side B", "9,16", "no")
}

// The sites the engine names by constant are the sites of the catalogue
// the constants' comments say.
func TestSiteConstants(t *testing.T) {
	for site, id := range map[int]string{
		siteHotSpring: "4A", siteMoonGate: "13A", siteLullaby: "16A", siteGossamer: "17A",
		siteSongbird: "18B", siteMani: "19A", sitePortal: "24B", siteCirqus: "25A",
		siteLotus: "25B", siteFerry: "26A", sitePresence: "27B", siteFork: "12A",
		siteChaos: "26B", siteCrucible: "17B",
	} {
		if Sites[site].ID != id {
			t.Errorf("site %d is %s, named as %s", site, Sites[site].ID, id)
		}
	}
}

func wantDruids(t *testing.T, s *State, p int, want string) {
	t.Helper()
	if got := druidsOf(s, p); got != want {
		t.Fatalf("seat %d druids %q, want %q", p+1, got, want)
	}
}

func wantSite(t *testing.T, s *State, q, r int, want string) {
	t.Helper()
	if got := siteAt(s, q, r); got != want {
		t.Fatalf("at %d,%d %q, want %q", q, r, got, want)
	}
}

func TestSiteGruusRefuge(t *testing.T) {
	s := pos(t, 2, line("1A 14A"))
	put(t, s, "1E@1A", "2a@14A", "1a@14A")
	play(t, s, "use 1A", "1E@1A")
	legalIs(t, s, "1a@14A", "2a@14A") // any circle, not the invoker
	play(t, s, "2a@14A")
	wantDruids(t, s, 1, "E@supply A@14A")
}

func TestSiteCloudtopMonastery(t *testing.T) {
	s := pos(t, 2, line("1B 14A 21A 2A 3A"))
	put(t, s, "1E@1B")
	play(t, s, "use 1B", "1E@1B")
	legalIs(t, s, "14A", "21A", "2A")
	play(t, s, "2A")
	wantDruids(t, s, 0, "e@2A")
}

func TestSiteSolitudesNest(t *testing.T) {
	s := pos(t, 2, line("2A 14A"))
	put(t, s, "1E@2A", "1a@14A")
	play(t, s, "use 2A", "1E@2A")
	legalIs(t, s, "1e@2A", "1a@14A")
	play(t, s, "1a@14A", "2A")
	wantDruids(t, s, 0, "e@2A a@2A")
}

func TestSiteFloatingTemple(t *testing.T) {
	s := pos(t, 2, line("1A 14A 2B"))
	put(t, s, "1E@2B", "1A@1A")
	play(t, s, "use 2B", "1E@2B", "10,17")
	wantSite(t, s, 10, 17, "2B")
	wantSite(t, s, 12, 16, "")
	wantDruids(t, s, 0, "e@2B A@1A")
	s = pos(t, 2, line("1A 2B 14A")) // locked: it may not move
	put(t, s, "1E@2B")
	refused(t, s, "use 2B")
}

func TestSiteRootsOfCreation(t *testing.T) {
	s := pos(t, 2, line("3A 14A 21A"))
	onlyInBag(s, 19)
	put(t, s, "1E@3A", "1A@3A")
	play(t, s, "use 3A")
	legalIs(t, s, "1E@3A") // an Eldrid's action
	play(t, s, "1E@3A", "side A", "13,16")
	wantSite(t, s, 13, 16, "19A")
	if s.seeds[0][Elemeen] != 1 {
		t.Fatalf("seeds %v", s.seeds[0])
	}
	refused(t, s, "use 3A")
}

func TestSiteTrineLabyrinth(t *testing.T) {
	s := pos(t, 2, line("3B 14A"))
	put(t, s, "1E@3B", "1a@14A", "2a@14A")
	play(t, s, "use 3B", "1E@3B")
	legalIs(t, s, "1a@14A", "2a@14A", "done")
	play(t, s, "1a@14A", "2a@14A")
	wantDruids(t, s, 0, "E@supply A@14A")
	wantDruids(t, s, 1, "E@supply A@14A")
}

func TestSiteBleedingKinoko(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	put(t, s, "1E@1A", "1A@21A")
	exploreB(t, s, 4)
	legalIs(t, s, "yes", "no")
	play(t, s, "yes")
	legalIs(t, s, "1e@1A", "1A@21A")
	play(t, s, "1A@21A", "1e@1A")
	legalIs(t, s, "4B", "14A", "21A")
	play(t, s, "21A")
	wantDruids(t, s, 0, "e@21A")
}

func TestSiteOverlookFreeHouse(t *testing.T) {
	s := pos(t, 2, line("5A 14A 21A 1A"))
	put(t, s, "1E@5A", "2a@1A")
	play(t, s, "use 5A", "1E@5A")
	legalIs(t, s, "1A")
	play(t, s, "1A")
	wantDruids(t, s, 0, "e@1A")
}

func TestSiteMusingKinoko(t *testing.T) {
	s := pos(t, 2, line("1A 14A"))
	put(t, s, "1E@1A", "1A@14A", "1A@14A")
	exploreB(t, s, 5)
	play(t, s, "yes")
	legalIs(t, s, "1A@14A")
	play(t, s, "1A@14A")
	if s.marker[0] {
		t.Fatal("the marker is still exhausted")
	}
	wantDruids(t, s, 0, "e@1A A@14A")
}

func TestSiteNeilymsHermitage(t *testing.T) {
	s := pos(t, 2, line("6A 14A 21A"))
	put(t, s, "1E@6A", "2a@21A")
	play(t, s, "use 6A", "1E@6A")
	legalIs(t, s, "21A")
	play(t, s, "21A")
	wantSite(t, s, 10, 16, "21A")
	wantSite(t, s, 12, 16, "6A")
	wantDruids(t, s, 0, "e@6A")
}

func TestSiteCosmicKinoko(t *testing.T) {
	s := pos(t, 2, line("1A 14A"))
	put(t, s, "1E@1A", "1A@14A", "2a@14A", "2a@14A")
	exploreB(t, s, 6)
	play(t, s, "yes", "1A@14A")
	legalIs(t, s, "1e@1A", "2a@14A", "done")
	play(t, s, "1e@1A", "2a@14A")
	wantDruids(t, s, 0, "E@1A")
	wantDruids(t, s, 1, "E@supply A@14A a@14A")
}

func TestSiteVowelonEidolon(t *testing.T) {
	s := pos(t, 2, line("1A 14A"))
	put(t, s, "1E@1A")
	s.seeds[0] = [3]uint8{0, 0, 1}
	exploreB(t, s, 7)
	play(t, s, "yes")
	legalIs(t, s, "seed D") // the Vowelon seed just gained does not pay
	play(t, s, "seed D", "1e@1A")
	legalIs(t, s, "7B", "14A")
	play(t, s, "7B")
	wantDruids(t, s, 0, "e@7B")
}

func TestSiteDeoninEidolon(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	put(t, s, "1E@1A", "1A@21A")
	s.seeds[0] = [3]uint8{1, 0, 0}
	exploreB(t, s, 8)
	play(t, s, "yes", "seed E")
	legalIs(t, s, "21A") // 1A is locked now
	play(t, s, "21A", "8,16")
	wantSite(t, s, 8, 16, "21A")
}

func TestSiteElemeenEidolon(t *testing.T) {
	s := pos(t, 2, line("1A 14A"))
	put(t, s, "1E@1A", "2a@14A")
	s.seeds[0] = [3]uint8{0, 0, 1}
	exploreB(t, s, 9)
	play(t, s, "yes", "seed D")
	legalIs(t, s, "1e@1A", "2a@14A")
	play(t, s, "2a@14A")
	wantDruids(t, s, 1, "E@supply A@14A")
}

func TestSiteSylphina(t *testing.T) {
	s := pos(t, 2, line("10A 14A 21A"))
	put(t, s, "1E@10A")
	play(t, s, "use 10A", "1E@10A")
	legalIs(t, s, "10A", "14A", "21A")
	play(t, s, "21A")
	wantDruids(t, s, 0, "e@10A a@21A")
	s = pos(t, 2, line("10A 14A 21A"))
	put(t, s, "1e@14A", "1A@10A")
	refused(t, s, "use 10A") // an acolyte may not invoke an Eldrid's action
}

func TestSiteDrakinymph(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	put(t, s, "1E@1A", "1A@14A", "2a@21A")
	exploreB(t, s, 10)
	play(t, s, "yes")
	legalIs(t, s, "1A@14A")
	play(t, s, "1A@14A")
	legalIs(t, s, "1e@1A", "1a@14A")
	play(t, s, "1e@1A")
	legalIs(t, s, "14A", "21A")
	play(t, s, "21A")
	wantDruids(t, s, 0, "e@21A a@14A")
}

func TestSiteEmilaphae(t *testing.T) {
	s := pos(t, 2, line("11A 14A 21A"))
	put(t, s, "1E@11A", "2a@21A")
	s.seeds[0] = [3]uint8{0, 0, 1}
	play(t, s, "use 11A", "1E@11A", "seed D")
	legalIs(t, s, "2a@21A")
	play(t, s, "2a@21A")
	legalIs(t, s, "11A", "14A")
	play(t, s, "11A")
	wantDruids(t, s, 1, "E@supply a@11A")
}

func TestSiteLightningScarab(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	put(t, s, "1E@1A", "1A@21A")
	exploreB(t, s, 11)
	play(t, s, "yes")
	legalIs(t, s, "1A@21A")
	play(t, s, "1A@21A", "8,16")
	wantSite(t, s, 8, 16, "21A")
}

func TestSiteForkOfDestiny(t *testing.T) {
	s := pos(t, 2, line("12A 14A 21A"))
	onlyInBag(s, 13, 19)
	put(t, s, "1E@12A")
	play(t, s, "use 12A", "1E@12A")
	legalIs(t, s, "tile 13", "tile 19")
	play(t, s, "tile 19", "side A")
	legalIs(t, s, "9,16", "10,15", "11,15", "9,17", "10,17")
	play(t, s, "9,16")
	wantSite(t, s, 9, 16, "19A")
	if s.bag != 1<<12 {
		t.Fatalf("bag %b", s.bag)
	}
	s = pos(t, 2, line("12A 14A 21A"))
	onlyInBag(s, 13)
	put(t, s, "1E@12A")
	refused(t, s, "use 12A")
}

func TestSiteTonicLeaf(t *testing.T) {
	s := pos(t, 2, line("1A 14A"))
	put(t, s, "1E@1A", "1A@14A", "2a@14A")
	exploreB(t, s, 12)
	play(t, s, "yes", "1A@14A")
	legalIs(t, s, "1e@1A", "1a@14A", "2a@14A")
	play(t, s, "2a@14A")
	wantDruids(t, s, 1, "E@supply A@14A")
}

func TestSiteMoonGate(t *testing.T) {
	s := pos(t, 2, line("13A 1A 2A"))
	put(t, s, "1A@13A")
	s.step = stepBegin
	s.advance()
	legalIs(t, s, "use 13A", "done")
	play(t, s, "use 13A")
	legalIs(t, s, "1A", "2A")
	play(t, s, "2A")
	wantDruids(t, s, 0, "E@2A A@13A")
	if s.step != stepAction {
		t.Fatalf("step %s", stepNames[s.step])
	}
}

func TestSiteElkibouHerd(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	put(t, s, "1E@1A", "1A@21A")
	exploreB(t, s, 13)
	play(t, s, "yes", "1A@21A")
	legalIs(t, s, "1e@1A", "1a@21A")
	play(t, s, "1e@1A")
	legalIs(t, s, "13B", "14A", "21A")
	play(t, s, "21A")
	wantDruids(t, s, 0, "e@21A a@21A")
}

func TestSiteEyeOfTheForest(t *testing.T) {
	s := pos(t, 2, line("14A 1A 21A 2A"))
	put(t, s, "1E@14A")
	play(t, s, "use 14A", "1E@14A")
	legalIs(t, s, "1A", "21A", "2A")
	play(t, s, "2A")
	wantDruids(t, s, 0, "e@2A")
}

func TestSiteMoonGarden(t *testing.T) {
	s := pos(t, 2, line("1A 21A 2A"))
	put(t, s, "1E@1A", "1A@2A", "2a@21A")
	exploreB(t, s, 14)
	play(t, s, "yes", "1A@2A")
	legalIs(t, s, "1A", "2A")
	play(t, s, "2A")
	legalIs(t, s, "1A", "21A")
	play(t, s, "21A")
	wantSite(t, s, 11, 16, "2A")
	wantSite(t, s, 12, 16, "21A")
}

func TestSiteGaeasAtlas(t *testing.T) {
	s := pos(t, 2, line("15A 14A 21A"))
	put(t, s, "1E@15A")
	play(t, s, "use 15A", "1E@15A")
	legalIs(t, s, "15A", "21A")
	play(t, s, "21A", "9,16")
	wantSite(t, s, 9, 16, "21A")
}

func TestSiteDawnLotus(t *testing.T) {
	s := pos(t, 2, line("1A 14A"))
	put(t, s, "1A@1A", "1E@14A")
	onlyInBag(s, 15)
	play(t, s, "explore", "1A@1A", "side B", "9,16", "no", "yes")
	legalIs(t, s, "1E@14A")
	play(t, s, "1E@14A")
	legalIs(t, s, "1A", "14A", "15B")
	play(t, s, "15B")
	wantDruids(t, s, 0, "e@14A a@1A a@15B")
}

func TestSiteLullabyGrove(t *testing.T) {
	s := pos(t, 2, line("16A 1A"))
	put(t, s, "1e@16A", "1a@1A", "2E@1A")
	s.advance() // no refreshed druid: the Action step ends
	legalIs(t, s, "use 16A", "done")
	play(t, s, "use 16A")
	legalIs(t, s, "1e@16A", "1a@1A")
	play(t, s, "1a@1A")
	if s.active != 1 {
		t.Fatal("the turn did not end")
	}
	wantDruids(t, s, 0, "e@16A A@1A")
}

func TestSiteWindwardSteps(t *testing.T) {
	s := pos(t, 2, line("16B 1A 14A"))
	put(t, s, "1E@16B", "1A@1A")
	play(t, s, "use 16B", "1E@16B", "1A@1A", "14A", "yes", "1e@16B", "1A")
	wantDruids(t, s, 0, "e@1A A@14A")
}

func TestSiteGossamerPass(t *testing.T) {
	s := pos(t, 2, line("17A 1A 14A 2A"))
	put(t, s, "1e@17A", "1a@14A", "2E@1A")
	s.advance()
	play(t, s, "use 17A")
	legalIs(t, s, "1A", "14A", "2A")
	play(t, s, "2A")
	wantDruids(t, s, 0, "e@2A a@14A")
}

func TestSiteSarainasCrucible(t *testing.T) {
	s := pos(t, 2, line("17B 1A 14A"))
	scoreSites(s, 0, "21A")
	put(t, s, "1E@17B", "1A@1A")
	play(t, s, "use 17B", "1E@17B")
	legalIs(t, s, "21A")
	play(t, s, "21A", "9,16")
	wantSite(t, s, 9, 16, "21A")
	wantDruids(t, s, 0, "E@supply A@1A")
	if s.scoreArea(0) != 0 || s.seeds[0] != [3]uint8{} {
		t.Fatalf("%s", s)
	}
}

func TestSiteSongbirdOfParadise(t *testing.T) {
	s := pos(t, 2, line("18B 1A"))
	put(t, s, "1a@18B", "2a@1A")
	s.seeds[0] = [3]uint8{1, 1, 0}
	s.step = stepBegin
	s.advance()
	play(t, s, "use 18B")
	legalIs(t, s, "seed E", "seed V")
	play(t, s, "seed E")
	legalIs(t, s, "seed V", "done")
	play(t, s, "done")
	legalIs(t, s, "1a@18B", "2a@1A")
	play(t, s, "2a@1A")
	wantDruids(t, s, 1, "E@supply A@1A")
	if s.seeds[0] != [3]uint8{0, 1, 0} {
		t.Fatalf("seeds %v", s.seeds[0])
	}
}

func TestSiteElixona(t *testing.T) {
	s := pos(t, 2, line("19B 1A 14A 21A"))
	put(t, s, "1E@19B", "1a@1A")
	play(t, s, "use 19B", "1E@19B")
	legalIs(t, s, "1a@1A") // not the invoking druid: the clarification "Which Druids"
	play(t, s, "1a@1A")
	legalIs(t, s, "19B", "14A", "21A")
	play(t, s, "21A")
	wantDruids(t, s, 0, "e@19B a@21A")
}

func TestSiteNeemsMirror(t *testing.T) {
	s := pos(t, 2, line("20A 14A 21A 2A"))
	put(t, s, "1E@20A", "2a@2A", "2a@21A")
	s.seeds[0] = [3]uint8{0, 1, 0}
	play(t, s, "use 20A", "1E@20A", "seed V")
	legalIs(t, s, "1e@20A", "2a@2A")
	play(t, s, "1e@20A", "2a@2A")
	wantDruids(t, s, 0, "e@2A")
	wantDruids(t, s, 1, "E@supply a@20A a@21A")
}

func TestSiteDeoniumArch(t *testing.T) {
	s := pos(t, 2, line("20B 1A 14A 21A"))
	put(t, s, "1E@20B", "2a@14A")
	play(t, s, "use 20B", "1E@20B")
	legalIs(t, s, "1A", "21A")
	play(t, s, "21A")
	wantSite(t, s, 10, 16, "21A")
	wantSite(t, s, 13, 16, "20B")
}

func TestSiteTerrapinAncient(t *testing.T) {
	s := pos(t, 2, line("21A 14A 1A 2B"))
	put(t, s, "1E@21A")
	s.seeds[0] = [3]uint8{0, 0, 1}
	play(t, s, "use 21A", "1E@21A", "seed D")
	legalIs(t, s, "21A", "2B")
	play(t, s, "2B", "9,16")
	wantSite(t, s, 9, 16, "2B")
}

func TestSiteKindredStone(t *testing.T) {
	s := pos(t, 2, line("21B 1A 14A"))
	put(t, s, "1E@21B", "1a@14A")
	play(t, s, "use 21B", "1E@21B")
	legalIs(t, s, "21B", "14A")
	play(t, s, "14A")
	wantDruids(t, s, 0, "e@21B 2a@14A")
}

func TestSiteAncestralGarden(t *testing.T) {
	s := pos(t, 2, line("22A 1A 14A 21A"))
	put(t, s, "1E@22A")
	s.seeds[0] = [3]uint8{0, 0, 1}
	play(t, s, "use 22A", "1E@22A", "seed D")
	legalIs(t, s, "21A")
	play(t, s, "21A")
	wantDruids(t, s, 0, "e@22A a@21A")
}

func TestSiteGrizznant(t *testing.T) {
	s := pos(t, 2, line("22B 1A 14A 21A"))
	put(t, s, "1E@22B", "1a@1A")
	play(t, s, "use 22B", "1E@22B")
	legalIs(t, s, "1a@1A")
	play(t, s, "1a@1A")
	legalIs(t, s, "22B", "14A", "21A")
	play(t, s, "21A")
	wantDruids(t, s, 0, "E@supply a@21A")
}

func TestSiteSeedsparkHeart(t *testing.T) {
	s := pos(t, 2, line("23A 1A 14A 21A"))
	put(t, s, "1E@23A", "1A@1A")
	s.seeds[0] = [3]uint8{0, 0, 1}
	play(t, s, "use 23A", "1E@23A", "seed D")
	legalIs(t, s, "1e@23A", "1A@1A")
	play(t, s, "1A@1A", "21A")
	wantDruids(t, s, 0, "e@23A A@21A")
}

func TestSiteJokulmas(t *testing.T) {
	s := pos(t, 2, line("23B 1A 14A 21A"))
	put(t, s, "1E@23B", "1a@14A")
	play(t, s, "use 23B", "1E@23B")
	legalIs(t, s, "1e@23B", "1a@14A")
	play(t, s, "1a@14A")
	legalIs(t, s, "23B", "21A")
	play(t, s, "21A", "9,16")
	wantSite(t, s, 9, 16, "21A")
	wantDruids(t, s, 0, "e@23B")
}

func TestSiteSylvant(t *testing.T) {
	s := pos(t, 2, line("24A 1A 14A 21A"))
	put(t, s, "1E@24A")
	s.seeds[0] = [3]uint8{0, 1, 0}
	play(t, s, "use 24A", "1E@24A", "seed V", "1A", "21A")
	wantSite(t, s, 11, 16, "21A")
	wantSite(t, s, 13, 16, "1A")
}

func TestSiteCirqusLaguun(t *testing.T) {
	s := pos(t, 2, line("25A 1A 14A"))
	put(t, s, "1E@25A", "1A@1A", "1A@1A", "1A@14A", "1A@14A")
	play(t, s, "summon", "1E@25A")
	legalIs(t, s, "1e@25A", "1A@1A", "1A@14A")
	play(t, s, "1A@14A", "1A")
	wantDruids(t, s, 0, "e@25A 2A@1A a@1A A@14A")
	s = pos(t, 2, line("21A 1A 14A"))
	put(t, s, "1E@21A", "1A@1A", "1A@1A", "1A@14A", "1A@14A")
	refused(t, s, "summon")
}

func TestSiteFlamingLotus(t *testing.T) {
	s := pos(t, 2, line("25B 1A 14A 2A"))
	put(t, s, "1E@2A", "1A@25B", "1A@1A")
	s.seeds[0] = [3]uint8{2, 0, 0}
	play(t, s, "unravel", "1E@2A")
	legalIs(t, s, "yes", "no")
	play(t, s, "yes")
	legalIs(t, s, "1A@25B", "1A@1A")
	play(t, s, "1A@25B", "14A")
	wantDruids(t, s, 0, "E@supply A@1A A@14A")
}

func TestSiteDriftingFerry(t *testing.T) {
	s := pos(t, 2, line("26A 1A"))
	put(t, s, "1a@26A", "1A@1A")
	s.step = stepBegin
	s.advance()
	play(t, s, "use 26A", "1A@1A", "26A")
	wantDruids(t, s, 0, "E@supply A@26A a@26A")
}

func TestSiteChaosManifold(t *testing.T) {
	s := pos(t, 2, line("26B 1A 14A 21A"))
	onlyInBag(s, 19)
	put(t, s, "1E@26B")
	play(t, s, "use 26B", "1E@26B")
	legalIs(t, s, "21A")
	play(t, s, "21A", "side A", "9,16")
	got := siteAt(s, 9, 16)
	if got != "19A" && got != "21A" || s.bag == 0 {
		t.Fatalf("explored %q, bag %b", got, s.bag)
	}
}

func TestSiteTidewrightLoom(t *testing.T) {
	s := pos(t, 2, line("27A 1A 14A"))
	put(t, s, "1E@27A", "1A@14A")
	play(t, s, "use 27A", "1E@27A")
	legalIs(t, s, "1A")
	play(t, s, "1A")
	wantSite(t, s, 10, 16, "1A")
	wantSite(t, s, 11, 16, "27A")
	refused(t, s, "use 27A")
}

func TestSitePresenceOfLagoon(t *testing.T) {
	s := pos(t, 2, line("27B 1A 14A"))
	put(t, s, "1E@27B", "1a@27B")
	play(t, s, "move", "1E@27B", "1A")
	legalIs(t, s, "1e@1A", "1a@27B", "done")
	play(t, s, "1e@1A")
	if s.step != stepAction || s.ToMove() != 0 {
		t.Fatalf("%s", s)
	}
}

// Every site has a catalogue entry that follows the tiles' patterns, and
// the engine plays its action.
func TestCatalogue(t *testing.T) {
	originals := 0
	for n, st := range Sites {
		tile := n/2 + 1
		if st.ID != itoa(tile)+string("AB"[n%2]) {
			t.Errorf("site %d is %s", n, st.ID)
		}
		if st.Group != (tile-1)%3+1 {
			t.Errorf("%s: group %d", st.ID, st.Group)
		}
		// Tile n: n mod 3 = 1 gives A Elemeen, B Vowelon; 2 gives
		// Vowelon and Deonin; 0 gives Deonin and Elemeen.
		want := Energy((tile - 1) % 3)
		if n%2 == 1 {
			want = (want + 1) % 3
		}
		if st.Energy != want {
			t.Errorf("%s: energy %s, want %s", st.ID, EnergyNames[st.Energy], EnergyNames[want])
		}
		if st.Type == Trove != (n%2 == 1 && tile >= 4 && tile <= 15) {
			t.Errorf("%s: trove %v", st.ID, st.Type == Trove)
		}
		if st.Type == Trove != (st.Kind == KindExploration) {
			t.Errorf("%s: a trove has an exploration action", st.ID)
		}
		if st.Original {
			originals++
		}
		if !Implemented(n) {
			t.Errorf("%s: not implemented", st.ID)
		}
		if st.Effect == "" || st.Name == "" {
			t.Errorf("%s: no name or effect", st.ID)
		}
	}
	if originals != 8 {
		t.Errorf("%d original sites, want 8", originals)
	}
	var types [5]int
	for n := range 48 {
		types[Sites[n].Type]++
	}
	if types != [5]int{9, 12, 9, 9, 9} {
		t.Errorf("types of tiles 1-24: %v", types)
	}
}

// Unravelling Awakening Portal itself: those who stood on it may still
// use it, and so may the unraveller Hot Spring of the Phoenix when it is
// the site unravelled.
func TestUnravelledPassivesStillAct(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A 24B")) // 24B (Elemeen) a leaf: Deonin unravels it
	put(t, s, "1E@24B", "1A@21A", "2a@24B", "2a@14A")
	s.seeds[0] = [3]uint8{0, 0, 2}
	play(t, s, "unravel", "1E@24B")
	if s.ToMove() != 1 {
		t.Fatalf("seat 2 stood on the Portal and decides first, not %d", s.ToMove()+1)
	}
	legalIs(t, s, "2a@1A", "2a@14A", "done")
	play(t, s, "2a@14A")
	if s.ToMove() != 0 || s.depth != 0 {
		t.Fatalf("%s", s)
	}
	s = pos(t, 2, line("1A 14A 21A 4A")) // 4A (Elemeen haven) a leaf
	put(t, s, "1E@4A", "1A@21A")
	s.seeds[0] = [3]uint8{0, 0, 2}
	play(t, s, "unravel", "1E@4A")
	legalIs(t, s, "no", "1A")
	play(t, s, "1A")
	wantDruids(t, s, 0, "e@1A A@21A")
}

// The catalogue says what each action costs, from the engine's programs.
func TestCatalogueCosts(t *testing.T) {
	cat := Catalogue()
	for id, want := range map[string]string{
		"1A":  "exhaust a refreshed druid of yours",
		"14A": "exhaust your refreshed Eldrid",
		"21A": "exhaust a refreshed druid of yours; give up a seed",
		"3B":  "exhaust a refreshed druid of yours; the invoking druid goes back to your supply",
		"23B": "exhaust a refreshed druid of yours; send one of your druids back to your supply",
		"7B":  "give up an Elemeen or Deonin seed",
		"5B":  "send a refreshed druid of yours back to your supply",
		"15B": "exhaust your Eldrid",
		"12B": "exhaust one of your druids",
		"18B": "give up one or two seeds",
		"24B": "",
		"7A":  "",
		"8B":  "give up an Elemeen or Vowelon seed",
	} {
		if got := cat[site(id)].Cost; got != want {
			t.Errorf("%s costs %q, want %q", id, got, want)
		}
	}
}

// The sites' table of docs/druids.md is the catalogue: each site's name,
// energy, type, group, kind, effect in our words, and the eight sides of
// our own design marked original to Lagoon there as in the data.
func TestDocsSiteTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/druids.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) != 8 || !strings.HasPrefix(cells[0], "| ") {
			continue
		}
		n, err := ParseSiteID(strings.TrimPrefix(cells[0], "| "))
		if err != nil {
			continue
		}
		st := &Sites[n]
		seen++
		kind := ActionKindNames[st.Kind]
		if st.Once {
			kind += ", once a turn"
		}
		want := []string{st.Name, EnergyNames[st.Energy], SiteTypeNames[st.Type], groupNumerals[st.Group], kind, st.Effect}
		if got := cells[1:7]; !slices.Equal(got, want) {
			t.Errorf("%s: the docs say %q, the catalogue %q", st.ID, got, want)
		}
		if strings.Contains(cells[7], "original to Lagoon") != st.Original {
			t.Errorf("%s: the docs' original mark %q, the catalogue's %v", st.ID, cells[7], st.Original)
		}
	}
	if seen != NumSites {
		t.Errorf("the docs' table has %d sites, want %d", seen, NumSites)
	}
}
