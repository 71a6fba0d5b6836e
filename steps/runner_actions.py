"""Steps of actions kept on the forge: action files and workflows that name the scenario's repositories.

A workflow says ``uses: {dev/greeter}@main``; the placeholder becomes the real ``owner/name`` of the
scenario's repository (names carry the run's prefix), so the mock runner resolves it on the target.
"""

from __future__ import annotations

from pytest_bdd import given

from conformance.identities import IdentityFactory
from steps.ci import CiWorld
from steps.common import FileNotes, commit_file, expand
from steps.parsing import phrase

__all__: list[str] = []


@given(phrase('the repository "{short}" has the file "{path}" naming the scenario\'s repositories with the content'))
def given_file_naming_repos(
    identities: IdentityFactory, file_notes: FileNotes, short: str, path: str, docstring: str
) -> None:
    """An action file whose ``{owner/repo}`` placeholders become the real names before it is committed."""
    commit_file(identities, file_notes, short, path, expand(identities.ctx, docstring) + "\n")


@given(phrase('the workflow "{file_name}" naming the scenario\'s repositories is pushed to the repository with'))
def given_workflow_naming_repos(ci_world: CiWorld, file_name: str, docstring: str) -> None:
    """A workflow whose ``{owner/repo}`` placeholders become the real names, committed through the contents API."""
    ci_world.push_workflow(ci_world.repository(), file_name, expand(ci_world.ctx, docstring) + "\n")
