"""Named error conditions of the milestones family (Gitea's messages where Gitea has one)."""

from __future__ import annotations

from ..errors import NotFound, Unprocessable

__all__ = ["InvalidMilestoneOption", "MilestoneNotFound", "UnknownIssueMilestone"]


class MilestoneNotFound(NotFound):
    default_message = "The target couldn't be found."


class InvalidMilestoneOption(Unprocessable):
    default_message = "invalid milestone option"


class UnknownIssueMilestone(Unprocessable):
    """An issue names a milestone its repository does not have."""

    default_message = "milestone does not exist"
