"""Tables and SQL of organization membership, teams and renames (organizations are rows of ``accounts``).

Membership follows Gitea: a user belongs to an organization while in at least one of its teams
(``org_users`` is kept in step with ``team_members`` inside the same transaction); the team with
access ``owner`` is the Owners team.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from ..context import forge
from ..db import Database, Row

__all__ = ["SCHEMA", "OrgProfile", "upgrade"]


@dataclass(frozen=True)
class OrgProfile:
    """The columns an organization edit writes (``EditOrgOption``); None keeps the stored value."""

    full_name: str
    description: str
    website: str
    location: str
    visibility: str | None = None
    email: str | None = None
    repo_admin_change_team_access: bool | None = None


SCHEMA = """
CREATE TABLE IF NOT EXISTS org_users (
    org_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    is_public INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    PRIMARY KEY (org_id, user_id)
);
CREATE INDEX IF NOT EXISTS org_users_user ON org_users(user_id);
CREATE TABLE IF NOT EXISTS teams (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    lower_name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    access TEXT NOT NULL,
    includes_all_repositories INTEGER NOT NULL DEFAULT 0,
    can_create_org_repo INTEGER NOT NULL DEFAULT 0,
    visibility TEXT NOT NULL DEFAULT 'private',
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    UNIQUE (org_id, lower_name)
);
CREATE TABLE IF NOT EXISTS team_units (
    team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    unit TEXT NOT NULL,
    access TEXT NOT NULL,
    PRIMARY KEY (team_id, unit)
);
CREATE TABLE IF NOT EXISTS team_members (
    team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created INTEGER NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX IF NOT EXISTS team_members_user ON team_members(user_id);
CREATE TABLE IF NOT EXISTS team_repos (
    team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, repo_id)
);
CREATE INDEX IF NOT EXISTS team_repos_repo ON team_repos(repo_id);
CREATE TABLE IF NOT EXISTS account_redirects (
    lower_name TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS org_directory_moves (
    org_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    old_lower TEXT NOT NULL,
    new_lower TEXT NOT NULL
);
"""


TEAMS_ADDED_COLUMNS = {"visibility": "TEXT NOT NULL DEFAULT 'private'"}
"""Columns added after the first release of the ``teams`` table: ``upgrade`` adds them to existing databases."""


def upgrade(db: Database) -> None:
    """Give an existing ``teams`` table the columns of :data:`TEAMS_ADDED_COLUMNS` (Gitea 1.27's team visibility)."""
    present = {row["name"] for row in db.all("PRAGMA table_info(teams)")}
    for name, declaration in TEAMS_ADDED_COLUMNS.items():
        if name not in present:
            db.execute(f"ALTER TABLE teams ADD COLUMN {name} {declaration}")


def _count(sql: str, params: tuple[object, ...]) -> int:
    value = forge().db.scalar(sql, params)
    return value if isinstance(value, int) else 0


# -- membership ----------------------------------------------------------------------------------


def is_member(org_id: int, user_id: int) -> bool:
    return forge().db.scalar("SELECT 1 FROM org_users WHERE org_id = ? AND user_id = ?", (org_id, user_id)) is not None


def is_owner(org_id: int, user_id: int) -> bool:
    return (
        forge().db.scalar(
            "SELECT 1 FROM team_members tm JOIN teams t ON t.id = tm.team_id"
            " WHERE t.org_id = ? AND t.access = 'owner' AND tm.user_id = ?",
            (org_id, user_id),
        )
        is not None
    )


def is_public_member(org_id: int, user_id: int) -> bool:
    row = forge().db.one("SELECT is_public FROM org_users WHERE org_id = ? AND user_id = ?", (org_id, user_id))
    return row is not None and bool(row["is_public"])


def set_public(org_id: int, user_id: int, public: bool) -> None:
    forge().db.execute(
        "UPDATE org_users SET is_public = ? WHERE org_id = ? AND user_id = ?", (int(public), org_id, user_id)
    )


def orgs_of_member(user_id: int) -> list[int]:
    rows = forge().db.all("SELECT org_id FROM org_users WHERE user_id = ? ORDER BY org_id", (user_id,))
    return [int(row["org_id"]) for row in rows]


def orgs_page_of_member(user_id: int, limit: int, offset: int, *, public_only: bool) -> tuple[list[int], int]:
    rows = forge().db.all(
        "SELECT o.org_id FROM org_users o JOIN accounts a ON a.id = o.org_id"
        " WHERE o.user_id = ? AND (? = 0 OR o.is_public = 1) ORDER BY a.lower_name LIMIT ? OFFSET ?",
        (user_id, int(public_only), limit, offset),
    )
    total = _count(
        "SELECT COUNT(*) FROM org_users WHERE user_id = ? AND (? = 0 OR is_public = 1)", (user_id, int(public_only))
    )
    return [int(row["org_id"]) for row in rows], total


def members_page(org_id: int, limit: int, offset: int, *, public_only: bool) -> tuple[list[int], int]:
    rows = forge().db.all(
        "SELECT o.user_id FROM org_users o JOIN accounts a ON a.id = o.user_id"
        " WHERE o.org_id = ? AND (? = 0 OR o.is_public = 1) ORDER BY a.lower_name LIMIT ? OFFSET ?",
        (org_id, int(public_only), limit, offset),
    )
    total = _count(
        "SELECT COUNT(*) FROM org_users WHERE org_id = ? AND (? = 0 OR is_public = 1)", (org_id, int(public_only))
    )
    return [int(row["user_id"]) for row in rows], total


def ensure_org_user(org_id: int, user_id: int, now: int) -> None:
    forge().db.execute(
        "INSERT OR IGNORE INTO org_users (org_id, user_id, is_public, created) VALUES (?, ?, 0, ?)",
        (org_id, user_id, now),
    )


def drop_org_user_without_team(org_id: int, user_id: int) -> None:
    """Remove the membership row when the user is in none of the organization's teams any more."""
    forge().db.execute(
        "DELETE FROM org_users WHERE org_id = ? AND user_id = ? AND NOT EXISTS ("
        " SELECT 1 FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE t.org_id = ? AND tm.user_id = ?)",
        (org_id, user_id, org_id, user_id),
    )


def remove_from_org(org_id: int, user_id: int) -> None:
    forge().db.execute(
        "DELETE FROM team_members WHERE user_id = ? AND team_id IN (SELECT id FROM teams WHERE org_id = ?)",
        (user_id, org_id),
    )
    forge().db.execute("DELETE FROM org_users WHERE org_id = ? AND user_id = ?", (org_id, user_id))


def remove_member_everywhere(user_id: int) -> None:
    forge().db.execute("DELETE FROM team_members WHERE user_id = ?", (user_id,))
    forge().db.execute("DELETE FROM org_users WHERE user_id = ?", (user_id,))


def remove_org_data(org_id: int) -> None:
    """Teams (with their units, members and repositories), memberships, redirects and pending moves."""
    forge().db.execute("DELETE FROM teams WHERE org_id = ?", (org_id,))
    forge().db.execute("DELETE FROM org_users WHERE org_id = ?", (org_id,))
    forge().db.execute("DELETE FROM account_redirects WHERE account_id = ?", (org_id,))
    forge().db.execute("DELETE FROM org_directory_moves WHERE org_id = ?", (org_id,))


# -- teams ---------------------------------------------------------------------------------------


def insert_team(
    *,
    org_id: int,
    name: str,
    description: str,
    access: str,
    includes_all: bool,
    can_create: bool,
    now: int,
    visibility: str = "private",
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO teams (org_id, name, lower_name, description, access, includes_all_repositories,"
        " can_create_org_repo, visibility, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (org_id, name, name.lower(), description, access, int(includes_all), int(can_create), visibility, now, now),
    )
    return int(cursor.lastrowid or 0)


def update_team(
    team_id: int,
    *,
    name: str,
    description: str,
    access: str,
    includes_all: bool,
    can_create: bool,
    visibility: str,
    now: int,
) -> None:
    forge().db.execute(
        "UPDATE teams SET name = ?, lower_name = ?, description = ?, access = ?, includes_all_repositories = ?,"
        " can_create_org_repo = ?, visibility = ?, updated = ? WHERE id = ?",
        (name, name.lower(), description, access, int(includes_all), int(can_create), visibility, now, team_id),
    )


def replace_units(team_id: int, units: dict[str, str]) -> None:
    forge().db.execute("DELETE FROM team_units WHERE team_id = ?", (team_id,))
    for unit, access in units.items():
        forge().db.execute("INSERT INTO team_units (team_id, unit, access) VALUES (?, ?, ?)", (team_id, unit, access))


def units_of(team_id: int) -> list[Row]:
    return forge().db.all("SELECT unit, access FROM team_units WHERE team_id = ?", (team_id,))


def delete_team(team_id: int) -> None:
    forge().db.execute("DELETE FROM teams WHERE id = ?", (team_id,))


def team_by_id(team_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM teams WHERE id = ?", (team_id,))


def team_by_name(org_id: int, name: str) -> Row | None:
    return forge().db.one("SELECT * FROM teams WHERE org_id = ? AND lower_name = ?", (org_id, name.lower()))


def owner_team(org_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM teams WHERE org_id = ? AND access = 'owner' ORDER BY id LIMIT 1", (org_id,))


def teams_page(
    org_id: int, limit: int, offset: int, *, member_id: int | None = None, visibilities: tuple[str, ...] = ()
) -> tuple[list[Row], int]:
    """The organization's teams by name (those ``member_id`` is in or of ``visibilities`` when it is given)."""
    return search_teams(
        org_id, "", include_desc=False, member_id=member_id, visibilities=visibilities, limit=limit, offset=offset
    )


def search_teams(
    org_id: int,
    keyword: str,
    *,
    include_desc: bool,
    member_id: int | None,
    limit: int,
    offset: int,
    visibilities: tuple[str, ...] = (),
) -> tuple[list[Row], int]:
    """The organization's teams whose name (or, with ``include_desc``, description) holds ``keyword`` whatever
    its case, when ``member_id`` is given only those it is in or whose visibility is one of ``visibilities``
    (Gitea's ``SearchTeamOptions``), by name; and their number."""
    where = "t.org_id = ?"
    params: list[object] = [org_id]
    if keyword:
        where += " AND (instr(t.lower_name, ?) > 0" + (
            " OR instr(lower(t.description), ?) > 0)" if include_desc else ")"
        )
        params += [keyword.lower()] * (2 if include_desc else 1)
    if member_id is not None:
        where += (
            " AND (t.id IN (SELECT team_id FROM team_members WHERE user_id = ?)"
            " OR t.visibility IN (SELECT value FROM json_each(?)))"
        )
        params += [member_id, json.dumps(list(visibilities))]
    db = forge().db
    rows = db.all(
        f"SELECT t.* FROM teams t WHERE {where} ORDER BY t.lower_name LIMIT ? OFFSET ?",  # noqa: S608
        (*params, limit, offset),
    )
    return rows, _count(f"SELECT COUNT(*) FROM teams t WHERE {where}", tuple(params))  # noqa: S608


def teams_of_member(org_id: int, user_id: int) -> list[Row]:
    """The teams of the organization the user is in."""
    return forge().db.all(
        "SELECT t.* FROM teams t JOIN team_members tm ON tm.team_id = t.id WHERE t.org_id = ? AND tm.user_id = ?",
        (org_id, user_id),
    )


def teams_page_of_user(user_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    rows = forge().db.all(
        "SELECT t.* FROM teams t JOIN team_members tm ON tm.team_id = t.id WHERE tm.user_id = ?"
        " ORDER BY t.org_id, t.lower_name LIMIT ? OFFSET ?",
        (user_id, limit, offset),
    )
    return rows, _count("SELECT COUNT(*) FROM team_members WHERE user_id = ?", (user_id,))


def add_team_member(team_id: int, user_id: int, now: int) -> None:
    forge().db.execute(
        "INSERT OR IGNORE INTO team_members (team_id, user_id, created) VALUES (?, ?, ?)", (team_id, user_id, now)
    )


def remove_team_member(team_id: int, user_id: int) -> None:
    forge().db.execute("DELETE FROM team_members WHERE team_id = ? AND user_id = ?", (team_id, user_id))


def is_team_member(team_id: int, user_id: int) -> bool:
    return (
        forge().db.scalar("SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?", (team_id, user_id))
        is not None
    )


def team_member_ids(team_id: int) -> list[int]:
    rows = forge().db.all("SELECT user_id FROM team_members WHERE team_id = ?", (team_id,))
    return [int(row["user_id"]) for row in rows]


def team_members_page(team_id: int, limit: int, offset: int) -> tuple[list[int], int]:
    rows = forge().db.all(
        "SELECT tm.user_id FROM team_members tm JOIN accounts a ON a.id = tm.user_id WHERE tm.team_id = ?"
        " ORDER BY a.lower_name LIMIT ? OFFSET ?",
        (team_id, limit, offset),
    )
    total = _count("SELECT COUNT(*) FROM team_members WHERE team_id = ?", (team_id,))
    return [int(row["user_id"]) for row in rows], total


def count_owners(org_id: int) -> int:
    return _count(
        "SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id"
        " WHERE t.org_id = ? AND t.access = 'owner'",
        (org_id,),
    )


def add_team_repo(team_id: int, repo_id: int) -> None:
    forge().db.execute("INSERT OR IGNORE INTO team_repos (team_id, repo_id) VALUES (?, ?)", (team_id, repo_id))


def remove_team_repo(team_id: int, repo_id: int) -> None:
    forge().db.execute("DELETE FROM team_repos WHERE team_id = ? AND repo_id = ?", (team_id, repo_id))


def has_team_repo(team_id: int, repo_id: int) -> bool:
    return (
        forge().db.scalar("SELECT 1 FROM team_repos WHERE team_id = ? AND repo_id = ?", (team_id, repo_id)) is not None
    )


def team_repo_ids(team_id: int, limit: int, offset: int) -> tuple[list[int], int]:
    rows = forge().db.all(
        "SELECT tr.repo_id FROM team_repos tr JOIN repos r ON r.id = tr.repo_id WHERE tr.team_id = ?"
        " ORDER BY r.lower_name LIMIT ? OFFSET ?",
        (team_id, limit, offset),
    )
    total = _count("SELECT COUNT(*) FROM team_repos WHERE team_id = ?", (team_id,))
    return [int(row["repo_id"]) for row in rows], total


def can_create_repo(org_id: int, user_id: int) -> bool:
    """Gitea's ``CanCreateOrgRepo``: an owner, or a member of a team allowed to create repositories."""
    return (
        forge().db.scalar(
            "SELECT 1 FROM teams t JOIN team_members tm ON tm.team_id = t.id WHERE t.org_id = ? AND tm.user_id = ?"
            " AND (t.access = 'owner' OR t.can_create_org_repo = 1) LIMIT 1",
            (org_id, user_id),
        )
        is not None
    )


def remove_repo_from_teams(repo_id: int) -> None:
    """The repository leaves every team that listed it (it moved to another owner)."""
    forge().db.execute("DELETE FROM team_repos WHERE repo_id = ?", (repo_id,))


def all_repository_team_ids(org_id: int) -> list[int]:
    """The organization's teams that include every repository (Owners among them)."""
    rows = forge().db.all("SELECT id FROM teams WHERE org_id = ? AND includes_all_repositories = 1", (org_id,))
    return [int(row["id"]) for row in rows]


def teams_of_repo(org_id: int, repo_id: int) -> list[Row]:
    """The organization's teams that cover the repository (listed, or all repositories): Owners first, then by
    name, as Gitea's ``GetRepoTeams`` orders them."""
    return forge().db.all(
        "SELECT t.* FROM teams t WHERE t.org_id = ? AND (t.includes_all_repositories = 1"
        " OR EXISTS (SELECT 1 FROM team_repos tr WHERE tr.team_id = t.id AND tr.repo_id = ?))"
        " ORDER BY CASE WHEN t.access = 'owner' THEN '' ELSE t.lower_name END",
        (org_id, repo_id),
    )


def clear_team_repos(team_id: int) -> None:
    forge().db.execute("DELETE FROM team_repos WHERE team_id = ?", (team_id,))


def teams_reaching_repo(org_id: int, user_id: int, repo_id: int) -> list[Row]:
    """The user's teams of the organization that cover the repository (listed, or all repositories)."""
    return forge().db.all(
        "SELECT t.* FROM teams t JOIN team_members tm ON tm.team_id = t.id WHERE t.org_id = ? AND tm.user_id = ?"
        " AND (t.includes_all_repositories = 1"
        " OR EXISTS (SELECT 1 FROM team_repos tr WHERE tr.team_id = t.id AND tr.repo_id = ?))",
        (org_id, user_id, repo_id),
    )


# -- profile, rename and redirects ---------------------------------------------------------------


def update_org_profile(org_id: int, profile: OrgProfile, now: int) -> None:
    """Update the organization's own columns of its ``accounts`` row; None leaves a column as it is."""
    email = profile.email
    forge().db.execute(
        "UPDATE accounts SET full_name = ?, description = ?, website = ?, location = ?,"
        " visibility = COALESCE(?, visibility), email = COALESCE(?, email), lower_email = COALESCE(?, lower_email),"
        " repo_admin_change_team_access = COALESCE(?, repo_admin_change_team_access), updated = ?"
        " WHERE id = ? AND is_org = 1",
        (
            profile.full_name,
            profile.description,
            profile.website,
            profile.location,
            profile.visibility,
            email,
            None if email is None else email.lower(),
            None if profile.repo_admin_change_team_access is None else int(profile.repo_admin_change_team_access),
            now,
            org_id,
        ),
    )


def rename_account(account_id: int, new_name: str, now: int) -> None:
    forge().db.execute(
        "UPDATE accounts SET name = ?, lower_name = ?, updated = ? WHERE id = ?",
        (new_name, new_name.lower(), now, account_id),
    )


def put_redirect(old_lower: str, account_id: int, now: int) -> None:
    forge().db.execute(
        "INSERT INTO account_redirects (lower_name, account_id, created) VALUES (?, ?, ?)"
        " ON CONFLICT (lower_name) DO UPDATE SET account_id = excluded.account_id, created = excluded.created",
        (old_lower, account_id, now),
    )


def delete_redirect(lower_name: str) -> None:
    forge().db.execute("DELETE FROM account_redirects WHERE lower_name = ?", (lower_name,))


def redirect_target(lower_name: str) -> int | None:
    value = forge().db.scalar("SELECT account_id FROM account_redirects WHERE lower_name = ?", (lower_name,))
    return value if isinstance(value, int) else None


def record_move(org_id: int, old_lower: str, new_lower: str) -> None:
    forge().db.execute(
        "INSERT INTO org_directory_moves (org_id, old_lower, new_lower) VALUES (?, ?, ?)"
        " ON CONFLICT (org_id) DO UPDATE SET new_lower = excluded.new_lower",
        (org_id, old_lower, new_lower),
    )


def pending_moves() -> list[Row]:
    return forge().db.all("SELECT * FROM org_directory_moves ORDER BY org_id")


def pending_moves_of(org_id: int) -> Iterable[Row]:
    return forge().db.all("SELECT * FROM org_directory_moves WHERE org_id = ?", (org_id,))


def finish_move(org_id: int) -> None:
    forge().db.execute("DELETE FROM org_directory_moves WHERE org_id = ?", (org_id,))
