"""Routes of a repository's wiki (Gitea's repoCreateWikiPage, repoGetWikiPage, repoEditWikiPage,
repoDeleteWikiPage, repoGetWikiPages, repoGetWikiPageRevisions): readers read, writers edit."""

from __future__ import annotations

from flask import Flask, Response, request

from ..access import token
from ..auth import current_principal
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..events import RepoDeletedEvent, RepoRenamedEvent
from ..permissions import current_repo
from ..repos import models as repos
from ..rest import empty, json_body, json_response
from . import models, paths
from .errors import WikiNotFound
from .presenters import wiki_commit_list_to_api, wiki_page_meta_to_api, wiki_page_to_api

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"
WIKI = API + "/repos/<owner>/<repo>/wiki"
DEFAULT_PAGING = 30


def _page_answer(repo: repos.Repo, web_path: str, status: int = 200) -> Response:
    page = models.page_file(repo, web_path)
    assert page is not None
    sidebar = models.page_file(repo, "_Sidebar", optional=True)
    footer = models.page_file(repo, "_Footer", optional=True)
    return json_response(wiki_page_to_api(repo, page, sidebar, footer), status=status)


def _int_arg(name: str) -> int:
    raw = request.args.get(name, "")
    return int(raw) if raw.lstrip("-").isdigit() else 0


def _raw_name(decoded: str) -> str:
    """The page name as the client spelled it in the path, still escaped (Gitea reads ``PathParamRaw``), so
    ``a%2Fb`` names the page ``a%2Fb`` and ``Home%20Page`` answers that ``sub_url``; a real slash names no
    page (Gitea's route has one segment there)."""
    uri = str(request.environ.get("REQUEST_URI") or request.environ.get("RAW_URI") or "")
    path = uri.split("?", 1)[0]
    for marker in ("/wiki/page/", "/wiki/revisions/"):
        at = path.rfind(marker)
        if at >= 0:
            raw = path[at + len(marker) :]
            if "/" in raw:
                raise WikiNotFound()
            return raw
    if "/" in decoded:
        raise WikiNotFound()
    return decoded


def repo_create_wiki_page(owner: str, repo: str) -> Response:
    """Add a page (writers); 201 with the WikiPage."""
    found = current_repo()
    web_path = models.create_page(found, current_principal(), json_body())
    return _page_answer(found, web_path, 201)


def repo_get_wiki_page(owner: str, repo: str, page_name: str) -> Response:
    """One page with its content, sidebar and footer."""
    return _page_answer(current_repo(), paths.web_path_from_request(_raw_name(page_name)))


def repo_edit_wiki_page(owner: str, repo: str, page_name: str) -> Response:
    """Change (and maybe rename) a page (writers)."""
    found = current_repo()
    web_path = models.edit_page(found, current_principal(), _raw_name(page_name), json_body())
    return _page_answer(found, web_path)


def repo_delete_wiki_page(owner: str, repo: str, page_name: str) -> Response:
    """Delete a page (writers); 204."""
    models.delete_page(current_repo(), current_principal(), _raw_name(page_name))
    return empty()


def repo_get_wiki_pages(owner: str, repo: str) -> Response:
    """The pages, paged over the wiki's root entries as Gitea pages them (a limit of 1 or less is the default)."""
    found = current_repo()
    page = max(_int_arg("page"), 1)
    limit = _int_arg("limit")
    if limit <= 1:
        limit = DEFAULT_PAGING
    pages, total = models.list_page_files(found, limit, (page - 1) * limit)
    response = json_response([wiki_page_meta_to_api(found, path, commit) for path, commit in pages])
    response.headers["X-Total-Count"] = str(total)
    response.headers["Access-Control-Expose-Headers"] = "X-Total-Count"
    return response


def repo_get_wiki_page_revisions(owner: str, repo: str, page_name: str) -> Response:
    """The commits that changed a page, 50 a page, with their count."""
    commits, count = models.page_revisions(current_repo(), _raw_name(page_name), _int_arg("page"))
    response = json_response(wiki_commit_list_to_api(commits, count))
    response.headers["X-Total-Count"] = str(count)
    response.headers["Access-Control-Expose-Headers"] = "X-Total-Count"
    return response


def _on_repo_deleted(event: RepoDeletedEvent) -> None:
    """The wiki goes with its repository (the event comes before the row goes)."""
    models.remove_wiki(repos.get_repo_by_id(event.repo_id).git_path)


def _on_repo_renamed(event: RepoRenamedEvent) -> None:
    owner_name = repos.get_repo_by_id(event.repo_id).owner_name
    models.move_wiki(repos.git_path_for(owner_name, event.old_name), repos.git_path_for(owner_name, event.new_name))


def register(app: Flask) -> None:
    """Keep the wiki beside its repository through deletion and renaming."""
    forge().events.subscribe(RepoDeletedEvent, _on_repo_deleted)
    forge().events.subscribe(RepoRenamedEvent, _on_repo_renamed)


_READ = token("repository", anonymous_read=True, repo="read")
_WRITE = token("repository", repo="write")

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        WIKI + "/new",
        "repoCreateWikiPage",
        repo_create_wiki_page,
        "repository",
        _WRITE,
        body="CreateWikiPageOptions",
        status=201,
        returns="wiki_page",
        errors=(400, 403, 404, 423),
    ),
    Endpoint(
        "GET",
        WIKI + "/page/<path:page_name>",
        "repoGetWikiPage",
        repo_get_wiki_page,
        "repository",
        _READ,
        returns="wiki_page",
        errors=(404,),
    ),
    Endpoint(
        "PATCH",
        WIKI + "/page/<path:page_name>",
        "repoEditWikiPage",
        repo_edit_wiki_page,
        "repository",
        _WRITE,
        body="CreateWikiPageOptions",
        returns="wiki_page",
        errors=(400, 403, 404, 423),
    ),
    Endpoint(
        "DELETE",
        WIKI + "/page/<path:page_name>",
        "repoDeleteWikiPage",
        repo_delete_wiki_page,
        "repository",
        _WRITE,
        status=204,
        returns=EMPTY,
        errors=(403, 404, 423),
    ),
    Endpoint(
        "GET",
        WIKI + "/pages",
        "repoGetWikiPages",
        repo_get_wiki_pages,
        "repository",
        _READ,
        returns="[wiki_page_meta_data]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        WIKI + "/revisions/<path:page_name>",
        "repoGetWikiPageRevisions",
        repo_get_wiki_page_revisions,
        "repository",
        _READ,
        returns="wiki_commit_list",
        errors=(404,),
    ),
)
