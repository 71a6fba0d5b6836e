"""Renderers picked by file extension for the ``file`` mode: a small registry, with Markdown and CSV/TSV
(Gitea's built-in ``markdown`` and ``csv`` renderers) registered at import.

A renderer turns a file's text into HTML; its output is sanitised afterwards by the caller, so a renderer
need not be trusted to escape everything (though the built-in ones do).
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

__all__ = [
    "RenderContext",
    "Renderer",
    "register_renderer",
    "registered_extensions",
    "renderer_for",
]


@dataclass(frozen=True)
class RenderContext:
    """What a renderer may use besides the text: the file's path and the base URL that relative links
    resolve against ("" when no repository context was given)."""

    file_path: str = ""
    link_base: str = ""


Renderer = Callable[[str, RenderContext], str]

_RENDERERS: dict[str, Renderer] = {}


def register_renderer(extensions: Iterable[str], renderer: Renderer) -> None:
    """Make ``renderer`` render files whose name ends in one of ``extensions`` (``.md``; case-insensitive).
    A later registration of the same extension replaces the earlier one."""
    for extension in extensions:
        if not extension.startswith(".") or len(extension) < 2:
            raise ValueError(f"an extension starts with a dot: {extension!r}")
        _RENDERERS[extension.lower()] = renderer


def renderer_for(file_path: str) -> Renderer | None:
    """The renderer of the path's extension, or None when none is registered."""
    suffix = PurePosixPath(file_path).suffix.lower()
    return _RENDERERS.get(suffix) if suffix else None


def registered_extensions() -> list[str]:
    """Every extension with a renderer, sorted."""
    return sorted(_RENDERERS)


def render_csv(text: str, context: RenderContext) -> str:
    """Gitea's CSV renderer: a ``data-table`` whose first row is the header, each row led by its line number;
    ``.tsv`` files are split on tabs."""
    delimiter = "\t" if context.file_path.lower().endswith(".tsv") else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    out = ['<table class="data-table">']
    for number, row in enumerate(rows, start=1):
        cell = "th" if number == 1 else "td"
        cells = "".join(f"<{cell}>{html.escape(value)}</{cell}>" for value in row)
        out.append(f'<tr><{cell} class="line-num">{number}</{cell}>{cells}</tr>')
    out.append("</table>")
    return "\n".join(out) + "\n"


register_renderer((".csv", ".tsv"), render_csv)
