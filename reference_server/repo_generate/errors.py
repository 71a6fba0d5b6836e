"""Named errors of generating a repository from a template (Gitea's answers of ``repo.Generate``)."""

from __future__ import annotations

from ..errors import Forbidden, NotFound, Unprocessable

__all__ = ["NoTemplateItem", "NotATemplate", "OtherUsersRepository", "OwnerNotFound"]


class NotATemplate(Unprocessable):
    default_message = "this is not a template repo"


class NoTemplateItem(Unprocessable):
    default_message = "must select at least one template item"


class OwnerNotFound(NotFound):
    """The ``owner`` of the body does not exist (Gitea words it ``request owner `x` does not exist``)."""


class OtherUsersRepository(Forbidden):
    default_message = "Only admin can generate repository for other user."
