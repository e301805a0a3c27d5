"""A rule-based player: ``HeuristicBot(rng, level)``.

``standard`` (registered as ``heuristic``) plays the whole game by rules of thumb:

* **Auction.** Every legal bid is priced: number bids from the calibrated trick estimate
  of each attachment (``evaluation``) and the rule set's own scoring, nolo bids from the
  calibrated chance to keep them less a charge for their variance (``auction``). The bot
  makes the best-paying legal bid if it pays more than passing, which ``auction`` prices
  from the bid that holds (what its holder is expected to win, paid by us unless we hold
  the ace he will call), holds where the rules allow it on the same terms, joins a nolo
  only when it pays as the harder shared contract, and passes otherwise. Iron hand is
  claimed unless a nolo bid would pay.
* **Declaring.** Trumps: the suit with the best estimate (the halve partner: his own best
  suit). Partner card: a suit with a low card to lead to the partner, a king that the
  partner's ace will make good, not a void; in halve a short suit so trumps stay free.
  Vip: accept a turned suit when it is worth more than turning on.
* **Exchange.** Take the kitty whenever offered (laying away three cards is never worse
  than keeping them); lay away the card whose loss hurts the estimate least, in nolo the
  most dangerous card.
* **Play.** Card counting, voids, the partner inferred from the play (``knowledge``):
  leads from sure winners, trumps drawn when the side holds many, the declarer leads
  the called suit to find his partner, jokers led after trick 1 before the lead is given
  away; second hand low, third hand high, the last hand wins as cheaply as it can, no
  overtaking a partner's safe trick, ruffs when the trick is worth it, discards from weak
  suits. Nolo: the declarer plays the highest card that still loses and leads the card
  most likely to lose; defenders lead under him and keep him on top.

``beginner`` knows the rules but keeps no memory: it bids only with plainly strong
hands, declares and leads at random among legal choices, follows with the lowest card
that loses (or wins as last hand when it can), and takes the kitty laying away low cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from esmakker.bots.auction import FAMILY_OF, NOLO_RISK, nolo_price, pass_value
from esmakker.bots.evaluation import (
    family_distribution,
    family_raw,
    nolo_danger,
    nolo_probability,
    number_bid_ev,
    suit_estimate,
    suit_len,
    value_table,
    vip_accept_value,
    vip_value,
)
from esmakker.bots.knowledge import FOE, FRIEND, Knowledge, bit
from esmakker.core.actions import (
    ACCEPT,
    DECLINE,
    IRON,
    TAKE_ALL,
    TURN,
    Action,
    Bid,
    BidKind,
    CallCard,
    Discard,
    Hold,
    Join,
    NameTrump,
    Pass,
    Play,
    Take,
)
from esmakker.core.cards import CARDS, JOKER_BASE, JOKERS_MASK, SUIT_MASKS, Card
from esmakker.core.ladder import all_bids, bid_key
from esmakker.core.phase import Phase
from esmakker.core.play import led_suit, trick_winner
from esmakker.core.rules import RuleSet
from esmakker.core.scoring import trick_limit
from esmakker.core.view import PlayerView
from esmakker.core.vip import vip_trump

LEVELS = ("beginner", "standard")

_FAMILY_OF = FAMILY_OF

OPEN_MARGIN = -0.3
"""An opening bid must be expected to win this fraction of a made 9's value (passing
costs something too: when someone else declares, the other three lose on average)."""
JOIN_MARGIN = 0.05
JOINED_KEEP = 0.4
"""A nolo contract shared by joiners is kept this much less often (two or more players
must each stay under the limit against fewer defenders): simulated joined sols were kept
about a third as often as sols played alone."""
EAGER_FORCED = 0.5
"""... and before that, only while the hand is expected to be forced into fewer tricks."""
EAGER_TRICKS = 3
"""In a contract of exactly one trick, from this many tricks before the end the declarer
takes a sure trick whenever he can, forced or not."""
BID_CACHE_SIZE = 1024
"""Hands whose bid prices a bot keeps (the oldest is dropped first): a bot at a table that
runs for days must not grow without end."""


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _is_joker(card: int) -> bool:
    return card >= JOKER_BASE


def _suit(card: int) -> int:
    return -1 if card >= JOKER_BASE else card // 13


class HeuristicBot:
    """A rule-based bot; ``level`` is ``standard`` (the full heuristic) or ``beginner``."""

    def __init__(
        self,
        rng: random.Random,
        level: str = "standard",
        *,
        open_margin: float = OPEN_MARGIN,
        nolo_risk: float = NOLO_RISK,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (known levels: {', '.join(LEVELS)})")
        self.rng = rng
        self.level = level
        self.open_margin = open_margin
        self.nolo_risk = nolo_risk
        self.name = "heuristic" if level == "standard" else level
        self._bid_cache: dict[tuple[int, RuleSet], dict[Bid, float]] = {}

    # --- the protocol ------------------------------------------------------------------

    def act(self, view: PlayerView) -> Action:
        """Return the chosen action, always one of ``view.legal_actions``.

        Raises:
            ValueError: if the view offers no action (the seat is not to act).
        """
        actions = view.legal_actions
        if not actions:
            raise ValueError(f"{view.seat} has no legal action to choose from")
        if len(actions) == 1:
            return actions[0]
        choice = self._beginner(view) if self.level == "beginner" else self._standard(view)
        assert choice in actions, (choice, actions)
        return choice

    def claim_iron(self, view: PlayerView) -> bool:
        """Claim iron hand unless the hand is good for a nolo contract."""
        if self.level == "beginner":
            return True
        values = self.bid_values(view.hand.mask, view.rules)
        best = max((v for b, v in values.items() if b.is_nolo), default=-1.0)
        return best <= 0

    # --- standard ---------------------------------------------------------------------------

    def _standard(self, view: PlayerView) -> Action:
        phase = view.phase
        if phase is Phase.AUCTION:
            return self._auction(view)
        if phase is Phase.TRUMP:
            return self._name_trump(view)
        if phase is Phase.CALL:
            return self._call(view)
        if phase is Phase.VIP:
            return self._vip(view)
        if phase is Phase.EXCHANGE:
            return self._exchange(view)
        return self._play(view)

    # --- auction ----------------------------------------------------------------------------

    def bid_values(self, hand: int, rules: RuleSet) -> dict[Bid, float]:
        """Return the expected score of every bid of the ladder for this hand as declarer."""
        key = (hand, rules)
        cached = self._bid_cache.get(key)
        if cached is not None:
            return cached
        values: dict[Bid, float] = {}
        dists: dict[str, list[float]] = {}
        for bid in all_bids(rules):
            if bid.is_nolo:
                p = nolo_probability(hand, bid.kind, rules)
                values[bid] = nolo_price(bid.kind, p, rules, self.nolo_risk)
                continue
            family = _FAMILY_OF[bid.kind]
            if family not in dists:
                dists[family] = family_distribution(family_raw(hand, family, rules), family)
            values[bid] = number_bid_ev(bid, dists[family], rules)
        if len(self._bid_cache) >= BID_CACHE_SIZE:
            del self._bid_cache[next(iter(self._bid_cache))]
        self._bid_cache[key] = values
        return values

    def _auction(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        rules = view.rules
        hand = view.hand.mask
        if IRON in legal and self.claim_iron(view):
            return IRON
        values = self.bid_values(hand, rules)
        high = _high_bid(view)
        unit = float(value_table(Bid(9), rules)[9])
        threshold = pass_value(hand, high, rules, self.open_margin)
        fresh = set(_fresh_bids(view))
        best: Action = Pass()
        best_value = threshold
        for action in legal:
            if isinstance(action, Bid):
                if action not in fresh:
                    continue
                value = values[action]
            elif isinstance(action, Hold) and high is not None:
                value = values[high]
            elif isinstance(action, Join) and high is not None:
                value = self._join_value(hand, high, rules, values) - JOIN_MARGIN * unit
            else:
                continue
            if value > best_value:
                best, best_value = action, value
        if best not in legal:  # passing is not allowed (forehand must open)
            bids = [a for a in legal if isinstance(a, Bid)]
            return max(bids, key=lambda b: values[b]) if bids else legal[0]
        return best

    def _join_value(self, hand: int, high: Bid, rules: RuleSet, values: dict[Bid, float]) -> float:
        """Return the price of going along with ``high`` (a shared nolo is harder to keep)."""
        if not high.is_nolo:
            return values[high]
        p = nolo_probability(hand, high.kind, rules) * JOINED_KEEP
        return nolo_price(high.kind, p, rules, self.nolo_risk)

    # --- declaring --------------------------------------------------------------------------

    def _name_trump(self, view: PlayerView) -> Action:
        hand = view.hand.mask
        contract = view.contract
        assert contract is not None
        family = _FAMILY_OF.get(contract.bid.kind, "plain")
        options = [a for a in view.legal_actions if isinstance(a, NameTrump)]
        return max(
            options,
            key=lambda a: (suit_estimate(hand, int(a.suit), family), suit_len(hand, int(a.suit))),
        )

    def _call(self, view: PlayerView) -> Action:
        hand = view.hand.mask
        contract = view.contract
        assert contract is not None
        kind = contract.bid.kind
        trump = -1 if contract.trump is None else int(contract.trump)
        options = [a for a in view.legal_actions if isinstance(a, CallCard)]
        longest = max(range(4), key=lambda s: (suit_len(hand, s), s))

        def score(action: CallCard) -> tuple[float, int]:
            card = int(action.card)
            suit = card // 13
            n = suit_len(hand, suit)
            if hand >> card & 1:
                return (-100.0, 0)  # calling an own card: alone
            value = {0: -3.0, 1: 1.0, 2: 2.0, 3: 2.0, 4: 1.0}.get(n, 0.0)
            rank = card % 13
            if hand >> (card - 1) & 1 and rank >= 1:
                value += 1.5  # the king (queen) under the called card
            if suit == trump:
                value -= 2.0
            if kind is BidKind.HALVE and suit == longest:
                value -= 3.0  # the partner may not name the called suit
            if kind is BidKind.HALVE and n > 3:
                value -= 1.0
            return (value, -n)

        return max(options, key=score)

    def _vip(self, view: PlayerView) -> Action:
        contract = view.contract
        assert contract is not None
        if ACCEPT not in view.legal_actions:
            return TURN
        hand = view.hand.mask
        rules = view.rules
        turned = tuple(int(c) for c in contract.vip_turned)
        trump = vip_trump(turned, rules.vip_joker_rule)
        if trump >= 0:
            accept = vip_accept_value(hand, trump, turned)
        else:
            accept = suit_estimate(hand, -1, "vip")
        go_on = vip_value(hand, rules, turned)
        return ACCEPT if accept >= go_on else TURN

    # --- exchange ---------------------------------------------------------------------------

    def _exchange(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if TAKE_ALL in legal:
            return TAKE_ALL
        if any(isinstance(a, Take) for a in legal):
            return max((a for a in legal if isinstance(a, Take)), key=_take_size)
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return DECLINE if DECLINE in legal else legal[0]
        card = self._discard_choice(view, [int(a.card) for a in discards])
        return Discard(_card(card))

    def _discard_choice(self, view: PlayerView, cards: list[int]) -> int:
        contract = view.contract
        assert contract is not None
        hand = view.hand.mask
        rules = view.rules
        seat = view.seat
        if contract.bid.is_nolo:
            k = Knowledge.of(view)
            need_one = trick_limit(contract.bid.kind, rules) == "exactly_1"

            def nolo_cost(card: int) -> tuple[float, float, int]:
                rest = hand & ~bit(card)
                forced = forced_wins(k, rest)
                value = abs(forced - 1) if need_one else forced
                return (value, nolo_danger(rest, k.aces_low), -_nolo_rank(k, card))

            return min(cards, key=nolo_cost)
        trump = -1 if contract.trump is None else int(contract.trump)
        family = _FAMILY_OF.get(contract.bid.kind, "plain")
        called = -1 if contract.called is None else int(contract.called)
        declarer = seat == contract.declarer

        def keep_value(card: int) -> tuple[float, int]:
            rest = hand & ~bit(card)
            value = suit_estimate(rest, trump, family)
            if not _is_joker(card):
                suit = card // 13
                value -= 0.02 * (card % 13)
                if declarer and called >= 0 and suit == called // 13 and suit_len(rest, suit) == 0:
                    value -= 0.5  # keep a card to lead to the partner's ace
            return (value, -(card % 13) if not _is_joker(card) else -99)

        return max(cards, key=keep_value)

    # --- play -------------------------------------------------------------------------------

    def _play(self, view: PlayerView) -> Action:
        legal = [int(a.card) for a in view.legal_actions if isinstance(a, Play)]
        k = Knowledge.of(view)
        if k.nolo:
            if k.seat in k.nolo_players:
                card = self._nolo_player(k, view, legal)
            else:
                card = self._nolo_defender(k, view, legal)
        elif not view.trick:
            card = self._lead(k, view, legal)
        else:
            card = self._follow(k, view, legal)
        return Play(_card(card))

    # number contracts: following ------------------------------------------------------------

    def _follow(self, k: Knowledge, view: PlayerView, legal: list[int]) -> int:
        trick = [int(c) for c in view.trick]
        assert view.leader is not None
        leader = int(view.leader)
        pos = len(trick)
        rules = k.rules
        win_idx = trick_winner(trick, k.trump, False, rules)
        winner = (leader + win_idx) % 4
        later = [(leader + j) % 4 for j in range(pos + 1, 4)]
        winning = [c for c in legal if trick_winner([*trick, c], k.trump, False, rules) == pos]
        if k.team[winner] == FRIEND:
            risk = beat_probability(k, trick, leader, later)
            if risk < 0.3 or not winning:
                return self._low(k, trick, legal)
            scores = {c: _win_score(k, [*trick, c], leader, later, c) for c in winning}
            best = max(winning, key=lambda c: (scores[c], -_cost(k, c)))
            if scores[best] - (1.0 - risk) > 0.15:
                return best
            return self._low(k, trick, legal)
        if not winning:
            return self._low(k, trick, legal)
        scores = {c: _win_score(k, [*trick, c], leader, later, c) for c in winning}
        best = max(winning, key=lambda c: (scores[c], -_cost(k, c)))
        if pos == 3:
            return best
        if pos == 1:  # second hand low, unless a (nearly) sure winner or a cheap ruff
            return best if scores[best] > 0.2 else self._low(k, trick, legal)
        # third hand high: take the trick, or force out the fourth hand's honour
        return best if scores[best] > 0.0 else self._low(k, trick, legal)

    def _low(self, k: Knowledge, trick: list[int], legal: list[int]) -> int:
        """Return the least useful card: the lowest of the suit, or the best discard."""
        suit = led_suit(trick, k.rules) if trick else -1
        if suit >= 0:
            follow = [c for c in legal if _suit(c) == suit]
            if follow:
                return min(follow, key=lambda c: (k.strength(c), c))
        return min(legal, key=lambda c: _keep_value(k, c))

    # number contracts: leading -------------------------------------------------------------

    def _lead(self, k: Knowledge, view: PlayerView, legal: list[int]) -> int:
        seat = k.seat
        hand = k.hand
        trump = k.trump
        declarer_side = seat == k.declarer or (seat == k.partner and k.partner_sure)
        jokers = [c for c in legal if _is_joker(c)]
        suits_cards = [c for c in legal if not _is_joker(c)]
        if not suits_cards:
            return jokers[0]
        others = [s for s in range(4) if s != seat]
        my_trumps = [c for c in suits_cards if trump >= 0 and c // 13 == trump]
        trumps_out = k.trumps_out().bit_count()

        def lead_risk(card: int) -> float:
            return beat_probability(k, [card], seat, others)

        # 1. draw trumps with sure top trumps
        if declarer_side and my_trumps and trumps_out and _foes_may_hold(k, trump):
            top = max(my_trumps, key=k.strength)
            if lead_risk(top) < 0.1 and len(my_trumps) >= 2:
                return top
        # 2. the declarer looks for his partner: a low card to the called ace
        if seat == k.declarer and not k.partner_sure and k.called >= 0 and not k.called_led:
            called_suit = [c for c in suits_cards if c // 13 == k.called // 13]
            if called_suit and k.called // 13 != trump:
                low = min(called_suit, key=k.strength)
                if k.strength(low) < k.strength(k.called) - 2:  # never a king under the ace
                    return low
        # 3. cash sure side winners (and the partner's called ace)
        side = [c for c in suits_cards if c // 13 != trump]
        sure = [c for c in side if lead_risk(c) < 0.25]
        if sure:
            return max(sure, key=lambda c: (k.strength(c), -suit_len(hand, c // 13)))
        # 4. a led joker wins the trick (after the first, where the rules forbid it there)
        if jokers and (k.trick_no >= 1 or not k.rules.no_joker_lead_trick1):
            return jokers[0]
        # 5. keep drawing trumps when the side is long in them
        long_side = bool(my_trumps) and (
            len(my_trumps) >= max(3, trumps_out - 1)
            or (seat != k.declarer and not k.voids[k.declarer] >> trump & 1)
        )
        if declarer_side and my_trumps and trumps_out and _foes_may_hold(k, trump) and long_side:
            top = max(my_trumps, key=k.strength)
            return top if lead_risk(top) < 0.3 else min(my_trumps, key=k.strength)
        # 6. lead a suit a friend led or can ruff, from an honour sequence, or from length
        return self._lead_choice(k, side or suits_cards, declarer_side)

    def _lead_choice(self, k: Knowledge, cards: list[int], declarer_side: bool) -> int:
        hand = k.hand
        trump = k.trump
        scores: dict[int, float] = {}
        for suit in {c // 13 for c in cards}:
            n = suit_len(hand, suit)
            score = 0.0
            for s in range(4):
                if s == k.seat:
                    continue
                if k.team[s] == FRIEND and k.led_suits[s] >> suit & 1:
                    score += 3.0
                void_here = bool(k.voids[s] >> suit & 1) and trump >= 0 and suit != trump
                may_ruff = void_here and not k.voids[s] >> trump & 1 and bool(k.trumps_out())
                if k.team[s] != FRIEND and may_ruff:
                    score -= 3.0  # a foe ruffs it
                if k.team[s] == FRIEND and void_here and not k.voids[s] >> trump & 1:
                    score += 2.0  # a friend ruffs it
            if suit == trump:
                score -= 1.0 if declarer_side else 2.5
            if k.called >= 0 and suit == k.called // 13 and not k.called_led and not declarer_side:
                score -= 1.5
            if k.called >= 0 and k.team[k.declarer] == FOE and suit == k.called // 13:
                score -= 0.5
            score += 0.2 * n
            # an honour sequence led from the top is worth leading
            ranks = sorted((c % 13 for c in cards if c // 13 == suit), reverse=True)
            if len(ranks) >= 2 and ranks[0] >= 10 and ranks[0] - ranks[1] == 1:
                score += 1.0
            elif ranks and ranks[0] >= 11 and n <= 2:
                score -= 1.0  # do not lead away from a bare honour
            scores[suit] = score
        best_suit = max(scores, key=lambda s: (scores[s], s))
        in_suit = [c for c in cards if c // 13 == best_suit]
        ranks = sorted(in_suit, key=k.strength, reverse=True)
        if len(ranks) >= 2 and ranks[0] % 13 >= 10 and ranks[0] % 13 - ranks[1] % 13 == 1:
            return ranks[0]
        return ranks[-1]

    # nolo: the declarer (and gå-med joiners) -----------------------------------------------

    def _nolo_player(self, k: Knowledge, view: PlayerView, legal: list[int]) -> int:
        contract = view.contract
        assert contract is not None
        kind = contract.bid.kind
        limit = trick_limit(kind, k.rules)
        mine = view.won[k.seat]
        need_one = limit == "exactly_1" and mine == 0
        trick = [int(c) for c in view.trick]
        foes = [s for s in range(4) if s != k.seat]
        remaining = 13 - k.trick_no
        # Exactly one trick: take one on purpose only when the hand will not be forced to
        # take one anyway (or the end is near); otherwise duck as in ren sol.
        eager = need_one and (forced_wins(k, k.hand) < EAGER_FORCED or remaining <= EAGER_TRICKS)
        if not trick:
            lose = {c: _nolo_lose_chance(k, c, foes) for c in legal}
            if eager:
                winners = [c for c in legal if lose[c] <= 0.02]
                exits = [c for c in legal if lose[c] >= 0.7]
                if winners and ((exits and exits != winners) or remaining == 1):
                    return max(winners, key=lambda c: _nolo_rank(k, c))
            return max(legal, key=lambda c: (lose[c], -_nolo_rank(k, c)))
        assert view.leader is not None
        leader = int(view.leader)
        pos = len(trick)
        later = [(leader + j) % 4 for j in range(pos + 1, 4)]
        suit = led_suit(trick, k.rules)
        follow = [c for c in legal if suit >= 0 and _suit(c) == suit]
        win_idx = trick_winner(trick, -1, k.aces_low, k.rules)
        top = trick[win_idx]
        if eager:
            late = remaining <= EAGER_TRICKS
            sure = [
                c
                for c in legal
                if trick_winner([*trick, c], -1, k.aces_low, k.rules) == pos
                and _nolo_beaten_chance(k, [*trick, c], leader, later) < (0.5 if late else 0.05)
            ]
            if sure:
                card = max(sure, key=lambda c: _nolo_rank(k, c))
                after = k.hand & ~bit(card)
                exits = [c for c in _cards(after) if _nolo_lose_chance(k, c, foes) >= 0.7]
                if exits or remaining <= 2:
                    return card
        if follow:
            if _is_joker(top) and trick[0] == top:
                return max(follow, key=lambda c: _nolo_rank(k, c))  # a led joker wins anyway
            losing = [c for c in follow if k.strength(c) < k.strength(top) or _suit(top) != suit]
            if losing:
                return max(losing, key=lambda c: _nolo_rank(k, c))
            if pos == 3:
                return max(follow, key=lambda c: _nolo_rank(k, c))
            chances = {c: _nolo_beaten_chance(k, [*trick, c], leader, later) for c in follow}
            best = max(chances.values())
            if best < 0.15:
                return max(follow, key=lambda c: _nolo_rank(k, c))
            return min((c for c in follow if chances[c] >= best - 0.02), key=k.strength)
        return self._nolo_discard(k, legal, need_one)

    def _nolo_discard(self, k: Knowledge, legal: list[int], need_one: bool) -> int:
        def cost(card: int) -> tuple[float, int]:
            forced = forced_wins(k, k.hand & ~bit(card))
            value = abs(forced - 1) if need_one else forced
            return (value + (0.5 if _is_joker(card) else 0.0), -_nolo_rank(k, card))

        return min(legal, key=cost)

    # nolo: defenders -------------------------------------------------------------------------

    def _nolo_defender(self, k: Knowledge, view: PlayerView, legal: list[int]) -> int:
        contract = view.contract
        assert contract is not None
        limit = trick_limit(contract.bid.kind, k.rules)
        targets = [p for p in k.nolo_players if view.won[p] <= 1 or limit == "exactly_1"]
        if not targets:
            targets = list(k.nolo_players)
        trick = [int(c) for c in view.trick]
        remaining = 13 - k.trick_no
        spare = [p for p in targets if limit == "exactly_1" and view.won[p] == 0 and remaining <= 2]
        if not trick:
            suit_cards = [c for c in legal if not _is_joker(c)] or legal
            if spare and len(spare) == len(targets):
                return min(suit_cards, key=lambda c: (-_nolo_rank(k, c), c))
            return max(suit_cards, key=lambda c: (_force_chance(k, c, targets), -_nolo_rank(k, c)))
        assert view.leader is not None
        leader = int(view.leader)
        pos = len(trick)
        suit = led_suit(trick, k.rules)
        follow = [c for c in legal if suit >= 0 and _suit(c) == suit]
        played_by = {(leader + j) % 4: trick[j] for j in range(pos)}
        win_idx = trick_winner(trick, -1, k.aces_low, k.rules)
        winner = (leader + win_idx) % 4
        top = trick[win_idx]
        if not follow:
            return max(legal, key=lambda c: (_nolo_rank(k, c) if not _is_joker(c) else -1, c))
        target_played = [t for t in targets if t in played_by]
        if winner in targets and not spare:
            below = [c for c in follow if k.strength(c) < k.strength(top)]
            if below:
                return max(below, key=lambda c: _nolo_rank(k, c))
            return max(follow, key=lambda c: _nolo_rank(k, c))
        if target_played and winner not in targets:
            return max(follow, key=lambda c: _nolo_rank(k, c))  # he is safe here: shed high cards
        open_lows = [
            min(k.strength(c) for c in _cards(k.known[t] & SUIT_MASKS[suit] & ~k.played))
            for t in targets
            if t not in played_by and k.is_open(t) and k.known[t] & SUIT_MASKS[suit] & ~k.played
        ]
        if open_lows:
            low = max(open_lows)
            if k.strength(top) > low and not _is_joker(trick[0]):
                return max(follow, key=lambda c: _nolo_rank(k, c))  # he ducks anyway
            under = [c for c in follow if k.strength(c) < low]
            if under:
                return max(under, key=lambda c: _nolo_rank(k, c))
            return max(follow, key=lambda c: _nolo_rank(k, c))
        return min(follow, key=lambda c: _nolo_rank(k, c))

    # --- beginner ----------------------------------------------------------------------------

    def _beginner(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        phase = view.phase
        hand = view.hand.mask
        if phase is Phase.AUCTION:
            if IRON in legal:
                return IRON
            strength = (hand & JOKERS_MASK).bit_count() + sum(
                1 for s in range(4) if hand >> (13 * s + 12) & 1
            )
            longest = max(suit_len(hand, s) for s in range(4))
            bids = [a for a in _fresh_bids(view) if not a.is_nolo]
            if bids and strength + longest >= 8 + self.rng.random() * 2:
                return bids[0]
            return Pass() if Pass() in legal else legal[0]
        if phase is Phase.EXCHANGE:
            if TAKE_ALL in legal:
                return TAKE_ALL
            discards = [a for a in legal if isinstance(a, Discard)]
            if discards:
                return min(discards, key=lambda a: (int(a.card) >= JOKER_BASE, int(a.card) % 13))
            return self.rng.choice(legal)
        if phase is Phase.PLAY and view.trick:
            cards = [int(a.card) for a in legal if isinstance(a, Play)]
            trick = [int(c) for c in view.trick]
            contract = view.contract
            assert contract is not None
            trump = -1 if contract.trump is None else int(contract.trump)
            aces_low = contract.bid.is_nolo and view.rules.nolo_aces_low
            pos = len(trick)
            wins = [
                c for c in cards if trick_winner([*trick, c], trump, aces_low, view.rules) == pos
            ]
            loses = [c for c in cards if c not in wins]
            if pos == 3 and wins and not contract.bid.is_nolo:
                return Play(_card(min(wins, key=lambda c: (c >= JOKER_BASE, c // 13 == trump, c))))
            pool = loses or cards
            return Play(_card(min(pool, key=lambda c: (c >= JOKER_BASE, c % 13))))
        return self.rng.choice(legal)


# --- helpers ---------------------------------------------------------------------------------


def _card(value: int) -> Card:
    return CARDS[value]


def _take_size(action: Take) -> int:
    return 99 if action.cards is None else len(action.cards)


def _fresh_bids(view: PlayerView) -> list[Bid]:
    """Return the legal bids, less those that would go round in circles.

    Where equal attachments overcall each other without end (``equal_distinct_cycle``),
    a seat does not bid again at the level of the high bid once it has bid there.
    """
    rules = view.rules
    high = _high_bid(view)
    bids = [a for a in view.legal_actions if isinstance(a, Bid)]
    if high is None:
        return bids
    high_key = bid_key(high, rules)
    mine = {bid_key(a, rules) for s, a in view.calls if s == view.seat and isinstance(a, Bid)}
    if high_key not in mine:
        return bids
    return [b for b in bids if bid_key(b, rules) != high_key]


def _high_bid(view: PlayerView) -> Bid | None:
    for _, action in reversed(view.calls):
        if isinstance(action, Bid):
            return action
    return None


def _cost(k: Knowledge, card: int) -> float:
    """Return how dear a card is to spend on a trick (cheapest first)."""
    if _is_joker(card):
        return 100.0
    value = float(k.strength(card))
    if k.trump >= 0 and card // 13 == k.trump:
        value += 20.0
    return value


def _keep_value(k: Knowledge, card: int) -> float:
    """Return how much a card is worth keeping when throwing one away."""
    if _is_joker(card):
        return 60.0 if k.trick_no < 12 else 0.0
    suit = card // 13
    rank = k.strength(card)
    if k.trump >= 0 and suit == k.trump:
        return 40.0 + rank
    value = float(rank)
    if not k.higher_outstanding(card):
        value += 20.0  # a winner
    honours = sum(1 for c in _cards(k.hand & SUIT_MASKS[suit]) if c % 13 >= 9)
    value += 2.0 * honours
    n = suit_len(k.hand, suit)
    has_trumps = k.trump >= 0 and bool(k.hand & SUIT_MASKS[k.trump])
    if n <= 2 and has_trumps and not value >= 20:
        value -= 3.0  # empty a short suit to ruff it later
    if card == k.called:
        value += 30.0
    return value


def _follows(trick: list[int], card: int, rules: RuleSet) -> bool:
    suit = led_suit(trick, rules)
    return suit < 0 or _suit(card) == suit


def _is_ruff(k: Knowledge, trick: list[int], card: int, rules: RuleSet) -> bool:
    suit = led_suit(trick, rules)
    return k.trump >= 0 and _suit(card) == k.trump and suit != k.trump


def _foes_may_hold(k: Knowledge, suit: int) -> bool:
    return any(k.team[s] != FRIEND and k.may_hold_suit(s, suit) for s in range(4) if s != k.seat)


def _hidden_hands(k: Knowledge, suit: int) -> int:
    """Return how many other hands may hold cards of ``suit`` we cannot see."""
    count = 0
    for s in range(4):
        if s == k.seat or k.voids[s] >> suit & 1:
            continue
        if k.is_open(s):
            continue
        count += 1
    return max(count, 1)


def _p_holds_any(k: Knowledge, seat: int, cards: int) -> float:
    """Return the chance that ``seat`` holds at least one of ``cards`` (cards of one suit)."""
    if not cards:
        return 0.0
    suit = (cards & -cards).bit_length() - 1
    suit = -1 if suit >= JOKER_BASE else suit // 13
    if suit >= 0 and k.voids[seat] >> suit & 1:
        return 0.0
    if k.is_open(seat):
        return 1.0 if k.known[seat] & cards & ~k.played else 0.0
    pool = cards & k.others & ~_open_cards(k)
    n = pool.bit_count()
    if n == 0:
        return 0.0
    h = _hidden_hands(k, suit) if suit >= 0 else 3
    return 1.0 - (1.0 - 1.0 / h) ** n


def _open_cards(k: Knowledge) -> int:
    mask = 0
    for s in range(4):
        if s != k.seat and k.is_open(s):
            mask |= k.known[s]
    return mask


def _p_void(k: Knowledge, seat: int, suit: int) -> float:
    if k.voids[seat] >> suit & 1:
        return 1.0
    if k.is_open(seat):
        return 0.0 if k.known[seat] & SUIT_MASKS[suit] & ~k.played else 1.0
    pool = k.others & SUIT_MASKS[suit] & ~_open_cards(k)
    n = pool.bit_count()
    h = _hidden_hands(k, suit)
    if h <= 1:
        return 0.0 if n else 1.0
    return (1.0 - 1.0 / h) ** n


def future_value(k: Knowledge, card: int) -> float:
    """Return roughly how likely a card is to win a trick later if kept."""
    if _is_joker(card):
        return 0.9 if k.trick_no < 12 else 0.0
    higher = k.higher_outstanding(card).bit_count()
    if k.trump >= 0 and card // 13 == k.trump:
        return 0.8 * 0.45**higher
    return 0.4 * 0.35**higher


def _win_score(k: Knowledge, trick: list[int], leader: int, later: list[int], card: int) -> float:
    """Return the chance to take this trick with ``card`` less what the card is worth later."""
    return 1.0 - beat_probability(k, trick, leader, later) - future_value(k, card)


def beat_probability(k: Knowledge, trick: Sequence[int], leader: int, later: list[int]) -> float:
    """Return the chance that a seat yet to play (not a friend) takes the trick (number play)."""
    if not trick:
        return 1.0
    rules = k.rules
    if _is_joker(trick[0]):
        return 0.0
    idx = trick_winner(list(trick), k.trump, False, rules)
    top = trick[idx]
    suit = led_suit(list(trick), rules)
    keep = 1.0
    for seat in later:
        if k.team[seat] == FRIEND:
            continue
        p = 0.0
        if _is_joker(top):
            pass
        elif k.trump >= 0 and top // 13 == k.trump:
            higher_trumps = k.higher_outstanding(top)
            if suit == k.trump or suit < 0:
                p = _p_holds_any(k, seat, higher_trumps) if suit == k.trump else 0.0
            else:
                p = _p_void(k, seat, suit) * _p_holds_any(k, seat, higher_trumps)
        else:
            if suit >= 0:
                higher = k.higher_outstanding(top)
                p = _p_holds_any(k, seat, higher)
                if k.trump >= 0 and k.trump != suit:
                    trumps = k.others & SUIT_MASKS[k.trump]
                    p += (1 - p) * _p_void(k, seat, suit) * _p_holds_any(k, seat, trumps)
                if rules.unled_joker == "beats_plain" and not _is_joker(top):
                    jokers = k.jokers_out().bit_count() / 3.0
                    p += (1 - p) * _p_void(k, seat, suit) * min(1.0, jokers)
        keep *= 1.0 - min(1.0, p)
    return 1.0 - keep


def forced_wins(k: Knowledge, hand: int) -> float:
    """Return how many tricks a nolo player with ``hand`` is likely to be forced to win.

    Per suit, the others lead and follow with their lowest cards still out (three a
    round); the player ducks with his highest card below the top of the trick, or wins
    and throws his highest card.
    """
    total = 0.0
    for suit in range(4):
        mine = sorted(k.strength(c) for c in _cards(hand & SUIT_MASKS[suit]))
        if not mine:
            continue
        outs = sorted(k.strength(c) for c in _cards(k.others & SUIT_MASKS[suit]))
        holders = sum(1 for s in range(4) if s != k.seat and not k.voids[s] >> suit & 1)
        per_round = max(1, min(3, holders))
        while mine and outs:
            take, outs = outs[:per_round], outs[per_round:]
            top = take[-1]
            below = [m for m in mine if m < top]
            if below:
                mine.remove(below[-1])
            else:
                total += 1.0
                mine.pop()
    return total


def _nolo_rank(k: Knowledge, card: int) -> int:
    if _is_joker(card):
        return -5
    return k.strength(card)


def _nolo_lose_chance(k: Knowledge, card: int, foes: list[int]) -> float:
    """Return the chance that a nolo player's lead of ``card`` is taken by someone else."""
    if _is_joker(card):
        return 0.0 if k.trick_no > 0 or not k.rules.no_joker_lead_trick1 else 1.0
    return 1.0 - _nolo_beaten_chance_inv(k, card, foes)


def _nolo_beaten_chance_inv(k: Knowledge, card: int, foes: list[int]) -> float:
    """Return the chance that nobody in ``foes`` is forced (or chooses) to play over ``card``."""
    suit = card // 13
    higher = k.higher_outstanding(card)
    lower = k.others & SUIT_MASKS[suit] & ~higher
    keep = 1.0
    for seat in foes:
        if k.voids[seat] >> suit & 1:
            continue
        if k.is_open(seat):
            cards = k.known[seat] & SUIT_MASKS[suit] & ~k.played
            forced = bool(cards & higher) and not cards & lower
            keep *= 0.0 if forced else 1.0
            continue
        p_high = _p_holds_any(k, seat, higher)
        p_no_low = 1.0 - _p_holds_any(k, seat, lower)
        keep *= 1.0 - p_high * p_no_low
    return keep


def _nolo_beaten_chance(k: Knowledge, trick: list[int], leader: int, later: list[int]) -> float:
    """Return the chance that a later seat plays over the current top card (nolo)."""
    win_idx = trick_winner(trick, -1, k.aces_low, k.rules)
    top = trick[win_idx]
    if _is_joker(top):
        return 1.0 if win_idx != 0 else 0.0
    suit = led_suit(trick, k.rules)
    if suit < 0 or top // 13 != suit:
        return 0.0
    return 1.0 - _nolo_beaten_chance_inv(k, top, later)


def _force_chance(k: Knowledge, card: int, targets: list[int]) -> float:
    """Return how likely a defender's lead of ``card`` forces a nolo player to win it.

    The nolo player escapes when he holds a card below the lead (he ducks) or when some
    defender cannot get under his lowest card of the suit; a void defender discards and
    does not get in the way.
    """
    if _is_joker(card):
        return -1.0
    suit = card // 13
    mine = k.strength(card)
    best = -1.0
    for target in targets:
        if k.is_open(target):
            cards = k.known[target] & SUIT_MASKS[suit] & ~k.played
            if not cards:
                best = max(best, -0.5)  # he discards a danger card on it
                continue
            low = min(k.strength(c) for c in _cards(cards))
            if low < mine:
                best = max(best, 0.05)  # he ducks, but must spend a low card
                continue
            p_target = 1.0
            base = 0.0
        else:
            void = _p_void(k, target, suit)
            lower = _pool_below(k, suit, mine)
            p_target = (1.0 - void) * (1.0 - _p_holds_any(k, target, lower))
            base = 0.05 * (1.0 - void) - 0.5 * void
            low = min(12, mine + 3)
        p_under = 1.0
        for helper in range(4):
            if helper in (k.seat, target) or helper in targets:
                continue
            if k.voids[helper] >> suit & 1:
                continue
            if k.is_open(helper):
                cards = k.known[helper] & SUIT_MASKS[suit] & ~k.played
                ok = not cards or min(k.strength(c) for c in _cards(cards)) < low
                p_under *= 1.0 if ok else 0.0
                continue
            below = _pool_below(k, suit, low) & ~bit(card)
            void = _p_void(k, helper, suit)
            p_under *= void + (1.0 - void) * _p_holds_any(k, helper, below)
        best = max(best, base + p_target * p_under)
    return best - 0.01 * mine


def _pool_below(k: Knowledge, suit: int, strength: int) -> int:
    """Return the cards of ``suit`` that others may hold, ranking below ``strength``."""
    out = 0
    for c in _cards(k.others & SUIT_MASKS[suit]):
        if k.strength(c) < strength:
            out |= bit(c)
    return out
