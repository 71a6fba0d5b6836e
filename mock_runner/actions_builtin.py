"""The actions mock-runner runs natively when the actions instance has none: checkout, upload- and download-artifact
(v4, and v3 over the legacy protocol: :mod:`.actions_v3`).

Each takes the step's ``with:`` inputs and returns its outputs; a problem raises ``StepError`` with a
message for the job log. Any other ``uses:`` fails the step and says what is supported.
"""

from __future__ import annotations

import fnmatch
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .actions_v3 import V3_BUILTINS
from .archive import ZipStream, extract_zip, find_files, validate_artifact_name
from .artifacts import DigestMismatchError
from .checkout import checkout
from .jobenv import JobRuntime, StepError
from .transport import TwirpCallError

__all__ = ["BUILTINS", "run_builtin", "save_artifact"]

ZIP_TYPES = ("application/zip", "application/x-zip-compressed", "application/zip-compressed")

Action = Callable[[dict[str, str], Mapping[str, str], JobRuntime], dict[str, str]]
DIGEST_MISMATCH = ("ignore", "info", "warn", "error")
"""download-artifact's ``digest-mismatch`` values; ``error`` is the default, as since download-artifact v8."""


def _flag(inputs: Mapping[str, str], name: str, default: bool) -> bool:
    value = inputs.get(name, "").strip().lower()
    if not value:
        return default
    if value not in ("true", "false"):
        raise StepError(f"input {name!r} must be true or false, not {value!r}")
    return value == "true"


def _number(inputs: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    value = inputs.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError as exc:
        raise StepError(f"input {name!r} must be a whole number, not {value!r}") from exc
    if not low <= number <= high:
        raise StepError(f"input {name!r} must be between {low} and {high}, not {number}")
    return number


def _digest_mismatch(inputs: Mapping[str, str]) -> str:
    value = (inputs.get("digest-mismatch") or "error").strip().lower()
    if value not in DIGEST_MISMATCH:
        raise StepError(f"input 'digest-mismatch' must be one of {', '.join(DIGEST_MISMATCH)}, not {value!r}")
    return value


def upload_artifact(inputs: dict[str, str], env: Mapping[str, str], runtime: JobRuntime) -> dict[str, str]:
    """actions/upload-artifact@v4: zip the matched files (streaming) and upload them as one artifact."""
    name = inputs.get("name") or "artifact"
    validate_artifact_name(name)
    if not inputs.get("path", "").strip():
        raise StepError("input 'path' is required")
    if_missing = (inputs.get("if-no-files-found") or "warn").strip().lower()
    if if_missing not in ("warn", "error", "ignore"):
        raise StepError(f"input 'if-no-files-found' must be warn, error or ignore, not {if_missing!r}")
    retention = _number(inputs, "retention-days", 0, 0, 90)
    level = _number(inputs, "compression-level", 6, 0, 9)
    search = find_files(inputs["path"], runtime.workspace, include_hidden=_flag(inputs, "include-hidden-files", False))
    if not search.files:
        message = (
            f"No files were found with the provided path: {inputs['path'].strip()}. No artifacts will be uploaded."
        )
        if if_missing == "error":
            raise StepError(message)
        if if_missing == "warn":
            runtime.write(f"Warning: {message}")
        return {}
    runtime.write(f"With the provided path, there will be {len(search.files)} files uploaded (root {search.root})")
    client = runtime.artifact_client(env)
    if _flag(inputs, "overwrite", False):
        try:
            client.delete(name)
            runtime.write(f"Deleted the existing artifact {name!r} to overwrite it")
        except TwirpCallError as exc:
            if exc.code != "not_found":
                raise StepError(f"cannot delete the existing artifact {name!r}: {exc}") from exc
    expires_at = datetime.now(UTC) + timedelta(days=retention) if retention else None
    try:
        with ZipStream(search, level) as archive:
            result = client.upload(name, archive, expires_at=expires_at)  # type: ignore[arg-type]
    except TwirpCallError as exc:
        raise StepError(f"upload of artifact {name!r} failed: {exc}") from exc
    runtime.write(f"Artifact {name} uploaded: id {result.artifact_id}, {result.size} bytes, sha256:{result.sha256}")
    server = env.get("GITHUB_SERVER_URL", runtime.instance_url).rstrip("/")
    repository = env.get("GITHUB_REPOSITORY", "")
    run_id = env.get("GITHUB_RUN_ID", "")
    return {
        "artifact-id": str(result.artifact_id),
        "artifact-url": f"{server}/{repository}/actions/runs/{run_id}/artifacts/{result.artifact_id}",
        "artifact-digest": result.sha256,
    }


def save_artifact(client_download: Callable[[Path], tuple[str, str]], destination: Path, temp: Path) -> None:
    """Download into a temporary directory, then unzip into (or move the single file to) ``destination``."""
    scratch = Path(tempfile.mkdtemp(prefix="artifact-", dir=temp))
    try:
        content_type, filename = client_download(scratch)
        (path,) = [entry for entry in scratch.iterdir() if entry.is_file()]
        media = content_type.split(";")[0].strip().lower()
        if media in ZIP_TYPES or (not media and path.name.endswith(".zip")):
            extract_zip(path, destination)
        else:
            destination.mkdir(parents=True, exist_ok=True)
            shutil.move(path, destination / (filename or path.name))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def download_artifact(inputs: dict[str, str], env: Mapping[str, str], runtime: JobRuntime) -> dict[str, str]:
    """actions/download-artifact@v4: one artifact by name, or all of the run (each in its own directory)."""
    relative = Path(inputs.get("path") or ".").expanduser()
    destination = relative if relative.is_absolute() else runtime.workspace / relative
    client = runtime.artifact_client(env)
    name = inputs.get("name", "").strip()
    on_mismatch = _digest_mismatch(inputs)
    try:
        if name:
            names = [name]
            single = True
        else:
            pattern = inputs.get("pattern", "").strip()
            names = sorted({item.name for item in client.list() if not pattern or fnmatch.fnmatch(item.name, pattern)})
            single = False
        merge = _flag(inputs, "merge-multiple", False)
        for artifact in names:
            target = destination if single or merge else destination / artifact

            def fetch(scratch: Path, artifact: str = artifact) -> tuple[str, str]:
                result = client.download(artifact, scratch, verify=on_mismatch == "error")
                if result.digest_mismatch and on_mismatch != "ignore":
                    label = "Warning" if on_mismatch == "warn" else "Notice"
                    runtime.write(
                        f"{label}: Artifact {artifact!r} digest validation failed: sha256:{result.sha256} was"
                        f" downloaded, the server listed {result.expected_digest}"
                    )
                return result.content_type, result.filename

            save_artifact(fetch, target, runtime.temp)
            runtime.write(f"Artifact {artifact} downloaded to {target}")
    except (TwirpCallError, DigestMismatchError) as exc:
        raise StepError(f"download failed: {exc}") from exc
    return {"download-path": str(destination)}


def checkout_action(inputs: dict[str, str], env: Mapping[str, str], runtime: JobRuntime) -> dict[str, str]:
    """actions/checkout@v4 over git smart HTTP or the contents API."""
    return checkout(
        inputs,
        context=runtime.context,
        instance_url=runtime.instance_url,
        workspace=runtime.workspace,
        token=runtime.token,
        log=runtime.write,
    )


BUILTINS: dict[str, Action] = {
    "actions/checkout": checkout_action,
    "actions/upload-artifact": upload_artifact,
    "actions/download-artifact": download_artifact,
}
SUPPORTED_REF = re.compile(r"^v4(\.\d+){0,2}$")
V3_REF = re.compile(r"^v3(\.\d+){0,2}$")


def run_builtin(uses: str, inputs: dict[str, str], env: Mapping[str, str], runtime: JobRuntime) -> dict[str, str]:
    """Run a ``uses:`` step natively, or fail it saying which actions mock-runner provides."""
    reference = re.sub(r"^https?://[^/]+/", "", uses.strip())
    action, _, ref = reference.partition("@")
    supported = ", ".join(f"{name}@v4" for name in BUILTINS)
    implementation = BUILTINS.get(action.lower())
    if implementation is None:
        raise StepError(f"mock-runner cannot run {uses!r}: it runs only {supported}, natively, and downloads no action")
    if V3_REF.match(ref) and action.lower() in V3_BUILTINS:
        return V3_BUILTINS[action.lower()](inputs, env, runtime)
    if not SUPPORTED_REF.match(ref):
        raise StepError(f"mock-runner implements {action}@v4 natively; {uses!r} asks for {ref or 'no version'}")
    return implementation(inputs, env, runtime)
