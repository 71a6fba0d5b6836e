"""The clause catalogue: every statement of the specification with a stable id, and its marker tag.

``clauses.yaml`` lists ``id``, ``section`` and ``text`` (our own paraphrase); every clause must have a
scenario (``tests/test_clause_catalogue.py``). A clause id maps to the tag ``clause_<id>`` with every ``.`` and ``-``
replaced by ``_`` (``S4.3-artifact-zip`` is ``@clause_S4_3_artifact_zip``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .paths import CLAUSES_FILE

__all__ = ["CLAUSE_TAG_PREFIX", "Clause", "clause_by_tag", "clause_tag", "load_catalogue"]

CLAUSE_TAG_PREFIX = "clause_"
ID_PATTERN = re.compile(r"^S[1-9](\.[0-9]+)?(-[A-Za-z0-9_.-]+)?$")


@dataclass(frozen=True)
class Clause:
    """One clause of the specification."""

    id: str
    section: str
    text: str

    @property
    def tag(self) -> str:
        """The scenario tag (and pytest marker) that claims this clause."""
        return clause_tag(self.id)


def clause_tag(clause_id: str) -> str:
    """``S4.3-artifact-zip`` -> ``clause_S4_3_artifact_zip``."""
    return CLAUSE_TAG_PREFIX + clause_id.replace(".", "_").replace("-", "_")


def _parse(raw: Any, source: Path) -> dict[str, Clause]:
    if not isinstance(raw, dict) or not isinstance(raw.get("clauses"), list):
        raise ValueError(f"{source}: expected a mapping with a list under 'clauses'")
    catalogue: dict[str, Clause] = {}
    tags: set[str] = set()
    for index, item in enumerate(raw["clauses"]):
        if not isinstance(item, dict) or not {"id", "section", "text"} <= set(item):
            raise ValueError(f"{source}: entry {index} needs id, section and text")
        clause = Clause(
            id=str(item["id"]),
            section=str(item["section"]),
            text=str(item["text"]),
        )
        if not ID_PATTERN.match(clause.id):
            raise ValueError(f"{source}: malformed clause id {clause.id!r}")
        if clause.id in catalogue or clause.tag in tags:
            raise ValueError(f"{source}: duplicate clause id or tag {clause.id!r}")
        catalogue[clause.id] = clause
        tags.add(clause.tag)
    return catalogue


@lru_cache(maxsize=4)
def load_catalogue(path: Path = CLAUSES_FILE) -> dict[str, Clause]:
    """Every clause by id, in the catalogue's order."""
    return _parse(yaml.safe_load(path.read_text(encoding="utf-8")), path)


@lru_cache(maxsize=4)
def clause_by_tag(path: Path = CLAUSES_FILE) -> dict[str, Clause]:
    """Every clause by its tag (one table per catalogue: collection asks for it once per scenario)."""
    return {clause.tag: clause for clause in load_catalogue(path).values()}
