"""What a seat can work out from its view: cards played, voids, who plays with whom.

``Knowledge.of(view)`` reads the view afresh every time (a bot keeps no memory between
decisions): the cards gone (completed tricks and the trick on the table), the cards that
may still lie in other hands, suits each seat has shown out of, hands laid open, and the
partnership, from the contract and from inference (a seat that shows out of the called
suit cannot hold the called card; once the called suit has been led without the card,
the declarer is alone; a seat that takes a trick away from the declarer is not his partner).
"""

from __future__ import annotations

from dataclasses import dataclass

from esmakker.core.cards import JOKER_BASE, JOKERS_MASK, SUIT_MASKS, deck_mask
from esmakker.core.play import led_suit, trick_winner
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.view import PlayerView

FRIEND, FOE, UNKNOWN = 1, -1, 0


def bit(card: int) -> int:
    """Return a card's mask bit."""
    return 1 << card


@dataclass(slots=True)
class Knowledge:
    """One seat's reading of the deal so far."""

    seat: int
    rules: RuleSet
    hand: int
    nolo: bool
    aces_low: bool
    trump: int
    """Trumps (-1: none or not known yet)."""
    declarer: int
    partner: int
    """The declarer's partner as this seat knows or infers it; -1 when alone or unknown."""
    partner_sure: bool
    """Whether ``partner`` is certain (from the view) rather than inferred or unknown."""
    called: int
    played: int
    """Every card played to a trick, the trick on the table included."""
    others: int
    """Cards that may lie in another seat's hand (not seen played, held or laid away)."""
    voids: list[int]
    """Per seat, a mask of suits (bit per suit) the seat has shown out of."""
    known: list[int]
    """Per seat, cards known to be in that hand (own hand, open hands, the partner's card)."""
    team: list[int]
    """Per seat: FRIEND, FOE or UNKNOWN as seen from this seat (itself FRIEND)."""
    trick_no: int
    nolo_players: tuple[int, ...]
    called_led: bool
    """Whether the called suit has been led (by a real lead) at least once."""
    led_suits: list[int]
    """Per seat, a mask of suits that seat has led."""
    open_seats: int
    """Seats (bit per seat) whose whole hand this seat sees: itself and hands laid open."""

    @classmethod
    def of(cls, view: PlayerView) -> Knowledge:
        """Read a view (the seat must be a player, the contract fixed)."""
        assert view.seat is not None
        contract = view.contract
        assert contract is not None
        rules = view.rules
        seat = int(view.seat)
        nolo = contract.bid.is_nolo
        trump = -1 if contract.trump is None else int(contract.trump)
        called = -1 if contract.called is None else int(contract.called)
        declarer = int(contract.declarer)
        played = 0
        voids = [0, 0, 0, 0]
        led_suits = [0, 0, 0, 0]
        called_led = False
        overtook = [False, False, False, False]
        aces_low = nolo and rules.nolo_aces_low
        all_tricks = [(int(t.leader), t.cards) for t in view.tricks]
        if view.trick:
            assert view.leader is not None
            all_tricks.append((int(view.leader), view.trick))
        for leader, cards in all_tricks:
            played_before = played
            lead = int(cards[0])
            if lead < JOKER_BASE:
                led_suits[leader] |= 1 << (lead // 13)
                if called >= 0 and lead // 13 == called // 13:
                    called_led = True
            ints = [int(c) for c in cards]
            for j, card in enumerate(ints):
                played |= bit(card)
                if j == 0:
                    continue
                who = (leader + j) % 4
                suit = led_suit(ints[:j], rules)
                shows_out = card >= JOKER_BASE or card // 13 != suit
                if suit >= 0 and shows_out and (card < JOKER_BASE or rules.joker_only_when_void):
                    voids[who] |= 1 << suit
                if not nolo and who != declarer:
                    before = trick_winner(ints[:j], trump, aces_low, rules)
                    after = trick_winner(ints[: j + 1], trump, aces_low, rules)
                    top = ints[before]
                    if (
                        (leader + before) % 4 == declarer
                        and after == j
                        and card != called
                        and _was_top(top, played_before)
                    ):
                        overtook[who] = True  # a partner does not take a sure trick away
        hand = view.hand.mask
        gone = played | hand | view.discarded.mask
        known = [0, 0, 0, 0]
        known[seat] = hand
        open_seats = 1 << seat
        for s, open_hand in enumerate(view.open_hands):
            if open_hand is not None:
                known[s] = open_hand.mask
                open_seats |= 1 << s
        partner, sure = _partner(view, seat, declarer, called, voids, played, called_led, overtook)
        if called >= 0 and partner >= 0 and sure and not played & bit(called):
            known[partner] |= bit(called)
        others = deck_mask(rules.num_jokers) & ~gone
        for s in range(4):
            if s != seat:
                others |= known[s] & ~played
        team = _teams(seat, declarer, partner, sure, nolo, contract.joiners)
        nolo_players = (declarer, *(int(j) for j in contract.joiners)) if nolo else ()
        return cls(
            seat=seat,
            rules=rules,
            hand=hand,
            nolo=nolo,
            aces_low=aces_low,
            trump=trump,
            declarer=declarer,
            partner=partner,
            partner_sure=sure,
            called=called,
            played=played,
            others=others,
            voids=voids,
            known=known,
            team=team,
            trick_no=len(view.tricks),
            nolo_players=nolo_players,
            called_led=called_led,
            led_suits=led_suits,
            open_seats=open_seats,
        )

    # --- questions the play asks -------------------------------------------------------

    def strength(self, card: int) -> int:
        """Return a suit card's order within its suit for this contract (ace -1 if low)."""
        rank = card % 13
        return -1 if self.aces_low and rank == 12 else rank

    def higher_outstanding(self, card: int, pool: int | None = None) -> int:
        """Return the cards of ``card``'s suit in ``pool`` (default: others) that beat it."""
        pool = self.others if pool is None else pool
        suit = card // 13
        mine = self.strength(card)
        mask = pool & SUIT_MASKS[suit]
        out = 0
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            if self.strength(c) > mine:
                out |= low
            mask ^= low
        return out

    def foes_after(self, trick_len: int, leader: int) -> list[int]:
        """Return the seats still to play to this trick after the seat to act."""
        return [(leader + j) % 4 for j in range(trick_len + 1, 4)]

    def may_hold_suit(self, seat: int, suit: int) -> bool:
        """Return whether ``seat`` may still hold a card of ``suit``."""
        if self.voids[seat] >> suit & 1:
            return False
        if self.known[seat] and self.is_open(seat):
            return bool(self.known[seat] & SUIT_MASKS[suit] & ~self.played)
        return bool(self.others & SUIT_MASKS[suit])

    def is_open(self, seat: int) -> bool:
        """Return whether this seat sees the whole of ``seat``'s hand."""
        return bool(self.open_seats >> seat & 1)

    def cards_of(self, seat: int, suit: int) -> int:
        """Return the cards of ``suit`` that ``seat`` may hold (known exactly if open)."""
        if self.voids[seat] >> suit & 1:
            return 0
        if self.is_open(seat):
            return self.known[seat] & SUIT_MASKS[suit] & ~self.played
        return self.others & SUIT_MASKS[suit]

    def trumps_out(self) -> int:
        """Return the trumps that may be in other hands."""
        return self.others & SUIT_MASKS[self.trump] if self.trump >= 0 else 0

    def jokers_out(self) -> int:
        """Return the jokers that may be in other hands."""
        return self.others & JOKERS_MASK


def _was_top(card: int, played_before: int) -> bool:
    """Return whether a suit card was the highest of its suit not yet played (aces high)."""
    if card >= JOKER_BASE:
        return False
    above = SUIT_MASKS[card // 13] & ~((1 << (card + 1)) - 1)
    return not above & ~played_before


def _partner(
    view: PlayerView,
    seat: int,
    declarer: int,
    called: int,
    voids: list[int],
    played: int,
    called_led: bool,
    overtook: list[bool],
) -> tuple[int, bool]:
    """Return the partner (-1 alone/unknown) and whether that is certain."""
    contract = view.contract
    assert contract is not None
    if contract.bid.is_nolo:
        return -1, True
    if contract.partner_known:
        return (-1 if contract.partner is None else int(contract.partner)), True
    if called < 0:
        return -1, False
    if called_led and not played & bit(called):
        return -1, True  # the called suit came and went without its card: alone
    candidates = [
        s
        for s in range(4)
        if s not in (seat, declarer) and not voids[s] >> (called // 13) & 1 and not overtook[s]
    ]
    if seat == declarer:
        if len(candidates) == 1:
            return candidates[0], False
        return -1, False
    if len(candidates) == 1:
        return candidates[0], False
    return -1, False


def _teams(
    seat: int,
    declarer: int,
    partner: int,
    sure: bool,
    nolo: bool,
    joiners: tuple[Seat, ...],
) -> list[int]:
    team = [UNKNOWN] * 4
    team[seat] = FRIEND
    if nolo:
        players = {declarer, *(int(j) for j in joiners)}
        for s in range(4):
            if s == seat:
                continue
            if seat in players:
                team[s] = FOE
            else:
                team[s] = FOE if s in players else FRIEND
        return team
    side = {declarer} | ({partner} if partner >= 0 else set())
    if seat in side:
        for s in range(4):
            if s != seat:
                if s in side:
                    team[s] = FRIEND
                elif partner >= 0 or sure:
                    team[s] = FOE
        if seat == declarer and partner < 0 and not sure:
            for s in range(4):
                if s != seat:
                    team[s] = UNKNOWN
        return team
    # A defender (or a seat that does not know yet).
    team[declarer] = FOE
    for s in range(4):
        if s in (seat, declarer):
            continue
        if partner >= 0:
            team[s] = FOE if s == partner else FRIEND
        elif sure:
            team[s] = FRIEND
    return team
