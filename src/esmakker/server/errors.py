"""Every error the server reports, mapped in one place (frames and HTTP answers).

An error frame is ``{"v": 1, "type": "error", "code": ..., "message": ..., "id": ...}``;
the codes are listed in ``docs/protocol.md``. Rule errors use the engine's ``Reason``
values (``not_your_turn``, ``must_follow_suit``, ...).
"""

from __future__ import annotations

from typing import Any

from esmakker.core.errors import IllegalActionError, NotationError

# protocol codes (besides the engine's Reason values)
BAD_JSON = "bad_json"
TOO_LARGE = "too_large"
BAD_FRAME = "bad_frame"
BAD_VERSION = "bad_version"
UNKNOWN_TYPE = "unknown_type"
MISSING_ID = "missing_id"
DUPLICATE_ID = "duplicate_id"
BAD_ACTION = "bad_action"
NOT_SEATED = "not_seated"
SITTING_OUT = "sitting_out"
NOT_STARTED = "not_started"
TABLE_CLOSED = "table_closed"
NO_UNDO = "no_undo"
NO_CLAIM = "no_claim"
INTERNAL = "internal"
REPLACED = "replaced"
RATE_LIMITED = "rate_limited"
HINT_BUSY = "hint_busy"

# HTTP codes
NOT_FOUND = "not_found"
BAD_REQUEST = "bad_request"
FORBIDDEN = "forbidden"
CONFLICT = "conflict"
SOLVER_NOT_INSTALLED = "solver_not_installed"


class ProtocolError(Exception):
    """A client frame the server refuses; nothing at the table changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ApiError(Exception):
    """An HTTP request the server refuses, with its status."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def code_and_message(exc: Exception) -> tuple[str, str]:
    """Return the wire code and message of any error raised while handling a command."""
    if isinstance(exc, ProtocolError):
        return exc.code, exc.message
    if isinstance(exc, IllegalActionError):
        return exc.reason.value, str(exc)
    if isinstance(exc, NotationError):
        return BAD_ACTION, str(exc)
    return INTERNAL, "the server could not handle this command"


def error_frame(code: str, message: str, command_id: str | None) -> dict[str, Any]:
    """Return an error frame (version 1)."""
    return {"v": 1, "type": "error", "code": code, "message": message, "id": command_id}


def api_body(exc: ApiError) -> dict[str, str]:
    """Return the JSON body of an HTTP error."""
    return {"code": exc.code, "message": exc.message}
