"""Markup rendering over REST (Gitea 1.27): ``/markup``, ``/markdown``, ``/markdown/raw``, globally or
under a repository (``repo`` is ``(owner, name)``); every answer is HTML text."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["MarkupApi"]


class MarkupApi(ApiArea):
    """Render text as HTML the way the forge shows it."""

    def _root(self, repo: tuple[str, str] | None) -> str:
        return f"repos/{quote_path(repo[0])}/{quote_path(repo[1])}/" if repo else ""

    def markup(self, option: dict[str, Any], repo: tuple[str, str] | None = None) -> requests.Response:
        """``POST [/repos/{o}/{r}]/markup`` with a ``MarkupOption`` (``Text``, ``Mode``, ``Context``, ``FilePath``)."""
        return self.http.post(self._root(repo) + "markup", json=option)

    def markdown(self, option: dict[str, Any], repo: tuple[str, str] | None = None) -> requests.Response:
        """``POST [/repos/{o}/{r}]/markdown`` with a ``MarkdownOption`` (``Text``, ``Mode``, ``Context``, ``Wiki``)."""
        return self.http.post(self._root(repo) + "markdown", json=option)

    def markdown_raw(self, text: str, repo: tuple[str, str] | None = None) -> requests.Response:
        """``POST [/repos/{o}/{r}]/markdown/raw`` with the Markdown as a ``text/plain`` body."""
        headers = {"Content-Type": "text/plain; charset=utf-8"}
        return self.http.post(self._root(repo) + "markdown/raw", data=text.encode(), headers=headers)
