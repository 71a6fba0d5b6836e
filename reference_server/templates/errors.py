"""Named error conditions of the templates family."""

from __future__ import annotations

from ..errors import NotFound, Unprocessable

__all__ = [
    "GitignoreTemplateNotFound",
    "LabelTemplateNotFound",
    "LicenseTemplateNotFound",
    "UnknownCreationTemplate",
]


class LicenseTemplateNotFound(NotFound):
    default_message = "license template does not exist"


class GitignoreTemplateNotFound(NotFound):
    default_message = "gitignore template does not exist"


class LabelTemplateNotFound(NotFound):
    default_message = "label template does not exist"


class UnknownCreationTemplate(Unprocessable):
    """A repository creation names a template that does not exist (nothing is created)."""

    default_message = "template does not exist"
