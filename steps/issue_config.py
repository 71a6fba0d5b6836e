"""Issue configuration and issue templates: reading and validating the configuration file of the
default branch, and listing the templates found there. Files are committed with the common step
``the repository "dev/app" has the file "..." with the content``."""

from __future__ import annotations

from pytest_bdd import then, when

from conformance.api.issue_config import IssueConfigApi
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting
from steps.common import expect_status, response_json
from steps.parsing import phrase

__all__: list[str] = []


def _template_names(body: object) -> list[str]:
    """The names of a template list; Gitea sends ``null`` for none, the reference ``[]``: both are empty."""
    if body is None:
        return []
    assert isinstance(body, list), f"expected a list of templates, got {str(body)[:200]}"
    return [str(template["name"]) for template in body]


# ---------------------------------------------------------------- When


@when(phrase('"{who}" reads the issue configuration of "{repo}"'))
def when_read_config(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssueConfigApi).issue_config(ref.owner, ref.name)


@when(phrase('"{who}" validates the issue configuration of "{repo}"'))
def when_validate_config(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssueConfigApi).validate_issue_config(ref.owner, ref.name)


@when(phrase('"{who}" lists the issue templates of "{repo}"'))
def when_list_templates(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, IssueConfigApi).issue_templates(ref.owner, ref.name)


# ---------------------------------------------------------------- Then


@then(phrase('the response lists the templates "{names}"'))
def then_lists_templates(ctx: ScenarioContext, names: str) -> None:
    """The templates (each valid against ``issue_template``) by name, in order; ``nothing`` for none."""
    expected = [] if names == "nothing" else [name.strip() for name in names.split(",")]
    found = _template_names(response_json(ctx))
    assert found == expected, f"the response lists the templates {found}, expected {expected}"


@then(phrase('the issue templates of "{repo}" are "{names}"'))
def then_repo_templates(ctx: ScenarioContext, repo: str, names: str) -> None:
    """Read as the admin: the repository's valid templates by name, in order."""
    ref = ctx.repo(repo)
    body = expect_status(acting(ctx, ADMIN, IssueConfigApi).issue_templates(ref.owner, ref.name), 200, "templates")
    found = _template_names(body)
    expected = [name.strip() for name in names.split(",")]
    assert found == expected, f'the templates of "{repo}" are {found}, expected {expected}'


@then(phrase("the response has no contact links"))
def then_no_links(ctx: ScenarioContext) -> None:
    """``contact_links`` is an empty list (Gitea's default, never ``null``)."""
    body = response_json(ctx)
    assert isinstance(body, dict), f"expected an IssueConfig object, got {str(body)[:200]}"
    assert body.get("contact_links") == [], f"contact_links is {body.get('contact_links')!r}"
