"""Markup rendering: text rendered in a mode, as a file, through ``/markdown`` and ``/markdown/raw``, and
checks of the HTML that comes back (parsed, so attribute order and quoting do not matter)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from pytest_bdd import then, when

from conformance.api.markup import MarkupApi
from conformance.context import ScenarioContext
from steps.actors import acting
from steps.common import expand, json_option
from steps.parsing import phrase

__all__: list[str] = []


class _Elements(HTMLParser):
    """Every element of an HTML fragment with its attributes and the text directly inside it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[dict[str, Any]] = []
        self._open: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = {"tag": tag, "attrs": {name: value or "" for name, value in attrs}, "text": ""}
        self.elements.append(element)
        if tag not in ("br", "hr", "img", "input"):
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index]["tag"] == tag:
                del self._open[index:]
                return

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element["text"] += data


def _elements(ctx: ScenarioContext) -> list[dict[str, Any]]:
    parser = _Elements()
    parser.feed(ctx.last_response().text)
    parser.close()
    return parser.elements


def _link_to(ctx: ScenarioContext, text: str) -> str:
    links = [element for element in _elements(ctx) if element["tag"] == "a" and element["text"] == text]
    assert links, f"no link reads {text!r} in {ctx.last_response().text[:500]!r}"
    href: str = links[0]["attrs"].get("href", "")
    return href


# ---------------------------------------------------------------- When


@when(phrase('"{who}" renders in the mode "{mode}" the text'))
def when_render_mode(ctx: ScenarioContext, who: str, mode: str, docstring: str) -> None:
    """``POST /markup`` with ``Text`` and ``Mode``."""
    ctx.response = acting(ctx, who, MarkupApi).markup({"Text": docstring, "Mode": mode})


@when(phrase('"{who}" renders "{text}" in the mode "{mode}" with the context "{context}"'))
def when_render_context(ctx: ScenarioContext, who: str, text: str, mode: str, context: str) -> None:
    """``POST /markup`` with ``Context`` (placeholders expanded: ``{dev/app}``)."""
    option = {"Text": expand(ctx, text), "Mode": mode, "Context": expand(ctx, context)}
    ctx.response = acting(ctx, who, MarkupApi).markup(option)


@when(phrase('"{who}" renders "{text}" in the mode "{mode}" under "{repo}"'))
def when_render_in_repo(ctx: ScenarioContext, who: str, text: str, mode: str, repo: str) -> None:
    """``POST /repos/{o}/{r}/markup``: the repository is the context."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, MarkupApi).markup({"Text": expand(ctx, text), "Mode": mode}, (ref.owner, ref.name))


@when(phrase('"{who}" renders the file "{path}" with the content'))
def when_render_file(ctx: ScenarioContext, who: str, path: str, docstring: str) -> None:
    """``POST /markup`` in the mode ``file``: the renderer is chosen by ``FilePath``."""
    ctx.response = acting(ctx, who, MarkupApi).markup({"Text": docstring, "Mode": "file", "FilePath": path})


@when(phrase('"{who}" renders with /markup the body'))
def when_render_markup_body(ctx: ScenarioContext, who: str, docstring: str) -> None:
    """``POST /markup`` with a ``MarkupOption`` given as JSON."""
    ctx.response = acting(ctx, who, MarkupApi).markup(json_option(ctx, docstring))


@when(phrase('"{who}" renders with /markdown the body'))
def when_render_markdown_body(ctx: ScenarioContext, who: str, docstring: str) -> None:
    """``POST /markdown`` with a ``MarkdownOption`` given as JSON."""
    ctx.response = acting(ctx, who, MarkupApi).markdown(json_option(ctx, docstring))


@when(phrase('"{who}" renders with /markdown/raw the text'))
def when_render_raw(ctx: ScenarioContext, who: str, docstring: str) -> None:
    """``POST /markdown/raw`` with the Markdown as the body."""
    ctx.response = acting(ctx, who, MarkupApi).markdown_raw(docstring)


# ---------------------------------------------------------------- Then


@then(phrase("the response is HTML"))
def then_html(ctx: ScenarioContext) -> None:
    content_type = ctx.last_response().headers.get("Content-Type", "")
    assert content_type.split(";")[0].strip() == "text/html", f"the content type is {content_type!r}"


@then(phrase('the HTML has a "{tag}" element reading "{text}"'))
def then_element(ctx: ScenarioContext, tag: str, text: str) -> None:
    found = [element["text"].strip() for element in _elements(ctx) if element["tag"] == tag]
    assert text in found, f'no "{tag}" element reads {text!r}; the "{tag}" elements read {found}'


@then(phrase("the HTML has a checkbox that is {state:w}"))
def then_checkbox(ctx: ScenarioContext, state: str) -> None:
    """A task list item's checkbox: ``checked`` or ``unchecked``."""
    boxes = [e["attrs"] for e in _elements(ctx) if e["tag"] == "input" and e["attrs"].get("type") == "checkbox"]
    assert boxes, f"no checkbox in {ctx.last_response().text[:500]!r}"
    assert any(("checked" in attrs) is (state == "checked") for attrs in boxes), f"the checkboxes are {boxes}"


@then(phrase('the HTML has no "{tag}" element'))
def then_no_element(ctx: ScenarioContext, tag: str) -> None:
    found = [element for element in _elements(ctx) if element["tag"] == tag]
    assert not found, f'the HTML has "{tag}" elements: {found}'


@then(phrase('no element of the HTML has the attribute "{attribute}"'))
def then_no_attribute(ctx: ScenarioContext, attribute: str) -> None:
    found = [element for element in _elements(ctx) if attribute in element["attrs"]]
    assert not found, f'elements carry "{attribute}": {found}'


@then(phrase('no link of the HTML goes to a "{scheme}" URL'))
def then_no_scheme(ctx: ScenarioContext, scheme: str) -> None:
    hrefs = [element["attrs"].get("href", "") for element in _elements(ctx) if element["tag"] == "a"]
    bad = [href for href in hrefs if href.strip().lower().startswith(f"{scheme}:")]
    assert not bad, f"links go to {bad}"


@then(phrase('the HTML links "{text}" to issue {index:d} of "{repo}"'))
def then_issue_link(ctx: ScenarioContext, text: str, index: int, repo: str) -> None:
    """The link's path ends in ``/<owner>/<repo>/issues/<index>`` (absolute or not, as the forge writes it)."""
    ref = ctx.repo(repo)
    href = _link_to(ctx, expand(ctx, text))
    assert href.endswith(f"/{ref.owner}/{ref.name}/issues/{index}"), f"the link goes to {href!r}"


@then(phrase('the HTML links "{text}" to the profile of "{user}"'))
def then_mention_link(ctx: ScenarioContext, text: str, user: str) -> None:
    href = _link_to(ctx, expand(ctx, text))
    assert href.rstrip("/").endswith(f"/{ctx.owner_name(user)}"), f"the link goes to {href!r}"


@then(phrase('the HTML links "{text}" to a path ending in "{suffix}"'))
def then_link_suffix(ctx: ScenarioContext, text: str, suffix: str) -> None:
    href = _link_to(ctx, text)
    assert href.endswith(expand(ctx, suffix)), f"the link goes to {href!r}"


@then(phrase('the HTML has no link reading "{text}"'))
def then_no_link(ctx: ScenarioContext, text: str) -> None:
    links = [element for element in _elements(ctx) if element["tag"] == "a" and element["text"] == expand(ctx, text)]
    assert not links, f"a link reads {text!r}: {links}"


@then(phrase('the response text is "{text}"'))
def then_text_is(ctx: ScenarioContext, text: str) -> None:
    """The whole body, as Gitea's plain-text refusals of the markup routes say it."""
    body = ctx.last_response().text.strip()
    assert body == text, f"the response says {body!r}, expected {text!r}"


@then(phrase("the response text reads"))
def then_text_reads(ctx: ScenarioContext, docstring: str) -> None:
    """The whole body equals the docstring (for texts that hold quotes)."""
    then_text_is(ctx, docstring.strip())
