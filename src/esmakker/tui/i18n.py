"""Messages of the terminal game in English, Danish and Russian.

``t(key, **values)`` returns the message of the current language with ``{name}`` fields
filled in. Game terms (vip, gode, halve, sol, bordlægger …) stay Danish in every
language: ``bid_name`` writes them.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

from esmakker.core.actions import Bid, BidKind
from esmakker.tui.locales import da, en, ru

LANGUAGES: tuple[str, ...] = ("en", "da", "ru")
CATALOGUES: Mapping[str, Mapping[str, str]] = {
    "en": en.MESSAGES,
    "da": da.MESSAGES,
    "ru": ru.MESSAGES,
}
DANISH_TERMS: Mapping[BidKind, str] = {
    BidKind.PLAIN: "",
    BidKind.VIP: "vip",
    BidKind.GODE: "gode",
    BidKind.HALVE: "halve",
    BidKind.STAERKE: "stærke",
    BidKind.SANS: "sans",
    BidKind.SOL: "sol",
    BidKind.REN_SOL: "ren sol",
    BidKind.BORDLAEGGER: "bordlægger",
    BidKind.REN_BORDLAEGGER: "ren bordlægger",
    BidKind.SUPER_BORDLAEGGER: "super bordlægger",
    BidKind.DOUBLE_NOLO: "double nolo",
}
"""How bids are written on screen, the same in every language."""

_language = "en"


def set_language(language: str) -> None:
    """Make ``language`` (one of ``LANGUAGES``) the language of ``t``.

    Raises:
        ValueError: for a language without a catalogue.
    """
    global _language
    if language not in CATALOGUES:
        raise ValueError(
            f"language {language!r} is unknown (expected one of {', '.join(LANGUAGES)})"
        )
    _language = language


def language() -> str:
    """Return the current language."""
    return _language


def t(key: str, **values: object) -> str:
    """Return the message ``key`` in the current language, its fields filled in.

    Raises:
        KeyError: for a key that no catalogue has.
    """
    template = CATALOGUES[_language].get(key)
    if template is None:
        template = CATALOGUES["en"][key]
    return template.format(**values)


def fields(template: str) -> set[str]:
    """Return the names of a template's ``{fields}``."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def bid_name(bid: Bid) -> str:
    """Return a bid as players say it (``9 vip``, ``ren sol``, ``8``)."""
    term = DANISH_TERMS[bid.kind]
    if bid.level is None:
        return term
    return f"{bid.level} {term}".strip()
