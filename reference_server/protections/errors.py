"""Named error conditions of the protections family (Gitea's statuses and messages)."""

from __future__ import annotations

from ..errors import BadRequest, Forbidden, NotFound, Unprocessable

__all__ = [
    "BranchProtectionExists",
    "BranchProtectionNotFound",
    "InvalidProtectionOption",
    "MissingRuleName",
    "ProtectedRefRefused",
    "TagProtectionExists",
    "TagProtectionNotFound",
    "UnknownTeam",
    "UnknownUser",
]


class MissingRuleName(BadRequest):
    default_message = "both rule_name and branch_name are empty"


class BranchProtectionExists(Forbidden):
    default_message = "Branch protection already exist"


class BranchProtectionNotFound(NotFound):
    default_message = "branch protection not found"


class TagProtectionExists(Forbidden):
    default_message = "Tag protection already exist"


class TagProtectionNotFound(NotFound):
    default_message = "tag protection not found"


class InvalidProtectionOption(Unprocessable):
    default_message = "invalid protection option"


class UnknownUser(Unprocessable):
    default_message = "user does not exist"


class UnknownTeam(Unprocessable):
    default_message = "team does not exist"


class ProtectedRefRefused(Forbidden):
    """A write that a branch or tag protection rule refuses; the message is the pre-receive reason."""

    default_message = "the ref is protected"
