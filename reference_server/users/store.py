"""Tables and SQL of accounts and access tokens; users and organizations share ``accounts`` (``is_org``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]


def _count(sql: str, params: tuple[object, ...]) -> int:
    value = forge().db.scalar(sql, params)
    return value if isinstance(value, int) else 0


SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    lower_name TEXT NOT NULL UNIQUE,
    is_org INTEGER NOT NULL DEFAULT 0,
    full_name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    lower_email TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL DEFAULT '',
    login_name TEXT NOT NULL DEFAULT '',
    is_admin INTEGER NOT NULL DEFAULT 0,
    restricted INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1,
    prohibit_login INTEGER NOT NULL DEFAULT 0,
    must_change_password INTEGER NOT NULL DEFAULT 0,
    visibility TEXT NOT NULL DEFAULT 'public',
    location TEXT NOT NULL DEFAULT '',
    website TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    repo_admin_change_team_access INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    last_login INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX IF NOT EXISTS accounts_user_email ON accounts(lower_email) WHERE is_org = 0 AND lower_email != '';
CREATE TABLE IF NOT EXISTS email_address (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    lower_email TEXT NOT NULL UNIQUE,
    is_activated INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS email_address_user ON email_address (user_id, id);
CREATE TABLE IF NOT EXISTS access_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    token_last_eight TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created INTEGER NOT NULL,
    last_used INTEGER NOT NULL DEFAULT 0,
    UNIQUE (user_id, name)
);
CREATE TABLE IF NOT EXISTS account_limits (
    user_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    allow_create_organization INTEGER NOT NULL DEFAULT 1,
    allow_git_hook INTEGER NOT NULL DEFAULT 0,
    allow_import_local INTEGER NOT NULL DEFAULT 0,
    max_repo_creation INTEGER NOT NULL DEFAULT -1
);
CREATE TABLE IF NOT EXISTS user_settings (
    user_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    language TEXT NOT NULL DEFAULT '',
    theme TEXT NOT NULL DEFAULT '',
    diff_view_style TEXT NOT NULL DEFAULT '',
    hide_email INTEGER NOT NULL DEFAULT 0,
    hide_activity INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS follow (
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    follow_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created INTEGER NOT NULL,
    PRIMARY KEY (user_id, follow_id)
);
CREATE INDEX IF NOT EXISTS follow_followed ON follow(follow_id);
CREATE TABLE IF NOT EXISTS user_blocking (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    blocker_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    blockee_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    note TEXT NOT NULL DEFAULT '',
    created INTEGER NOT NULL,
    UNIQUE (blocker_id, blockee_id)
);
CREATE INDEX IF NOT EXISTS user_blocking_blockee ON user_blocking(blockee_id);
"""

ACCOUNT_FIELDS = (
    "name",
    "lower_name",
    "is_org",
    "full_name",
    "email",
    "lower_email",
    "password_hash",
    "login_name",
    "is_admin",
    "restricted",
    "active",
    "prohibit_login",
    "must_change_password",
    "visibility",
    "location",
    "website",
    "description",
    "repo_admin_change_team_access",
    "created",
    "updated",
)


def account_by_id(account_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM accounts WHERE id = ?", (account_id,))


def account_by_name(name: str) -> Row | None:
    return forge().db.one("SELECT * FROM accounts WHERE lower_name = ?", (name.lower(),))


SEARCH_FILTERS = ("login_name", "active", "is_admin", "restricted", "prohibit_login", "visibility")
"""Columns the admin's user search may require to equal a value (Gitea's ``SearchUserOptions``)."""


def search_accounts(
    *,
    is_org: bool,
    keyword: str,
    limit: int,
    offset: int,
    with_email: bool = False,
    filters: dict[str, object] | None = None,
) -> tuple[list[Row], int]:
    """Users or organizations whose name, full name or e-mail contains ``keyword`` (any case), oldest first;
    ``with_email``: only those with an e-mail address; ``filters``: columns of :data:`SEARCH_FILTERS` that
    must equal their value."""
    pattern = "%" + keyword.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    where = (
        "is_org = ? AND (lower_name LIKE ? ESCAPE '\\' OR lower(full_name) LIKE ? ESCAPE '\\'"
        " OR lower_email LIKE ? ESCAPE '\\')" + (" AND lower_email != ''" if with_email else "")
    )
    params: tuple[object, ...] = (int(is_org), pattern, pattern, pattern)
    for column, value in (filters or {}).items():
        if column not in SEARCH_FILTERS:
            raise ValueError(f"not a search filter: {column}")
        where += f" AND {column} = ?"
        params = (*params, value)
    total = _count(f"SELECT COUNT(*) FROM accounts WHERE {where}", params)  # noqa: S608 - fixed text
    rows = forge().db.all(
        f"SELECT * FROM accounts WHERE {where} ORDER BY id LIMIT ? OFFSET ?",  # noqa: S608 - fixed text
        (*params, limit, offset),
    )
    return rows, total


def user_by_email(email: str) -> Row | None:
    return forge().db.one("SELECT * FROM accounts WHERE is_org = 0 AND lower_email = ?", (email.lower(),))


def insert_account(values: dict[str, Any]) -> int:
    """Insert an account row; ``values`` holds every column of :data:`ACCOUNT_FIELDS`."""
    columns = ", ".join(ACCOUNT_FIELDS)
    marks = ", ".join("?" for _ in ACCOUNT_FIELDS)
    cursor = forge().db.execute(
        f"INSERT INTO accounts ({columns}) VALUES ({marks})",  # noqa: S608 - fixed column list
        [values[field] for field in ACCOUNT_FIELDS],
    )
    return int(cursor.lastrowid or 0)


def make_site_admin(account_id: int, password_hash: str, now: int) -> None:
    forge().db.execute(
        "UPDATE accounts SET is_admin = 1, active = 1, prohibit_login = 0, password_hash = ?, updated = ? WHERE id = ?",
        (password_hash, now, account_id),
    )


EDITABLE_FIELDS = frozenset(
    [
        "full_name",
        "email",
        "lower_email",
        "password_hash",
        "login_name",
        "is_admin",
        "restricted",
        "active",
        "prohibit_login",
        "must_change_password",
        "visibility",
        "location",
        "website",
        "description",
    ]
)
"""The account columns an administrator's edit may change."""
LIMIT_DEFAULTS = {"allow_create_organization": 1, "allow_git_hook": 0, "allow_import_local": 0, "max_repo_creation": -1}
"""An account's limits before any edit: Gitea's defaults (may create organizations; -1: the instance's repository
limit, which the reference does not set)."""


def update_account(account_id: int, fields: dict[str, Any], now: int) -> None:
    """Change some of an account's :data:`EDITABLE_FIELDS`."""
    assert set(fields) <= EDITABLE_FIELDS, sorted(set(fields) - EDITABLE_FIELDS)
    if fields:
        assignments = ", ".join(f"{name} = ?" for name in sorted(fields))
        forge().db.execute(
            f"UPDATE accounts SET {assignments}, updated = ? WHERE id = ?",  # noqa: S608 - checked column names
            (*(fields[name] for name in sorted(fields)), now, account_id),
        )


def count_admins() -> int:
    return _count("SELECT COUNT(*) FROM accounts WHERE is_org = 0 AND is_admin = 1", ())


def limits_of(account_id: int) -> dict[str, int]:
    """The account's limits (:data:`LIMIT_DEFAULTS` until an administrator sets them)."""
    row = forge().db.one("SELECT * FROM account_limits WHERE user_id = ?", (account_id,))
    return {name: (row[name] if row is not None else default) for name, default in LIMIT_DEFAULTS.items()}


def set_limits(account_id: int, limits: dict[str, int]) -> None:
    merged = limits_of(account_id) | limits
    forge().db.execute(
        "INSERT INTO account_limits (user_id, allow_create_organization, allow_git_hook, allow_import_local,"
        " max_repo_creation) VALUES (?, ?, ?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET"
        " allow_create_organization = excluded.allow_create_organization, allow_git_hook = excluded.allow_git_hook,"
        " allow_import_local = excluded.allow_import_local, max_repo_creation = excluded.max_repo_creation",
        (account_id, *(merged[name] for name in LIMIT_DEFAULTS)),
    )


def set_last_login(account_id: int, now: int) -> None:
    forge().db.execute("UPDATE accounts SET last_login = ? WHERE id = ?", (now, account_id))


def delete_account(account_id: int) -> None:
    forge().db.execute("DELETE FROM accounts WHERE id = ?", (account_id,))


def token_by_hash(token_hash: str) -> Row | None:
    return forge().db.one(
        "SELECT t.*, a.name AS user_name, a.is_admin AS user_is_admin, a.active AS user_active,"
        " a.prohibit_login AS user_prohibit_login, a.is_org AS user_is_org"
        " FROM access_tokens t JOIN accounts a ON a.id = t.user_id WHERE t.token_hash = ?",
        (token_hash,),
    )


def insert_token(*, user_id: int, name: str, token_hash: str, last_eight: str, scopes: str, now: int) -> int:
    cursor = forge().db.execute(
        "INSERT INTO access_tokens (user_id, name, token_hash, token_last_eight, scopes, created)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (user_id, name, token_hash, last_eight, scopes, now),
    )
    return int(cursor.lastrowid or 0)


def token_name_exists(user_id: int, name: str) -> bool:
    return forge().db.one("SELECT 1 FROM access_tokens WHERE user_id = ? AND name = ?", (user_id, name)) is not None


def count_tokens(user_id: int) -> int:
    return _count("SELECT COUNT(*) FROM access_tokens WHERE user_id = ?", (user_id,))


def list_tokens(user_id: int, limit: int, offset: int) -> list[Row]:
    return forge().db.all(
        "SELECT * FROM access_tokens WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?", (user_id, limit, offset)
    )


def tokens_matching(user_id: int, id_or_name: str) -> list[Row]:
    """Tokens of the user whose id (when numeric) or name equals ``id_or_name``; ids win over names."""
    if id_or_name.isdigit():
        by_id = forge().db.all("SELECT * FROM access_tokens WHERE user_id = ? AND id = ?", (user_id, int(id_or_name)))
        if by_id:
            return by_id
    return forge().db.all("SELECT * FROM access_tokens WHERE user_id = ? AND name = ?", (user_id, id_or_name))


def delete_tokens_named_like(user_id: int, prefix: str, *, keep_hash: str) -> None:
    """Delete the user's tokens named ``prefix`` or ``prefix-...``, except the one with ``keep_hash``."""
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    forge().db.execute(
        "DELETE FROM access_tokens WHERE user_id = ? AND token_hash != ? AND (name = ? OR name LIKE ? ESCAPE '\\')",
        (user_id, keep_hash, prefix, escaped + "-%"),
    )


def delete_token(token_id: int) -> None:
    forge().db.execute("DELETE FROM access_tokens WHERE id = ?", (token_id,))


def touch_token(token_id: int, now: int) -> None:
    forge().db.execute("UPDATE access_tokens SET last_used = ? WHERE id = ?", (now, token_id))


def tokens_of_user(user_id: int) -> Iterable[Row]:
    return forge().db.all("SELECT * FROM access_tokens WHERE user_id = ?", (user_id,))


# --- user settings (users/settings.py) --------------------------------------------------------------


def settings_row(user_id: int) -> Row | None:
    """The stored preferences of a user (None until the user first changes one)."""
    return forge().db.one("SELECT * FROM user_settings WHERE user_id = ?", (user_id,))


def update_profile(user_id: int, profile: dict[str, str], now: int) -> None:
    """Set the profile texts kept on the account row (full_name, website, description, location)."""
    columns = [name for name in ("full_name", "website", "description", "location") if name in profile]
    if not columns:
        return
    assignments = ", ".join(f"{name} = ?" for name in columns)
    forge().db.execute(
        f"UPDATE accounts SET {assignments}, updated = ? WHERE id = ?",  # noqa: S608 - column names from a fixed set
        (*(profile[name] for name in columns), now, user_id),
    )


def save_settings(
    user_id: int, *, language: str, theme: str, diff_view_style: str, hide_email: bool, hide_activity: bool
) -> None:
    """Insert or replace the user's preferences row."""
    forge().db.execute(
        "INSERT INTO user_settings (user_id, language, theme, diff_view_style, hide_email, hide_activity)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
        " theme = excluded.theme, diff_view_style = excluded.diff_view_style,"
        " hide_email = excluded.hide_email, hide_activity = excluded.hide_activity",
        (user_id, language, theme, diff_view_style, int(hide_email), int(hide_activity)),
    )


# -- additional e-mail addresses (the primary one is the account's own ``email``) -------------------


def email_taken(lower_email: str) -> bool:
    """Whether any user has this address, as its primary or as an additional one."""
    row = forge().db.one(
        "SELECT 1 FROM accounts WHERE is_org = 0 AND lower_email = ?"
        " UNION ALL SELECT 1 FROM email_address WHERE lower_email = ?",
        (lower_email, lower_email),
    )
    return row is not None


def extra_emails(user_id: int) -> list[Row]:
    return forge().db.all("SELECT * FROM email_address WHERE user_id = ? ORDER BY id", (user_id,))


def insert_email(user_id: int, email: str, *, activated: bool) -> None:
    forge().db.execute(
        "INSERT INTO email_address (user_id, email, lower_email, is_activated) VALUES (?, ?, ?, ?)",
        (user_id, email, email.lower(), int(activated)),
    )


def delete_email(user_id: int, lower_email: str) -> bool:
    """Remove an additional address of the user; False when it has none such."""
    cursor = forge().db.execute(
        "DELETE FROM email_address WHERE user_id = ? AND lower_email = ?", (user_id, lower_email)
    )
    return cursor.rowcount > 0


_ADDRESSES = (
    "SELECT a.email AS email, a.active AS verified, 1 AS is_primary, a.id AS user_id, a.name AS username,"
    " a.lower_name AS lower_name, a.lower_email AS lower_email, 0 AS position"
    " FROM accounts a WHERE a.is_org = 0 AND a.lower_email != ''"
    " UNION ALL SELECT e.email, e.is_activated, 0, a.id, a.name, a.lower_name, e.lower_email, e.id"
    " FROM email_address e JOIN accounts a ON a.id = e.user_id"
)
"""Every user's addresses, primary and additional, as Gitea's ``email_address`` table holds them."""


def search_emails(keyword: str, limit: int, offset: int) -> tuple[list[Row], int]:
    """The addresses whose text or user's name contains ``keyword`` (any case), by user then primary first."""
    pattern = "%" + keyword.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    where = "lower_email LIKE ? ESCAPE '\\' OR lower_name LIKE ? ESCAPE '\\'"
    total = _count(f"SELECT COUNT(*) FROM ({_ADDRESSES}) WHERE {where}", (pattern, pattern))  # noqa: S608
    rows = forge().db.all(
        f"SELECT * FROM ({_ADDRESSES}) WHERE {where}"  # noqa: S608 - fixed text
        " ORDER BY user_id, position LIMIT ? OFFSET ?",
        (pattern, pattern, limit, offset),
    )
    return rows, total


# -- follows and blocks ----------------------------------------------------------------------------


def insert_follow(user_id: int, follow_id: int, now: int) -> None:
    forge().db.execute(
        "INSERT OR IGNORE INTO follow (user_id, follow_id, created) VALUES (?, ?, ?)", (user_id, follow_id, now)
    )


def delete_follow(user_id: int, follow_id: int) -> None:
    forge().db.execute("DELETE FROM follow WHERE user_id = ? AND follow_id = ?", (user_id, follow_id))


def is_following(user_id: int, follow_id: int) -> bool:
    return (
        forge().db.scalar("SELECT 1 FROM follow WHERE user_id = ? AND follow_id = ?", (user_id, follow_id)) is not None
    )


def count_followers(user_id: int) -> int:
    return _count("SELECT COUNT(*) FROM follow WHERE follow_id = ?", (user_id,))


def count_following(user_id: int) -> int:
    return _count("SELECT COUNT(*) FROM follow WHERE user_id = ?", (user_id,))


def follower_ids(user_id: int) -> list[int]:
    """The accounts following ``user_id``, newest follow first."""
    rows = forge().db.all(
        "SELECT user_id FROM follow WHERE follow_id = ? ORDER BY created DESC, user_id DESC", (user_id,)
    )
    return [int(row["user_id"]) for row in rows]


def following_ids(user_id: int) -> list[int]:
    """The accounts ``user_id`` follows, newest follow first."""
    rows = forge().db.all(
        "SELECT follow_id FROM follow WHERE user_id = ? ORDER BY created DESC, follow_id DESC", (user_id,)
    )
    return [int(row["follow_id"]) for row in rows]


def insert_blocking(blocker_id: int, blockee_id: int, note: str, now: int) -> None:
    forge().db.execute(
        "INSERT INTO user_blocking (blocker_id, blockee_id, note, created) VALUES (?, ?, ?, ?)",
        (blocker_id, blockee_id, note, now),
    )


def delete_blocking(blocker_id: int, blockee_id: int) -> None:
    forge().db.execute("DELETE FROM user_blocking WHERE blocker_id = ? AND blockee_id = ?", (blocker_id, blockee_id))


def has_blocking(blockee_id: int, blocker_ids: tuple[int, ...]) -> bool:
    """Whether any of ``blocker_ids`` blocks ``blockee_id``."""
    if not blocker_ids:
        return False
    marks = ",".join("?" * len(blocker_ids))
    sql = f"SELECT 1 FROM user_blocking WHERE blockee_id = ? AND blocker_id IN ({marks}) LIMIT 1"  # noqa: S608
    return forge().db.scalar(sql, (blockee_id, *blocker_ids)) is not None


def count_blockees(blocker_id: int) -> int:
    return _count("SELECT COUNT(*) FROM user_blocking WHERE blocker_id = ?", (blocker_id,))


def blockee_ids(blocker_id: int, limit: int, offset: int) -> list[int]:
    """The accounts ``blocker_id`` blocks, oldest block first."""
    rows = forge().db.all(
        "SELECT blockee_id FROM user_blocking WHERE blocker_id = ? ORDER BY id LIMIT ? OFFSET ?",
        (blocker_id, limit, offset),
    )
    return [int(row["blockee_id"]) for row in rows]


def search_users_by_name(keyword: str, *, uid: int, with_email: bool) -> list[Row]:
    """Every user (never an organization) whose name or full name (and e-mail when ``with_email``) contains
    ``keyword`` in any case, only the one with id ``uid`` when it is not 0, alphabetically (Gitea's search)."""
    pattern = "%" + keyword.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    where = "is_org = 0 AND id > 0 AND (lower_name LIKE ? ESCAPE '\\' OR lower(full_name) LIKE ? ESCAPE '\\'"
    params: list[object] = [pattern, pattern]
    if with_email:
        where += " OR lower_email LIKE ? ESCAPE '\\'"
        params.append(pattern)
    where += ")"
    if uid:
        where += " AND id = ?"
        params.append(uid)
    return forge().db.all(f"SELECT * FROM accounts WHERE {where} ORDER BY lower_name", tuple(params))  # noqa: S608
