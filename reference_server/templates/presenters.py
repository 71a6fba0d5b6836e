"""Gitea's ``LabelTemplate`` as the API shows it; above the models, which never render."""

from __future__ import annotations

from typing import Any

from .models import LabelTemplate

__all__ = ["label_template_to_api"]


def label_template_to_api(label: LabelTemplate) -> dict[str, Any]:
    """Gitea's ``LabelTemplate``."""
    return {"name": label.name, "exclusive": label.exclusive, "color": label.color, "description": label.description}
