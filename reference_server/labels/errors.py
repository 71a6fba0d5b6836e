"""Named error conditions of the labels family."""

from __future__ import annotations

from ..errors import NotFound, Unprocessable

__all__ = ["InvalidLabelColor", "LabelNotFound"]


class LabelNotFound(NotFound):
    default_message = "label does not exist"


class InvalidLabelColor(Unprocessable):
    default_message = "bad color code"
