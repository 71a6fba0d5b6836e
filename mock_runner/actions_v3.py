"""``actions/upload-artifact@v3`` and ``actions/download-artifact@v3``, natively, over the legacy protocol.

The v3 actions keep each file's path relative to the search root (no zip: the protocol stores files), and
download one artifact into ``path`` or every artifact of the run into ``path/<name>``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from .archive import find_files, validate_artifact_name
from .artifacts_v3 import LegacyArtifactClient, LegacyFile
from .jobenv import JobRuntime, StepError
from .transport import TwirpCallError

__all__ = ["V3_BUILTINS", "download_artifact_v3", "upload_artifact_v3"]

Action = Callable[[dict[str, str], Mapping[str, str], JobRuntime], dict[str, str]]


def _client(env: Mapping[str, str]) -> LegacyArtifactClient:
    try:
        return LegacyArtifactClient.from_environment(dict(env))
    except ValueError as exc:
        raise StepError(f"the v3 artifact protocol is not available to this job: {exc}") from exc


def _retention(inputs: Mapping[str, str]) -> int:
    value = inputs.get("retention-days", "").strip()
    if not value:
        return 0
    if not value.isdigit() or not 1 <= int(value) <= 90:
        raise StepError(f"input 'retention-days' must be a whole number from 1 to 90, not {value!r}")
    return int(value)


def upload_artifact_v3(inputs: dict[str, str], env: Mapping[str, str], runtime: JobRuntime) -> dict[str, str]:
    """actions/upload-artifact@v3: the matched files, each under its path from the search root."""
    name = inputs.get("name") or "artifact"
    validate_artifact_name(name)
    if not inputs.get("path", "").strip():
        raise StepError("input 'path' is required")
    if_missing = (inputs.get("if-no-files-found") or "warn").strip().lower()
    if if_missing not in ("warn", "error", "ignore"):
        raise StepError(f"input 'if-no-files-found' must be warn, error or ignore, not {if_missing!r}")
    retention = _retention(inputs)
    search = find_files(inputs["path"], runtime.workspace, include_hidden=True)
    if not search.files:
        message = (
            f"No files were found with the provided path: {inputs['path'].strip()}. No artifacts will be uploaded."
        )
        if if_missing == "error":
            raise StepError(message)
        if if_missing == "warn":
            runtime.write(f"Warning: {message}")
        return {}
    files = [LegacyFile(search.archive_name(file), file) for file in search.files]
    try:
        result = _client(env).upload(name, files, retention)
    except TwirpCallError as exc:
        raise StepError(f"upload of artifact {name!r} (v3) failed: {exc}") from exc
    runtime.write(f"Artifact {name} uploaded (v3): {result.files} files, {result.size} bytes ({result.sent} sent)")
    return {}


def download_artifact_v3(inputs: dict[str, str], env: Mapping[str, str], runtime: JobRuntime) -> dict[str, str]:
    """actions/download-artifact@v3: one artifact into ``path``, or each of the run into ``path/<name>``."""
    relative = Path(inputs.get("path") or ".").expanduser()
    destination = relative if relative.is_absolute() else runtime.workspace / relative
    client = _client(env)
    name = inputs.get("name", "").strip()
    try:
        if name:
            written = client.download(name, destination)
            runtime.write(f"Artifact {name} downloaded (v3): {len(written)} files to {destination}")
        else:
            for artifact in client.list():
                written = client.download(artifact, destination / artifact)
                runtime.write(f"Artifact {artifact} downloaded (v3): {len(written)} files to {destination / artifact}")
    except TwirpCallError as exc:
        raise StepError(f"download failed (v3): {exc}") from exc
    return {"download-path": str(destination)}


V3_BUILTINS: dict[str, Action] = {
    "actions/upload-artifact": upload_artifact_v3,
    "actions/download-artifact": download_artifact_v3,
}
