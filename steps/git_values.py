"""Value checks against an independent source: what Git itself says a blob's sha is, and which files the
scenario's own commits changed, rather than whatever the forge answers about itself."""

from __future__ import annotations

import hashlib

from pytest_bdd import then

from conformance.context import ScenarioContext
from steps.common import comma_list, field_value, response_json
from steps.parsing import phrase


def git_blob_sha(content: bytes) -> str:
    """The object id Git gives a blob of ``content`` (``git hash-object``)."""
    return hashlib.sha1(b"blob %d\0" % len(content) + content, usedforsecurity=False).hexdigest()


@then(phrase('the response field "{path}" is the Git blob hash of "{content}"'))
def field_is_blob_hash(ctx: ScenarioContext, path: str, content: str) -> None:
    found = field_value(response_json(ctx), path)
    expected = git_blob_sha(content.encode("utf-8"))
    assert found == expected, f'{path} is {found!r}, but Git hashes "{content}" to {expected}'


@then(phrase('the compared commits changed exactly the files "{paths}"'))
def compared_files(ctx: ScenarioContext, paths: str) -> None:
    """The union of the files of every commit of the comparison is the files the scenario's commits touched."""
    commits = response_json(ctx)["commits"]
    changed = sorted({item["filename"] for commit in commits for item in commit.get("files") or []})
    assert changed == sorted(comma_list(paths)), f"the comparison's commits changed {changed}"
