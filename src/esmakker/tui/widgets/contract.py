"""The contract as the seat knows it (bid, declarer, trump, called card, partner) and the last trick."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from esmakker.core.seats import Seat
from esmakker.core.view import ContractView
from esmakker.tui.i18n import bid_name, t
from esmakker.tui.scene import Scene
from esmakker.tui.text import card_text, cards_text, suit_text


class ContractWidget(Widget):
    """Three lines: the contract, the called card and partner, the last trick."""

    scene: reactive[Scene | None] = reactive(None, always_update=True)

    def render(self) -> Text:
        """Draw the contract lines."""
        scene = self.scene
        if scene is None:
            return Text("")
        contract = scene.view.contract
        if contract is None:
            lines = [Text(t("contract.none", phase=t(f"phase.{scene.view.phase.value}")))]
        else:
            lines = [_bid_line(scene, contract), _partner_line(scene, contract)]
            lines = [line for line in lines if line.plain]
        lines.append(last_trick_text(scene))
        lines += open_hands_text(scene)
        return Text("\n").join(lines)


def _bid_line(scene: Scene, contract: ContractView) -> Text:
    text = Text(t("contract.label") + " ", style="dim")
    text.append(bid_name(contract.bid), style="bold")
    text.append(" " + t("contract.declarer", name=scene.name(contract.declarer)))
    if contract.bid.is_nolo:
        return text
    text.append(" · " + t("contract.trump") + " ")
    if contract.trump_known:
        text.append_text(suit_text(contract.trump))
    else:
        text.append("?")
    return text


def _partner_line(scene: Scene, contract: ContractView) -> Text:
    text = Text()
    if contract.called is not None:
        text.append(t("contract.called") + " ")
        text.append_text(card_text(contract.called))
        text.append(" · ")
    if contract.joiners:
        names = ", ".join(scene.name(seat) for seat in contract.joiners)
        text.append(t("contract.joiners", names=names) + " · ")
    if not contract.bid.is_nolo:
        text.append(_partner(scene, contract))
    if contract.vip_turned:
        text.append(" · " + t("contract.turned") + " ")
        text.append_text(cards_text(contract.vip_turned))
    return text


def _partner(scene: Scene, contract: ContractView) -> str:
    if not contract.partner_known:
        return t("contract.partner", name="?")
    if contract.partner is None:
        return t("contract.alone")
    return t("contract.partner", name=scene.name(contract.partner))


def open_hands_text(scene: Scene) -> list[Text]:
    """Return a line for each other hand laid open (bordlægger): ``Open, Bo: ♠A ♠K …``."""
    lines = []
    for seat, cards in zip(Seat, scene.view.open_hands, strict=True):
        if cards is not None and seat != scene.view.seat:
            text = Text(t("contract.open_hand", name=scene.name(seat)) + " ", style="dim")
            lines.append(text + cards_text(cards))
    return lines


def last_trick_text(scene: Scene) -> Text:
    """Return ``Last trick: ♠A ♠3 … → Bo`` (empty before the first trick is taken)."""
    tricks = scene.view.tricks
    if not tricks:
        return Text("")
    last = tricks[-1]
    text = Text(t("trick.last", number=len(tricks)) + " ", style="dim")
    text.append(scene.name(last.leader) + ": ")
    text.append_text(cards_text(last.cards))
    text.append(" → " + scene.name(last.winner), style="green")
    return text
