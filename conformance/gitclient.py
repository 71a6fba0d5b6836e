"""A small typed wrapper around the real ``git`` (and ``git-lfs``) client for scenarios over Git smart HTTP.

Each :class:`GitClient` has its own HOME and configuration, so nothing of the machine's Git set-up leaks
in and nothing is left behind. Credentials never appear in a URL, an argument or a config file: a
credential helper reads them from the environment of the one command that needs them, and every value
is registered with the run's :class:`~conformance.client.Recorder`, so command transcripts are masked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .client import Exchange, Recorder, mask_text

__all__ = ["GitClient", "GitCredentials", "GitResult", "git_lfs_available"]

USERNAME_VARIABLE = "CONFORMANCE_GIT_USERNAME"
PASSWORD_VARIABLE = "CONFORMANCE_GIT_PASSWORD"  # noqa: S105 - the name of a variable, not a secret
CREDENTIAL_HELPER = (
    f'!f() {{ test "$1" = get || exit 0; test -n "${PASSWORD_VARIABLE}" || exit 0; '
    f'printf "username=%s\\npassword=%s\\n" "${USERNAME_VARIABLE}" "${PASSWORD_VARIABLE}"; }}; f'
)
OUTPUT_LIMIT = 4096


@dataclass(frozen=True)
class GitCredentials:
    """The user name and password (an account token or a deploy token) of one Git command."""

    username: str
    password: str


@dataclass(frozen=True)
class GitResult:
    """What a git command did: its arguments, exit status and (masked) output."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def describe(self) -> str:
        """A one-paragraph account for assertion messages."""
        return f"`git {' '.join(self.args)}` exited {self.returncode}: {(self.stderr or self.stdout).strip()[-800:]}"


def git_lfs_available() -> bool:
    """Whether the ``git-lfs`` client is installed (the LFS scenarios need it)."""
    if shutil.which("git-lfs") is None:
        return False
    probe = subprocess.run(["git", "lfs", "version"], capture_output=True, check=False, timeout=30)
    return probe.returncode == 0


class GitClient:
    """Runs git in an isolated HOME under ``workdir``; every command is recorded, masked, in the transcript."""

    def __init__(self, workdir: Path, recorder: Recorder, *, timeout: float = 180.0) -> None:
        self.workdir = workdir
        self.recorder = recorder
        self.timeout = timeout
        self.home = workdir / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        self._lfs_ready = False
        self._configure()

    def _configure(self) -> None:
        settings = {
            "user.name": "Conformance Kit",
            "user.email": "conformance@example.com",
            "init.defaultBranch": "main",
            "credential.helper": CREDENTIAL_HELPER,
            "advice.detachedHead": "false",
            "protocol.version": "2",
        }
        for key, value in settings.items():
            self._check(self.run("config", "--global", key, value, record=False))

    def _environment(self, credentials: GitCredentials | None) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_ASKPASS": "",
            "SSH_ASKPASS": "",
            "LC_ALL": "C",
            "GIT_LFS_SKIP_SMUDGE": "0",
        }
        if credentials is not None:
            self.recorder.add_secret(credentials.password)
            env[USERNAME_VARIABLE] = credentials.username
            env[PASSWORD_VARIABLE] = credentials.password
        return env

    def run(
        self, *args: str, cwd: Path | None = None, credentials: GitCredentials | None = None, record: bool = True
    ) -> GitResult:
        """Run ``git ARGS`` (never raises on a failing command: callers decide what a status means)."""
        started = time.monotonic()
        try:
            completed = subprocess.run(
                ["git", *args],
                cwd=cwd or self.workdir,
                env=self._environment(credentials),
                capture_output=True,
                text=True,
                errors="replace",
                check=False,
                timeout=self.timeout,
            )
            code, out, err = completed.returncode, completed.stdout, completed.stderr
        except subprocess.TimeoutExpired as expired:
            code, out, err = 124, "", f"timed out after {expired.timeout:.0f} s"
        secrets = self.recorder.masked_values()
        result = GitResult(tuple(args), code, mask_text(out, secrets), mask_text(err, secrets))
        if record:
            self._record(result, (time.monotonic() - started) * 1000)
        return result

    def _record(self, result: GitResult, elapsed_ms: float) -> None:
        """Add the command to the scenario's transcript as one exchange (method ``GIT``, status = exit status)."""
        self.recorder.exchanges.append(
            Exchange(
                method="GIT",
                url=mask_text("git " + " ".join(result.args), self.recorder.masked_values()),
                status=result.returncode,
                request_headers={},
                request_body="",
                response_headers={},
                response_body=(result.stdout + result.stderr)[-OUTPUT_LIMIT:],
                elapsed_ms=elapsed_ms,
            )
        )

    @staticmethod
    def _check(result: GitResult) -> GitResult:
        if not result.ok:
            raise AssertionError(result.describe())
        return result

    # -- operations ----------------------------------------------------------------------------

    def clone(self, url: str, name: str, credentials: GitCredentials | None = None) -> tuple[Path, GitResult]:
        """Clone ``url`` into ``workdir/name`` (a fresh directory)."""
        dest = self.workdir / name
        if dest.exists():
            shutil.rmtree(dest)
        return dest, self.run("clone", url, str(dest), credentials=credentials)

    def fetch(self, repo: Path, credentials: GitCredentials | None = None) -> GitResult:
        """Fetch every branch of ``origin``."""
        return self.run("fetch", "origin", cwd=repo, credentials=credentials)

    def push(self, repo: Path, refspec: str, credentials: GitCredentials | None = None) -> GitResult:
        """Push ``refspec`` to ``origin``."""
        return self.run("push", "origin", refspec, cwd=repo, credentials=credentials)

    def commit_file(self, repo: Path, path: str, content: bytes, message: str) -> str:
        """Write ``path`` in the work tree, commit it, and return the new commit."""
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        self._check(self.run("add", "--", path, cwd=repo))
        self._check(self.run("commit", "-q", "-m", message, cwd=repo))
        return self.rev_parse(repo, "HEAD")

    def checkout_new_branch(self, repo: Path, branch: str) -> None:
        """Start ``branch`` at the current commit (used when an empty repository was cloned)."""
        self._check(self.run("checkout", "-q", "-B", branch, cwd=repo))

    def rev_parse(self, repo: Path, rev: str) -> str:
        """The commit ``rev`` names in ``repo``."""
        return self._check(self.run("rev-parse", rev, cwd=repo, record=False)).stdout.strip()

    def remote_head(self, url: str, branch: str, credentials: GitCredentials | None = None) -> str | None:
        """The commit a remote branch is at (``git ls-remote``), None when the branch does not exist."""
        result = self._check(self.run("ls-remote", url, f"refs/heads/{branch}", credentials=credentials))
        line = result.stdout.strip().splitlines()
        return line[0].split()[0] if line else None

    # -- LFS -------------------------------------------------------------------------------------

    def enable_lfs(self) -> None:
        """Install the LFS filters in this client's own configuration (never the machine's)."""
        if not self._lfs_ready:
            self._check(self.run("lfs", "install", "--skip-repo"))
            self._lfs_ready = True

    def lfs_track(self, repo: Path, pattern: str) -> None:
        """Track ``pattern`` with LFS in ``repo`` (``.gitattributes`` is committed with the next commit)."""
        self.enable_lfs()
        self._check(self.run("lfs", "track", pattern, cwd=repo))
        self._check(self.run("add", ".gitattributes", cwd=repo))

    def lfs_pull(self, repo: Path, credentials: GitCredentials | None = None) -> GitResult:
        """Download the LFS objects of the checked-out commit into the work tree."""
        return self.run("lfs", "pull", cwd=repo, credentials=credentials)
