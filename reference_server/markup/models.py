"""Rendering rules: modes, Markdown with GitHub's extensions, comment references and sanitising.

Modes (Gitea's ``RenderMarkup``): ``""``/``markdown`` a plain document; ``gfm`` a document of a
repository (relative links resolve against ``Context``); ``wiki`` a wiki page (relative links go to the
repository's wiki; ``Wiki: true`` picks it whatever the mode); ``comment`` an issue comment (hard line
breaks, ``#123`` links to the issue of the repository in ``Context``, ``@name`` to an existing account);
``file`` the renderer of ``FilePath``'s extension (:mod:`.renderers`). Every output is sanitised with
``nh3``: no script or style, no event handler attributes, only http(s), mailto and relative URLs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

import nh3
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.tasklists import tasklists_plugin

from ..auth import Principal
from ..context import forge
from ..errors import Unprocessable
from ..permissions import permission
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from ..users import models as users
from .errors import UnknownMode, UnsupportedFile
from .renderers import RenderContext, register_renderer, renderer_for

__all__ = ["MODES", "MarkupRequest", "parse_markdown_option", "parse_markup_option", "render"]

MODES = ("", "markdown", "gfm", "comment", "wiki", "file")
MARKDOWN_EXTENSIONS = (".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".livemd")
ISSUE_REF = re.compile(r"(?<![\w/&#])#(\d+)\b")
MENTION = re.compile(r"(?<![\w.@/`])@([A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")

ALLOWED_TAGS = {*nh3.ALLOWED_TAGS, "input"}
ALLOWED_ATTRIBUTES: dict[str, set[str]] = {
    **{tag: set(attrs) for tag, attrs in nh3.ALLOWED_ATTRIBUTES.items()},
    "a": {"href", "hreflang", "title", "class"},
    "img": {*nh3.ALLOWED_ATTRIBUTES["img"], "title"},
    "input": {"type", "checked", "disabled", "class"},
    "li": {"class"},
    "ul": {"class"},
    "ol": {"start", "class"},
    "code": {"class"},
    "table": {"class"},
    "th": {*nh3.ALLOWED_ATTRIBUTES["th"], "class", "style"},
    "td": {*nh3.ALLOWED_ATTRIBUTES["td"], "class", "style"},
}
URL_SCHEMES = {"http", "https", "mailto"}


@dataclass(frozen=True)
class MarkupRequest:
    """A ``MarkupOption`` or ``MarkdownOption`` once read: ``mode`` already ``wiki`` when ``Wiki`` was set."""

    text: str
    mode: str
    context: str
    file_path: str


# -- options ---------------------------------------------------------------------------------------


def _folded(body: Mapping[str, Any]) -> dict[str, Any]:
    """Keys matched case-insensitively, as Go's JSON decoder matches ``Text``, ``Mode``, ``FilePath``..."""
    folded: dict[str, Any] = {}
    for key, value in body.items():
        folded.setdefault(key.lower(), value)
    return folded


def _string(options: Mapping[str, Any], key: str, field: str) -> str:
    value = options.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Unprocessable(f"[{field}]: must be a string")
    return value


def _wiki(options: Mapping[str, Any]) -> bool:
    value = options.get("wiki")
    if value is None:
        return False
    if not isinstance(value, bool):
        raise Unprocessable("[Wiki]: must be a boolean")
    return value


def parse_markup_option(body: Mapping[str, Any]) -> MarkupRequest:
    """``MarkupOption {Text, Mode, Context, FilePath, Wiki}`` (``file_path`` is accepted as well)."""
    options = _folded(body)
    file_path = _string(options, "filepath", "FilePath") or _string(options, "file_path", "FilePath")
    mode = "wiki" if _wiki(options) else _string(options, "mode", "Mode")
    return MarkupRequest(_string(options, "text", "Text"), mode, _string(options, "context", "Context"), file_path)


def parse_markdown_option(body: Mapping[str, Any]) -> MarkupRequest:
    """``MarkdownOption {Text, Mode, Context, Wiki}``: no file path, so mode ``file`` has nothing to pick from."""
    options = _folded(body)
    mode = "wiki" if _wiki(options) else _string(options, "mode", "Mode")
    return MarkupRequest(_string(options, "text", "Text"), mode, _string(options, "context", "Context"), "")


# -- Markdown --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Links:
    """How the comment rule links: the issue URL prefix (None: no repository) and the link base."""

    issues: str | None
    mentions: bool
    base: str


def _link(href: str, text: str, css: str) -> list[Token]:
    opening = Token("link_open", "a", 1, attrs={"href": href, "class": css})
    label = Token("text", "", 0, content=text)
    return [opening, label, Token("link_close", "a", -1)]


def _reference_tokens(text: str, links: _Links) -> list[Token]:
    """A text run with ``#N`` and ``@name`` turned into links (a name only when the account exists)."""
    pattern = re.compile(f"{ISSUE_REF.pattern}|{MENTION.pattern}")
    out: list[Token] = []
    position = 0
    for match in pattern.finditer(text):
        issue, name = match.group(1), match.group(2)
        if issue is not None and links.issues is not None:
            link = _link(f"{links.issues}{issue}", match.group(0), "ref-issue")
        elif name is not None and links.mentions and users.find_account(name) is not None:
            link = _link(forge().url(quote(name)), match.group(0), "mention")
        else:
            continue
        if match.start() > position:
            out.append(Token("text", "", 0, content=text[position : match.start()]))
        out += link
        position = match.end()
    if position < len(text):
        out.append(Token("text", "", 0, content=text[position:]))
    return out


def _resolve(url: str, base: str) -> str:
    if not base or not url or url.startswith(("/", "#", "?")) or SCHEME.match(url):
        return url
    return base + url


def _rewrite(state: StateCore) -> None:
    """Resolve relative links and images against the context; in comments, link references and mentions."""
    links: _Links = state.env["links"]
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        in_link = 0
        for token in block.children:
            if token.type == "link_open":
                in_link += 1
                token.attrSet("href", _resolve(str(token.attrGet("href") or ""), links.base))
            elif token.type == "link_close":
                in_link -= 1
            elif token.type == "image":
                token.attrSet("src", _resolve(str(token.attrGet("src") or ""), links.base))
            elif token.type == "text" and not in_link and (links.issues is not None or links.mentions):
                children += _reference_tokens(token.content, links)
                continue
            children.append(token)
        block.children = children


def _markdown(*, breaks: bool) -> MarkdownIt:
    """CommonMark with GitHub's tables, strikethrough, autolinks and task lists; raw HTML is let through
    to the sanitiser (as Gitea does), which keeps only the safe part."""
    md = MarkdownIt("gfm-like", {"breaks": breaks, "html": True}).use(tasklists_plugin)
    md.core.ruler.push("forge_links", _rewrite)
    md.add_render_rule("s_open", lambda *_: "<del>")  # GitHub and Gitea write strikethrough as <del>
    md.add_render_rule("s_close", lambda *_: "</del>")
    return md


def render_markdown(text: str, links: _Links, *, breaks: bool = False) -> str:
    """Markdown as (unsanitised) HTML, references linked as ``links`` says."""
    html: str = _markdown(breaks=breaks).render(text, {"links": links})
    return html


def _markdown_file(text: str, context: RenderContext) -> str:
    return render_markdown(text, _Links(None, False, context.link_base))


register_renderer(MARKDOWN_EXTENSIONS, _markdown_file)


# -- rendering -------------------------------------------------------------------------------------


def _context_repo(context: str, repo: repos.Repo | None, viewer: Principal | None) -> tuple[repos.Repo | None, str]:
    """The repository the request is about (the route's, else the first two segments of ``Context``, when
    the caller can read it) and the context path (``owner/repo/...``, without the instance's base)."""
    path = context.strip()
    site = forge().url("")
    if path.startswith(site):
        path = path[len(site) :]
    elif SCHEME.match(path):
        path = urlsplit(path).path
    path = "/".join(part for part in path.split("/") if part and part not in (".", ".."))
    if repo is not None:
        return repo, path or f"{repo.owner_name}/{repo.name}"
    parts = path.split("/")
    if len(parts) < 2:
        return None, path
    try:
        found = repos.get_repo(parts[0], parts[1])
    except RepoNotFound:
        return None, path
    return (found if permission(viewer, found).can_read else None), path


def sanitize(html_text: str) -> str:
    """Keep only safe markup: no script, style or event handlers, no ``javascript:`` or ``data:`` URLs."""
    return nh3.clean(
        html_text,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="nofollow noopener",
    )


def render(request: MarkupRequest, *, repo: repos.Repo | None, viewer: Principal | None) -> str:
    """The sanitised HTML of the request; 422 ``Unknown mode: x`` or ``unsupported file to render: "p"``."""
    mode = request.mode
    if mode not in MODES:
        raise UnknownMode(f"Unknown mode: {mode}")
    context_repo, path = _context_repo(request.context, repo, viewer)
    base = forge().url(quote(path)) + "/" if path else ""
    if mode == "wiki" and context_repo is not None:
        base = forge().url(f"{quote(context_repo.owner_name)}/{quote(context_repo.name)}/wiki/")
    if mode == "file":
        renderer = renderer_for(request.file_path)
        if renderer is None:
            raise UnsupportedFile(f'unsupported file to render: "{request.file_path}"')
        return sanitize(renderer(request.text, RenderContext(request.file_path, base)))
    if mode == "comment":
        issues = None
        if context_repo is not None:
            issues = forge().url(f"{quote(context_repo.owner_name)}/{quote(context_repo.name)}/issues/")
        return sanitize(render_markdown(request.text, _Links(issues, True, base), breaks=True))
    return sanitize(render_markdown(request.text, _Links(None, False, base)))
