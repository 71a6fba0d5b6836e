"""Git over HTTPS with the real ``git`` and ``git-lfs`` clients: clone, fetch and push in temporary
directories, with a user's account token or a deploy token as the password, and the LFS API driven directly.

Every scenario gets its own :class:`~conformance.gitclient.GitClient` (isolated HOME, credentials through
the environment of one command, masked in transcripts). Clones are kept per repository, so a later push or
fetch works in the clone an earlier step made. Without ``git-lfs`` the LFS steps skip with that reason,
except when ``CONFORMANCE_REQUIRE_GIT_LFS`` is set (``.ci/run``), where its absence is a failure.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.deploy_tokens import LfsApi
from conformance.client import BasicAuth, json_of
from conformance.context import RepoRef, ScenarioContext
from conformance.gitclient import GitClient, GitCredentials, GitResult, git_lfs_available
from conformance.schemas import validate
from conformance.seeding import SeededData
from steps.actors import acting, git_credentials, repo_owner
from steps.ci import CiWorld, runs_of, wait_for
from steps.deploy_tokens import DeployTokens
from steps.parsing import phrase

__all__ = ["GitWorld", "git_world"]

MIB = 1024 * 1024
REQUIRE_LFS_VARIABLE = "CONFORMANCE_REQUIRE_GIT_LFS"


@dataclass
class GitWorld:
    """The Git state of one scenario: the client, the clones, the last command and what it pushed."""

    client: GitClient
    clones: dict[str, Path] = field(default_factory=dict)
    result: GitResult | None = None
    pushed: str | None = None
    head_before: str | None = None
    lfs_content: dict[str, bytes] = field(default_factory=dict)
    lfs_pointer: dict[str, Any] | None = None


@pytest.fixture
def git_world(ctx: ScenarioContext, tmp_path: Path) -> GitWorld:
    """The scenario's git client, working under the scenario's temporary directory."""
    return GitWorld(GitClient(tmp_path / "git", ctx.admin.http.recorder))


def _url(ctx: ScenarioContext, repo: RepoRef) -> str:
    return f"{ctx.admin.site_url.rstrip('/')}/{repo.owner}/{repo.name}.git"


def _token_credentials(deploy_tokens: DeployTokens, title: str, *, previous: bool = False) -> GitCredentials:
    """A deploy token (or the secret it had before a regeneration) as the password of any user name."""
    token = deploy_tokens.token(title)
    if previous:
        assert token.previous, f'the deploy token "{title}" was never regenerated'
        return GitCredentials("deploy", token.previous[-1])
    return GitCredentials("deploy", token.secret)


def _admin_credentials(ctx: ScenarioContext) -> GitCredentials:
    """The admin's token, to look at remote refs whatever the scenario's users may do."""
    auth = ctx.admin.http.auth
    token = getattr(auth, "token", None)
    assert isinstance(token, str), "the admin client has no token"
    return GitCredentials("admin", token)


def _require_lfs() -> None:
    """Skip (or fail under CI) when the git-lfs client is missing."""
    if git_lfs_available():
        return
    message = "git-lfs is not installed (Debian package git-lfs); the LFS scenarios need the real client"
    if os.environ.get(REQUIRE_LFS_VARIABLE):
        pytest.fail(message)
    pytest.skip(message)


def _clone(ctx: ScenarioContext, world: GitWorld, short: str, credentials: GitCredentials, *, lfs: bool) -> None:
    repo = ctx.repo(short)
    if lfs:
        _require_lfs()
        world.client.enable_lfs()
    name = f"clone-{len(world.clones) + 1}"
    path, world.result = world.client.clone(_url(ctx, repo), name, credentials)
    if world.result.ok:
        world.clones[short] = path


def _push_change(
    ctx: ScenarioContext,
    world: GitWorld,
    short: str,
    *,
    path: str,
    content: str,
    branch: str,
    credentials: GitCredentials,
) -> None:
    """Clone when needed (with the same credentials), commit a change of ``path`` and push it to ``branch``;
    the remote head before the push is kept for the checks."""
    repo = ctx.repo(short)
    if short not in world.clones:
        _clone(ctx, world, short, credentials, lfs=False)
        if short not in world.clones:
            raise AssertionError(f"cloning before the push failed: {world.result.describe() if world.result else ''}")
    clone = world.clones[short]
    world.head_before = world.client.remote_head(_url(ctx, repo), branch, _admin_credentials(ctx))
    world.pushed = world.client.commit_file(clone, path, content.encode(), f"Change {path}")
    world.result = world.client.push(clone, f"HEAD:refs/heads/{branch}", credentials)


# ---------------------------------------------------------------- Given / When: clone, fetch, push


@given(phrase('"{who}" has cloned "{short}" over HTTPS'))
def given_cloned(ctx: ScenarioContext, git_world: GitWorld, who: str, short: str) -> None:
    """A clone made with the user's account token."""
    _clone(ctx, git_world, short, git_credentials(ctx, who), lfs=False)
    assert git_world.result is not None and git_world.result.ok, git_world.result and git_world.result.describe()


@when(phrase('"{who}" clones "{short}" over HTTPS'))
def when_clone(ctx: ScenarioContext, git_world: GitWorld, who: str, short: str) -> None:
    """``git clone`` with the user's account token as the password."""
    _clone(ctx, git_world, short, git_credentials(ctx, who), lfs=False)


@when(phrase('"{who}" clones "{short}" over HTTPS with LFS'))
def when_clone_lfs(ctx: ScenarioContext, git_world: GitWorld, who: str, short: str) -> None:
    """``git clone`` with the LFS filters installed, so LFS files are downloaded into the work tree."""
    _clone(ctx, git_world, short, git_credentials(ctx, who), lfs=True)


@when(phrase('"{short}" is cloned over HTTPS with the deploy token "{title}"'))
def when_clone_with_token(
    ctx: ScenarioContext, deploy_tokens: DeployTokens, git_world: GitWorld, short: str, title: str
) -> None:
    """``git clone`` with a deploy token as the password."""
    _clone(ctx, git_world, short, _token_credentials(deploy_tokens, title), lfs=False)


@when(phrase('"{short}" is cloned over HTTPS with the previous secret of the deploy token "{title}"'))
def when_clone_with_old_secret(
    ctx: ScenarioContext, deploy_tokens: DeployTokens, git_world: GitWorld, short: str, title: str
) -> None:
    """``git clone`` with the secret a deploy token had before it was regenerated."""
    _clone(ctx, git_world, short, _token_credentials(deploy_tokens, title, previous=True), lfs=False)


@when(phrase('"{who}" clones "{short}" over HTTPS with the transfer token of an LFS upload batch'))
def when_clone_with_transfer_token(
    ctx: ScenarioContext, fake: SeededData, git_world: GitWorld, who: str, short: str
) -> None:
    """``git clone`` with the ``Authorization`` token an LFS batch answer handed out, as the password."""
    repo = ctx.repo(short)
    answer = acting(ctx, who, LfsApi).batch(repo.owner, repo.name, "upload", [_object(fake.data(1024))])
    assert answer.status_code == 200, f"the upload batch answered {answer.status_code}: {answer.text[:300]}"
    header = json_of(answer)["objects"][0]["actions"]["upload"].get("header", {}).get("Authorization", "")
    transfer = header.split(" ", 1)[-1]
    assert transfer, f"the batch answer carries no transfer token: {answer.text[:300]}"
    ctx.admin.http.recorder.add_secret(transfer)
    _clone(ctx, git_world, short, GitCredentials(ctx.user(who).username, transfer), lfs=False)


@when(phrase('"{short}" is cloned over HTTPS with LFS and the deploy token "{title}"'))
def when_clone_lfs_with_token(
    ctx: ScenarioContext, deploy_tokens: DeployTokens, git_world: GitWorld, short: str, title: str
) -> None:
    """``git clone`` with LFS and a deploy token as the password."""
    _clone(ctx, git_world, short, _token_credentials(deploy_tokens, title), lfs=True)


@when(phrase('"{who}" fetches "{short}" over HTTPS'))
def when_fetch(ctx: ScenarioContext, git_world: GitWorld, who: str, short: str) -> None:
    """``git fetch`` in the clone an earlier step made."""
    clone = git_world.clones.get(short)
    assert clone is not None, f'no clone of "{short}": add `Given "{who}" has cloned "{short}" over HTTPS`'
    git_world.result = git_world.client.fetch(clone, git_credentials(ctx, who))


@when(phrase('"{who}" pushes a commit changing "{path}" to the branch "{branch}" of "{short}" over HTTPS'))
def when_user_pushes(
    ctx: ScenarioContext, fake: SeededData, git_world: GitWorld, *, who: str, path: str, branch: str, short: str
) -> None:
    """Commit a change of ``path`` and ``git push`` it with the user's account token."""
    credentials = git_credentials(ctx, who)
    _push_change(ctx, git_world, short, path=path, content=fake.text(), branch=branch, credentials=credentials)


@when(
    phrase(
        'a commit changing "{path}" is pushed to the branch "{branch}" of "{short}" over HTTPS'
        ' with the deploy token "{title}"'
    )
)
def when_token_pushes(
    ctx: ScenarioContext,
    fake: SeededData,
    deploy_tokens: DeployTokens,
    git_world: GitWorld,
    *,
    path: str,
    branch: str,
    short: str,
    title: str,
) -> None:
    """Commit a change of ``path`` and ``git push`` it with a deploy token as the password."""
    credentials = _token_credentials(deploy_tokens, title)
    _push_change(ctx, git_world, short, path=path, content=fake.text(), branch=branch, credentials=credentials)


@when(
    phrase(
        '"{who}" pushes a {size:d} MiB binary "{path}" tracked by LFS to the branch "{branch}" of "{short}" over HTTPS'
    )
)
def when_push_lfs_binary(
    ctx: ScenarioContext,
    fake: SeededData,
    git_world: GitWorld,
    *,
    who: str,
    size: int,
    path: str,
    branch: str,
    short: str,
) -> None:
    """Clone, track ``path`` with LFS, commit random bytes and push (git-lfs uploads the object first)."""
    _require_lfs()
    credentials = git_credentials(ctx, who)
    _clone(ctx, git_world, short, credentials, lfs=True)
    clone = git_world.clones.get(short)
    assert clone is not None, f"cloning before the push failed: {git_world.result and git_world.result.describe()}"
    git_world.client.lfs_track(clone, path)
    content = fake.data(size * MIB)
    git_world.lfs_content[path] = content
    git_world.pushed = git_world.client.commit_file(clone, path, content, f"Add {path} through LFS")
    git_world.result = git_world.client.push(clone, f"HEAD:refs/heads/{branch}", credentials)
    git_world.clones.pop(short)


@given(
    phrase(
        '"{who}" pushes a {size:d} MiB binary "{path}" tracked by LFS to the branch "{branch}" of "{short}" over HTTPS'
    )
)
def given_pushed_lfs_binary(
    ctx: ScenarioContext,
    fake: SeededData,
    git_world: GitWorld,
    *,
    who: str,
    size: int,
    path: str,
    branch: str,
    short: str,
) -> None:
    """The same push as a precondition: it must succeed."""
    when_push_lfs_binary(ctx, fake, git_world, who=who, size=size, path=path, branch=branch, short=short)
    result = _last(git_world)
    assert result.ok, result.describe()


# ---------------------------------------------------------------- Then: outcomes


def _last(world: GitWorld) -> GitResult:
    assert world.result is not None, "no git command ran yet in this scenario: a When step must come first"
    return world.result


@then(phrase("the {operation:GitOperation} succeeds"))
def then_git_succeeds(git_world: GitWorld, operation: str) -> None:
    """The last git command exited 0."""
    result = _last(git_world)
    assert result.args[0] == operation, f"the last git command was {result.args[0]}, not {operation}"
    assert result.ok, result.describe()


@then(phrase("the {operation:GitOperation} is refused"))
def then_git_refused(git_world: GitWorld, operation: str) -> None:
    """The last git command failed."""
    result = _last(git_world)
    assert result.args[0] == operation, f"the last git command was {result.args[0]}, not {operation}"
    assert not result.ok, f"`git {' '.join(result.args)}` succeeded"


@then(phrase("the {operation:GitOperation} is refused with status {status:d}"))
def then_git_refused_with(git_world: GitWorld, operation: str, status: int) -> None:
    """The last git command failed on this HTTP status (git reports 401 as an authentication failure)."""
    then_git_refused(git_world, operation)
    stderr = _last(git_world).stderr
    signs = [f"error: {status}", f"returned error: {status}"]
    if status == 401:
        signs += ["Authentication failed", "could not read Username", "terminal prompts disabled"]
    if status == 404:
        signs += ["not found"]
    assert any(sign in stderr for sign in signs), (
        f"expected an HTTP {status} refusal, git said: {stderr.strip()[-600:]}"
    )


@then(phrase('the branch "{branch}" of "{short}" is at the pushed commit'))
def then_branch_at_pushed(ctx: ScenarioContext, git_world: GitWorld, branch: str, short: str) -> None:
    """The remote branch moved to the commit the scenario pushed."""
    head = git_world.client.remote_head(_url(ctx, ctx.repo(short)), branch, _admin_credentials(ctx))
    assert git_world.pushed and head == git_world.pushed, f"{branch} is at {head}, the push sent {git_world.pushed}"


@then(phrase('the branch "{branch}" of "{short}" is unchanged'))
def then_branch_unchanged(ctx: ScenarioContext, git_world: GitWorld, branch: str, short: str) -> None:
    """The remote branch is where it was before the refused push."""
    head = git_world.client.remote_head(_url(ctx, ctx.repo(short)), branch, _admin_credentials(ctx))
    assert head == git_world.head_before, f"{branch} moved from {git_world.head_before} to {head}"
    assert head != git_world.pushed, "the refused commit reached the remote"


@then(phrase('the clone of "{short}" has the file "{path}" with content "{content}"'))
def then_clone_has_file(git_world: GitWorld, short: str, path: str, content: str) -> None:
    """The work tree of the clone holds the file."""
    clone = git_world.clones.get(short)
    assert clone is not None, f'"{short}" was not cloned'
    found = clone / path
    assert found.is_file(), f"the clone has no {path}"
    assert found.read_text().strip() == content, f"{path} holds {found.read_text()[:200]!r}"


@then(phrase('the clone of "{short}" has the file "{path}"'))
def then_clone_has_any_file(git_world: GitWorld, short: str, path: str) -> None:
    """The work tree of the clone holds the file (whatever its content)."""
    clone = git_world.clones.get(short)
    assert clone is not None, f'"{short}" was not cloned'
    assert (clone / path).is_file(), f"the clone has no {path}"


@then(phrase('a run of "{file_name}" starts at the pushed commit with event "{event}"'))
def then_run_at_pushed(
    ctx: ScenarioContext, git_world: GitWorld, ci_world: CiWorld, file_name: str, event: str
) -> None:
    """The push over HTTPS started the workflow like any push: a run at the pushed commit."""
    repo = ci_world.repository()
    pushed = git_world.pushed
    assert pushed, "nothing was pushed in this scenario"

    def probe() -> dict[str, Any] | None:
        found = [run for run in runs_of(ctx, repo, file_name) if run.get("head_sha") == pushed]
        return found[0] if found else None

    run = wait_for(probe, f'a run of "{file_name}" at {pushed[:12]} in {repo.full_name}')
    assert run.get("event") == event, f"the run's event is {run.get('event')!r}"


@then(phrase('the fetched branch "{branch}" of "{short}" is the branch on the server'))
def then_fetched_matches(ctx: ScenarioContext, git_world: GitWorld, branch: str, short: str) -> None:
    """After the fetch, ``origin/<branch>`` in the clone is the server's branch head."""
    clone = git_world.clones[short]
    local = git_world.client.rev_parse(clone, f"refs/remotes/origin/{branch}")
    remote = git_world.client.remote_head(_url(ctx, ctx.repo(short)), branch, _admin_credentials(ctx))
    assert local == remote, f"origin/{branch} is {local}, the server has {remote}"


@then(phrase('the cloned "{path}" has the same bytes as the pushed one'))
def then_same_bytes(git_world: GitWorld, path: str) -> None:
    """The LFS file of the last clone equals what was pushed, byte for byte (not the LFS pointer)."""
    pushed = git_world.lfs_content.get(path)
    assert pushed is not None, f'no LFS file "{path}" was pushed in this scenario'
    clones = list(git_world.clones.values())
    assert clones, "nothing was cloned"
    got = (clones[-1] / path).read_bytes()
    assert got == pushed, f"{path}: {len(got)} bytes (sha256 {hashlib.sha256(got).hexdigest()[:12]}) differ"


@then(phrase('"{who}" gets the pushed bytes of "{path}" from the media route of "{short}"'))
def then_media_bytes(ctx: ScenarioContext, git_world: GitWorld, who: str, path: str, short: str) -> None:
    """``GET .../media/{path}`` serves the LFS object, not its pointer file."""
    repo = ctx.repo(short)
    response = acting(ctx, who, LfsApi).media(repo.owner, repo.name, path)
    assert response.status_code == 200, f"the media route answered {response.status_code}: {response.text[:300]}"
    assert response.content == git_world.lfs_content[path], f"the media route served {len(response.content)} bytes"


# ---------------------------------------------------------------- LFS API, driven directly


def _object(data: bytes) -> dict[str, Any]:
    return {"oid": hashlib.sha256(data).hexdigest(), "size": len(data)}


@when(phrase('"{who}" uploads to "{short}" an LFS object whose {what:SizeOrHash} does not match'))
def when_upload_mismatch(
    ctx: ScenarioContext, git_world: GitWorld, fake: SeededData, *, who: str, short: str, what: str
) -> None:
    """Announce an object in an upload batch, then send bytes of another size or another hash to its href."""
    repo = ctx.repo(short)
    announced = fake.data(64 * 1024)
    pointer = _object(announced)
    git_world.lfs_pointer = pointer
    answer = acting(ctx, who, LfsApi).batch(repo.owner, repo.name, "upload", [pointer])
    assert answer.status_code == 200, f"the upload batch answered {answer.status_code}: {answer.text[:300]}"
    validate(json_of(answer), "lfs_batch_response")
    action = json_of(answer)["objects"][0].get("actions", {}).get("upload")
    assert action, f"the batch answer has no upload action: {answer.text[:300]}"
    sent = announced[:-1] if what == "size" else bytes([announced[0] ^ 0xFF]) + announced[1:]
    ctx.response = acting(ctx, who, LfsApi).transfer("PUT", action, sent)


@then(phrase("every object of the LFS batch answer has an upload action"))
def then_upload_actions(ctx: ScenarioContext) -> None:
    """Each object of the batch answer is to be uploaded to an href of the forge."""
    objects = json_of(ctx.last_response()).get("objects") or []
    assert objects, "the batch answer lists no object"
    for entry in objects:
        upload = (entry.get("actions") or {}).get("upload")
        assert upload and str(upload.get("href", "")).startswith(("http://", "https://")), f"no upload action: {entry}"


@then(phrase("the LFS request is refused with status {status:d}"))
def then_lfs_refused(ctx: ScenarioContext, status: int) -> None:
    """The LFS batch or transfer failed with this status and the LFS error body."""
    response = ctx.last_response()
    assert response.status_code == status, f"expected {status}, got {response.status_code}: {response.text[:300]}"
    validate(json_of(response), "lfs_error")


@then(phrase('the LFS store of "{short}" does not hold the object'))
def then_lfs_lacks(ctx: ScenarioContext, git_world: GitWorld, short: str) -> None:
    """A download batch says the object does not exist, and a direct download finds nothing."""
    repo = ctx.repo(short)
    pointer = git_world.lfs_pointer
    assert pointer is not None, "no LFS object was announced in this scenario"
    api = repo_owner(ctx, repo).area(LfsApi)
    answer = api.batch(repo.owner, repo.name, "download", [pointer])
    assert answer.status_code == 200, f"the download batch answered {answer.status_code}: {answer.text[:300]}"
    entry = json_of(answer)["objects"][0]
    assert "actions" not in entry and entry.get("error", {}).get("code") == 404, f"the object is there: {entry}"
    assert api.download(repo.owner, repo.name, pointer["oid"]).status_code == 404


@when(phrase('an upload batch for "{short}" is sent with the deploy token "{title}"'))
def when_upload_batch_with_token(
    ctx: ScenarioContext, fake: SeededData, deploy_tokens: DeployTokens, short: str, title: str
) -> None:
    """An upload batch authenticated by a deploy token."""
    repo = ctx.repo(short)
    token = deploy_tokens.token(title)
    api = LfsApi(ctx.admin.http.with_auth(BasicAuth("deploy", token.secret)), ctx.admin.site_url)
    ctx.response = api.batch(repo.owner, repo.name, "upload", [_object(fake.data(1024))])
