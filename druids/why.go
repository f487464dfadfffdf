package druids

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

// This file says why the Action step's menu does not offer an action:
// what the page shows beside the four basic actions and on a site's card,
// so that a player is never left to guess. The reasons follow the menu's
// own checks (actionMenu, siteUsable) and speak to the active seat.

// UnavailableView is an action the menu does not offer now, and why.
// Move is the action as the menu would name it ("unravel", "use 24A");
// Site, for an unravel, is the site a refreshed druid of the seat stands
// on and cannot unravel (an unravel may be offered from another site).
type UnavailableView struct {
	Move   string `json:"move"`
	Site   string `json:"site,omitempty"`
	Reason string `json:"reason"`
}

// Reasons for what every action needs, shared by the basic actions and
// the sites'.
const (
	whyBagEmpty    = "the bag is empty"
	whySupplyEmpty = "your supply is empty"
)

// unavailable lists, at the Action step's menu, the basic actions not
// offered, each site a refreshed druid of the seat cannot unravel, and
// each invoked action of a site in play that is not offered, with why.
func (s *State) unavailable(legal []game.Move) []UnavailableView {
	out := []UnavailableView{}
	if s.depth != 0 || s.step != stepAction || s.Over() {
		return out
	}
	offered := func(m game.Move) bool {
		for _, l := range legal {
			if l == m {
				return true
			}
		}
		return false
	}
	a := int(s.active)
	iv := newInvokers(s, a)
	for _, m := range []game.Move{mMove, mSummon, mExplore, mUnravel} {
		if !offered(m) {
			out = append(out, UnavailableView{Move: s.MoveText(m), Reason: s.whyBasic(&iv, m)})
		}
	}
	eachTile(s.fresh[a]&s.inPlay, func(t int) {
		if why := s.whyNotUnravel(a, t); why != "" {
			out = append(out, UnavailableView{Move: s.MoveText(mUnravel), Site: s.tileLabel(t), Reason: why})
		}
	})
	eachTile(s.inPlay, func(t int) {
		site := s.siteIn(t)
		if invokedSites>>site&1 == 0 || offered(vUse|game.Move(site)) {
			return
		}
		out = append(out, UnavailableView{Move: s.MoveText(vUse | game.Move(site)), Reason: s.whySite(&iv, site)})
	})
	return out
}

// whyBasic says why the basic action m is not offered.
func (s *State) whyBasic(iv *invokers, m game.Move) string {
	a := iv.p
	switch {
	case m == mExplore && s.marker[a]:
		return "your player marker is spent: one explore a turn"
	case m == mExplore && s.bag == 0:
		return whyBagEmpty
	case m == mSummon && !s.canSummon(a):
		return whySupplyEmpty
	case m == mMove:
		return "the world has one site: there is nowhere to step"
	case m == mExplore:
		return "no empty space touches a site where a refreshed druid of yours stands"
	case m == mUnravel:
		var whys []string
		eachTile(iv.fresh&s.inPlay, func(t int) { whys = append(whys, s.whyNotUnravel(a, t)) })
		return strings.Join(whys, "; ")
	}
	return "it would do nothing now"
}

// whyNotUnravel says why seat p's druid on tile t cannot unravel it, or ""
// if it can.
func (s *State) whyNotUnravel(p, t int) string {
	name := Sites[s.siteIn(t)].Name
	switch {
	case s.notSoleHaven(1<<t) == 0:
		return name + " is the only haven: the world keeps one"
	case s.unlockedAmong(1<<t) == 0:
		return name + " is locked: the world would split"
	case s.unravelEnergyAmong(p, 1<<t) != 0:
		return ""
	}
	th := s.energyOf(t).Threat()
	sites := bits.OnesCount32(s.occ[p] & s.energyMask[th])
	seeds := int(s.seeds[p][th])
	return name + " needs 3 " + EnergyNames[th] + ": you have " + countWords(sites, EnergyNames[th]+" site") +
		" and " + countWords(seeds, EnergyNames[th]+" seed")
}

// countWords says a count with its noun, plural when it is not one.
func countWords(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// whySite says why the invoked action of site, in play, is not offered.
func (s *State) whySite(iv *invokers, site int) string {
	a := iv.p
	sm := &siteMenus[site]
	switch {
	case !s.occupiesSite(a, site):
		return "no druid of yours stands here"
	case (s.used&onceSites)>>site&1 != 0:
		return "used this turn: once a turn"
	case sm.eldrid && s.eld[a] < 0:
		return "your Eldrid is in your supply"
	case sm.eldrid && s.eldEx[a]:
		return "your Eldrid is exhausted"
	case !iv.has(sm.filter, sm.eldrid):
		return whyInvoker(sm.filter)
	}
	switch sm.check {
	case oDiscard:
		if s.seedTotal(a) == 0 {
			return "you have no seed to give up"
		}
		return "no seed you have would make it act now"
	case oMoveDruid:
		return "no druid it could move has anywhere to go"
	case oSummon:
		return whySupplyEmpty
	case oExplore:
		return whyBagEmpty
	case oFork:
		return "the bag holds fewer than two tiles"
	case oReturn:
		return "your score area is empty"
	case oChaos:
		return "no unlocked site without druids could go back to the bag"
	case oRefresh:
		return "no druid of any circle is exhausted"
	}
	return "it would do nothing now"
}

// whyInvoker says why no refreshed druid of the seat may invoke under
// filter. The menu is shown only while the seat has a refreshed druid on
// the board: the Action step ends by itself when it has none.
func whyInvoker(filter invokerFilter) string {
	switch filter {
	case invokeUnlocked:
		return "your refreshed druids stand only on locked sites"
	case invokeHasSpace:
		return "no empty space touches a site where a refreshed druid of yours stands"
	case invokeHelix:
		return "your Eldrid's site is locked or the only haven"
	}
	return "the world has one site: there is nowhere to step"
}
