"""act_runner's ``.runner`` registration file, and its label syntax ``name[:schema[:arg]]``."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_RUNNER_FILE", "WARNING_TEXT", "Label", "RunnerFile", "RunnerFileError", "parse_label"]

DEFAULT_RUNNER_FILE = ".runner"
WARNING_TEXT = (
    "Written by mock-runner at registration, in act_runner's format. Edit it only if you know what you are "
    "doing: without it the runner must register again and becomes a new runner."
)
SCHEMAS = ("host", "docker")


class RunnerFileError(Exception):
    """The ``.runner`` file is missing, unreadable or not in act_runner's format."""


@dataclass(frozen=True)
class Label:
    """One runner label: the name the server matches ``runs-on`` against, and how jobs would run."""

    name: str
    schema: str = "host"
    arg: str = ""


def parse_label(text: str) -> Label:
    """Parse ``name[:schema[:arg]]`` (act_runner's syntax); the schema defaults to ``host``."""
    name, _, rest = text.strip().partition(":")
    schema, _, arg = rest.partition(":")
    if not name:
        raise ValueError(f"label {text!r} has no name")
    schema = schema or "host"
    if schema not in SCHEMAS:
        raise ValueError(f"label {text!r}: unknown schema {schema!r} (use host or docker)")
    return Label(name=name, schema=schema, arg=arg)


@dataclass
class RunnerFile:
    """What ``register`` learned: the runner's identity and credentials, and the instance it belongs to."""

    id: int
    uuid: str
    name: str
    token: str
    address: str
    labels: list[str] = field(default_factory=list)
    ephemeral: bool = False
    warning: str = WARNING_TEXT

    @property
    def label_names(self) -> list[str]:
        """The names sent in Register and Declare (the server only knows names)."""
        return [parse_label(label).name for label in self.labels]

    def to_json(self) -> dict[str, Any]:
        """The JSON object in act_runner's key order."""
        return {
            "WARNING": self.warning,
            "id": self.id,
            "uuid": self.uuid,
            "name": self.name,
            "token": self.token,
            "address": self.address,
            "labels": list(self.labels),
            "ephemeral": self.ephemeral,
        }

    @classmethod
    def load(cls, path: str | Path) -> RunnerFile:
        """Read a ``.runner`` file written by mock-runner or act_runner."""
        file = Path(path)
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise RunnerFileError(f"{file}: no such runner file; run `mock-runner register` first") from exc
        except (OSError, ValueError) as exc:
            raise RunnerFileError(f"{file}: cannot read the runner file: {exc}") from exc
        if not isinstance(data, dict):
            raise RunnerFileError(f"{file}: not a runner file (expected a JSON object)")
        missing = [key for key in ("uuid", "token", "address") if not isinstance(data.get(key), str) or not data[key]]
        if missing:
            raise RunnerFileError(f"{file}: not a runner file (missing {', '.join(missing)})")
        labels = data.get("labels") or []
        if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
            raise RunnerFileError(f"{file}: 'labels' must be a list of strings")
        for label in labels:
            try:
                parse_label(label)
            except ValueError as exc:
                raise RunnerFileError(f"{file}: {exc}") from exc
        runner_id = data.get("id", 0)
        if not isinstance(runner_id, int):
            raise RunnerFileError(f"{file}: 'id' must be an integer")
        return cls(
            id=runner_id,
            uuid=data["uuid"],
            name=str(data.get("name", "")),
            token=data["token"],
            address=data["address"],
            labels=list(labels),
            ephemeral=bool(data.get("ephemeral", False)),
            warning=str(data.get("WARNING", WARNING_TEXT)),
        )

    def save(self, path: str | Path) -> None:
        """Write the file with a 2-space indent and mode 0600 (it holds a credential), atomically."""
        file = Path(path)
        tmp = file.with_name(f".{file.name}.{os.getpid()}.tmp")
        text = json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            tmp.chmod(0o600)
            tmp.replace(file)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
