"""The templates a repository creation names (``license``, ``gitignores``, ``issue_labels``) and the files they give.

Checked before anything is stored, so an unknown name leaves no row and no Git directory behind:
Gitea answers 422 for an unknown label template (``ErrTemplateLoad``) and fails with 500 for an
unknown license or gitignore template; the reference refuses all three with 422.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..bodies import optional_text
from ..users import models as users
from . import models
from .errors import UnknownCreationTemplate

__all__ = ["CreationTemplates", "creation_templates"]

MAX_TEMPLATE_OPTION = 1024


@dataclass(frozen=True)
class CreationTemplates:
    """The validated template options of ``CreateRepoOption``."""

    license: str
    gitignores: tuple[str, ...]
    issue_labels: str

    def initial_files(self, owner: users.User, repo_name: str, doer_email: str) -> dict[str, bytes]:
        """``LICENSE`` and ``.gitignore`` of the initial commit (Gitea writes them only with ``auto_init``)."""
        files: dict[str, bytes] = {}
        if self.gitignores:
            files[".gitignore"] = models.gitignore_file(list(self.gitignores))
        if self.license:
            values = models.LicenseValues(
                owner=owner.name, email=owner.email or doer_email, repo=repo_name, year=models.current_year()
            )
            files["LICENSE"] = models.render_license(self.license, values)
        return files


def creation_templates(options: Mapping[str, Any]) -> CreationTemplates:
    """Read and check the template options; 422 naming the first unknown template."""
    license_name = optional_text(options, "license", MAX_TEMPLATE_OPTION).strip()
    if license_name and license_name not in models.spdx_licenses():
        raise UnknownCreationTemplate(f"license template does not exist [name: {license_name}]")
    raw_gitignores = optional_text(options, "gitignores", MAX_TEMPLATE_OPTION)
    gitignores = tuple(name.strip() for name in raw_gitignores.split(",") if name.strip())
    known = set(models.gitignore_names())
    for name in gitignores:
        if name not in known:
            raise UnknownCreationTemplate(f"gitignore template does not exist [name: {name}]")
    issue_labels = optional_text(options, "issue_labels", MAX_TEMPLATE_OPTION).strip()
    if issue_labels and issue_labels not in models.label_template_names():
        raise UnknownCreationTemplate(
            f'failed to load label template file "{issue_labels}": label template does not exist'
        )
    return CreationTemplates(
        license=license_name, gitignores=tuple(dict.fromkeys(gitignores)), issue_labels=issue_labels
    )
