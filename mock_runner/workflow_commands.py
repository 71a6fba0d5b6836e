"""Workflow commands, one parser for scripts and actions: the ``GITHUB_*`` command files and ``::cmd::`` lines.

A step gets fresh ``GITHUB_OUTPUT``/``GITHUB_ENV``/``GITHUB_PATH``/``GITHUB_STATE``/``GITHUB_STEP_SUMMARY``
files; once it ends, what it wrote becomes its outputs, the environment and PATH of the later steps, and
the ``STATE_*`` variables of the action's later phases (pre → main → post), as the runner does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .jobenv import JobRuntime, StepError

__all__ = ["COMMAND_FILES", "CommandFiles", "LineCommands", "StepEffects", "parse_command_file"]

COMMAND_FILES = ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY")


def parse_command_file(path: Path) -> dict[str, str]:
    """Read a ``GITHUB_OUTPUT``/``GITHUB_ENV`` file: ``name=value`` lines and ``name<<DELIM`` blocks."""
    if not path.exists():
        return {}
    values: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    position = 0
    while position < len(lines):
        line = lines[position]
        position += 1
        if not line.strip():
            continue
        equals, heredoc = line.find("="), line.find("<<")
        if heredoc > 0 and (equals < 0 or heredoc < equals):
            name, delimiter = line[:heredoc], line[heredoc + 2 :]
            block: list[str] = []
            while position < len(lines) and lines[position] != delimiter:
                block.append(lines[position])
                position += 1
            if position >= len(lines):
                raise StepError(f"{path.name}: no closing {delimiter!r} for {name!r}")
            position += 1
            values[name] = "\n".join(block)
        elif equals > 0:
            values[line[:equals]] = line[equals + 1 :]
        else:
            raise StepError(f"{path.name}: cannot read line {line[:80]!r} (expected name=value or name<<DELIMITER)")
    return values


@dataclass
class CommandFiles:
    """The five command files of one step (or one phase of an action), made empty in the job's temp."""

    paths: dict[str, Path]

    @classmethod
    def create(cls, temp: Path, tag: str) -> CommandFiles:
        paths = {name: temp / f"{name.lower()}_{tag}" for name in COMMAND_FILES}
        for path in paths.values():
            path.write_bytes(b"")
        return cls(paths)

    def export(self, env: dict[str, str]) -> None:
        """Name the files in the step's environment."""
        env.update({name: str(path) for name, path in self.paths.items()})

    def outputs(self) -> dict[str, str]:
        return parse_command_file(self.paths["GITHUB_OUTPUT"])

    def state(self) -> dict[str, str]:
        return parse_command_file(self.paths["GITHUB_STATE"])


@dataclass
class StepEffects:
    """What steps pass on to the later steps of the job: ``GITHUB_ENV`` variables and ``GITHUB_PATH`` entries."""

    env: dict[str, str] = field(default_factory=dict)
    path: list[str] = field(default_factory=list)

    def absorb(self, files: CommandFiles) -> None:
        """Take the environment and PATH a finished step wrote."""
        self.env.update(parse_command_file(files.paths["GITHUB_ENV"]))
        text = files.paths["GITHUB_PATH"].read_text(encoding="utf-8", errors="replace")
        self.path.extend(line.strip() for line in text.splitlines() if line.strip())

    def apply_path(self, env: dict[str, str]) -> None:
        """Prepend the added PATH entries, the latest first, as the runner does."""
        if self.path:
            env["PATH"] = os.pathsep.join([*reversed(self.path), env.get("PATH", "")])


@dataclass
class LineCommands:
    """The ``::cmd::`` lines of one process: masks, legacy ``set-output``/``save-state``, ``stop-commands``."""

    runtime: JobRuntime
    outputs: dict[str, str] = field(default_factory=dict)
    state: dict[str, str] = field(default_factory=dict)
    stopped_by: str = ""

    def handle(self, line: str) -> str | None:
        """Apply one output line; the text to log, None to drop it (``::debug::`` unless step debug is on)."""
        if self.stopped_by:
            if line == f"::{self.stopped_by}::":
                self.stopped_by = ""
            return line
        if not line.startswith("::"):
            return line
        name, _, rest = line[2:].partition("::")
        command, _, properties = name.partition(" ")
        if command == "debug" and not self.runtime.step_debug:
            return None
        if command == "add-mask":
            if rest:
                self.runtime.masker.add(rest)
            return "::add-mask::***"
        if command == "stop-commands" and rest:
            self.stopped_by = rest
            self.runtime.masker.add(rest)
            return None
        if command in ("set-output", "save-state") and properties.startswith("name="):
            target = self.outputs if command == "set-output" else self.state
            target[properties[len("name=") :]] = rest
        return line
