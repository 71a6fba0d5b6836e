"""Markup rendering: modes, the renderer registry, comment references, sanitising and the routes' answers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from reference_server.markup import renderers
from reference_server.markup.models import parse_markdown_option, parse_markup_option

API = "/api/v1"


@pytest.fixture
def owner(client: FlaskClient, admin_headers: dict[str, str]) -> str:
    """The admin's name, with a public repository ``<admin>/site``."""
    assert client.post(f"{API}/user/repos", headers=admin_headers, json={"name": "site"}).status_code == 201
    name: str = (client.get(f"{API}/user", headers=admin_headers).json or {})["login"]
    return name


def _render(client: FlaskClient, headers: dict[str, str], body: Any, path: str = "/markup") -> Any:
    return client.post(f"{API}{path}", headers=headers, json=body)


def test_markdown_has_github_extensions_and_is_html(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    text = "# T\n\n- [x] a\n- [ ] b\n\n| h |\n|---|\n| c |\n\n~~gone~~ www.example.com"
    response = _render(client, admin_headers, {"Text": text, "Mode": "markdown"})
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    html = response.get_data(as_text=True)
    for fragment in ("<h1>T</h1>", 'type="checkbox"', "checked", "<td>c</td>", "<del>gone</del>"):
        assert fragment in html, (fragment, html)
    assert 'href="http://www.example.com"' in html


@pytest.mark.parametrize("mode", ["", "markdown", "gfm", "wiki", "comment"])
def test_every_document_mode_renders(client: FlaskClient, admin_headers: dict[str, str], mode: str) -> None:
    response = _render(client, admin_headers, {"Text": "*x*", "Mode": mode})
    assert response.status_code == 200 and "<em>x</em>" in response.get_data(as_text=True)


def test_comment_mode_links_references_and_existing_accounts(
    client: FlaskClient, admin_headers: dict[str, str], owner: str
) -> None:
    text = f"#7 and @{owner} and @ghost-nobody, `#8`, a@{owner}.org\nnext"
    html = _render(client, admin_headers, {"Text": text, "Mode": "comment", "Context": f"/{owner}/site"}).get_data(
        as_text=True
    )
    assert f'<a href="http://forge.test/{owner}/site/issues/7" class="ref-issue"' in html
    assert f'<a href="http://forge.test/{owner}" class="mention"' in html
    assert "@ghost-nobody" in html and "ghost-nobody</a>" not in html
    assert "<code>#8</code>" in html and "issues/8" not in html
    assert f"a@{owner}.org" in html and "<br" in html


def test_comment_references_need_a_readable_repository(
    client: FlaskClient, admin_headers: dict[str, str], owner: str
) -> None:
    unknown = _render(client, admin_headers, {"Text": "#1", "Mode": "comment", "Context": "nobody/none"})
    assert "<a" not in unknown.get_data(as_text=True)
    scoped = client.post(
        f"{API}/repos/{owner}/site/markdown", headers=admin_headers, json={"Text": "#2", "Mode": "comment"}
    )
    assert f"/{owner}/site/issues/2" in scoped.get_data(as_text=True)


def test_relative_links_resolve_against_the_context(
    client: FlaskClient, admin_headers: dict[str, str], owner: str
) -> None:
    body = {
        "Text": "[a](docs/a.md) [b](/abs) [c](#top) [d](https://x.org)",
        "Mode": "gfm",
        "Context": f"{owner}/site/src/branch/main",
    }
    html = _render(client, admin_headers, body).get_data(as_text=True)
    assert f'href="http://forge.test/{owner}/site/src/branch/main/docs/a.md"' in html
    assert 'href="/abs"' in html and 'href="#top"' in html and 'href="https://x.org"' in html
    wiki = _render(client, admin_headers, {"Text": "[p](Page)", "Wiki": True, "Context": f"{owner}/site"})
    assert f'href="http://forge.test/{owner}/site/wiki/Page"' in wiki.get_data(as_text=True)


def test_output_is_sanitised(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    text = '<script>x()</script><a href="javascript:y()" onclick="z()">j</a><img src="data:x" onerror="w()"><b>ok</b>'
    html = _render(client, admin_headers, {"Text": text, "Mode": "markdown"}).get_data(as_text=True)
    for bad in ("<script", "onclick", "onerror", "javascript:", "data:"):
        assert bad not in html, (bad, html)
    assert "<b>ok</b>" in html


def test_file_mode_picks_the_renderer_by_extension(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    markdown = _render(client, admin_headers, {"Text": "## H", "Mode": "file", "FilePath": "a/README.MD"})
    assert "<h2>H</h2>" in markdown.get_data(as_text=True)
    table = _render(client, admin_headers, {"Text": "a\tb\n1\t<2>", "Mode": "file", "FilePath": "t.tsv"})
    html = table.get_data(as_text=True)
    assert '<table class="data-table">' in html and "<th>b</th>" in html and "<td>&lt;2&gt;</td>" in html
    refused = _render(client, admin_headers, {"Text": "x", "Mode": "file", "FilePath": "notes.txt"})
    assert refused.status_code == 422
    assert refused.headers["Content-Type"].startswith("text/plain")
    assert refused.get_data(as_text=True) == 'unsupported file to render: "notes.txt"'
    no_path = _render(client, admin_headers, {"Text": "x", "Mode": "file"}, path="/markdown")
    assert no_path.get_data(as_text=True) == 'unsupported file to render: ""'


def test_registered_renderers_are_used(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:
    renderers.register_renderer([".shout"], lambda text, context: f"<p>{text.upper()} {context.file_path}</p>")
    try:
        response = _render(
            client, admin_headers, {"Text": "hi <script>x</script>", "Mode": "file", "FilePath": "x.SHOUT"}
        )
        assert response.get_data(as_text=True) == "<p>HI  x.SHOUT</p>"
        assert ".shout" in renderers.registered_extensions()
    finally:
        renderers._RENDERERS.pop(".shout")
    with pytest.raises(ValueError, match="dot"):
        renderers.register_renderer(["txt"], lambda text, context: text)


def test_unknown_mode_and_bad_options_are_422(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    unknown = _render(client, admin_headers, {"Text": "x", "Mode": "slides"})
    assert (unknown.status_code, unknown.get_data(as_text=True)) == (422, "Unknown mode: slides")
    for body, message in (({"Text": 5}, "[Text]"), ({"Wiki": "yes"}, "[Wiki]"), ([1], "JSON object")):
        response = _render(client, admin_headers, body)
        assert response.status_code == 422 and message in (response.json or {})["message"], response.data
    garbled = client.post(f"{API}/markup", headers={**admin_headers, "Content-Type": "application/json"}, data="{")
    assert garbled.status_code == 422


def test_raw_markdown_and_empty_text(client: FlaskClient, admin_headers: dict[str, str], owner: str) -> None:
    raw = client.post(f"{API}/markdown/raw", headers=admin_headers, data="**b**")
    assert (raw.status_code, raw.get_data(as_text=True)) == (200, "<p><strong>b</strong></p>\n")
    scoped = client.post(f"{API}/repos/{owner}/site/markdown/raw", headers=admin_headers, data=b"\xff")
    assert scoped.status_code == 422
    assert _render(client, admin_headers, {}).get_data(as_text=True) == ""


def test_access_rules(client: FlaskClient, admin_headers: dict[str, str], owner: str) -> None:
    assert client.post(f"{API}/markup", json={"Text": "x"}).status_code == 401
    assert client.post(f"{API}/repos/{owner}/none/markup", headers=admin_headers, json={}).status_code == 404


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"TEXT": "t", "MODE": "gfm", "CONTEXT": "c", "FILEPATH": "p"}, ("t", "gfm", "c", "p")),
        ({"text": "t", "file_path": "p", "wiki": True}, ("t", "wiki", "", "p")),
    ],
)
def test_markup_option_keys_ignore_case(body: dict[str, Any], expected: tuple[str, ...]) -> None:
    parsed = parse_markup_option(body)
    assert (parsed.text, parsed.mode, parsed.context, parsed.file_path) == expected


def test_markdown_option_has_no_file_path() -> None:
    parsed = parse_markdown_option({"Text": "t", "FilePath": "a.md", "Mode": "file"})
    assert (parsed.mode, parsed.file_path) == ("file", "")


@pytest.fixture(autouse=True)
def _no_leaked_renderers() -> Iterator[None]:
    before = renderers.registered_extensions()
    yield
    assert renderers.registered_extensions() == before
