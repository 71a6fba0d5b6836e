"""SQL of the assignees family. It keeps no table of its own (``issue_assignee`` belongs to the issues
family); it reads who could be assigned from collaborations and the owning organization's teams."""

from __future__ import annotations

from ..context import forge

__all__ = ["SCHEMA", "candidate_ids", "team_writes_issues_or_pulls"]

SCHEMA = ""


def candidate_ids(repo_id: int, org_id: int) -> list[int]:
    """Collaborators of the repository and, for an organization's repository (``org_id`` > 0), members
    of its teams that cover the repository (listed, or all repositories): everyone who might write."""
    rows = forge().db.all(
        "SELECT user_id FROM collaborations WHERE repo_id = ?"
        " UNION SELECT tm.user_id FROM team_members tm JOIN teams t ON t.id = tm.team_id"
        " WHERE t.org_id = ? AND (t.includes_all_repositories = 1"
        " OR EXISTS (SELECT 1 FROM team_repos tr WHERE tr.team_id = t.id AND tr.repo_id = ?))",
        (repo_id, org_id, repo_id),
    )
    return [int(row["user_id"]) for row in rows]


def team_writes_issues_or_pulls(org_id: int, user_id: int, repo_id: int) -> bool:
    """Whether one of the user's teams covering the repository writes its issues or pull requests unit."""
    value = forge().db.scalar(
        "SELECT 1 FROM teams t JOIN team_members tm ON tm.team_id = t.id"
        " JOIN team_units tu ON tu.team_id = t.id"
        " WHERE t.org_id = ? AND tm.user_id = ? AND tu.unit IN ('repo.issues', 'repo.pulls')"
        " AND tu.access IN ('write', 'admin', 'owner') AND (t.includes_all_repositories = 1"
        " OR EXISTS (SELECT 1 FROM team_repos tr WHERE tr.team_id = t.id AND tr.repo_id = ?)) LIMIT 1",
        (org_id, user_id, repo_id),
    )
    return value is not None
