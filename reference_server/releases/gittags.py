"""A repository's Git tags read and written with as few ``git`` processes as possible.

Listing reads every tag with its object, its target commit, its date and its message in one
``for-each-ref`` (sorted as Gitea sorts them, newest tagged first); an annotated tag's object is read
with one ``cat-file``. Writing goes through the branches family's ref choke point (protection,
compare-and-swap, push events); an annotated tag's object is written first by one ``mktag``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..gitcli import Git, Identity

__all__ = ["AnnotatedTag", "TagInfo", "annotated_tag", "list_tags", "tag_named", "write_tag_object"]

_FORMAT = (
    "%00".join(
        (
            "%(refname)",
            "%(objectname)",
            "%(objecttype)",
            "%(*objectname)",
            "%(creatordate:unix)",
            "%(contents)",
        )
    )
    + "%00"
)
_FIELDS = 6
_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")
_TAGGER = re.compile(r"^(.*?) ?<([^>]*)> (\d+)(?: [+-]\d{4})?$")


@dataclass(frozen=True)
class TagInfo:
    """One tag: ``id`` is the tag object (or the commit of a lightweight tag), ``commit`` what it names."""

    name: str
    id: str
    commit: str
    annotated: bool
    created: int
    message: str


@dataclass(frozen=True)
class AnnotatedTag:
    """A tag object: its name, target, tagger and message."""

    sha: str
    name: str
    object: str
    object_type: str
    tagger: Identity
    message: str


def _parse(output: str) -> list[TagInfo]:
    parts = output.split("\x00")
    tags: list[TagInfo] = []
    for start in range(0, len(parts) - _FIELDS + 1, _FIELDS):
        ref, sha, kind, peeled, created, message = parts[start : start + _FIELDS]
        ref = ref.lstrip("\n")
        tags.append(
            TagInfo(
                name=ref.removeprefix("refs/tags/"),
                id=sha,
                commit=peeled or sha,
                annotated=kind == "tag",
                created=int(created or 0),
                message=message,
            )
        )
    return tags


def list_tags(git: Git, name: str | None = None) -> list[TagInfo]:
    """Every tag (or only ``name``), newest tagged first as Gitea sorts them (``-*creatordate``)."""
    pattern = f"refs/tags/{name}" if name is not None else "refs/tags/"
    completed = git.run("for-each-ref", "--sort=-*creatordate", f"--format={_FORMAT}", pattern, check=False)
    if completed.returncode != 0:
        return []
    tags = _parse(completed.stdout.decode("utf-8", "replace"))
    return [tag for tag in tags if tag.name == name] if name is not None else tags


def tag_named(git: Git, name: str) -> TagInfo | None:
    """The tag called ``name`` exactly, or None."""
    if not name or name.startswith("-") or "\x00" in name or "\n" in name:
        return None
    found = list_tags(git, name)
    return found[0] if found else None


def _identity(line: str) -> Identity:
    match = _TAGGER.match(line)
    if match is None:
        return Identity("", "", 0)
    return Identity(match.group(1), match.group(2), int(match.group(3)))


def annotated_tag(git: Git, sha: str) -> AnnotatedTag | None:
    """The tag object ``sha`` (a full object name), or None when it is no tag object."""
    if not _SHA.match(sha):
        return None
    out = git.run("cat-file", "--batch", input_bytes=sha.encode() + b"\n", check=False).stdout
    header, _, rest = out.partition(b"\n")
    fields = header.decode("utf-8", "replace").split(" ")
    if len(fields) != 3 or fields[1] != "tag":
        return None
    text = rest[: int(fields[2])].decode("utf-8", "replace")
    head, _, message = text.partition("\n\n")
    values: dict[str, str] = {}
    for line in head.splitlines():
        key, _, value = line.partition(" ")
        values.setdefault(key, value)
    return AnnotatedTag(
        sha=sha,
        name=values.get("tag", ""),
        object=values.get("object", ""),
        object_type=values.get("type", ""),
        tagger=_identity(values.get("tagger", "")),
        message=message,
    )


def write_tag_object(git: Git, *, name: str, commit: str, tagger: Identity, message: str) -> str:
    """Write an annotated tag object for ``commit`` (not yet referenced) and return its SHA."""
    clean_name = re.sub(r"[<>\n]", "", tagger.name).strip()
    clean_email = re.sub(r"[<>\n]", "", tagger.email).strip()
    who = f"{clean_name} " if clean_name else ""
    body = message if message.endswith("\n") else message + "\n"
    text = f"object {commit}\ntype commit\ntag {name}\ntagger {who}<{clean_email}> {tagger.time} +0000\n\n{body}"
    return git.run("mktag", input_bytes=text.encode("utf-8")).stdout.decode().strip()
