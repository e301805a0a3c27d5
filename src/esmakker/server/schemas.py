"""Request and answer bodies of the HTTP API (pydantic, for validation and OpenAPI)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class CreateTable(BaseModel):
    """A new table: rules, places, who may find it, what happens when someone leaves."""

    name: str = Field("", max_length=60)
    preset: str = "wikipedia"
    overrides: dict[str, Any] = Field(default_factory=dict)
    seats: Literal[4, 5] = 4
    private: bool = False
    policy: Literal["wait", "bot", "abort"] = "bot"
    grace: float = Field(60.0, ge=0, le=3600)
    bot: str = "heuristic"
    max_deals: int | None = Field(None, ge=1)
    host_name: str | None = Field(None, description="also seat the host under this name")


class Join(BaseModel):
    """Take a place at a table under a name."""

    name: str = Field(..., min_length=1, max_length=24)
    index: int | None = Field(
        None, ge=0, le=4, description="a particular place (default: the first free)"
    )


class Seated(BaseModel):
    """A place taken: its token is the seat credential (keep it secret)."""

    table_id: str
    index: int
    token: str
    ws_url: str


class Created(BaseModel):
    """A table made: its link and code to share, and the host's token."""

    id: str
    code: str
    invite_url: str
    host_token: str
    seat: Seated | None = None


class FillBots(BaseModel):
    """Fill the empty places with bots."""

    level: str | None = None


class Problem(BaseModel):
    """An error answer."""

    code: str
    message: str
