"""Issue configuration, its validation and issue templates read from the default branch, against the
reference app (and the template parser on its own)."""

from __future__ import annotations

import pytest
from test_server_issues_support import Forge, assert_error, forge_env

from reference_server.issue_config.forms import TemplateError, parse_template

__all__ = ["forge_env"]

BUG_FORM = """name: Bug report
description: Something is broken
labels: bug, triage
body:
  - type: markdown
    attributes:
      value: Thanks for reporting.
  - type: input
    id: version
    attributes:
      label: Version
    validations:
      required: true
"""


def test_defaults_without_a_file_and_on_an_empty_repository(forge_env: Forge) -> None:
    defaults = {"blank_issues_enabled": True, "contact_links": []}
    assert forge_env.ok("GET", "/issue_config", None, 200) == defaults
    assert forge_env.ok("GET", "/issue_config/validate", None, 200) == {"valid": True, "message": ""}
    assert forge_env.ok("GET", "/issue_templates", None, 200) == []
    empty = forge_env.client.post("/api/v1/user/repos", headers=forge_env.ann, json={"name": "void"})
    assert empty.status_code == 201
    assert forge_env.client.get("/api/v1/repos/ann/void/issue_config").json == defaults
    assert forge_env.client.get("/api/v1/repos/ann/void/issue_templates").json == []


def test_config_is_read_in_giteas_order(forge_env: Forge) -> None:
    forge_env.commit(".github/ISSUE_TEMPLATE/config.yml", "blank_issues_enabled: true\n")
    links = "contact_links:\n  - name: Forum\n    url: https://forum.example.com\n    about: Ask here\n"
    forge_env.commit(".gitea/issue_template/config.yaml", "blank_issues_enabled: false\n" + links)
    config = forge_env.ok("GET", "/issue_config", None, 200)
    assert config == {
        "blank_issues_enabled": False,
        "contact_links": [{"name": "Forum", "url": "https://forum.example.com", "about": "Ask here"}],
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            "contact_links:\n  - url: https://x.example\n    about: a\n",
            "contact_link at position 1 is missing name key",
        ),
        ("contact_links:\n  - name: n\n    about: a\n", "contact_link at position 1 is missing url key"),
        (
            "contact_links:\n  - name: n\n    url: https://x.example\n",
            "contact_link at position 1 is missing about key",
        ),
        ("contact_links:\n  - name: n\n    url: example.com\n    about: a\n", "example.com is not a valid URL"),
        ("blank_issues_enabled: [\n", "yaml: "),
        ("blank_issues_enabled: maybe\n", "blank_issues_enabled"),
    ],
)
def test_invalid_config_gives_defaults_and_a_reason(forge_env: Forge, content: str, message: str) -> None:
    forge_env.commit(".gitea/ISSUE_TEMPLATE/config.yaml", "blank_issues_enabled: false\n" + content)
    assert forge_env.ok("GET", "/issue_config", None, 200)["blank_issues_enabled"] is True
    verdict = forge_env.ok("GET", "/issue_config/validate", None, 200)
    assert verdict["valid"] is False and message in verdict["message"], verdict


def test_templates_are_listed_with_giteas_shape_and_bad_ones_counted(forge_env: Forge) -> None:
    forge_env.commit(".gitea/ISSUE_TEMPLATE/bug.yaml", BUG_FORM)
    forge_env.commit(".gitea/ISSUE_TEMPLATE/feature.md", "---\nname: Feature\nabout: An idea\nref: dev\n---\nTell us")
    forge_env.commit(".gitea/ISSUE_TEMPLATE/config.yaml", "blank_issues_enabled: false\n")
    forge_env.commit(".github/ISSUE_TEMPLATE/broken.md", "no front matter")
    response = forge_env.call("GET", "/issue_templates")
    assert response.status_code == 200
    assert response.headers["X-Gitea-Warning"] == "error occurs when parsing issue template: count=2"
    bug, feature = response.json
    assert (bug["name"], bug["about"], bug["labels"], bug["ref"]) == (
        "Bug report",
        "Something is broken",
        ["bug", "triage"],
        "refs/heads/",
    )
    assert [field["id"] for field in bug["body"]] == ["0", "version"]
    assert bug["file_name"] == ".gitea/ISSUE_TEMPLATE/bug.yaml" and bug["content"] == ""
    assert (feature["name"], feature["content"], feature["ref"], feature["body"]) == (
        "Feature",
        "Tell us",
        "refs/heads/dev",
        None,
    )


def test_private_repository_is_hidden(forge_env: Forge) -> None:
    forge_env.ok("PATCH", "", forge_env.ann, 200, json={"private": True})
    assert_error(forge_env.call("GET", "/issue_config", forge_env.bob), 404)
    assert forge_env.ok("GET", "/issue_config", forge_env.ann, 200)["blank_issues_enabled"] is True


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("name: x\nabout: y\n", "'body' is required"),
        ("about: y\nbody: []\n", "'name' is required"),
        ("name: x\nabout: y\nbody:\n  - type: input\n    attributes: {}\n", "body[0](input): 'label' is required"),
        ("name: x\nabout: y\nbody:\n  - type: radio\n    attributes: {label: l}\n", "body[0](radio): unknown type"),
        (
            "name: x\nabout: y\nbody:\n  - type: dropdown\n    id: a b\n    attributes: {label: l}\n",
            "body[0](dropdown): 'id' should contain only alphanumeric, '-' and '_'",
        ),
        (
            "name: x\nabout: y\nbody:\n  - type: checkboxes\n    attributes: {label: l, options: [x]}\n",
            "body[0](checkboxes), option[0]: should be a dictionary",
        ),
    ],
)
def test_form_validation_uses_giteas_messages(content: str, message: str) -> None:
    with pytest.raises(TemplateError) as raised:
        parse_template("ISSUE_TEMPLATE/x.yaml", content)
    assert str(raised.value) == message
