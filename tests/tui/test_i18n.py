"""Every message in every language, with the same fields; game terms stay Danish."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from esmakker.core.actions import Bid, BidKind
from esmakker.tui import i18n
from esmakker.tui.i18n import CATALOGUES, LANGUAGES, bid_name, fields, set_language, t


@pytest.fixture
def danish() -> Iterator[None]:
    set_language("da")
    yield
    set_language("en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_message(language: str) -> None:
    assert set(CATALOGUES[language]) == set(CATALOGUES["en"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_has_the_english_fields(language: str) -> None:
    for key, english in CATALOGUES["en"].items():
        assert fields(CATALOGUES[language][key]) == fields(english), key


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_message_is_empty(language: str) -> None:
    assert all(text.strip() for text in CATALOGUES[language].values())


def test_messages_come_in_the_chosen_language(danish: None) -> None:
    assert t("act.pass") == "pas"
    assert i18n.language() == "da"


def test_bids_keep_their_danish_names_in_every_language() -> None:
    for language in LANGUAGES:
        set_language(language)
        assert bid_name(Bid(None, BidKind.REN_SOL)) == "ren sol"
        assert bid_name(Bid(9, BidKind.STAERKE)) == "9 stærke"
        assert bid_name(Bid(8)) == "8"
    set_language("en")


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="expected one of en, da, ru"):
        set_language("fr")
