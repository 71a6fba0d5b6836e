"""The mock runner's v3 artifact client and native @v3 actions against the live reference server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_mock_runner_support import LiveForge, live_forge

__all__ = ["live_forge"]

WORKFLOW = """\
name: legacy
on: [push]
jobs:
  roundtrip:
    runs-on: ubuntu-latest
    steps:
      - run: python -c pass
"""

SCRIPT = """
import os, random
from pathlib import Path
from mock_runner.artifacts_v3 import CHUNK_SIZE, LegacyArtifactClient, LegacyFile
root = Path(os.environ["GITHUB_WORKSPACE"]) / "src"
(root / "sub").mkdir(parents=True)
files = {
    "text.txt": b"gzip me, please\\n" * 5000,
    "sub/random.bin": random.Random(7).randbytes(CHUNK_SIZE + 1234),
    "empty.txt": b"",
}
for name, data in files.items():
    (root / name).write_bytes(data)
client = LegacyArtifactClient.from_environment()
result = client.upload("files", [LegacyFile(name, root / name) for name in files], retention_days=2)
assert result.files == 3 and result.size == sum(map(len, files.values())), result
assert result.sent < result.size, "the text file was not gzip'ed"
assert client.list() == ["files"], client.list()
back = Path(os.environ["GITHUB_WORKSPACE"]) / "back"
written = client.download("files", back)
assert sorted(p.relative_to(back).as_posix() for p in written) == sorted(files)
for name, data in files.items():
    assert (back / name).read_bytes() == data, name
print("v3 client round trip ok")
"""


@pytest.mark.slow
def test_v3_client_round_trip_under_mock_runner_exec(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("legacy-client")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/legacy.yml", WORKFLOW)
    completed = subprocess.run(
        [sys.executable, "-m", "mock_runner.cli", "exec", "--runner-file", str(runner_file), "--timeout", "30",
         "--workdir", str(tmp_path / "work"), "--", sys.executable, "-c", SCRIPT],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "v3 client round trip ok" in completed.stdout


CLI = """
set -e
mkdir -p out/sub && seq 1 3000 > out/sub/n.txt && printf 'x' > out/x.bin
"$PY" -m mock_runner.cli artifact --protocol v3 upload cli-files 'out/**'
test "$("$PY" -m mock_runner.cli artifact --protocol v3 list)" = cli-files
"$PY" -m mock_runner.cli artifact --protocol v3 download cli-files --path back
diff -r out back
! "$PY" -m mock_runner.cli artifact --protocol v3 delete cli-files
echo "v3 cli ok"
"""


@pytest.mark.slow
def test_v3_cli_commands_under_mock_runner_exec(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("legacy-cli")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/legacy.yml", WORKFLOW)
    completed = subprocess.run(
        [sys.executable, "-m", "mock_runner.cli", "exec", "--runner-file", str(runner_file), "--timeout", "30",
         "--workdir", str(tmp_path / "work"), "--", "bash", "-c", CLI],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "PY": sys.executable},
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "v3 cli ok" in completed.stdout
