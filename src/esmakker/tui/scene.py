"""What a widget renders: one seat's view, the players' names, and whose side is at the bottom."""

from __future__ import annotations

from dataclasses import dataclass

from esmakker.core.seats import Seat
from esmakker.core.view import PlayerView


@dataclass(frozen=True, slots=True)
class Scene:
    """A view and the names to show it with."""

    view: PlayerView
    names: tuple[str, str, str, str]
    """The players at N, E, S, W."""
    me: Seat
    """The seat drawn at the bottom of the table (the person's seat)."""

    def name(self, seat: Seat) -> str:
        """Return the name of the player in ``seat``, cut to fit a label."""
        return self.names[seat][:10]

    @property
    def forehand(self) -> Seat:
        """Return the seat after the dealer, who bids and leads first."""
        return self.view.dealer.next()
