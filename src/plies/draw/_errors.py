"""The error of the drawing package (re-exported as :class:`plies.draw.DrawError`)."""

from __future__ import annotations

from plies.errors import PliesError

__all__ = ["DrawError"]


class DrawError(PliesError):
    """A drawing cannot be made: unknown format, unwritable file, missing trace."""
