"""Gitea's ``Artifact`` as the REST API shows it; above the models, which never render."""

from __future__ import annotations

from urllib.parse import quote

from ..context import forge
from ..timefmt import iso
from .models import digest_of, is_expired
from .store import ArtifactRow

__all__ = ["artifact_to_api"]


def artifact_to_api(row: ArtifactRow, owner: str, repo: str, head_sha: str) -> dict[str, object]:
    """Gitea's ``ActionArtifact`` for REST answers, with GitHub's ``digest`` (null when none is known)."""
    url = forge().api_url(f"repos/{quote(owner, safe='')}/{quote(repo, safe='')}/actions/artifacts/{row.id}")
    return {
        "id": row.id,
        "name": row.name,
        "size_in_bytes": row.size,
        "url": url,
        "archive_download_url": url + "/zip",
        "expired": is_expired(row, forge().now()),
        "workflow_run": {"id": row.run_id, "repository_id": row.repo_id, "head_sha": head_sha},
        "created_at": iso(row.created),
        "updated_at": iso(row.updated),
        "expires_at": iso(row.expires),
        "digest": digest_of(row) if row.sha256 else None,
    }
