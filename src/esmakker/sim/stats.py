"""Figures of a duplicate match: points with confidence intervals, contract statistics.

**Confidence interval.** ``mean_ci95`` gives the Student *t* interval on the
per-deal values: ``mean ± t(0.975, n - 1) · s / √n``, with ``s`` the sample
standard deviation (divisor ``n - 1``). The deals of a match are independent, so
the per-deal values are too; for large ``n`` (30 or more) *t* is close to 1.96 and
this is the usual normal approximation, for small ``n`` the *t* quantile widens it
as it should. With fewer than two deals there is no interval (``None``).

**Shares.** Every share is of all hands played: a match of ``N`` deals plays
``4 N`` hands (four rotations), so the contract shares, the all-pass share and
the iron-hand share add up to 1. A contract's ``make_rate`` is how often its
declarer made it; ``number_make_rate`` and ``nolo_make_rate`` are the same per
declaring bot name (``None`` for a name that never declared such a contract).

**Double-dummy figures** (``summarise_dd_loss``, ``esmakker match --dd-loss``): the
tricks lost per deal are pooled and given an interval like the points; the regret is
averaged per deal over the contracts a name declared there, then over those deals. The
tricks lost are also split by the bot's role in each played hand (``ROLES``): where the
card play gains or loses is not the same for declarer and defence (decision 121).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

from esmakker.sim.ddloss import GAVE_UP, SOLVED, HandLoss
from esmakker.sim.duplicate import ALL_PASS, IRON_HAND, PLAYED, DuplicateDeal, Hand

ROLES = ("declarer", "partner", "defender", "nolo_declarer", "nolo_others")
"""A bot's role in a played hand: it declared a number contract, held its called card, or
sat against it; it declared a nolo contract, or was another player of one (joiners
included)."""

_EXACT_T_UP_TO = 1000
"""Degrees of freedom up to which ``t_quantile`` inverts the exact distribution function."""


def t_quantile(p: float, df: int) -> float:
    """Return the ``p`` quantile (0.5 < p < 1) of Student's *t* with ``df`` degrees of freedom.

    Up to 1000 degrees of freedom the exact distribution function (a finite sum for
    whole ``df``) is inverted by bisection; beyond, the Cornish-Fisher expansion
    (Abramowitz and Stegun 26.7.5) is used, accurate to far better than 1e-9 there.

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 10), 3)
    (12.706, 2.228)

    Raises:
        ValueError: if ``p`` is not in (0.5, 1) or ``df`` is below 1.
    """
    if not 0.5 < p < 1:
        raise ValueError(f"p must lie in (0.5, 1), got {p}")
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df > _EXACT_T_UP_TO:
        return _cornish_fisher(p, df)
    target = 2 * p - 1  # P(|T| <= t)
    low, high = 0.0, 1.0
    while _central(high, df) < target:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if _central(middle, df) < target:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _central(t: float, df: int) -> float:
    """Return P(|T| <= t) for Student's *t* with whole ``df`` (Abramowitz and Stegun 26.7.3)."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= cos2 * (2 * k - 1) / (2 * k)
            total += term
        return math.sin(theta) * total
    if df == 1:
        return 2 * theta / math.pi
    term, total = 1.0, 1.0
    for k in range(1, (df - 1) // 2):
        term *= cos2 * (2 * k) / (2 * k + 1)
        total += term
    return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)


def _cornish_fisher(p: float, df: int) -> float:
    z = NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def mean_ci95(values: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """Return the mean of ``values`` and its 95 % Student *t* interval (``None`` below 2 values).

    >>> mean, (low, high) = mean_ci95([1.0, 2.0, 3.0])  # t(0.975, 2) = 4.3027
    >>> mean, round(low, 4), round(high, 4)
    (2.0, -0.4841, 4.4841)

    Raises:
        ValueError: if ``values`` is empty.
    """
    n = len(values)
    if n == 0:
        raise ValueError("the mean of no values is undefined")
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    variance = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t_quantile(0.975, n - 1) * math.sqrt(variance / n)
    return mean, (mean - half, mean + half)


def ratio_ci95(
    numerators: Sequence[float], denominators: Sequence[float]
) -> tuple[float | None, tuple[float, float] | None]:
    """Return ``sum(numerators) / sum(denominators)`` of paired values and its 95 % interval.

    The interval is the delta method's: with ``r`` the ratio and ``b̄`` the mean
    denominator, ``r ± t(0.975, n - 1) · s_d / (√n · b̄)``, where ``s_d`` is the sample
    standard deviation of ``a_i - r · b_i``. The pairs are independent (one per deal).
    ``None`` for the ratio when the denominators add up to zero; no interval below two pairs.

    >>> ratio, (low, high) = ratio_ci95([1.0, 2.0, 3.0], [2.0, 4.0, 5.0])
    >>> round(ratio, 4), round(low, 4), round(high, 4)
    (0.5455, 0.3825, 0.7084)

    Raises:
        ValueError: if the sequences are empty or of different lengths.
    """
    n = len(numerators)
    if n == 0 or n != len(denominators):
        raise ValueError(
            f"need the same positive number of values, got {n} and {len(denominators)}"
        )
    total = math.fsum(denominators)
    if total == 0:
        return None, None
    ratio = math.fsum(numerators) / total
    if n < 2:
        return ratio, None
    _, spread = mean_ci95([a - ratio * b for a, b in zip(numerators, denominators, strict=True)])
    assert spread is not None
    half = (spread[1] - spread[0]) / 2 / (total / n)
    return ratio, (ratio - half, ratio + half)


def ratio_sentence(ratio: dict[str, Any] | None) -> str | None:
    """Return ``tricks_lost_ratio`` (``summarise_dd_loss``) as a sentence, if there is one.

    >>> ratio_sentence({"bot": "a", "to": "b", "ratio": 0.5, "ci95": [0.25, 0.75]})
    'a lost 0.50 times the tricks b lost (95% interval 0.25 to 0.75).'
    """
    if ratio is None or ratio["ratio"] is None:
        return None
    ci = ratio["ci95"]
    interval = "no interval" if ci is None else f"95% interval {ci[0]:.2f} to {ci[1]:.2f}"
    return f"{ratio['bot']} lost {ratio['ratio']:.2f} times the tricks {ratio['to']} lost ({interval})."


def _rate(made: int, total: int) -> float | None:
    return made / total if total else None


def summarise_match(bots: Sequence[str], deals: Sequence[DuplicateDeal]) -> dict[str, Any]:
    """Return the match summary as the JSON object of ``esmakker match --json``.

    ``bots`` are the four bot names in match order; bots of the same name are
    pooled (see ``DuplicateDeal.points_by_name``). Keys: ``deals``, ``bots``
    (``mean_points_per_deal``, ``ci95``), ``contracts`` (per contract: ``share``,
    ``declared_by``, ``make_rate``), ``number_make_rate``, ``nolo_make_rate``,
    ``all_pass_share``, and two more shares: ``nolo_share`` and ``iron_hand_share``.

    Raises:
        ValueError: without deals.
    """
    if not deals:
        raise ValueError("a match summary needs at least one deal")
    ordered = sorted(deals, key=lambda d: d.number)
    names = list(dict.fromkeys(bots))
    per_deal = [d.points_by_name(bots) for d in ordered]
    summary_bots: dict[str, Any] = {}
    for name in names:
        mean, ci = mean_ci95([values[name] for values in per_deal])
        summary_bots[name] = {
            "mean_points_per_deal": mean,
            "ci95": None if ci is None else list(ci),
        }

    hands = [hand for d in ordered for hand in d.hands]
    outcomes = Counter(hand.outcome for hand in hands)
    contracts: Counter[str] = Counter()
    made: Counter[str] = Counter()
    declared: dict[str, Counter[str]] = {}
    family: Counter[tuple[str, str]] = Counter()  # (family, name) -> declared
    family_made: Counter[tuple[str, str]] = Counter()
    for hand in hands:
        if hand.outcome != PLAYED:
            continue
        assert hand.contract is not None
        assert hand.declarer is not None
        name = bots[hand.declarer]
        contracts[hand.contract] += 1
        made[hand.contract] += bool(hand.made)
        declared.setdefault(hand.contract, Counter())[name] += 1
        kind = "nolo" if hand.nolo else "number"
        family[kind, name] += 1
        family_made[kind, name] += bool(hand.made)

    total = len(hands)
    order = sorted(contracts, key=lambda c: (-contracts[c], c))
    return {
        "deals": len(ordered),
        "bots": summary_bots,
        "contracts": {
            contract: {
                "share": contracts[contract] / total,
                "declared_by": {name: declared[contract][name] for name in names},
                "make_rate": made[contract] / contracts[contract],
            }
            for contract in order
        },
        "number_make_rate": {
            name: _rate(family_made["number", name], family["number", name]) for name in names
        },
        "nolo_make_rate": {
            name: _rate(family_made["nolo", name], family["nolo", name]) for name in names
        },
        "all_pass_share": outcomes[ALL_PASS] / total,
        "nolo_share": sum(family["nolo", name] for name in names) / total,
        "iron_hand_share": outcomes[IRON_HAND] / total,
    }


def summarise_dd_loss(
    bots: Sequence[str], deals: Sequence[DuplicateDeal], node_limit: int
) -> dict[str, Any]:
    """Return the double-dummy figures of a match: ``dd_loss`` of ``esmakker match --json``.

    Per bot name: ``tricks_lost_per_deal`` (the tricks its judged cards lost, summed over
    a deal's rotations and divided by their number, pooled over bots of the name like the
    points) with ``ci95``; ``cards``, ``cards_solved`` and ``card_coverage``;
    ``regret_per_declared_deal`` (per deal, the mean regret of the number contracts it
    declared and the solver judged; over the deals that have one) with ``regret_ci95``;
    ``declared`` (number contracts it declared) and ``regret_solved``; ``by_role``: per
    role (``ROLES``) its played hands and the tricks lost in one on average. With exactly two
    names, ``tricks_lost_ratio``: the first name's tricks lost over the second's, paired by
    deal, with ``ci95`` (``ratio_ci95``, decision 118); else ``None``. Beside them, the
    counts for all bots, and ``node_limit``. See ``docs/decisions.md`` 82-85.

    Raises:
        ValueError: without deals, or if a hand has no double-dummy figures.
    """
    if not deals:
        raise ValueError("double-dummy figures need at least one deal")
    per_deal = [_dd_hands(deal) for deal in sorted(deals, key=lambda d: d.number)]
    names = list(dict.fromkeys(bots))
    lost = {name: lost_per_deal(bots, name, per_deal) for name in names}
    figures = {name: _dd_figures(bots, name, per_deal, lost[name]) for name in names}
    for name in names:
        figures[name]["by_role"] = lost_by_role(bots, name, deals)
    hands = [hand for deal in per_deal for hand in deal]
    cards = sum(player.cards for hand in hands for player in hand.players)
    solved = sum(player.solved for hand in hands for player in hand.players)
    contracts = [hand.regret_status for hand in hands if hand.regret_status in (SOLVED, GAVE_UP)]
    return {
        "node_limit": node_limit,
        "bots": figures,
        "tricks_lost_ratio": _lost_ratio(lost),
        "cards": cards,
        "cards_solved": solved,
        "card_coverage": _rate(solved, cards),
        "number_contracts": len(contracts),
        "regret_solved": contracts.count(SOLVED),
        "regret_coverage": _rate(contracts.count(SOLVED), len(contracts)),
    }


def _dd_hands(deal: DuplicateDeal) -> list[HandLoss]:
    found = [hand.dd for hand in deal.hands]
    if any(dd is None for dd in found):
        raise ValueError(f"deal {deal.number} has no double-dummy figures")
    return [dd for dd in found if dd is not None]


def _seats_of(bots: Sequence[str], name: str) -> list[int]:
    """Return the indexes in ``bots`` of the bots of the name."""
    return [i for i, bot in enumerate(bots) if bot == name]


def lost_per_deal(bots: Sequence[str], name: str, per_deal: list[list[HandLoss]]) -> list[float]:
    """Return per deal the tricks a bot of the name lost in a hand, on average."""
    mine = _seats_of(bots, name)
    return [
        sum(hand.players[i].lost for hand in hands for i in mine) / (len(hands) * len(mine))
        for hands in per_deal
    ]


def _lost_ratio(lost: dict[str, list[float]]) -> dict[str, Any] | None:
    """Return the first name's tricks lost over the second's, if the match has two names."""
    if len(lost) != 2:
        return None
    names = list(lost)
    ratio, ci = ratio_ci95(lost[names[0]], lost[names[1]])
    return {
        "bot": names[0],
        "to": names[1],
        "ratio": ratio,
        "ci95": None if ci is None else list(ci),
    }


def _role(hand: Hand, index: int) -> str:
    """Return the bot's role in a played hand (``ROLES``)."""
    declaring = hand.dd is not None and hand.dd.declarer == index
    if hand.nolo:
        return ROLES[3] if declaring else ROLES[4]
    if declaring:
        return ROLES[0]
    return ROLES[1] if hand.partner == index else ROLES[2]


def lost_by_role(
    bots: Sequence[str], name: str, deals: Sequence[DuplicateDeal]
) -> dict[str, dict[str, Any]]:
    """Return per role the name's played hands and the tricks its bots lost in one on average."""
    mine = _seats_of(bots, name)
    totals = {role: [0, 0] for role in ROLES}
    for deal in deals:
        for hand in deal.hands:
            if hand.outcome != PLAYED or hand.dd is None:
                continue
            for index in mine:
                total = totals[_role(hand, index)]
                total[0] += hand.dd.players[index].lost
                total[1] += 1
    return {
        role: {"hands": hands, "tricks_lost_per_hand": _rate(lost, hands)}
        for role, (lost, hands) in totals.items()
    }


def _dd_figures(
    bots: Sequence[str], name: str, per_deal: list[list[HandLoss]], lost: list[float]
) -> dict[str, Any]:
    """Return one bot name's double-dummy figures (its bots by index in ``bots``).

    ``lost`` is the name's tricks lost per deal (``lost_per_deal``).
    """
    mine = _seats_of(bots, name)
    mean, ci = mean_ci95(lost)
    players = [hand.players[i] for hands in per_deal for hand in hands for i in mine]
    cards = sum(player.cards for player in players)
    solved = sum(player.solved for player in players)
    declared = [
        hand
        for hands in per_deal
        for hand in hands
        if hand.declarer in mine and hand.regret_status in (SOLVED, GAVE_UP)
    ]
    regrets = []
    for hands in per_deal:
        judged = [h.regret for h in hands if h.declarer in mine and h.regret is not None]
        if judged:
            regrets.append(sum(judged) / len(judged))
    regret, regret_ci = mean_ci95(regrets) if regrets else (None, None)
    return {
        "tricks_lost_per_deal": mean,
        "ci95": None if ci is None else list(ci),
        "cards": cards,
        "cards_solved": solved,
        "card_coverage": _rate(solved, cards),
        "regret_per_declared_deal": regret,
        "regret_ci95": None if regret_ci is None else list(regret_ci),
        "declared": len(declared),
        "regret_solved": sum(hand.regret_status == SOLVED for hand in declared),
    }
