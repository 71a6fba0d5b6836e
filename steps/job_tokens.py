"""A running job's own token (``GITEA_TOKEN``) used against the REST API: what it may reach.

The job comes from ``steps/ci.py`` ("a mock runner has taken a job of a new repository"); its token is
read from the task's secrets, as a job sees it, and registered as a secret of the transcript.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pytest
from pytest_bdd import given, then, when

from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.target import Target
from mock_runner.protocol import RunnerCallError, RunnerClient
from steps.actors import with_token
from steps.ci import CiWorld, simple_workflow
from steps.common import send_with
from steps.parsing import phrase

REGISTRATION_TOKEN_PATH = "user/actions/runners/registration-token"
FETCH_ATTEMPTS = 3


@dataclass
class WaitingJobs:
    """The label each repository's waiting job asks for (by repository short name)."""

    labels: dict[str, str] = field(default_factory=dict)


@pytest.fixture
def waiting_jobs() -> WaitingJobs:
    """The scenario's waiting jobs."""
    return WaitingJobs()


def _job_http(ci_world: CiWorld, who: str) -> HttpClient:
    """The job's own ``GITEA_TOKEN`` (from its task's secrets) as the credential."""
    token = ci_world.job(who).job_token
    assert token, f"the task of the {who} carries no GITEA_TOKEN in its secrets"
    return with_token(ci_world.ctx, token).http


def _send(ci_world: CiWorld, who: str, method: str, path: str, body: str | None) -> None:
    send_with(ci_world.ctx, _job_http(ci_world, who), method, path, body)


@given(phrase('a private repository "{short}" with a waiting job for the label "{label}"'))
def given_waiting_job(
    ci_world: CiWorld, waiting_jobs: WaitingJobs, identities: IdentityFactory, short: str, label: str
) -> None:
    """Another owner's private repository whose workflow waits for a runner with ``label``."""
    repo = identities.repo(short, private=True)
    real_label = f"{ci_world.ctx.run_prefix}-{label}"
    ci_world.push_workflow(repo, "vault.yml", simple_workflow("vault", real_label))
    waiting_jobs.labels[short] = real_label


@when(phrase('the job\'s token sends {method:w} "{path}"'))
def when_job_sends(ci_world: CiWorld, method: str, path: str) -> None:
    """A REST call with the running job's ``GITEA_TOKEN``."""
    _send(ci_world, "job", method, path, None)


@when(phrase('the job\'s token sends {method:w} "{path}" with the body'))
def when_job_sends_body(ci_world: CiWorld, method: str, path: str, docstring: str) -> None:
    """A REST call with the running job's ``GITEA_TOKEN`` and a JSON body."""
    _send(ci_world, "job", method, path, docstring)


@when(phrase('the other job\'s token sends {method:w} "{path}"'))
def when_other_job_sends(ci_world: CiWorld, method: str, path: str) -> None:
    """A REST call with the other running job's ``GITEA_TOKEN``."""
    _send(ci_world, "other job", method, path, None)


@when(phrase("the job's token asks for a user-level runner registration token"))
def when_job_asks_registration(ci_world: CiWorld) -> None:
    """``POST /user/actions/runners/registration-token`` as the job."""
    _send(ci_world, "job", "POST", REGISTRATION_TOKEN_PATH, None)


@then(phrase('no runner registered with the answer is handed a job of "{short}"'))
def then_no_runner_takes(ctx: ScenarioContext, waiting_jobs: WaitingJobs, target: Target, short: str) -> None:
    """Refused outright, or the runner that its token registers (with the waiting job's label) gets nothing
    of that repository, whatever ``tasks_version`` it polls with."""
    response = ctx.last_response()
    if response.status_code != 200:
        assert 400 <= response.status_code < 500, f"{response.status_code}: {response.text[:300]}"
        return
    token = str(json_of(response).get("token", ""))
    ctx.admin.http.recorder.add_secret(token)
    label = waiting_jobs.labels[short]
    try:
        runner = RunnerClient(target.base_url).register(token, ctx.real_name("stolen"), [label])
    except RunnerCallError:
        return  # the registration itself was refused
    ctx.admin.http.recorder.add_secret(runner.token)
    client = RunnerClient(target.base_url, runner.uuid, runner.token)
    vault = ctx.repo(short).full_name
    for version in range(FETCH_ATTEMPTS):
        task, _ = client.fetch_task(version, timeout=5.0)
        if task is not None:
            repository = task.context.fields["repository"].string_value
            assert repository != vault, f"a runner registered through a job's token took a job of {vault}"
        time.sleep(0.2)


@then(phrase('the response does not mention "{text}"'))
def then_not_mentioned(ctx: ScenarioContext, text: str) -> None:
    """The answer (refused or not) carries nothing of ``text``."""
    assert text not in ctx.last_response().text, f'the answer shows "{text}": {ctx.last_response().text[:300]}'
