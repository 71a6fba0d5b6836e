"""Actions variables: Gitea's name rules (those of secrets, and never ``CI``), CRUD with rename, and the
map a job receives as ``vars``. Names are stored upper-cased, so duplicates are found case-insensitively.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..context import forge, now_seconds
from ..db import Row
from ..errors import Conflict, NotFound
from . import config_store
from .secrets import text_field, validate_config_name

__all__ = [
    "VARIABLE_DATA_MAX_LENGTH",
    "VARIABLE_DESCRIPTION_MAX_LENGTH",
    "Variable",
    "create_variable",
    "delete_variable",
    "get_variable",
    "job_variables",
    "list_variables",
    "update_variable",
    "variable_to_api",
]

VARIABLE_DATA_MAX_LENGTH = 65536
VARIABLE_DESCRIPTION_MAX_LENGTH = 4096
TABLE: config_store.ConfigTable = "action_variable"


@dataclass(frozen=True)
class Variable:
    """A variable of a repository (``owner_id`` 0) or of a user or organization (``repo_id`` 0)."""

    owner_id: int
    repo_id: int
    name: str
    data: str
    description: str

    @classmethod
    def from_row(cls, row: Row) -> Variable:
        return cls(row["owner_id"], row["repo_id"], row["name"], row["data"], row["description"])


def variable_to_api(variable: Variable) -> dict[str, Any]:
    """Gitea's ``ActionVariable``."""
    return {
        "owner_id": variable.owner_id,
        "repo_id": variable.repo_id,
        "name": variable.name,
        "data": variable.data,
        "description": variable.description,
    }


def validate_variable_name(name: object) -> str:
    """The secret rules (``CI`` included); 400 ``invalid variable or secret name``."""
    return validate_config_name(name)


def _existing(owner_id: int, repo_id: int, raw_name: str) -> Row:
    """The variable of that name in the scope; 404 when there is none (a malformed name cannot exist)."""
    name = raw_name.upper()
    row = config_store.find(TABLE, owner_id, repo_id, name)
    if row is None:
        raise NotFound("variable not found")
    return row


def get_variable(owner_id: int, repo_id: int, raw_name: str) -> Variable:
    return Variable.from_row(_existing(owner_id, repo_id, raw_name))


def list_variables(owner_id: int, repo_id: int, limit: int, offset: int) -> tuple[list[Variable], int]:
    rows, total = config_store.page(TABLE, owner_id, repo_id, limit, offset)
    return [Variable.from_row(row) for row in rows], total


def create_variable(owner_id: int, repo_id: int, raw_name: str, body: Mapping[str, Any]) -> None:
    """POST: 422 without ``value``, 400 for a bad name, 409 when the scope has the name in any case."""
    value = text_field(body, "value", VARIABLE_DATA_MAX_LENGTH, required=True)
    description = text_field(body, "description", VARIABLE_DESCRIPTION_MAX_LENGTH, required=False)
    name = validate_variable_name(raw_name)
    with forge().db.transaction():
        if config_store.find(TABLE, owner_id, repo_id, name) is not None:
            raise Conflict("variable name already exists")
        config_store.insert(
            TABLE,
            owner_id=owner_id,
            repo_id=repo_id,
            name=name,
            data=value,
            description=description,
            now=now_seconds(),
        )


def update_variable(owner_id: int, repo_id: int, raw_name: str, body: Mapping[str, Any]) -> None:
    """PUT: value, description and an optional new ``name`` (empty keeps it); renaming onto another
    existing variable is 409, the same answer a duplicate create gets."""
    value = text_field(body, "value", VARIABLE_DATA_MAX_LENGTH, required=True)
    description = text_field(body, "description", VARIABLE_DESCRIPTION_MAX_LENGTH, required=False)
    new_name = text_field(body, "name", 255, required=False)
    with forge().db.transaction():
        existing = _existing(owner_id, repo_id, raw_name)
        name = validate_variable_name(new_name) if new_name else existing["name"]
        if name != existing["name"] and config_store.find(TABLE, owner_id, repo_id, name) is not None:
            raise Conflict("variable name already exists")
        config_store.update(TABLE, existing["id"], name=name, data=value, description=description, now=now_seconds())


def delete_variable(owner_id: int, repo_id: int, raw_name: str) -> None:
    with forge().db.transaction():
        config_store.delete(TABLE, _existing(owner_id, repo_id, raw_name)["id"])


def job_variables(owner_id: int, repo_id: int) -> dict[str, str]:
    """The variables a job of the repository receives: the owner's, then the repository's (which win)."""
    found: dict[str, str] = {}
    for scope_owner, scope_repo in ((owner_id, 0), (0, repo_id)):
        for row in config_store.all_of(TABLE, scope_owner, scope_repo):
            found[row["name"]] = row["data"]
    return found
