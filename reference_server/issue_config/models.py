"""A repository's issue configuration and issue templates, read from its default branch as Gitea 1.27
reads them (``services/issue/template.go``).

The configuration is the first of ``config.yaml``/``config.yml`` in ``.gitea/ISSUE_TEMPLATE``,
``.gitea/issue_template``, ``.github/ISSUE_TEMPLATE``, ``.github/issue_template``; a missing, empty or
invalid file gives the defaults (blank issues enabled, no contact links), and the validation route says
why it is invalid. Templates are the Markdown and YAML files of Gitea's eight template directories.
``blank_issues_enabled: false`` is only reported: like Gitea, whose web UI alone enforces it, the API
still opens an issue without a template (the reference's documented choice).
"""

from __future__ import annotations

import re
from typing import Any

from ..repos import models as repos
from .forms import TemplateError, could_be_template, parse_template, yaml_document

__all__ = [
    "CONFIG_CANDIDATES",
    "MAX_FILE_SIZE",
    "TEMPLATE_DIRS",
    "TemplateList",
    "default_config",
    "issue_config",
    "issue_templates",
    "validate_config",
]

MAX_FILE_SIZE = 1024 * 1024
CONFIG_CANDIDATES = (
    ".gitea/ISSUE_TEMPLATE/config",
    ".gitea/issue_template/config",
    ".github/ISSUE_TEMPLATE/config",
    ".github/issue_template/config",
)
TEMPLATE_DIRS = (
    "ISSUE_TEMPLATE",
    "issue_template",
    ".gitea/ISSUE_TEMPLATE",
    ".gitea/issue_template",
    ".github/ISSUE_TEMPLATE",
    ".github/issue_template",
    ".gitlab/ISSUE_TEMPLATE",
    ".gitlab/issue_template",
)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_BAD_URL_CHARACTERS = re.compile(r"[\s\x00-\x1f\x7f]")


def default_config() -> dict[str, Any]:
    """Gitea's ``GetDefaultTemplateConfig``."""
    return {"blank_issues_enabled": True, "contact_links": []}


def _default_commit(repo: repos.Repo) -> str | None:
    """The default branch's commit, or None for an empty repository."""
    return repo.git.rev_parse(f"refs/heads/{repo.default_branch}")


def _read(repo: repos.Repo, commit: str, path: str, size: int) -> str:
    """A blob's text; over 1 MiB or not UTF-8 is an error (Gitea reads at most 1 MiB of the file)."""
    if size > MAX_FILE_SIZE:
        raise TemplateError(f"{path} is larger than 1 MiB")
    data = repo.git.read_blob(commit, path) or b""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise TemplateError(f"{path} is not valid UTF-8") from None


def _config_file(repo: repos.Repo, commit: str) -> tuple[str, int] | None:
    """The path and size of the first configuration file that exists, in Gitea's order."""
    for name in CONFIG_CANDIDATES:
        for extension in (".yaml", ".yml"):
            entry = repo.git.stat(commit, name + extension)
            if entry is not None and entry.type == "blob":
                return name + extension, entry.size
    return None


def _valid_url(url: str) -> bool:
    """Go's ``url.ParseRequestURI``: an absolute URL (with a scheme) or an absolute path, no spaces."""
    return bool(_SCHEME.match(url) or url.startswith("/")) and not _BAD_URL_CHARACTERS.search(url)


def _contact_links(document: dict[str, Any]) -> list[dict[str, str]]:
    raw = document.get("contact_links")
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(link, dict) for link in raw):
        raise TemplateError("yaml: contact_links should be a list of {name, url, about}")
    links: list[dict[str, str]] = []
    for position, link in enumerate(raw, start=1):
        entry = {key: link.get(key) for key in ("name", "url", "about")}
        for key in ("name", "url", "about"):
            value = entry[key]
            if value is not None and not isinstance(value, str):
                raise TemplateError(f"yaml: contact_link at position {position}: {key} should be a string")
            if not value:
                raise TemplateError(f"contact_link at position {position} is missing {key} key")
        if not _valid_url(str(entry["url"])):
            raise TemplateError(f"{entry['url']} is not a valid URL")
        links.append({key: str(entry[key]) for key in ("name", "url", "about")})
    return links


def _parse_config(text: str) -> dict[str, Any]:
    document = yaml_document(text)
    enabled = document.get("blank_issues_enabled", True)
    if not isinstance(enabled, bool):
        raise TemplateError("yaml: blank_issues_enabled should be a boolean")
    return {"blank_issues_enabled": enabled, "contact_links": _contact_links(document)}


def _load_config(repo: repos.Repo) -> tuple[dict[str, Any], str]:
    """The configuration and "" when it is valid; the defaults and the reason when it is not."""
    commit = _default_commit(repo)
    found = _config_file(repo, commit) if commit else None
    if commit is None or found is None:
        return default_config(), ""
    path, size = found
    try:
        return _parse_config(_read(repo, commit, path, size)), ""
    except TemplateError as error:
        return default_config(), str(error)


def issue_config(repo: repos.Repo) -> dict[str, Any]:
    """Gitea's ``IssueConfig`` (the defaults when the file is missing or invalid: never an error)."""
    return _load_config(repo)[0]


def validate_config(repo: repos.Repo) -> dict[str, Any]:
    """Gitea's ``IssueConfigValidation {valid, message}``; a missing file is valid."""
    message = _load_config(repo)[1]
    return {"valid": not message, "message": message}


class TemplateList:
    """The valid templates of the default branch, and how many files failed to parse."""

    def __init__(self, templates: list[dict[str, Any]], errors: int) -> None:
        self.templates = templates
        self.errors = errors


def issue_templates(repo: repos.Repo) -> TemplateList:
    """Gitea's ``ParseTemplatesFromDefaultBranch``: every Markdown or YAML file of the template directories
    (configuration files fail as templates and count as errors, as in Gitea), directory by directory."""
    commit = _default_commit(repo)
    if commit is None:
        return TemplateList([], 0)
    templates: list[dict[str, Any]] = []
    errors = 0
    for directory in TEMPLATE_DIRS:
        for entry in repo.git.list_tree(commit, directory):
            if entry.type != "blob" or not could_be_template(entry.name):
                continue
            path = f"{directory}/{entry.name}"
            try:
                templates.append(parse_template(path, _read(repo, commit, path, entry.size)))
            except TemplateError:
                errors += 1
    return TemplateList(templates, errors)
