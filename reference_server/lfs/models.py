"""LFS objects: the batch answer, uploads verified while they stream, downloads, and who may do what.

An object's bytes are kept once per oid in the blob store (``lfs/<aa>/<bb>/<oid>``) and linked to every
repository that received it; a repository only serves objects linked to it. Batch actions carry a short-lived
``Authorization`` header (an LFS transfer token signed by the instance) bound to the repository and operation,
so the transfer requests need no other credential.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal
from urllib.parse import quote

from ..auth import Principal, has_scope, optional_principal
from ..context import forge, now_seconds
from ..deploy_tokens import models as deploy_tokens
from ..events import RepoDeletedEvent
from ..permissions import RepoBinding, bind_request, current_deploy_token, git_permission
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from ..rest import decode_json
from ..signing import UrlCheck
from ..timefmt import iso
from . import store
from .errors import LfsAccessDenied, LfsBadRequest, LfsNotFound, LfsScopeDenied, LfsTooLarge, LfsUnprocessable
from .pointers import parse_pointer

__all__ = [
    "MEDIA_TYPE",
    "TRANSFER_LIFETIME",
    "Pointer",
    "authorize",
    "batch",
    "blob_key",
    "lfs_principal_for_token",
    "media_file",
    "object_path",
    "on_repo_deleted",
    "pointed_object",
    "receive_object",
    "transfer_principal",
    "verify_object",
]

MEDIA_TYPE = "application/vnd.git-lfs+json"
TRANSFER_LIFETIME = 900
"""Seconds a batch action's authorization header stays valid."""
TRANSFER_PREFIX = "lfs."
_OID = re.compile(r"^[0-9a-f]{64}$")
CHUNK = 1024 * 1024
Operation = Literal["upload", "download"]


@dataclass(frozen=True)
class Pointer:
    """An LFS object: its SHA-256 (lower-case hex) and size in bytes."""

    oid: str
    size: int

    @property
    def valid(self) -> bool:
        return bool(_OID.match(self.oid)) and self.size >= 0


def blob_key(oid: str) -> str:
    """Where an object's bytes live in the blob store."""
    return f"lfs/{oid[:2]}/{oid[2:4]}/{oid}"


def _pointer(raw: object) -> Pointer:
    if not isinstance(raw, Mapping):
        return Pointer("", -1)
    oid, size = raw.get("oid"), raw.get("size")
    if not isinstance(oid, str) or isinstance(size, bool) or not isinstance(size, int):
        return Pointer(oid if isinstance(oid, str) else "", -1)
    return Pointer(oid, size)


# -- access ----------------------------------------------------------------------------------------


def authorize(owner: str, name: str, *, write: bool) -> repos.Repo:
    """The repository when the caller may read (or write) its LFS objects: 404 when it does not exist, 401
    with a challenge when the credentials are missing or not enough (as Gitea), 403 for a token lacking scope."""
    principal = optional_principal()
    try:
        repo = repos.get_repo(owner, name)
    except RepoNotFound:
        raise LfsNotFound("Repository or object not found") from None
    if principal is not None and not has_scope(principal, "repository", write):
        level = "write" if write else "read"
        raise LfsScopeDenied(f"token does not have at least one of required scope(s), required=[{level}:repository]")
    allowed = git_permission(principal, repo)
    if not allowed.can_read or (write and not allowed.can_write):
        raise LfsAccessDenied("You must have push access to this repository" if write else "Unauthorized")
    return repo


# -- transfer tokens -------------------------------------------------------------------------------


def _transfer_token(repo: repos.Repo, operation: Operation, principal: Principal) -> tuple[str, int]:
    """A signed token for the actions of one batch answer, and when it expires."""
    deploy_token = current_deploy_token()
    params = {
        "repo": str(repo.id),
        "op": operation,
        "uid": str(principal.user_id),
        "user": principal.username,
        "adm": "1" if principal.is_admin else "0",
        "dk": str(deploy_token.id if deploy_token is not None else 0),
    }
    signed = forge().signer.sign("lfs-transfer", params, now=forge().now(), lifetime=TRANSFER_LIFETIME)
    raw = json.dumps(signed, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return TRANSFER_PREFIX + base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii"), int(signed["expires"])


def _decode_transfer(token: str) -> dict[str, str] | None:
    encoded = token[len(TRANSFER_PREFIX) :]
    try:
        claims = decode_json(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
    except (binascii.Error, ValueError):
        return None
    if not isinstance(claims, dict) or not all(isinstance(v, str) for v in claims.values()):
        return None
    needed = ("repo", "op", "uid", "user", "adm", "dk")
    if not all(k in claims for k in needed) or not all(claims[k].lstrip("-").isdigit() for k in ("repo", "uid", "dk")):
        return None
    return claims


def transfer_principal(token: str) -> Principal | None:
    """The caller an LFS transfer token stands for (bound to its repository and operation for this request),
    or None when it is not one, is forged or expired, or its deploy token is gone."""
    if not token.startswith(TRANSFER_PREFIX) or len(token) > 2048:
        return None
    claims = _decode_transfer(token)
    if claims is None or forge().signer.check("lfs-transfer", claims, now=forge().now()) is not UrlCheck.OK:
        return None
    writable = claims["op"] == "upload"
    scope = "write:repository" if writable else "read:repository"
    deploy_token = None
    if claims["dk"] != "0":
        deploy_token = deploy_tokens.token_by_id(int(claims["dk"]))
        if deploy_token is None or deploy_token.repo_id != int(claims["repo"]):
            return None
        writable = writable and not deploy_token.read_only
    bind_request(RepoBinding(int(claims["repo"]), writable, deploy_token))
    return Principal(int(claims["uid"]), claims["user"], claims["adm"] == "1", frozenset({scope}))


def lfs_principal_for_token(token: str) -> Principal | None:
    """Credentials of an LFS request: those of a Git request, else an LFS transfer token handed out by a
    batch answer (bound to its repository and operation)."""
    principal = deploy_tokens.git_principal_for_token(token)
    if principal is not None:
        return principal
    return transfer_principal(token)


# -- batch -----------------------------------------------------------------------------------------


def _object_url(repo: repos.Repo, suffix: str) -> str:
    return forge().url(f"{quote(repo.owner_name)}/{quote(repo.name)}.git/info/lfs/{suffix}")


def _object_answer(repo: repos.Repo, pointer: Pointer, operation: Operation, auth: Mapping[str, Any]) -> dict[str, Any]:
    """One object of the batch answer: actions to take, none (already uploaded), or an error."""
    answer: dict[str, Any] = {"oid": pointer.oid, "size": pointer.size}
    if not pointer.valid:
        answer["error"] = {"code": 422, "message": "Oid or size are invalid"}
        return answer
    limit = forge().config.limits.max_request_body_bytes
    linked = store.meta_object(repo.id, pointer.oid)
    if operation == "download":
        if linked is None or not forge().blobs.exists(blob_key(pointer.oid)):
            answer["error"] = {"code": 404, "message": "Object does not exist"}
        elif linked["size"] != pointer.size:
            answer["error"] = {"code": 422, "message": "Object size does not match"}
        else:
            answer["authenticated"] = True
            answer["actions"] = {"download": {"href": _object_url(repo, f"objects/{pointer.oid}"), **auth}}
        return answer
    if pointer.size > limit:
        answer["error"] = {"code": 422, "message": f"Size must be less than or equal to {limit}"}
        return answer
    if linked is not None and linked["size"] == pointer.size and forge().blobs.exists(blob_key(pointer.oid)):
        return answer
    verify_header = {**auth["header"], "Accept": MEDIA_TYPE}
    answer["authenticated"] = True
    answer["actions"] = {
        "upload": {"href": _object_url(repo, f"objects/{pointer.oid}/{pointer.size}"), **auth},
        "verify": {**auth, "href": _object_url(repo, "verify"), "header": verify_header},
    }
    return answer


def batch_operation(request: Mapping[str, Any]) -> Operation:
    """The operation of a batch request (422 unless upload or download); checked before access so an upload
    needs write access."""
    operation = request.get("operation")
    if operation not in ("upload", "download"):
        raise LfsUnprocessable("operation must be upload or download")
    return "upload" if operation == "upload" else "download"


def batch(repo: repos.Repo, request: Mapping[str, Any], principal: Principal | None) -> dict[str, Any]:
    """Gitea's batch answer over basic transfers for ``request`` (operation already authorized)."""
    operation = batch_operation(request)
    transfers = request.get("transfers")
    if transfers is not None and (not isinstance(transfers, list) or (transfers and "basic" not in transfers)):
        raise LfsUnprocessable("only the basic transfer adapter is supported")
    hash_algo = request.get("hash_algo")
    if hash_algo not in (None, "", "sha256"):
        raise LfsUnprocessable("unsupported hash algorithm, only sha256 is supported")
    objects = request.get("objects")
    if not isinstance(objects, list):
        raise LfsUnprocessable("objects must be a list")
    auth: dict[str, Any] = {"header": {}}
    if principal is not None:
        token, expires = _transfer_token(repo, operation, principal)
        auth = {
            "header": {"Authorization": f"Bearer {token}"},
            "expires_in": TRANSFER_LIFETIME,
            "expires_at": iso(expires),
        }
    answers = [_object_answer(repo, _pointer(raw), operation, auth) for raw in objects]
    return {"transfer": "basic", "objects": answers, "hash_algo": "sha256"}


# -- transfers -------------------------------------------------------------------------------------


def _path_pointer(oid: str, size: str) -> Pointer:
    pointer = Pointer(oid, int(size) if size.isdigit() and len(size) < 19 else -1)
    if not pointer.valid:
        raise LfsUnprocessable("Oid or size are invalid")
    return pointer


def _verified(stream: IO[bytes], pointer: Pointer) -> Iterator[bytes]:
    """The body's chunks; raises (so the blob store keeps nothing) once it is longer than announced, and at
    its end when the size or the SHA-256 differ."""
    digest = hashlib.sha256()
    size = 0
    while piece := stream.read(CHUNK):
        size += len(piece)
        if size > pointer.size:
            raise LfsUnprocessable("content size does not match")
        digest.update(piece)
        yield piece
    if size != pointer.size:
        raise LfsUnprocessable("content size does not match")
    if digest.hexdigest() != pointer.oid:
        raise LfsUnprocessable("content hash does not match OID")


def receive_object(repo: repos.Repo, oid: str, size: str, stream: IO[bytes]) -> None:
    """Store an uploaded object after checking its size and hash while it streams, then link it to ``repo``;
    a mismatch stores nothing (422)."""
    pointer = _path_pointer(oid, size)
    limit = forge().config.limits.max_request_body_bytes
    if pointer.size > limit:
        raise LfsTooLarge(f"Size must be less than or equal to {limit}")
    forge().blobs.write(blob_key(pointer.oid), _verified(stream, pointer))
    with forge().db.transaction():
        store.link_object(repo.id, pointer.oid, pointer.size, now_seconds())


def object_path(repo: repos.Repo, oid: str) -> tuple[Path, int]:
    """The file and size of an object linked to ``repo``; 404 otherwise."""
    linked = store.meta_object(repo.id, oid) if _OID.match(oid) else None
    if linked is None or not forge().blobs.exists(blob_key(oid)):
        raise LfsNotFound("Repository or object not found")
    return forge().blobs.path(blob_key(oid)), int(linked["size"])


def media_file(repo: repos.Repo, filepath: str, ref: str | None) -> tuple[Path | bytes, str]:
    """What ``GET /repos/{o}/{r}/media/{filepath}`` serves: the LFS object a pointer file names when this
    repository holds it, else the file's own bytes; and the file name. 404 for an unknown ref or file."""
    found = repo.git.resolve_ref(ref or repo.default_branch)
    raw = repo.git.read_blob(found[1], filepath) if found is not None else None
    if raw is None:
        raise LfsNotFound("file does not exist")
    name = filepath.rstrip("/").rsplit("/", 1)[-1]
    stored = pointed_object(repo, raw)
    return (raw if stored is None else stored), name


def pointed_object(repo: repos.Repo, raw: bytes) -> Path | None:
    """The stored LFS object a pointer file's bytes name when ``repo`` holds it with that size, else None
    (not a pointer, or an object this repository never received): the file is then served as it is."""
    pointer = parse_pointer(raw)
    if pointer is None:
        return None
    linked = store.meta_object(repo.id, pointer[0])
    if linked is not None and linked["size"] == pointer[1] and forge().blobs.exists(blob_key(pointer[0])):
        return forge().blobs.path(blob_key(pointer[0]))
    return None


def verify_object(repo: repos.Repo, body: Mapping[str, Any]) -> None:
    """The client's check after an upload: 404 when the object is not linked, 422 when the size differs."""
    pointer = _pointer(body)
    if not pointer.valid:
        raise LfsUnprocessable("Oid or size are invalid")
    _, size = object_path(repo, pointer.oid)
    if size != pointer.size:
        raise LfsUnprocessable("Object size does not match")


def parse_json(raw: bytes) -> dict[str, Any]:
    """A JSON object request body; 400 otherwise (Gitea answers a bad LFS body with 400)."""
    try:
        data = decode_json(raw) if raw.strip() else {}
    except ValueError:
        raise LfsBadRequest("the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise LfsBadRequest("the request body must be a JSON object")
    return data


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """Unlink a deleted repository's objects and locks; bytes no other repository links are removed."""
    with forge().db.transaction():
        oids = store.oids_of_repo(event.repo_id)
        store.delete_objects_of_repo(event.repo_id)
        store.delete_locks_of_repo(event.repo_id)
        orphans = [oid for oid in oids if not store.oid_referenced(oid)]
    for oid in orphans:
        forge().blobs.delete(blob_key(oid))
