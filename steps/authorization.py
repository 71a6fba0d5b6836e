"""Authorization of the CI administration routes, driven by one table of (operation, caller, status).

The Background builds one world: the organization ``acme`` owned by ``owner``, its private
repository ``acme/app`` with one finished run, and a runner registered to that repository. A table
row names an operation (a key of ``OPERATIONS``) and a caller word (a key of ``CALLERS``); the
Given step turns the caller word into an HTTP client whose token carries the scopes the word
describes, relative to the scope category the operation needs (Gitea's ``tokenRequiresScopes``:
``/repos`` -> repository, ``/orgs`` -> organization, ``/user`` -> user, ``/admin`` -> admin).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from pytest_bdd import given, then, when

from conformance.api.collaborators import CollaboratorsApi
from conformance.client import HttpClient, TokenAuth, json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.ledger import CleanupLedger
from conformance.schemas import validate
from conformance.target import Target
from steps.actors import ADMIN, ANONYMOUS, acting_api, acting_http
from steps.ci import report_result, take_job
from steps.common import (
    FileNotes,
    given_file_docstring,
    given_org,
    given_private_repository,
    given_repository,
    given_user,
    json_document,
)
from steps.parsing import phrase
from steps.scopes import ScopeNotes, ScopeRef, given_scoped_runner

__all__ = [
    "CALLERS",
    "OPERATIONS",
    "ROLE_CALLERS",
    "AuthorizationNotes",
    "Operation",
    "SharedWorld",
    "category_of",
    "fill_path",
    "scopes_for",
]

CATEGORIES = ("activitypub", "admin", "issue", "misc", "notification", "organization", "package", "repository", "user")
UNFILLED = re.compile(r"\{[a-z]+\}")


@dataclass(frozen=True)
class Operation:
    """One CI route: its method, its path template under the API root and its JSON body (or None)."""

    method: str
    path: str
    body: str | None = None

    @property
    def reads_only(self) -> bool:
        """A GET changes nothing, so its rows may share one world; every other method gets its own."""
        return self.method == "GET"


REPO_ACTIONS = "repos/{repo}/actions"
OPERATIONS: dict[str, Operation] = {
    "repository runs list": Operation("GET", f"{REPO_ACTIONS}/runs"),
    "missing repository runs list": Operation("GET", "repos/{org}/conformance-no-such-repo/actions/runs"),
    "run get": Operation("GET", f"{REPO_ACTIONS}/runs/{{run}}"),
    "run delete": Operation("DELETE", f"{REPO_ACTIONS}/runs/{{run}}"),
    "tasks list": Operation("GET", f"{REPO_ACTIONS}/tasks"),
    "jobs list": Operation("GET", f"{REPO_ACTIONS}/jobs"),
    "workflows list": Operation("GET", f"{REPO_ACTIONS}/workflows"),
    "workflow dispatch": Operation("POST", f"{REPO_ACTIONS}/workflows/ci.yml/dispatches", '{"ref": "{branch}"}'),
    "repository runners list": Operation("GET", f"{REPO_ACTIONS}/runners"),
    "repository registration token": Operation("POST", f"{REPO_ACTIONS}/runners/registration-token"),
    "runner update": Operation("PATCH", f"{REPO_ACTIONS}/runners/{{runner}}", '{"disabled": true}'),
    "repository secret put": Operation("PUT", f"{REPO_ACTIONS}/secrets/AUTHZ_SECRET", '{"data": "s3cret"}'),
    "repository secrets list": Operation("GET", f"{REPO_ACTIONS}/secrets"),
    "repository variable create": Operation("POST", f"{REPO_ACTIONS}/variables/AUTHZ_VAR", '{"value": "v"}'),
    "repository variables list": Operation("GET", f"{REPO_ACTIONS}/variables"),
    "public repository runs list": Operation("GET", "repos/{public}/actions/runs"),
    "public repository tasks list": Operation("GET", "repos/{public}/actions/tasks"),
    "public repository secrets list": Operation("GET", "repos/{public}/actions/secrets"),
    "public repository runners list": Operation("GET", "repos/{public}/actions/runners"),
    "public repository variable create": Operation(
        "POST", "repos/{public}/actions/variables/AUTHZ_VAR", '{"value": "v"}'
    ),
    "public repository hooks list": Operation("GET", "repos/{public}/hooks"),
    "organization runs list": Operation("GET", "orgs/{org}/actions/runs"),
    "organization secrets list": Operation("GET", "orgs/{org}/actions/secrets"),
    "organization variables list": Operation("GET", "orgs/{org}/actions/variables"),
    "organization runners list": Operation("GET", "orgs/{org}/actions/runners"),
    "user runners list": Operation("GET", "user/actions/runners"),
    "user variables list": Operation("GET", "user/actions/variables"),
    "admin runs list": Operation("GET", "admin/actions/runs"),
    "admin runners list": Operation("GET", "admin/actions/runners"),
    "admin registration token": Operation("POST", "admin/actions/runners/registration-token"),
    "repository hooks list": Operation("GET", "repos/{repo}/hooks"),
    "repository hook create": Operation(
        "POST",
        "repos/{repo}/hooks",
        '{"type": "gitea", "active": false, "events": ["push"],'
        ' "config": {"url": "http://hooks.example.com/authz", "content_type": "json"}}',
    ),
}

# Caller word -> who sends and which token: "all", "right" (write:<category>), "read" (read:<category>),
# "other" (write: of every category but the needed one), or None for no credentials at all.
CALLERS: dict[str, tuple[str, str | None]] = {
    "anonymous": ("", None),
    "stranger": ("stranger", "all"),
    "owner without the category": ("owner", "other"),
    "owner with a read token": ("owner", "read"),
    "owner": ("owner", "right"),
    "site admin": ("the admin", "all"),
    "reader": ("reader", "all"),
    "writer": ("writer", "all"),
    "org member": ("member", "all"),
}
# Callers with a role on acme/app, given on representative rows only: a read or write collaborator of
# the repository, and a member of a read team of acme that covers it.
ROLE_CALLERS = frozenset({"reader", "writer", "org member"})


def category_of(path: str) -> str:
    """The scope category Gitea checks for a path, from its first segment."""
    first = path.split("/", 1)[0]
    categories = {"repos": "repository", "orgs": "organization", "user": "user", "admin": "admin"}
    if first not in categories:
        raise AssertionError(f"no scope category is known for the path {path!r}")
    return categories[first]


def scopes_for(kind: str, category: str) -> list[str]:
    """The token scopes of a caller kind for an operation of ``category``."""
    if kind == "all":
        return ["all"]
    if kind == "right":
        return [f"write:{category}"]
    if kind == "read":
        return [f"read:{category}"]
    if kind == "other":
        return [f"write:{other}" for other in CATEGORIES if other != category]
    raise AssertionError(f"unknown token kind {kind!r}")


def fill_path(template: str, values: dict[str, str]) -> str:
    """Replace the ``{repo}``, ``{public}``, ``{org}``, ``{run}``, ``{runner}`` and ``{branch}`` placeholders.

    An unknown placeholder fails the step instead of sending a request to a wrong path.
    """
    text = template
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    left = UNFILLED.search(text)
    assert left is None, f"unfilled placeholder {left.group(0)!r} in {text!r}"
    return text


def _operation(name: str) -> Operation:
    found = OPERATIONS.get(name)
    assert found is not None, f"unknown operation {name!r}; known: {', '.join(OPERATIONS)}"
    return found


@dataclass
class AuthorizationNotes:
    """The world's scoped runners and committed files, the id of its finished run, the caller's client, and
    the shared world a reading row borrowed (None when the row built its own)."""

    scope_notes: ScopeNotes
    file_notes: FileNotes
    run_id: int | None = None
    client: HttpClient | None = None
    world: SharedWorld | None = None

    def caller(self) -> HttpClient:
        """The client the Given step made for the row's caller."""
        assert self.client is not None, 'add `Given the caller is "..." for the operation "..."`'
        return self.client


@pytest.fixture
def authorization_notes(scope_notes: ScopeNotes, file_notes: FileNotes) -> AuthorizationNotes:
    """The scenario's authorization-table notes, over its scoped runners and committed files."""
    return AuthorizationNotes(scope_notes, file_notes)


def _values(ctx: ScenarioContext, notes: AuthorizationNotes) -> dict[str, str]:
    repo = ctx.repo("acme/app")
    assert notes.run_id is not None, 'add `Given the mock runner "ci" has finished the job of "acme/app" with success`'
    return {
        "repo": repo.full_name,
        "public": ctx.repo("acme/site").full_name,
        "org": ctx.owner_name("acme"),
        "run": str(notes.run_id),
        "runner": str(notes.scope_notes.runner("ci").runner_id),
        "branch": repo.default_branch,
    }


# ---------------------------------------------------------------- The shared world


@dataclass
class SharedWorld:
    """The Background's world built once per worker for the rows whose operation only reads.

    ``ctx`` and ``notes`` hold what was built (users, organization, repositories, the runner, the finished
    run); ``factory`` adds to it (a role's user, a scoped token) so later rows find it too; ``secrets`` are
    re-masked on every row that uses the world, since masking is scoped to a scenario's page.
    """

    ctx: ScenarioContext
    factory: IdentityFactory
    notes: AuthorizationNotes
    roles: set[str] = field(default_factory=set)
    tokens: dict[tuple[str, str, str], str] = field(default_factory=dict)
    secrets: set[str] = field(default_factory=set)

    def lend(self, ctx: ScenarioContext, notes: AuthorizationNotes) -> None:
        """Give the scenario the world's names, runner and run, and mask the world's secrets in its transcript."""
        ctx.users.update(self.ctx.users)
        ctx.orgs.update(self.ctx.orgs)
        ctx.org_owners.update(self.ctx.org_owners)
        ctx.repos.update(self.ctx.repos)
        ctx.tokens.update(self.ctx.tokens)
        notes.scope_notes.runners.update(self.notes.scope_notes.runners)
        notes.file_notes.answers.update(self.notes.file_notes.answers)
        notes.run_id = self.notes.run_id
        notes.world = self
        recorder = ctx.admin.http.recorder
        self.secrets |= set(recorder.page_secrets)
        for secret in self.secrets:
            recorder.add_secret(secret)


@pytest.fixture(scope="session")
def authorization_world(ledger: CleanupLedger) -> Iterator[dict[str, SharedWorld]]:
    """The worker's shared worlds, deleted with their own ledger at the end of the run (leaks reported)."""
    worlds: dict[str, SharedWorld] = {}
    yield worlds
    for world in worlds.values():
        ledger.leaks.extend(world.factory.ledger.cleanup())


def _build_world(identities: IdentityFactory, notes: AuthorizationNotes, target: Target, workflow: str) -> None:
    """What the Background says, step by step, with the existing steps."""
    ctx = identities.ctx
    given_user(identities, "owner")
    given_org(identities, "acme", "owner")
    given_private_repository(identities, "acme/app")
    ci = ScopeRef("repository", "acme/app")
    given_scoped_runner(ctx, notes.scope_notes, identities, target, short="ci", scope=ci, labels="conformance-authz")
    given_file_docstring(identities, notes.file_notes, "acme/app", ".gitea/workflows/ci.yml", workflow)
    given_finished_run(ctx, notes, "ci", "acme/app")
    given_repository(identities, "acme/site")
    given_user(identities, "stranger")


# ---------------------------------------------------------------- Given


@given(phrase("the CI authorization world, shared by the rows whose operation only reads, with the workflow"))
def given_authorization_world(
    identities: IdentityFactory,
    target: Target,
    request: pytest.FixtureRequest,
    authorization_world: dict[str, SharedWorld],
    authorization_notes: AuthorizationNotes,
    *,
    docstring: str,
) -> None:
    """Build the world for a row that changes it (run delete, dispatch, secret put...); reuse it for a GET row.

    A reading row sees exactly the world a fresh build gives: the same users, organization, repositories,
    runner and finished run, with the same permissions; only the names' scenario number differs.
    """
    ctx = identities.ctx
    example = request.getfixturevalue("_pytest_bdd_example")
    operation = _operation(str(example.get("operation", "")))
    workflow = docstring + "\n"
    if not operation.reads_only:
        _build_world(identities, authorization_notes, target, workflow)
        return
    world = authorization_world.get(workflow)
    if world is None:
        world_ctx = ScenarioContext(run_prefix=ctx.run_prefix, sequence=ctx.sequence, admin=ctx.admin)
        factory = IdentityFactory(world_ctx, ctx.admin, CleanupLedger(ctx.admin), identities.api_url, identities.fake)
        world_notes = AuthorizationNotes(ScopeNotes(), FileNotes())
        world = SharedWorld(world_ctx, factory, world_notes)
        authorization_world[workflow] = world
        _build_world(factory, world_notes, target, workflow)
    world.lend(ctx, authorization_notes)


@given(phrase('the mock runner "{runner}" has finished the job of "{short}" with success'))
def given_finished_run(ctx: ScenarioContext, authorization_notes: AuthorizationNotes, runner: str, short: str) -> None:
    """Take the repository's waiting job and report success, so its run is done (deletable)."""
    job = take_job(authorization_notes.scope_notes.runner(runner).client, ctx.repo(short))
    report_result(job, "success")
    authorization_notes.run_id = job.run_id


@given(phrase('the caller is "{caller}" for the operation "{operation}"'))
def given_caller(
    ctx: ScenarioContext,
    identities: IdentityFactory,
    authorization_notes: AuthorizationNotes,
    caller: str,
    operation: str,
) -> None:
    """An HTTP client for the caller word, its token scoped relative to the operation's category."""
    assert caller in CALLERS, f"unknown caller {caller!r}; known: {', '.join(CALLERS)}"
    who, kind = CALLERS[caller]
    if kind is None:
        authorization_notes.client = acting_http(ctx, ANONYMOUS)
    elif who == ADMIN:
        authorization_notes.client = acting_http(ctx, ADMIN)
    else:
        category = category_of(_operation(operation).path)
        authorization_notes.client = _caller_client(
            ctx, identities, authorization_notes, caller, who=who, kind=kind, category=category
        )


def _caller_client(
    ctx: ScenarioContext,
    identities: IdentityFactory,
    notes: AuthorizationNotes,
    caller: str,
    *,
    who: str,
    kind: str,
    category: str,
) -> HttpClient:
    """The caller's user with its role and a token of the wanted scopes: made once in a shared world."""
    world = notes.world
    if world is None:
        identity = identities.user(who)
        _give_role(ctx, caller, identity.username)
        token = identities.token_for(who, f"{ctx.run_prefix}-authz-{kind}", scopes_for(kind, category))
        return identity.http.with_auth(TokenAuth(token.value))
    identity = world.factory.user(who)
    if caller not in world.roles:
        _give_role(world.ctx, caller, identity.username)
        world.roles.add(caller)
    key = (who, kind, category)
    if key not in world.tokens:
        name = f"{ctx.run_prefix}-authz-{kind}-{category}"
        world.tokens[key] = world.factory.token_for(who, name, scopes_for(kind, category)).value
    world.lend(ctx, notes)
    return identity.http.with_auth(TokenAuth(world.tokens[key]))


def _give_role(ctx: ScenarioContext, caller: str, username: str) -> None:
    """The owner makes the user a read or write collaborator of acme/app, or puts it in a read team covering it."""
    repo = ctx.repo("acme/app")
    owner = acting_api(ctx, "owner")
    if caller in ("reader", "writer"):
        permission = {"reader": "read", "writer": "write"}[caller]
        response = owner.area(CollaboratorsApi).put(repo.owner, repo.name, username, permission)
        assert response.status_code == 204, f"could not add the {caller}: {response.status_code} {response.text[:200]}"
    elif caller == "org member":
        body = {"name": "authz-readers", "permission": "read", "units": ["repo.code", "repo.actions"]}
        team = owner.orgs.create_team(repo.owner, body)
        assert team.status_code == 201, f"could not create the team: {team.status_code} {team.text[:200]}"
        team_id = int(json_of(team)["id"])
        for response in (
            owner.orgs.add_team_repo(team_id, repo.owner, repo.name),
            owner.orgs.add_team_member(team_id, username),
        ):
            assert response.status_code == 204, f"could not set up the team: {response.status_code}"


# ---------------------------------------------------------------- When


@when(phrase('the caller sends the operation "{operation}"'))
def when_operation(ctx: ScenarioContext, authorization_notes: AuthorizationNotes, operation: str) -> None:
    """One request of the table's operation with the caller's client."""
    found = _operation(operation)
    values = _values(ctx, authorization_notes)
    payload = json_document(fill_path(found.body, values)) if found.body is not None else None
    ctx.response = authorization_notes.caller().request(found.method, fill_path(found.path, values), json=payload)


# ---------------------------------------------------------------- Then


@then(phrase("the operation answers {status:d}"))
def then_operation_answers(ctx: ScenarioContext, status: int) -> None:
    """The exact status; a 4xx also carries the error body (message and url)."""
    response = ctx.last_response()
    assert response.status_code == status, (
        f"{response.request.method} {response.request.path_url} answered {response.status_code},"
        f" expected {status}: {response.text[:300]}"
    )
    if 400 <= status < 500:
        validate(json_of(response), "error")
