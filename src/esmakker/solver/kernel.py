# mypy: disable-error-code="no-any-return"
"""The search kernel: integer bitmasks only, compiled by numba where it is installed.

One position is four hand masks over the solver's card order (``position.py``), the
cards of the trick in progress, the leader and the trick number. Cards within a suit are
numbered by strength (an ace that plays low in nolo is the suit's lowest bit), so the
trick winner compares numbers. The rules of the play mirror ``esmakker.core.play`` and
``esmakker.core.trickplay`` (legal cards, the called-card duty, the trick winner); a test
checks them against the engine on random positions of every preset.

The search answers one question, "can the side take ``need`` of the ``left`` tricks?",
by alpha-beta with a null window (the DDS approach, Bo Haglund's description of his
double-dummy solver): a transposition table at trick starts holds lower and upper bounds
of the side's tricks for a partition of positions (suit lengths and jokers exact, the
owners of the cards that decided the answer by rank: DDS's "winning ranks", after
Ginsberg's partition search), quick tricks (the leader's own, and without trumps his and
his partner's together; partners may sit anywhere), a top-trump bound, a trump-length
bound (a team whose opponents hold no trumps takes its longest trump holding) and, where a
team needs every trick left, DDS's later tricks (``sweep_blocked``, ``guarded_second_trump``;
``split_top_trumps`` for two tricks) cut the search at trick starts, so does a trick the
second hand's team surely wins when it needs no more (and without trumps, its winner's
next sure tricks: ``second_hand_wins``, ``second_hand_more``), equivalent cards
(cards of one hand with no live card between them) are tried once, a card that failed
makes the same hand's cards of its suit below the deciding run needless (DDS's lowest
winning ranks; where its answer was searched for a run of equal cards
and the run's place mattered, the run is kept whole in the table's key). Where the
leader's partner sits opposite (bridge, and whist deals so seated), the leads are tried
by DDS's lead weights (``weighted_lead``: who holds the suit's top cards, the opponents'
lengths and voids, finesses and ruffs; the card that last cut the search at the same
trick, DDS's best move, gains weight). Elsewhere, at a lead that card is tried first, then
sure winners (trumps first while an opponent holds one, then the suit with the longest run
of top cards, where no opponent may ruff), then low to a mate's top card, then the other
leads: through the next hand's top card to a mate's guarded second (``lead_through``),
then from the shortest suit (``short_suit_lead``); at the other hands, cards that win the
trick (the second hand low where the fourth, a mate, beats the lead and the third:
``partner_beats``), and a hand that cannot follow discards low from its longest suit
(``best_discard``).
Relative hands are gathered and scattered bitwise (BMI2's pext and pdep where the CPU
has them fast: ``gather``, ``scatter``). ``solve_value`` steps from a first guess (``solve._guess``) to the answer.

Arrays: ``hands`` int64[4]; ``trick`` int64[56] (four slots per trick number);
``cfg`` int64[CFG_SIZE]; the table: ``tt_tags`` int64[size], each entry's first word of
the exact key (-1: empty), so that a lookup scans a bucket's tags side by side, and
``tt_body`` int64[TT_BODY * size], the rest of entry ``e`` in one cache line from
``TT_BODY * e`` (``TT_WAYS`` entries per bucket, filled from its start; a full bucket
replaces one at random); ``stats`` int64[STATS_SIZE]: nodes
searched, the node budget (the search gives up past it; the caller must then discard the
answer and the table), each depth's relevant cards and each trick's killer lead. The
pure path passes lists. A store reuses its lookup's scan: the bucket's first free entry
and the entry of the same partition, where they still hold.
"""

from __future__ import annotations

from typing import Any

from esmakker.solver.jit import (
    bit_intrinsics,
    bmi2_intrinsics,
    borrow_intrinsic,
    maybe_jit,
    maybe_jit_uncached,
    plain,
)

jit = plain if globals().get("_FORCE_PURE") else maybe_jit
jit_recursive = plain if globals().get("_FORCE_PURE") else maybe_jit_uncached

# cfg slots
CFG_TRUMP, CFG_FLAGS, CFG_CALLED, CFG_DUTY, CFG_SIDE, CFG_MAX, CFG_TT_MASK = 0, 1, 2, 3, 4, 5, 6
CFG_SIZE = 7
STATS_REL = 2
"""``stats[0]`` nodes, ``stats[1]`` the node budget, ``stats[STATS_REL + depth]`` relevant cards."""
STATS_KILLER = STATS_REL + 60
"""``stats[STATS_KILLER + trick]``: the lead that last cut the search at that trick, plus one."""
STATS_SIZE = STATS_KILLER + 15
TT_WAYS = 256
"""Entries per bucket. The bucket is chosen by the exact key alone, so one position's many
partitions share it: fewer ways lose entries (64 ways search 17% more nodes)."""
TT_BODY = 8
"""Words of an entry's body: the exact key's second word, the relative mask, the owners
(4 words), the lower and the upper bound. Its first word is its tag, in a table of its own."""
"""``CFG_SIDE``: the seats whose tricks count; ``CFG_MAX``: the seats that want them many."""

# flags: the rule options of the play (rules.md section 9)
F_JOKER_ONLY_WHEN_VOID = 1
F_NO_JOKER_LEAD_TRICK1 = 2
F_NEXT_CARD_SETS_SUIT = 4
F_JOKER_BEATS_PLAIN = 8
F_CALLED_FORCED_ON_OWN_LEAD = 16
F_CALLED_MAY_BE_DISCARDED = 32

JOKER_BASE = 52
JOKERS = 0b111 << 52
PLAIN = (1 << 52) - 1
BOTTOMS = 1 | (1 << 13) | (1 << 26) | (1 << 39)
"""Each suit's lowest card."""
SUIT = 0x1FFF
TRICK_SLOTS = 56
_HASH_A = 0x5851F42D4C957F2D
_HASH_B = 0x14057B7EF767814F

Arr = Any
"""An int64 array, or a list of ints on the pure path."""


_BITS = None if globals().get("_FORCE_PURE") else bit_intrinsics()
_BORROW = None if globals().get("_FORCE_PURE") else borrow_intrinsic()
_BMI2 = None if globals().get("_FORCE_PURE") else bmi2_intrinsics()

if _BORROW is None:

    @jit
    def borrowed(array: Arr) -> Arr:
        """Return the array itself (the pure path counts no references)."""
        return array

else:
    _borrowed = _BORROW

    @jit
    def borrowed(array: Arr) -> Arr:
        """Return a view of the array that counts no references (``jit.borrow_intrinsic``)."""
        return _borrowed(array)


if _BITS is None:

    @jit
    def popcount(x: int) -> int:
        """Return the number of set bits of a mask below 2**63."""
        x = x - ((x >> 1) & 0x5555555555555555)
        x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
        return ((x * 0x0101010101010101) >> 56) & 0xFF

    @jit
    def low_index(mask: int) -> int:
        """Return the index of the lowest set bit."""
        return popcount((mask & -mask) - 1)

    @jit
    def high_index(mask: int) -> int:
        """Return the index of the highest set bit."""
        x = mask
        x |= x >> 1
        x |= x >> 2
        x |= x >> 4
        x |= x >> 8
        x |= x >> 16
        x |= x >> 32
        return popcount(x) - 1

else:
    _ctpop, _cttz, _ctlz = _BITS

    @jit
    def popcount(x: int) -> int:
        """Return the number of set bits of a mask below 2**63 (one CPU instruction)."""
        return _ctpop(x)

    @jit
    def low_index(mask: int) -> int:
        """Return the index of the lowest set bit."""
        return _cttz(mask)

    @jit
    def high_index(mask: int) -> int:
        """Return the index of the highest set bit."""
        return 63 - _ctlz(mask)


@jit
def led_suit(trick: Arr, base: int, n: int, flags: int) -> int:
    """Return the suit to follow, or -1 when any card may be played (``core.play.led_suit``)."""
    lead = trick[base]
    if lead < JOKER_BASE:
        return lead // 13
    if not flags & F_NEXT_CARD_SETS_SUIT:
        return -1
    for i in range(1, n):
        card = trick[base + i]
        if card < JOKER_BASE:
            return card // 13
    return -1


@jit
def follow_mask(hand: int, suit: int, flags: int) -> int:
    """Return the cards that may be played to a trick of ``suit`` (``core.play.follow_mask``)."""
    if suit < 0:
        return hand
    follow = hand & (SUIT << (13 * suit))
    if follow == 0:
        return hand
    if flags & F_JOKER_ONLY_WHEN_VOID:
        return follow
    return follow | (hand & JOKERS)


@jit
def lead_mask(hand: int, trick_no: int, flags: int) -> int:
    """Return the cards that may be led (``core.play.lead_mask``)."""
    if trick_no == 0 and flags & F_NO_JOKER_LEAD_TRICK1 and hand & ~JOKERS:
        return hand & ~JOKERS
    return hand


@jit
def duty_mask(hand: int, trick: Arr, base: int, n: int, trick_no: int, cfg: Arr) -> int:
    """Return the legal cards of the holder bound to the called card (``trickplay._duty_mask``)."""
    flags = cfg[CFG_FLAGS]
    called = cfg[CFG_CALLED]
    called_suit = called // 13
    if n == 0:
        mask = lead_mask(hand, trick_no, flags)
        if flags & F_CALLED_FORCED_ON_OWN_LEAD:
            mask &= ~((SUIT << (13 * called_suit)) & ~(1 << called))
        return mask
    lead = trick[base]
    if lead < JOKER_BASE and lead // 13 == called_suit:
        return 1 << called
    suit = led_suit(trick, base, n, flags)
    mask = follow_mask(hand, suit, flags)
    throw_away = suit != called_suit and called_suit != cfg[CFG_TRUMP]
    if throw_away and not flags & F_CALLED_MAY_BE_DISCARDED:
        rest = mask & ~(1 << called)
        if rest:
            return rest
    return mask


@jit
def legal_mask(
    hands: Arr, seat: int, trick: Arr, base: int, n: int, trick_no: int, cfg: Arr
) -> int:
    """Return the cards ``seat`` may play now (``trickplay.legal_mask``)."""
    hand = hands[seat]
    called = cfg[CFG_CALLED]
    if seat == cfg[CFG_DUTY] and called >= 0 and (hand >> called) & 1:
        return duty_mask(hand, trick, base, n, trick_no, cfg)
    flags = cfg[CFG_FLAGS]
    if n == 0:
        return lead_mask(hand, trick_no, flags)
    lead = trick[base]
    if lead < JOKER_BASE:
        return follow_mask(hand, lead // 13, flags)
    return follow_mask(hand, led_suit(trick, base, n, flags), flags)


@jit
def power(card: int, led: int, trump: int, flags: int) -> int:
    """Return a card's power in a trick led in ``led`` (``core.play._power_table``)."""
    if card >= JOKER_BASE:
        return 20 if flags & F_JOKER_BEATS_PLAIN else 0
    suit = card // 13
    if suit == trump:
        return 32 + card % 13
    if suit == led:
        return 2 + card % 13
    return 0


@jit
def winner(trick: Arr, base: int, n: int, trump: int, flags: int) -> int:
    """Return the index of the card winning the first ``n`` cards (``core.play.trick_winner``)."""
    lead = trick[base]
    if lead >= JOKER_BASE:
        return 0
    led = lead // 13
    best = 0
    best_power = power(lead, led, trump, flags)
    for i in range(1, n):
        p = power(trick[base + i], led, trump, flags)
        if p > best_power:
            best = i
            best_power = p
    return best


@jit
def representatives(legal: int, alive: int, called: int) -> int:
    """Return one card of each run of equivalent legal cards (the lowest of the run).

    Cards of one hand are equivalent when no live card (in a hand or in the trick)
    lies between them; the jokers are all alike; a called card still held is kept apart.
    A card stands for its run unless the next live card below it is the hand's own: the
    own cards are filled upwards through the gaps the played cards left (an occluded
    fill, in four doubling steps), never across the bottom of a suit.
    """
    reps = 0
    jokers = legal & JOKERS
    if jokers:
        reps |= jokers & -jokers
    own = legal & PLAIN
    kept = 0
    if called >= 0 and (own >> called) & 1:
        kept = 1 << called
        own ^= kept
    gaps = ~alive & PLAIN & ~BOTTOMS
    fill = own
    fill |= gaps & (fill << 1)
    gaps &= gaps << 1
    fill |= gaps & (fill << 2)
    gaps &= gaps << 2
    fill |= gaps & (fill << 4)
    gaps &= gaps << 4
    fill |= gaps & (fill << 8)
    return reps | kept | (own & ~((fill << 1) & ~BOTTOMS))


if _BMI2 is None:

    @jit
    def gather(value: int, mask: int) -> int:
        """Return ``value``'s bits under ``mask`` packed into the low bits (BMI2's pext)."""
        out = 0
        place = 1
        while mask:
            low = mask & -mask
            if value & low:
                out |= place
            mask ^= low
            place <<= 1
        return out

    @jit
    def scatter(value: int, mask: int) -> int:
        """Return ``value``'s low bits spread onto ``mask``'s places (BMI2's pdep)."""
        out = 0
        while mask:
            low = mask & -mask
            if value & 1:
                out |= low
            mask ^= low
            value >>= 1
        return out

else:
    _pext, _pdep = _BMI2

    @jit
    def gather(value: int, mask: int) -> int:
        """Return ``value``'s bits under ``mask`` packed into the low bits (one instruction)."""
        return _pext(value, mask)

    @jit
    def scatter(value: int, mask: int) -> int:
        """Return ``value``'s low bits spread onto ``mask``'s places (one instruction)."""
        return _pdep(value, mask)


@jit
def places(alive: int) -> int:
    """Return the relative places of the live plain cards: each suit's lowest bits, one per card."""
    out = 0
    for suit in range(4):
        shift = 13 * suit
        out |= ((1 << popcount((alive >> shift) & SUIT)) - 1) << shift
    return out


@jit
def relative_hands(hands: Arr, called: int) -> tuple[int, int, int, int, int]:
    """Return the hands with the played cards squeezed out of each suit, and the called card.

    Positions that differ only in which low cards are gone have the same relative hands
    and the same value (DDS's relative ranks); the called card's relative place (or -1)
    is returned last, since its duty sets it apart.
    """
    alive = (hands[0] | hands[1] | hands[2] | hands[3]) & PLAIN
    spots = places(alive)
    r0 = scatter(gather(hands[0], alive), spots) | (hands[0] & JOKERS)
    r1 = scatter(gather(hands[1], alive), spots) | (hands[1] & JOKERS)
    r2 = scatter(gather(hands[2], alive), spots) | (hands[2] & JOKERS)
    r3 = scatter(gather(hands[3], alive), spots) | (hands[3] & JOKERS)
    crel = -1
    if 0 <= called < JOKER_BASE and (alive >> called) & 1:
        crel = low_index(scatter(gather(1 << called, alive), spots))
    return r0, r1, r2, r3, crel


@jit
def top_trumps(hands: Arr, trump: int) -> int:
    """Return ``holder << 8 | count`` for the run of top trumps in one hand, or 0 (DDS's
    later tricks). Each of them wins a trick of its own, but for jokers still to be led:
    on each joker lead he may have to play a card (a trump, where the next card sets the
    suit), and he spends his other cards and lower trumps first.
    """
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    if trump < 0:
        return 0
    shift = 13 * trump
    rest = (alive >> shift) & SUIT
    if not rest:
        return 0
    top = high_index(rest)
    holder = 0
    for seat in range(4):
        if (hands[seat] >> (top + shift)) & 1:
            holder = seat
    mine = (hands[holder] >> shift) & SUIT
    count = 0
    while rest:
        top = high_index(rest)
        if not (mine >> top) & 1:
            break
        count += 1
        rest ^= 1 << top
    led_jokers = popcount(alive & JOKERS & ~hands[holder])
    if led_jokers:
        lower = popcount(mine) - count
        count = min(count - max(0, led_jokers - lower), popcount(hands[holder]) - led_jokers)
        count = max(count, 0)
    return (holder << 8) | count


@jit
def trump_length_tricks(hands: Arr, trump: int, team: int) -> int:
    """Return tricks ``team`` is sure of when no opponent holds a trump, else 0.

    Every trick holding one of the team's trumps is the team's but for a joker of an
    opponent (a led one wins, and one may beat plain cards), so the team takes at least
    its longest trump holding less the opponents' jokers. Only lengths and jokers decide
    it, which the table's key holds exactly.
    """
    if trump < 0:
        return 0
    shift = 13 * trump
    longest = 0
    opp_jokers = 0
    for seat in range(4):
        trumps = popcount((hands[seat] >> shift) & SUIT)
        if (team >> seat) & 1:
            longest = max(longest, trumps)
        elif trumps:
            return 0
        else:
            opp_jokers += popcount(hands[seat] & JOKERS)
    return max(longest - opp_jokers, 0)


@jit
def suit_tops(hand: int, alive: int, suit: int) -> int:
    """Return how many of the top live cards of ``suit`` in a row ``hand`` holds."""
    return popcount(top_run(hand, alive, suit))


@jit
def cash_limit(hands: Arr, opponents: int, suit: int, trump: int) -> int:
    """Return how many rounds of ``suit`` can be cashed before an opponent may ruff.

    Every opponent follows in each of these rounds, so none discards on the way and the
    limits of different suits hold together. No limit (13) for trumps or when the
    opponents hold no trumps.
    """
    if trump < 0 or suit == trump:
        return 13
    trumps = SUIT << (13 * trump)
    shift = 13 * suit
    limit = 13
    has_trumps = False
    for seat in range(4):
        if (opponents >> seat) & 1:
            if hands[seat] & trumps:
                has_trumps = True
            limit = min(limit, popcount((hands[seat] >> shift) & SUIT))
    return limit if has_trumps else 13


@jit
def own_quick(hands: Arr, leader: int, trump: int, flags: int, team: int, partner_ok: int) -> int:
    """Return ``own_quick_in`` over all four suits."""
    return own_quick_in(hands, leader, trump, flags, team, partner_ok, 15)


@jit
def own_quick_in(
    hands: Arr, leader: int, trump: int, flags: int, team: int, partner_ok: int, suits: int
) -> int:
    """Return tricks the leader's team can cash at once from his own top cards.

    ``team`` holds the leader's seats. A led joker wins (after the first trick) and keeps
    the lead. The leader cashes the top cards of his suits while every opponent follows
    (if an opponent may ruff), and while no team-mate may be forced to win one by a ruff
    (or a joker that beats plain cards) and take the lead away. Without trumps a partner
    (a seat of ``partner_ok``) may then be reached with a small card in a suit whose top
    he holds, and cash his own. None count when unled jokers may beat plain cards and
    an opponent holds one.
    """
    opponents = 15 & ~team
    hand = hands[leader]
    jokers = popcount(hand & JOKERS)
    left = popcount(hand)
    opp_all = 0
    for seat in range(4):
        if (opponents >> seat) & 1:
            opp_all |= hands[seat]
    if flags & F_JOKER_BEATS_PLAIN and opp_all & JOKERS:
        return jokers
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    rounds = 0
    for suit in range(4):
        if not (suits >> suit) & 1:
            continue
        tops = suit_tops(hand, alive, suit)
        if tops:
            rounds += min(tops, cash_limit(hands, opponents, suit, trump))
    if rounds == 0:
        return min(jokers, left)
    winners = JOKERS if flags & F_JOKER_BEATS_PLAIN else 0
    if trump >= 0:
        winners |= SUIT << (13 * trump)
    for mate in range(4):
        forced = (team >> mate) & 1 and popcount(hands[mate] & ~winners) < rounds
        if mate != leader and forced and hands[mate] & winners:
            # He might have to win one of them and lead: only the first trick is sure.
            return max(min(jokers, left), 1)
    count = jokers + rounds
    if (trump >= 0 and alive & (SUIT << (13 * trump))) or flags & F_JOKER_BEATS_PLAIN:
        # Where an opponent may ruff, plain cards go first and jokers last (after a joker
        # lead he may throw a card and ruff that suit later); no partner is reached.
        return min(count, left)
    best = count
    for mate in range(4):
        if mate == leader or not (partner_ok >> mate) & 1:
            continue
        extra = partner_tricks(hands, leader, mate, alive, left - count)
        best = max(best, count + extra)
    return min(best, left)


@jit
def fewest_suits(
    hands: Arr, leader: int, trump: int, flags: int, team: int, need: int, left: int, side: int
) -> int:
    """Return the suits whose top cards alone give the leader's quick tricks the cut.

    Fewer suits make fewer cards relevant, so the table's entry holds for more positions.
    """
    suits = 15
    on_side = (side >> leader) & 1
    for suit in range(4):
        trial = suits & ~(1 << suit)
        quick = own_quick_in(hands, leader, trump, flags, team, 1 << leader, trial)
        if (quick >= need) if on_side else (need > left - quick):
            suits = trial
    return suits


@jit
def plain_ending(alive: int, trump: int, called: int) -> bool:
    """Return whether no joker, no trump and no called card is left: every trick goes to
    the highest card of the suit led."""
    if alive & JOKERS:
        return False
    if trump >= 0 and alive & (SUIT << (13 * trump)):
        return False
    return called < 0 or not (alive >> called) & 1


@jit
def sweep_blocked(hands: Arr, team: int, alive: int, left: int) -> int:
    """Return the cards that keep ``team`` from taking all ``left`` tricks, or -1.

    Without trumps or jokers a team takes every trick only in suits it can win: where an
    opponent holds the top card, he plays it whenever the suit is led. In a suit whose top
    card it holds, a team takes at most as many tricks as its longest holding (every trick
    of the suit takes a card of it from each of its hands that still holds one). Where
    those lengths add up to fewer than ``left`` tricks, the team cannot take them all (DDS's
    later tricks). The opponents' top cards decide it, where another hand holds the suit.
    """
    total = 0
    rel = 0
    for suit in range(4):
        shift = 13 * suit
        live = (alive >> shift) & SUIT
        if not live:
            continue
        top = high_index(live)
        holder = 0
        for seat in range(4):
            if (hands[seat] >> (top + shift)) & 1:
                holder = seat
        if (team >> holder) & 1:
            longest = 0
            for seat in range(4):
                if (team >> seat) & 1:
                    longest = max(longest, popcount((hands[seat] >> shift) & SUIT))
            total += longest
        elif live & ~((hands[holder] >> shift) & SUIT):
            rel |= 1 << (top + shift)
    return rel if total < left else -1


@jit
def plain_trumps(alive: int, trump: int, called: int) -> bool:
    """Return whether trumps are left and no joker or called card is: the top trump wins."""
    if trump < 0 or alive & JOKERS:
        return False
    return called < 0 or not (alive >> called) & 1


@jit
def second_hand_wins(hands: Arr, trick: Arr, base: int, seat: int, trump: int, team: int) -> int:
    """Return the card by which the second hand's ``team`` surely wins the trick, 0 if by a
    ruff, or -1 (DDS's quick tricks of the second hand; no jokers or called card left).

    The team wins when one of its hands still to play holds a card of the suit led above
    the lead and above the opponents' still to play, or, in a side suit, may ruff, as long
    as no opponent still to play may ruff.
    """
    led = trick[base] // 13
    shift = 13 * led
    side_suit = trump >= 0 and led != trump
    ours = 0
    theirs = 0
    ruff = False
    for i in range(3):
        other = (seat + i) & 3
        cards = (hands[other] >> shift) & SUIT
        may_ruff = side_suit and not cards and (hands[other] >> (13 * trump)) & SUIT != 0
        if (team >> other) & 1:
            ours |= cards
            ruff = ruff or may_ruff
        elif may_ruff:
            return -1
        else:
            theirs |= cards
    if ours:
        top = high_index(ours)
        if top > trick[base] - shift and (not theirs or top > high_index(theirs)):
            return 1 << (top + shift)
    return 0 if ruff else -1


@jit
def second_hand_more(hands: Arr, won: int, alive: int) -> tuple[int, int]:
    """Return the tricks the second hand's team takes from this one on without trumps, and
    the cards that decide them: this trick, the next best card of the suit led where the
    winner holds it too, and his top cards in other suits (all of a suit nobody else holds).
    """
    card = low_index(won)
    holder = 0
    for other in range(4):
        if (hands[other] >> card) & 1:
            holder = other
    rest = alive & ~won
    count = 1
    rel = won
    for suit in range(4):
        shift = 13 * suit
        live = (rest >> shift) & SUIT
        mine = (hands[holder] >> shift) & live
        if not mine:
            continue
        top = high_index(live)
        if live == mine and suit != card // 13:
            count += popcount(mine)
        elif (mine >> top) & 1:
            count += 1
            rel |= 1 << (top + shift)
    return count, rel


@jit
def team_cards(hands: Arr, team: int) -> int:
    """Return the cards the seats of ``team`` hold."""
    cards = 0
    for seat in range(4):
        if (team >> seat) & 1:
            cards |= hands[seat]
    return cards


@jit
def split_top_trumps(hands: Arr, alive: int, trump: int, side: int) -> int:
    """Return the top two trumps if two hands of one team hold them, one with another
    trump, else -1: that team takes two tricks with them (DDS's later tricks).

    On a trick where one of them must play his top trump the other need not: one of them
    holds a lower trump to play instead. (In one hand, ``top_trumps`` counts them.)
    """
    shift = 13 * trump
    live = (alive >> shift) & SUIT
    if popcount(live) < 2:
        return -1
    top = high_index(live) + shift
    second = high_index(live & ~(1 << (top - shift))) + shift
    first_holder = 0
    second_holder = 0
    for seat in range(4):
        if (hands[seat] >> top) & 1:
            first_holder = seat
        if (hands[seat] >> second) & 1:
            second_holder = seat
    if first_holder == second_holder:
        return -1
    if ((side >> first_holder) & 1) != ((side >> second_holder) & 1):
        return -1
    longer = max(
        popcount((hands[first_holder] >> shift) & SUIT),
        popcount((hands[second_holder] >> shift) & SUIT),
    )
    if longer < 2:
        return -1
    return (1 << top) | (1 << second)


@jit
def guarded_second_trump(hands: Arr, team: int, alive: int, trump: int, leader: int) -> int:
    """Return the top two trumps if they give an opponent of ``team`` a trick, else -1.

    Without jokers, with ``team`` on lead, an opponent holding the second trump and
    another one, with the top trump in the hand that plays just before his, always takes
    a trick: he never leads before he has taken one, and on each trick holding trumps he
    sees whether the top one is played, plays low if it is and wins with his if not (DDS's
    later tricks). Were he on lead with trumps only, he might have to lead into the top one.
    """
    if not (team >> leader) & 1:
        return -1
    shift = 13 * trump
    live = (alive >> shift) & SUIT
    if popcount(live) < 2:
        return -1
    top = high_index(live)
    second = high_index(live & ~(1 << top))
    holder = -1
    guard = -1
    for seat in range(4):
        if (hands[seat] >> (top + shift)) & 1:
            holder = seat
        if (hands[seat] >> (second + shift)) & 1:
            guard = seat
    if (team >> guard) & 1 or holder != (guard + 3) & 3:
        return -1
    if popcount((hands[guard] >> shift) & SUIT) < 2:
        return -1
    return (1 << (top + shift)) | (1 << (second + shift))


@jit
def nolo_safe(hands: Arr, leader: int, side: int, flags: int) -> int:
    """Return the cards that keep a lone nolo player from every trick, or -1 if not sure.

    Without trumps he never wins a trick while each of his cards is below all the others'
    cards of its suit: a suit they lead he follows low, on another he throws, and he never
    leads again. On lead now he needs a suit the others still hold. Their jokers win when
    led (or beat plain cards) for themselves; his own must be harmless when thrown. Only
    his top card of each suit need stay in place (every live card above it is theirs, and
    as many as lie below it are his).
    """
    if popcount(side) != 1:
        return -1
    player = low_index(side)
    if flags & F_JOKER_BEATS_PLAIN and hands[player] & JOKERS:
        return -1
    rel = 0
    lead_ok = leader != player
    for suit in range(4):
        shift = 13 * suit
        mine = (hands[player] >> shift) & SUIT
        theirs = ((hands[0] | hands[1] | hands[2] | hands[3]) >> shift) & SUIT & ~mine
        if not mine or not theirs:
            continue
        if high_index(mine) > low_index(theirs):
            return -1
        rel |= 1 << (high_index(mine) + shift)
        lead_ok = True
    return rel if lead_ok else -1


@jit
def quick_tricks(
    hands: Arr, leader: int, trump: int, flags: int, team: int, partner_ok: int
) -> int:
    """Return tricks the leader's team can cash at once, a lower bound (DDS quick tricks).

    The best of the leader's own count (``own_quick``) and, where no opponent holds a
    trump and jokers never beat plain cards, the leader and his one team-mate cashing
    their top cards together (``team_cash``).
    """
    best = own_quick(hands, leader, trump, flags, team, partner_ok)
    if flags & F_JOKER_BEATS_PLAIN or popcount(team) != 2:
        return best
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    if trump >= 0:
        for seat in range(4):
            if not (team >> seat) & 1 and hands[seat] & (SUIT << (13 * trump)):
                return best
    for mate in range(4):
        if mate != leader and (partner_ok >> mate) & 1:
            best = max(best, team_cash(hands, leader, mate, team, alive, flags, trump))
    return min(best, popcount(hands[leader]))


@jit
def team_top(hands: Arr, team: int, alive: int, suit: int) -> int:
    """Return the mask of the top live cards of ``suit`` held by the team, down to an opponent's."""
    return top_run(team_cards(hands, team), alive, suit)


@jit
def suit_cash(mine: int, other: int, tops: int, opp_len: int) -> int:
    """Return ``tricks << 1 | ends_with_other`` for cashing one suit (no opponent trumps).

    ``mine`` (on lead) and ``other`` are two team-mates' cards of the suit, ``tops`` the
    team's top cards in it (above every opponent's card), ``opp_len`` the longest
    opponent's length: after that many rounds every card of the suit wins. The leader
    leads his highest winner, or a low card to the other's winner; the follower plays
    low if he can, else his lowest winner (which may win and take the lead). Stops
    before a trick could be lost.
    """
    hands0 = mine
    hands1 = other
    lead = 0
    tricks = 0
    while True:
        winners = tops if tricks < opp_len else SUIT
        h = hands0 if lead == 0 else hands1
        o = hands1 if lead == 0 else hands0
        if not h:
            break
        h_win = h & winners
        o_win = o & winners
        if h_win:
            card = high_index(h_win)
        elif o_win:
            card = low_index(h)
        else:
            break
        follow = -1
        if not (winners >> card) & 1:
            follow = low_index(o_win)
        elif o & ~winners:
            follow = low_index(o & ~winners)
        elif o:
            follow = low_index(o)
        h ^= 1 << card
        if follow >= 0:
            o ^= 1 << follow
        tricks += 1
        win_other = follow > card and (winners >> follow) & 1
        if lead == 0:
            hands0 = h
            hands1 = o
        else:
            hands1 = h
            hands0 = o
        if win_other:
            lead ^= 1
    return (tricks << 1) | lead


@jit
def team_cash(
    hands: Arr, leader: int, mate: int, team: int, alive: int, flags: int, trump: int
) -> int:
    """Return the tricks the leader and his one team-mate cash at once, no opponent
    holding a trump.

    The leader leads his jokers, then cashes suit by suit (``suit_cash``): the suits that
    leave him on lead, then the best one that does not. Each of them must be able to throw
    cards of the other plain suits where he has run out (a trump thrown would win the
    trick and move the lead); else 0. Where the card after a joker
    lead sets the suit, the mate might have to follow it with a counted card: the
    leader's jokers then only serve as throws.
    """
    hand = hands[leader]
    partner = hands[mate]
    jokers = popcount(hand & JOKERS)
    spare_jokers = 0
    if flags & F_NEXT_CARD_SETS_SUIT:
        spare_jokers = jokers
        jokers = 0
    keep_tricks = 0
    keep_suits = 0
    last_tricks = 0
    last_suit = -1
    tricks_of = 0
    for suit in range(4):
        shift = 13 * suit
        tops = team_top(hands, team, alive, suit) >> shift
        if not tops:
            continue
        opp_len = 0
        for seat in range(4):
            if not (team >> seat) & 1:
                opp_len = max(opp_len, popcount((hands[seat] >> shift) & SUIT))
        result = suit_cash((hand >> shift) & SUIT, (partner >> shift) & SUIT, tops, opp_len)
        tricks = result >> 1
        if tricks == 0:
            continue
        tricks_of |= tricks << (4 * suit)
        if result & 1:
            if tricks > last_tricks:
                last_tricks = tricks
                last_suit = suit
        else:
            keep_tricks += tricks
            keep_suits |= 1 << suit
    suits = keep_suits
    if last_suit >= 0:
        suits |= 1 << last_suit
    # Throws: in a counted suit a hand that runs out throws cards of the uncounted suits.
    need_l = 0
    need_p = jokers
    spare_l = spare_jokers
    spare_p = popcount(partner & JOKERS)
    for suit in range(4):
        shift = 13 * suit
        len_l = popcount((hand >> shift) & SUIT)
        len_p = popcount((partner >> shift) & SUIT)
        if (suits >> suit) & 1:
            tricks = (tricks_of >> (4 * suit)) & 15
            need_l += max(0, tricks - len_l)
            need_p += max(0, tricks - len_p)
        elif suit != trump:
            spare_l += len_l
            spare_p += len_p
    if need_l > spare_l or need_p > spare_p:
        return 0
    return jokers + keep_tricks + last_tricks


@jit
def partner_tricks(hands: Arr, leader: int, mate: int, alive: int, spare: int) -> int:
    """Return the tricks ``mate`` cashes after the leader reaches him with a small card.

    Only where nobody holds a trump. ``spare`` is the leader's cards left after his own
    cashing; the mate must keep his counted cards through it (following or throwing
    others). 0 when no suit gives an entry.
    """
    hand = hands[mate]
    own = popcount(hand & JOKERS)
    entry = False
    for suit in range(4):
        tops = suit_tops(hand, alive, suit)
        if tops:
            own += tops
            if (hands[leader] >> (13 * suit)) & SUIT:
                entry = True
    if not entry or spare < 1:
        return 0
    cashed = popcount(hands[leader]) - spare
    if cashed + own > popcount(hand):
        return 0
    return own


@jit
def lengths(hand: int) -> int:
    """Return a hand's four suit lengths, four bits each."""
    out = 0
    for suit in range(4):
        out |= popcount((hand >> (13 * suit)) & SUIT) << (4 * suit)
    return out


@jit
def top_run(hand: int, alive: int, suit: int) -> int:
    """Return the mask of the run of top live cards of ``suit`` held in ``hand``."""
    shift = 13 * suit
    rest = (alive >> shift) & SUIT
    run = 0
    while rest:
        top = high_index(rest)
        if not (hand >> (top + shift)) & 1:
            break
        run |= 1 << (top + shift)
        rest ^= 1 << top
    return run


@jit
def to_relative(rel: int, alive: int) -> int:
    """Return the relative mask of the top live cards of each suit down to its lowest in ``rel``."""
    out = 0
    for suit in range(4):
        shift = 13 * suit
        live = (alive >> shift) & SUIT
        r = (rel >> shift) & live
        if r:
            count = popcount(live)
            top = popcount(live >> low_index(r))
            out |= (((1 << top) - 1) << (count - top)) << shift
    return out


@jit
def to_absolute(relmask: int, alive: int) -> int:
    """Return the live cards standing at the places of a relative mask's top cards."""
    plain = alive & PLAIN
    return scatter(gather(relmask, places(plain)), plain)


@jit
def bucket_of(e0: int, e1: int, size_mask: int) -> int:
    """Return the table bucket of an exact key."""
    x = e0 ^ (e1 * _HASH_A)
    x ^= x >> 29
    x = x * _HASH_B
    x ^= x >> 32
    return x & size_mask


@jit
def nolo_order(
    trick: Arr,
    base: int,
    n: int,
    leader: int,
    reps: int,
    side: int,
    mine: int,
    trump: int,
    flags: int,
) -> tuple[int, bool, bool]:
    """Return the cards to try first in a nolo trick, and whether each group goes high first.

    The declarer ducks with his highest card under the trick's best one, else plays high.
    The others keep him on top if he is (their highest card under his), play low while
    he is still to play, and throw high cards once the trick is not his.
    """
    best = winner(trick, base, n, trump, flags)
    best_power = 0
    led = -1
    if trick[base] < JOKER_BASE:
        led = trick[base] // 13
        best_power = power(trick[base + best], led, trump, flags)
    under = 0
    rest = reps
    while rest:
        low = rest & -rest
        rest ^= low
        if led < 0 or power(low_index(low), led, trump, flags) <= best_power:
            under |= low
    if not mine:
        return under, True, True
    declarer_played = False
    for i in range(n):
        if (side >> ((leader + i) & 3)) & 1:
            declarer_played = True
    if not declarer_played:
        return reps, False, False
    if (side >> ((leader + best) & 3)) & 1:
        return under, True, True
    return reps, True, True


@jit
def next_hand_beats(trick: Arr, base: int, third: int, trump: int, flags: int) -> bool:
    """Return whether the next hand follows the led suit with a card above the trick's best."""
    led = trick[base] // 13
    theirs = (third >> (13 * led)) & SUIT
    if not theirs:
        return False
    best = winner(trick, base, 1, trump, flags)
    best_power = power(trick[base + best], led, trump, flags)
    return power(high_index(theirs) + 13 * led, led, trump, flags) > best_power


@jit
def partner_beats(trick: Arr, base: int, third: int, fourth: int, trump: int) -> bool:
    """Return whether the fourth hand follows with a card above the lead and above every
    card the third hand may play (which follows, or is void and cannot ruff)."""
    led = trick[base] // 13
    ours = (fourth >> (13 * led)) & SUIT
    if not ours or third & JOKERS:
        return False
    top = high_index(ours)
    if top < trick[base] - 13 * led:
        return False
    theirs = (third >> (13 * led)) & SUIT
    if theirs:
        return top > high_index(theirs)
    return trump < 0 or led == trump or not (third >> (13 * trump)) & SUIT


@jit
def cover_against(
    trick: Arr, base: int, n: int, reps: int, fourth: int, trump: int, flags: int
) -> int:
    """Return the lowest card above every card the next hand may follow with, or 0.

    Only where that hand (``fourth``: the fourth hand behind the third, or the third
    behind the second) must follow the led suit and holds a card above the trick's best.
    """
    led = trick[base] // 13
    theirs = (fourth >> (13 * led)) & SUIT
    if not theirs:
        return 0
    best = winner(trick, base, n, trump, flags)
    best_power = power(trick[base + best], led, trump, flags)
    top = power(high_index(theirs) + 13 * led, led, trump, flags)
    if top <= best_power:
        return 0
    rest = reps
    while rest:
        low = rest & -rest
        rest ^= low
        if power(low_index(low), led, trump, flags) > top:
            return low
    return 0


@jit
def short_suit_lead(moves: int, hand: int, trump: int, foes: int, through: int) -> int:
    """Return the lowest card among ``moves`` of the suit where the leader is shortest and
    his opponents (``foes``: their cards) longest, trumps last; a suit of ``through`` (a
    mask of suits) comes before the others.

    Measured on bench deals, short suits first cut a tenth of the nodes (leads from length
    first cost a little): shortness makes ruffs and unblocks, and the suit is soon spent.
    Counting the opponents' length too cut 2% more (96 bridge deals).
    """
    best = -1
    best_len = -1
    for suit in range(4):
        cards = (moves >> (13 * suit)) & SUIT
        if not cards:
            continue
        own = popcount((hand >> (13 * suit)) & SUIT)
        size = 13 - own + popcount((foes >> (13 * suit)) & SUIT)
        if (through >> suit) & 1:
            size += THROUGH_BONUS
        if suit == trump:
            size = 0
        if size > best_len:
            best_len = size
            best = low_index(cards) + 13 * suit
    return best


THROUGH_BONUS = 8
"""How much a lead through the next hand's top card outweighs the suits' lengths."""


@jit
def lead_through(hands: Arr, live: int, seat: int, side: int) -> int:
    """Return the suits (a mask) the leader may lead through the next hand's top card: that
    hand is an opponent, and a mate behind it holds the second card and another (DDS).

    Measured on 48 bridge deals: 3% fewer nodes.
    """
    lho = (seat + 1) & 3
    ours = (side >> seat) & 1
    if ((side >> lho) & 1) == ours:
        return 0
    suits = 0
    for suit in range(4):
        rest = (live >> (13 * suit)) & SUIT
        if popcount(rest) < 3 or not (hands[lho] >> (13 * suit + high_index(rest))) & 1:
            continue
        second = high_index(rest ^ (1 << high_index(rest)))
        for mate in range(4):
            held = (hands[mate] >> (13 * suit)) & SUIT
            same = ((side >> mate) & 1) == ours
            if mate != seat and same and (held >> second) & 1 and popcount(held) > 1:
                suits |= 1 << suit
    return suits


@jit
def best_discard(moves: int, hand: int, live: int, trump: int) -> int:
    """Return the discard to try first: the lowest card of the longest suit, sparing a
    lone top card and a guarded second one, trumps last (after DDS's discard weights)."""
    best = -1
    best_weight = -1 << 20
    for suit in range(4):
        cards = (moves >> (13 * suit)) & SUIT
        if not cards:
            continue
        held = (hand >> (13 * suit)) & SUIT
        count = popcount(held)
        low = low_index(cards)
        weight = count * 64 // 24 - low
        rest = (live >> (13 * suit)) & SUIT
        top = high_index(rest)
        second = rest ^ (1 << top)
        lone_top = count == 1 and (held >> top) & 1
        guard = count == 2 and second and (held >> high_index(second)) & 1
        if lone_top or guard:
            weight -= 4
        if suit == trump:
            weight -= 100
        if weight > best_weight:
            best_weight = weight
            best = low + 13 * suit
    return best


@jit
def best_winner(moves: int, hand: int, live: int, trump: int, foes: int) -> int:
    """Return the sure winner to lead first: a trump while an opponent (``foes``: their
    cards) holds one, else from the longest run of top cards, a trump last."""
    best = -1
    best_len = -1 << 20
    for suit in range(4):
        cards = (moves >> (13 * suit)) & SUIT
        if not cards:
            continue
        size = popcount(top_run(hand, live, suit))
        if suit == trump:
            size += 100 if (foes >> (13 * suit)) & SUIT else -100
        if size > best_len:
            best_len = size
            best = low_index(cards) + 13 * suit
    return best


LEADER, LHO, PARTNER, RHO = 0, 1, 2, 3
"""Who holds a card, seen from the leader (the lead weights)."""
KILLER_WEIGHTS = (126, 47, 55, 18)
"""What the killer lead adds to its weight (DDS's): in no trumps where it wins and where
not, in a trump contract where it wins and where not."""


@jit
def seat_cards(hands: Arr, seat: int, suit: int) -> tuple[int, int, int, int]:
    """Return the leader's, LHO's, partner's and RHO's cards of ``suit`` (13 bits each)."""
    shift = 13 * suit
    return (
        (hands[seat] >> shift) & SUIT,
        (hands[(seat + 1) & 3] >> shift) & SUIT,
        (hands[(seat + 2) & 3] >> shift) & SUIT,
        (hands[(seat + 3) & 3] >> shift) & SUIT,
    )


@jit
def role_of(rank: int, own: int, lho: int, partner: int) -> int:
    """Return who holds ``rank`` of a suit (else RHO), or -1 where ``rank`` is -1."""
    if rank < 0:
        return -1
    if (own >> rank) & 1:
        return LEADER
    if (partner >> rank) & 1:
        return PARTNER
    if (lho >> rank) & 1:
        return LHO
    return RHO


@jit
def below(rest: int, rank: int) -> int:
    """Return the highest live card of a suit below ``rank`` (-1 for the top), or -1."""
    if rank < 0:
        return -1
    lower = rest & ((1 << rank) - 1)
    return high_index(lower) if lower else -1


@jit
def killer_bonus(killer: int, rank: int, wins: bool, trumps: bool) -> int:
    """Return what a lead gains for being the killer (``killer``: its suit's bit, if any)."""
    if not (killer >> rank) & 1:
        return 0
    return KILLER_WEIGHTS[(2 if trumps else 0) + (0 if wins else 1)]


@jit
def top_cards(rest: int, own: int, lho: int, partner: int) -> tuple[int, int, int, int, int]:
    """Return a suit's two top live cards (``rest``; -1 where missing) and who holds its
    three top cards."""
    top = high_index(rest)
    second = below(rest, top)
    third = below(rest, second)
    return (
        top,
        second,
        role_of(top, own, lho, partner),
        role_of(second, own, lho, partner),
        role_of(third, own, lho, partner),
    )


@jit
def next_round(second_role: int, third_role: int, partner_len: int) -> int:
    """Return 2 where partner holds a suit's second and third cards, 1 where the leader and
    partner (not a singleton) hold them between them, else 0: after the top card falls,
    the leader's side holds the top of the suit."""
    if second_role == PARTNER and third_role == PARTNER:
        return 2
    if partner_len > 1 and (
        (second_role == LEADER and third_role == PARTNER)
        or (second_role == PARTNER and third_role == LEADER)
    ):
        return 1
    return 0


@jit
def bare_top(top_role: int, lho_len: int, rho_len: int) -> bool:
    """Return whether an opponent holds a suit's top card alone (it falls to any lead)."""
    return (lho_len == 1 and top_role == LHO) or (rho_len == 1 and top_role == RHO)


@jit
def run_place(rank: int, rest: int, own: int) -> tuple[int, int]:
    """Return the top of the leader's run of equal cards that starts at ``rank``, and its
    place among the suit's live cards (``rest``), 1 for the top card."""
    while rank < 12 and (rest >> (rank + 1)) & 1 and (own >> (rank + 1)) & 1:
        rank += 1
    return rank, 1 + popcount(rest >> (rank + 1))


@jit
def opponents_size(lho_len: int, rho_len: int, left: int) -> int:
    """Return the opponents' lengths in a suit, a void counting as long (it may throw any
    card, or ruff): DDS's guess of how large the search of a lead in it grows."""
    lho = left + 1 if lho_len == 0 else lho_len
    rho = left + 1 if rho_len == 0 else rho_len
    return (lho + rho) << 7


@jit
def nt_suit_lead(
    cards: int, hands: Arr, live: int, seat: int, suit: int, left: int, killer: int
) -> tuple[int, int]:
    """Return the best lead among ``cards`` of ``suit`` in no trumps and its weight (after
    DDS's ``WeightAllocNT0``; ties go to the lower card)."""
    own, lho, partner, rho = seat_cards(hands, seat, suit)
    rest = (live >> (13 * suit)) & SUIT
    top, second, top_role, second_role, third_role = top_cards(rest, own, lho, partner)
    lho_len = popcount(lho)
    rho_len = popcount(rho)
    partner_len = popcount(partner)
    base = -(opponents_size(lho_len, rho_len, left) // 19) - (9 if partner_len == 0 else 0)
    # A winning lead, by the leader or partner:
    win = base
    if second_role == RHO:
        win -= 1 if rho_len != 1 else 0
    elif second_role == LHO:
        win += 22 if lho_len != 1 else 16
    lone_second = (second_role != LHO or lho_len == 1) and (second_role != RHO or rho_len == 1)
    win += 45 if lone_second else 18
    # Any other lead:
    other = base
    if top_role == RHO or second_role == RHO:
        other -= 10 if rho_len != 1 else 0
    elif top_role == LHO and second_role == PARTNER and partner_len != 1:
        other += 31  # a finesse through LHO
    other += (0, 25, 35)[next_round(second_role, third_role, partner_len)]
    singleton_top = bare_top(top_role, lho_len, rho_len)
    partner_wins = partner > (lho | rho)
    best, card = -(1 << 30), -1
    while cards:
        rank = low_index(cards)
        cards ^= 1 << rank
        high, rel = run_place(rank, rest, own)
        wins = high == top or partner_wins
        if wins:
            weight = win + rel
        elif singleton_top:
            weight = other + 28 + rel
        elif top_role == LEADER:
            weight = other - 17 + rel
        elif high == rank:
            weight = other + 12 + rel
        elif high == second:
            weight = other + 48
        else:
            weight = other + 29 - rel
        weight += killer_bonus(killer, rank, wins, False)
        if weight > best:
            best, card = weight, rank
    return best, card


@jit
def partner_ruffs(lho_len: int, rho_len: int, lho_t: int, partner_t: int, rho_t: int) -> bool:
    """Return whether partner, void in a plain suit, wins its lead by ruffing over any
    opponent who ruffs too (``*_t``: the hands' trumps)."""
    lho_ruffs = lho_len == 0 and lho_t != 0
    rho_ruffs = rho_len == 0 and rho_t != 0
    if lho_ruffs and rho_ruffs:
        return partner_t > (lho_t | rho_t)
    if lho_ruffs:
        return partner_t > lho_t
    if rho_ruffs:
        return partner_t > rho_t
    return True


@jit
def trump_card_weight(
    wins: bool,
    high: int,
    rank: int,
    rel: int,
    top: int,
    second: int,
    top_role: int,
    second_role: int,
    singleton_top: bool,
) -> int:
    """Return the weight of a lead in a trump contract, winning or not, before the suit's
    weight (``high``: the top of the card's run; ``rel``: its place from the top, 1 for
    the top)."""
    if singleton_top:
        return 35 + rel if wins else rel + 2
    if top_role == LEADER:
        if second_role == PARTNER:
            return (48 if wins else 33) + rel
        if high == top:
            return 31 if wins else 38
        return rel - (3 if wins else 14)
    if top_role == PARTNER:
        if wins:
            return (42 if second_role == LEADER else 28) + rel
        return 34 + rel
    if wins:
        if high != rank:
            return 40 if high == second else 22 + rel
        return 11 + rel
    if high != rank and high == second:
        return 35
    return 17 - (high + 2)


@jit
def trump_suit_lead(
    cards: int,
    hands: Arr,
    live: int,
    seat: int,
    suit: int,
    trump: int,
    left: int,
    killer: int,
) -> tuple[int, int]:
    """Return the best lead among ``cards`` of ``suit`` in a trump contract and its weight
    (after DDS's ``WeightAllocTrump0``; ties go to the lower card)."""
    own, lho, partner, rho = seat_cards(hands, seat, suit)
    own_t, lho_t, partner_t, rho_t = seat_cards(hands, seat, trump)
    rest = (live >> (13 * suit)) & SUIT
    top, second, top_role, second_role, third_role = top_cards(rest, own, lho, partner)
    lho_len = popcount(lho)
    rho_len = popcount(rho)
    partner_len = popcount(partner)
    plain = suit != trump
    base = -(opponents_size(lho_len, rho_len, left) // 13)
    if plain and ((lho_len == 0 and lho_t) or (rho_len == 0 and rho_t)):
        base -= 12  # an opponent ruffs
    if plain and partner_len == 0 and partner_t and rho_len > 0:
        base += 17  # partner ruffs
    if top_role == RHO or second_role == RHO:
        base -= 12 if rho_len != 1 else 0
    elif top_role == LHO and second_role == PARTNER and partner_len != 1:
        base += 27  # a finesse through LHO
    if plain and popcount(own) == 1 and own_t and partner_len > 1 and top_role == PARTNER:
        base += 19  # partner wins and gives a ruff
    partner_tops = partner > (lho | rho)
    top_wins = True
    partner_wins = partner_tops
    if plain:
        follow = (lho_len != 0 or lho_t == 0) and (rho_len != 0 or rho_t == 0)
        if partner_len != 0 or partner_t == 0:
            top_wins = follow
        else:
            top_wins = (lho_len != 0 or partner_t > lho_t) and (rho_len != 0 or partner_t > rho_t)
        if partner_tops:
            partner_wins = follow
        else:
            partner_wins = partner_len == 0 and partner_t != 0
            partner_wins = partner_wins and partner_ruffs(lho_len, rho_len, lho_t, partner_t, rho_t)
    other = base
    other += (0, 13, 20)[next_round(second_role, third_role, partner_len)]
    singleton_top = bare_top(top_role, lho_len, rho_len)
    best, card = -(1 << 30), -1
    while cards:
        rank = low_index(cards)
        cards ^= 1 << rank
        high, rel = run_place(rank, rest, own)
        wins = top_wins if high == top else partner_wins
        weight = (base if wins else other) + trump_card_weight(
            wins, high, rank, rel, top, second, top_role, second_role, singleton_top
        )
        weight += killer_bonus(killer, rank, wins, True)
        if weight > best:
            best, card = weight, rank
    return best, card


@jit
def partner_opposite(side: int, seat: int) -> bool:
    """Return whether ``seat``'s only partner sits opposite (as in bridge)."""
    mine = (side >> seat) & 1
    lho = (side >> ((seat + 1) & 3)) & 1
    partner = (side >> ((seat + 2) & 3)) & 1
    rho = (side >> ((seat + 3) & 3)) & 1
    return partner == mine and lho != mine and rho != mine


@jit
def weighted_lead(
    moves: int, hands: Arr, live: int, seat: int, trump: int, left: int, killer: int
) -> int:
    """Return the lead to try first among ``moves`` (plain cards) where the leader's partner
    sits opposite: the highest by DDS's lead weights (``WeightAllocNT0`` and
    ``WeightAllocTrump0``, Bo Haglund and Soren Hein), which score each card by who holds
    the suit's top cards, the opponents' lengths and voids, finesses and ruffs.

    Measured on 48 bridge deals (seeds 1 to 4), with the killer among the weights: 40% fewer
    nodes than the killer first and then the phases of winners, low cards to a partner's
    top card and short suits. Whist deals: 1% more nodes; other seatings: 24-32% more, so
    they keep the phases.
    """
    trumps_out = trump >= 0 and ((live >> (13 * trump)) & SUIT) != 0
    best = -(1 << 30)
    card = -1
    for suit in range(4):
        cards = (moves >> (13 * suit)) & SUIT
        if not cards:
            continue
        kill = (killer >> (13 * suit)) & SUIT
        if trumps_out:
            weight, rank = trump_suit_lead(cards, hands, live, seat, suit, trump, left, kill)
        else:
            weight, rank = nt_suit_lead(cards, hands, live, seat, suit, left, kill)
        if weight > best:
            best = weight
            card = rank + 13 * suit
    return card


@jit_recursive
def search(
    hands: Arr,
    trick: Arr,
    n: int,
    leader: int,
    trick_no: int,
    left: int,
    need: int,
    cfg: Arr,
    tt_tags: Arr,
    tt_body: Arr,
    stats: Arr,
) -> bool:
    """Return whether the side can take ``need`` of the ``left`` tricks still to finish.

    It also leaves in ``stats[STATS_REL + depth]`` the cards whose places decided the
    answer (DDS's winning ranks, after Ginsberg's partition search): the answer holds for
    every position with the same suit lengths, jokers and owners of those cards and of the
    live cards above them, so the table stores it for all of them.
    """
    depth = STATS_REL + trick_no * 4 + n
    stats[depth] = 0
    if need <= 0:
        return True
    if need > left:
        return False
    stats[0] += 1
    if stats[0] > stats[1]:
        return False  # over the node budget: the caller sees it and discards the answer
    base = trick_no * 4
    side = cfg[CFG_SIDE]
    trump = cfg[CFG_TRUMP]
    flags = cfg[CFG_FLAGS]
    if n == 0 and left == 1:
        # The last trick: everyone plays his only card.
        for i in range(4):
            trick[base + i] = low_index(hands[(leader + i) & 3])
        wi = winner(trick, base, 4, trump, flags)
        stats[depth] = rank_rel(trick, base, wi)
        return need <= ((side >> ((leader + wi) & 3)) & 1)
    bucket = -1
    e0 = 0
    e1 = 0
    r0 = 0
    r1 = 0
    r2 = 0
    r3 = 0
    free = -1
    seen = -1
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    called = cfg[CFG_CALLED]
    if n == 0 and side != cfg[CFG_MAX] and trump < 0 and called < 0:
        safe = nolo_safe(hands, leader, side, flags)
        if safe >= 0:
            stats[depth] = safe
            return False
    if (
        n == 1
        and side == cfg[CFG_MAX]
        and trick[base] < JOKER_BASE
        and not alive & JOKERS
        and (called < 0 or not (alive >> called) & 1)
    ):
        # The second hand's team surely wins this trick, and maybe more after it.
        ours = (side >> ((leader + 1) & 3)) & 1
        wanted = need if ours else left - need + 1
        team = side if ours else 15 & ~side
        won = second_hand_wins(hands, trick, base, (leader + 1) & 3, trump, team)
        if won >= 0:
            count = 1
            if wanted > 1 and won > 0 and plain_ending(alive, trump, called):
                count, won = second_hand_more(hands, won, alive)
            if count >= wanted:
                stats[depth] = won
                return bool(ours)
    if n == 0 and trick_no > 0:
        bound = False
        if called >= 0 and leader == cfg[CFG_DUTY] and (hands[leader] >> called) & 1:
            bound = True
        if side == cfg[CFG_MAX] and not bound:
            team = side if (side >> leader) & 1 else 15 & ~side
            mates = team
            if called >= 0 and (alive >> called) & 1 and cfg[CFG_DUTY] >= 0:
                mates &= ~(1 << cfg[CFG_DUTY])
            # The leader's own top cards first: when they suffice, only their places matter.
            for alone in range(2):
                if alone == 0:
                    quick = own_quick(hands, leader, trump, flags, team, 1 << leader)
                else:
                    quick = quick_tricks(hands, leader, trump, flags, team, mates)
                cut = quick >= need if (side >> leader) & 1 else need > left - quick
                if cut:
                    rel = 0
                    suits = 15
                    if alone == 0:
                        suits = fewest_suits(hands, leader, trump, flags, team, need, left, side)
                    for suit in range(4):
                        if not (suits >> suit) & 1:
                            continue
                        if alone == 0:
                            rel |= top_run(hands[leader], alive, suit)
                        else:
                            rel |= team_top(hands, team, alive, suit)
                    stats[depth] = rel
                    return bool((side >> leader) & 1)
        if (
            side == cfg[CFG_MAX]
            and (need == left or need == 1)
            and plain_ending(alive, trump, called)
        ):
            team = side if need == left else 15 & ~side
            rel = sweep_blocked(hands, team, alive, left)
            if rel >= 0:
                stats[depth] = rel
                return team != side
        if (
            side == cfg[CFG_MAX]
            and (need == left or need == 1)
            and plain_trumps(alive, trump, called)
        ):
            team = side if need == left else 15 & ~side
            rel = guarded_second_trump(hands, team, alive, trump, leader)
            if rel >= 0:
                stats[depth] = rel
                return team != side
        if side == cfg[CFG_MAX] and trump >= 0:
            for team in (side, 15 & ~side):
                count = trump_length_tricks(hands, trump, team)
                if count > 0 and (need <= count if team == side else need > left - count):
                    stats[depth] = 0
                    return team == side
        if side == cfg[CFG_MAX]:
            tops = top_trumps(hands, trump)
            if tops > 0:
                holder = tops >> 8
                count = tops & 0xFF
                cut = need <= count if (side >> holder) & 1 else need > left - count
                if cut:
                    stats[depth] = top_run(hands[holder], alive, trump)
                    return bool((side >> holder) & 1)
        if side == cfg[CFG_MAX] and plain_trumps(alive, trump, called):
            split = split_top_trumps(hands, alive, trump, side)
            if split >= 0:
                ours = (team_cards(hands, side) & split) != 0
                if need <= 2 if ours else need > left - 2:
                    stats[depth] = split
                    return ours
        r0, r1, r2, r3, crel = relative_hands(hands, called)
        e0 = lengths(hands[0]) | (lengths(hands[1]) << 16) | (leader << 32) | ((crel + 1) << 34)
        e0 |= ((hands[0] >> 52) << 40) | ((hands[1] >> 52) << 43)
        e0 |= ((hands[2] >> 52) << 46) | ((hands[3] >> 52) << 49)
        e1 = lengths(hands[2]) | (lengths(hands[3]) << 16)
        bucket = bucket_of(e0, e1, cfg[CFG_TT_MASK])
        for j in range(TT_WAYS):
            e = bucket * TT_WAYS + j
            tag = tt_tags[e]
            if tag < 0:
                free = e
                break
            b = TT_BODY * e
            if tag == e0 and tt_body[b] == e1:
                rm = tt_body[b + 1]
                if (
                    (r0 & rm) == tt_body[b + 2]
                    and (r1 & rm) == tt_body[b + 3]
                    and (r2 & rm) == tt_body[b + 4]
                    and (r3 & rm) == tt_body[b + 5]
                ):
                    if tt_body[b + 6] >= need:
                        stats[depth] = to_absolute(rm, alive)
                        return True
                    if tt_body[b + 7] < need:
                        stats[depth] = to_absolute(rm, alive)
                        return False
                    if seen < 0:
                        seen = e
    seat = (leader + n) & 3
    hand = hands[seat]
    legal = legal_mask(hands, seat, trick, base, n, trick_no, cfg)
    live = alive
    for i in range(n):
        live |= 1 << trick[base + i]
    reps = representatives(legal, live, called)
    mine = (cfg[CFG_MAX] >> seat) & 1
    first = 0
    second = 0
    high_first = n == 0
    high_rest = False
    # Where the leader's partner sits opposite, the leads go by DDS's weights; elsewhere in
    # the phases below (in whist deals of other seatings the weights cost nodes).
    weighted = n == 0 and side == cfg[CFG_MAX] and partner_opposite(side, seat)
    if side != cfg[CFG_MAX]:
        if n > 0:
            first, high_first, high_rest = nolo_order(
                trick, base, n, leader, reps, side, mine, trump, flags
            )
    elif weighted:
        if trick_no > 0:
            first = reps & JOKERS  # a led joker wins
    elif n == 0:
        # Lead: a player who wants the trick cashes sure winners first (top cards, and a
        # joker after the first trick), highest first; then the lowest card of a suit in
        # which a partner holds the top; then the other cards, lowest first.
        if mine == ((side >> seat) & 1):
            if trick_no > 0:
                first = reps & JOKERS
            foes = side if not (side >> seat) & 1 else 15 & ~side
            for suit in range(4):
                rest = (live >> (13 * suit)) & SUIT
                if rest:
                    top = high_index(rest) + 13 * suit
                    if (hand >> top) & 1:
                        if cash_limit(hands, foes, suit, trump) > 0:
                            # the run's representative is its lowest card
                            run = top_run(hand, live, suit)
                            first |= run & -run & reps
                    else:
                        for mate in range(4):
                            same = ((side >> mate) & 1) == ((side >> seat) & 1)
                            if mate != seat and same and (hands[mate] >> top) & 1:
                                own = (reps >> (13 * suit)) & SUIT
                                if own and cash_limit(hands, foes, suit, trump) > 0:
                                    second |= (own & -own) << (13 * suit)
    else:
        best = winner(trick, base, n, trump, flags)
        if ((side >> ((leader + best) & 3)) & 1) != mine and trick[base] < JOKER_BASE:
            led = trick[base] // 13
            best_power = power(trick[base + best], led, trump, flags)
            rest = reps
            while rest:
                low = rest & -rest
                rest ^= low
                if power(low_index(low), led, trump, flags) > best_power:
                    first |= low
            if n == 1 and first:
                # Second hand covers only with a card the third hand cannot beat, else low;
                # where the fourth hand, a partner, beats them all, low first.
                cover = cover_against(trick, base, n, reps, hands[(seat + 1) & 3], trump, flags)
                if cover or next_hand_beats(trick, base, hands[(seat + 1) & 3], trump, flags):
                    first = cover
                fourth = (seat + 2) & 3
                if (
                    first
                    and ((side >> fourth) & 1) == ((side >> seat) & 1)
                    and partner_beats(trick, base, hands[(seat + 1) & 3], hands[fourth], trump)
                ):
                    first = 0
            elif n == 2 and first:
                cover = cover_against(trick, base, n, reps, hands[(seat + 1) & 3], trump, flags)
                if cover:
                    first = cover
        elif n == 2 and trick[base] < JOKER_BASE:
            # Third hand keeps the partner's trick from the fourth hand.
            first = cover_against(trick, base, n, reps, hands[(seat + 1) & 3], trump, flags)
    void = False
    if n > 0 and side == cfg[CFG_MAX]:
        led = led_suit(trick, base, n, flags)
        void = led >= 0 and not (hand >> (13 * led)) & SUIT
    foe_cards = 0  # the opponents' cards; in nolo only the leader's own shortness counts
    if side == cfg[CFG_MAX] and n == 0 and not weighted:
        for other in range(4):
            if ((side >> other) & 1) != ((side >> seat) & 1):
                foe_cards |= hands[other]
    through = -1  # the suits to lead through, found when the other leads are reached
    # DDS's "best move" (a killer move): the lead that last cut the search at this trick is
    # tried before all others. Leads first cut 80% of the time without it, 91% with it,
    # and the bench deals search 31% fewer nodes. (At the other hands it costs nodes.)
    # Among weighted leads it adds to its weight instead, as in DDS: 3.6% fewer nodes.
    killer = 0
    if n == 0:
        remembered = stats[STATS_KILLER + trick_no] - 1
        if remembered >= 0 and (reps >> remembered) & 1:
            killer = 1 << remembered
    weighted_killer = 0
    if weighted:
        weighted_killer = killer
        killer = 0
    result = mine == 0
    done = False
    skip = 0
    rel_all = 0
    rel_cut = 0
    for phase in range(4):
        if phase == 0:
            moves = killer
        elif phase == 1:
            moves = first & ~killer
        elif phase == 2:
            moves = second & ~first & ~killer
        else:
            moves = reps & ~first & ~second & ~killer
        moves &= ~skip
        while moves and not done:
            high = high_first if phase <= 1 else high_rest
            if phase == 0:
                card = low_index(moves)  # the killer
            elif n == 0 and phase == 1 and not (moves & JOKERS):
                card = best_winner(moves, hand, live, trump, foe_cards)
            elif weighted and phase == 3 and moves & PLAIN:
                card = weighted_lead(moves & PLAIN, hands, live, seat, trump, left, weighted_killer)
            elif n == 0 and phase == 3 and not (moves & JOKERS):
                if through < 0:
                    through = lead_through(hands, live, seat, side) if foe_cards else 0
                card = short_suit_lead(moves, hand, trump, foe_cards, through)
            elif void and phase == 3 and not (moves & JOKERS):
                card = best_discard(moves, hand, live, trump)
            else:
                card = high_index(moves) if high else low_index(moves)
            moves ^= 1 << card
            line = 0
            hands[seat] = hand ^ (1 << card)
            trick[base + n] = card
            if n == 3:
                wi = winner(trick, base, 4, trump, flags)
                w = (leader + wi) & 3
                ok = search(
                    hands,
                    trick,
                    0,
                    w,
                    trick_no + 1,
                    left - 1,
                    need - ((side >> w) & 1),
                    cfg,
                    tt_tags,
                    tt_body,
                    stats,
                )
                line |= rank_rel(trick, base, wi)
            else:
                ok = search(
                    hands,
                    trick,
                    n + 1,
                    leader,
                    trick_no,
                    left,
                    need,
                    cfg,
                    tt_tags,
                    tt_body,
                    stats,
                )
            line |= stats[depth + 1]
            hands[seat] = hand
            if ok == (mine == 1):
                result = ok
                done = True
                rel_cut = line
                if n == 0:
                    stats[STATS_KILLER + trick_no] = card + 1
            else:
                # It stood for its run of equal cards: the run must stay whole (its lowest
                # card's place fixes every live card above it).
                rel_all |= line | stands_for_run(card, line, legal, live)
                skip |= equivalent_after(card, line, called)
                moves &= ~skip
        if done:
            break
    rel = rel_cut if done else rel_all
    stats[depth] = rel
    if bucket >= 0:
        if called >= 0 and (alive >> called) & 1:
            rel |= 1 << called
        rm = to_relative(rel, alive)
        o0 = r0 & rm
        o1 = r1 & rm
        o2 = r2 & rm
        o3 = r3 & rm
        # The lookup found the bucket's first free entry and the first entry of this
        # position's partition; deeper searches may have filled entries since.
        target = -1
        fresh = True
        if seen >= 0:
            b = TT_BODY * seen
            if (
                tt_tags[seen] == e0
                and tt_body[b] == e1
                and tt_body[b + 1] == rm
                and tt_body[b + 2] == o0
                and tt_body[b + 3] == o1
                and tt_body[b + 4] == o2
                and tt_body[b + 5] == o3
            ):
                target = seen
                fresh = False
        if target < 0 and free >= 0:
            end = bucket * TT_WAYS + TT_WAYS
            while free < end and tt_tags[free] >= 0:
                free += 1
            if free < end:
                target = free
        if target < 0:
            target = bucket * TT_WAYS + (stats[0] & (TT_WAYS - 1))
        b = TT_BODY * target
        if fresh:
            tt_tags[target] = e0
            tt_body[b] = e1
            tt_body[b + 1] = rm
            tt_body[b + 2] = o0
            tt_body[b + 3] = o1
            tt_body[b + 4] = o2
            tt_body[b + 5] = o3
            tt_body[b + 6] = 0
            tt_body[b + 7] = left
        if result:
            tt_body[b + 6] = max(tt_body[b + 6], need)
        else:
            tt_body[b + 7] = min(tt_body[b + 7], need - 1)
    return result


@jit
def equivalent_after(card: int, line: int, called: int) -> int:
    """Return the cards of ``card``'s suit that need no search once it has failed.

    ``line`` holds the cards whose places decided its answer: a top run of each suit
    (``to_relative``). A card below the run of its suit did not matter, and the same
    hand's other cards below that run would give the same answer (DDS's lowest winning
    ranks), so they are skipped; the called card is always searched.
    """
    if card >= JOKER_BASE or card == called:
        return 0
    shift = (card // 13) * 13
    relevant = (line >> shift) & SUIT
    below = SUIT if not relevant else (relevant & -relevant) - 1
    if not (below >> (card - shift)) & 1:
        return 0
    skip = below << shift
    if called >= 0:
        skip &= ~(1 << called)
    return skip


@jit
def stands_for_run(card: int, line: int, legal: int, live: int) -> int:
    """Return ``card``'s bit if it stood for a run of equal cards that matters, else 0.

    The same hand's legal cards right above it (no live card between) were not searched:
    they would give the same answer. Where ``line`` makes a card at or below the top of
    that run matter, other positions of the table's partition might split the run, so
    the run must stay whole: the lowest card's place fixes every live card above it.
    """
    if card >= JOKER_BASE:
        return 0
    shift = (card // 13) * 13
    relevant = (line >> shift) & SUIT
    if not relevant:
        return 0
    top = card
    while top - shift < 12:
        above = (live >> (top + 1)) & (SUIT >> (top - shift + 1))
        if not above:
            break
        nxt = top + 1 + low_index(above)
        if not (legal >> nxt) & 1:
            break
        top = nxt
    if top == card or low_index(relevant) + shift > top:
        return 0
    return 1 << card


@jit
def rank_rel(trick: Arr, base: int, wi: int) -> int:
    """Return the winning card of a full trick if it won by rank (another card of its suit)."""
    card = trick[base + wi]
    if card >= JOKER_BASE:
        return 0
    suit = card // 13
    for i in range(4):
        other = trick[base + i]
        if i != wi and other < JOKER_BASE and other // 13 == suit:
            return 1 << card
    return 0


@jit_recursive
def search_root(
    hands: Arr,
    trick: Arr,
    n: int,
    leader: int,
    trick_no: int,
    left: int,
    need: int,
    cfg: Arr,
    tt_tags: Arr,
    tt_body: Arr,
    stats: Arr,
) -> bool:
    """Return ``search``'s answer, searched on views of the arrays that count no
    references (the entry from Python; ``borrowed``)."""
    return search(
        borrowed(hands), borrowed(trick), n, leader, trick_no, left, need,
        borrowed(cfg), borrowed(tt_tags), borrowed(tt_body), borrowed(stats),
    )  # fmt: skip


@jit_recursive
def solve_value(
    hands: Arr,
    trick: Arr,
    n: int,
    leader: int,
    trick_no: int,
    left: int,
    guess: int,
    cfg: Arr,
    tt_tags: Arr,
    tt_body: Arr,
    stats: Arr,
) -> int:
    """Return the most tricks of the ``left`` still to finish the side can be sure of.

    The null-window searches start at ``guess`` and step towards the answer (DDS does
    the same): near the answer each search is cheap, far from it one can be very dear
    (seven tricks for a sol declarer). With the table's bounds kept between them, the
    steps cost little.
    """
    need = min(max(guess, 1), left)
    if left == 0:
        return 0
    # Views that count no references: each call of ``search`` would otherwise take and
    # drop one per array (a third of the search's time; ``jit.borrow_intrinsic``).
    hands = borrowed(hands)
    trick = borrowed(trick)
    cfg = borrowed(cfg)
    tt_tags = borrowed(tt_tags)
    tt_body = borrowed(tt_body)
    stats = borrowed(stats)
    if search(hands, trick, n, leader, trick_no, left, need, cfg, tt_tags, tt_body, stats):
        while need < left and search(
            hands, trick, n, leader, trick_no, left, need + 1, cfg, tt_tags, tt_body, stats
        ):
            need += 1
        return need
    need -= 1
    while need > 0 and not search(
        hands, trick, n, leader, trick_no, left, need, cfg, tt_tags, tt_body, stats
    ):
        need -= 1
    return need
