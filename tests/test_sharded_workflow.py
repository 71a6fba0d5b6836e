"""The documented sharded workflow (``docs/ci/sharded-suite.yml``) run as it is by the kit's mock runner.

The workflow is pushed unchanged to a repository of a live reference server, with a ``kit`` that stands
in for the kit's own: ``kit suite`` runs the installed harness on the tiny suite of ``test_results_schema``
(three scenarios: one passes, one fails, one is unsupported), ``kit merge`` is ``conformance merge``. The
runner takes the matrix's three shard jobs and then the merge job; the merged report comes back as an
artifact and must hold every shard and a single run's verdicts.
"""

from __future__ import annotations

import io
import json
import shlex
import sys
import zipfile
from pathlib import Path
from typing import Any

import requests
from forge_proto import runner_pb2
from test_faults_support import git
from test_mock_runner_support import ADMIN, ADMIN_TOKEN, LiveForge, live_forge
from test_results_schema import TINY_FEATURE, write_tiny_suite

from conformance.paths import KIT_ROOT
from conformance.schemas import validate
from mock_runner.daemon import Daemon, TaskOutcome

__all__ = ["live_forge"]

WORKFLOW = KIT_ROOT / "docs" / "ci" / "sharded-suite.yml"
SELECTION = "version or deliberately or lacks"
EXPECTED = {
    "The version answers": "passed",
    "A deliberately wrong expectation": "failed",
    "A capability the target lacks": "unsupported",
}
KIT_STAND_IN = """\
#!/usr/bin/env bash
# Stands in for the kit's ./kit: the installed harness on the tiny suite (suite), conformance merge (merge).
set -euo pipefail
command=$1
shift
case "$command" in
  suite) exec {python} -m pytest -p no:randomly -p no:cacheprovider --rootdir {tiny} -c {tiny}/pytest.ini {tiny} \\
           --profile {tiny}/tiny-profile.yaml --expectations {tiny}/expectations.yaml -k {selection} -q "$@" ;;
  merge) exec {python} -m conformance.cli merge "$@" ;;
  *) echo "kit: no command $command" >&2; exit 2 ;;
esac
"""


def _push_url(forge: LiveForge, repo: str) -> str:
    return forge.url.replace("://", f"://{ADMIN}:{ADMIN_TOKEN}@", 1) + f"/{repo}.git"


def _push(forge: LiveForge, repo: str, tiny: Path, work: Path) -> None:
    """The documented workflow, unchanged, and the stand-in ``kit`` (executable), pushed in one commit."""
    clone = work / "clone"
    git("clone", "-q", _push_url(forge, repo), str(clone))
    (clone / ".gitea" / "workflows").mkdir(parents=True)
    (clone / ".gitea" / "workflows" / "conformance.yml").write_text(WORKFLOW.read_text(encoding="utf-8"))
    kit = clone / "kit"
    kit.write_text(
        KIT_STAND_IN.format(
            python=shlex.quote(sys.executable), tiny=shlex.quote(str(tiny)), selection=shlex.quote(SELECTION)
        )
    )
    kit.chmod(0o755)
    git("add", "-A", cwd=clone)
    git("commit", "-q", "-m", "a sharded conformance gate", cwd=clone)
    git("push", "-q", "origin", "HEAD", cwd=clone)


def _artifact_zip(forge: LiveForge, repo: str, name: str) -> zipfile.ZipFile:
    (artifact,) = [artifact for artifact in forge.artifacts(repo) if artifact["name"] == name]
    response = requests.get(
        str(artifact["archive_download_url"]), headers={"Authorization": f"token {ADMIN_TOKEN}"}, timeout=30
    )
    assert response.status_code == 200, response.text
    return zipfile.ZipFile(io.BytesIO(response.content))


def _jobs(forge: LiveForge, repo: str, run_id: int) -> dict[str, dict[str, Any]]:
    response = forge.api("GET", f"/repos/{repo}/actions/runs/{run_id}/jobs")
    assert response.status_code == 200, response.text
    return {job["name"]: job for job in response.json()["jobs"]}


def test_the_documented_workflow_runs_three_shards_and_merges_them(live_forge: LiveForge, tmp_path: Path) -> None:
    tiny = tmp_path / "tiny"
    write_tiny_suite(tiny, "tiny.feature", TINY_FEATURE)
    repo = live_forge.create_repo("sharded-gate")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    _push(live_forge, repo, tiny, tmp_path)
    daemon = Daemon(runner_file, workdir=tmp_path / "work", fetch_interval=0.2)
    outcomes: list[TaskOutcome] = []
    for _ in range(4):
        outcome = daemon.run_once(timeout=60)
        assert outcome is not None, f"the runner got {len(outcomes)} job(s) of four"
        outcomes.append(outcome)
    (run,) = live_forge.runs(repo)
    jobs = _jobs(live_forge, repo, int(run["id"]))
    assert sorted(jobs) == ["merge", "shard (1)", "shard (2)", "shard (3)"]
    shard_results = sorted(job["conclusion"] for name, job in jobs.items() if name.startswith("shard"))
    assert shard_results == ["failure", "success", "success"], "one shard holds the failing scenario"
    assert jobs["merge"]["conclusion"] == "failure", "the merge ran after a failed shard and failed as one run would"
    assert outcomes[-1].result == runner_pb2.RESULT_FAILURE
    assert (run["status"], run["conclusion"]) == ("completed", "failure")

    names = sorted(artifact["name"] for artifact in live_forge.artifacts(repo))
    assert names == ["conformance-report", *(f"conformance-shard-{k}" for k in (1, 2, 3))]
    report = _artifact_zip(live_forge, repo, "conformance-report")
    assert {"results.json", "report.html", "junit.xml", "cucumber.json"} <= set(report.namelist())
    results = json.loads(report.read("results.json"))
    validate(results, "results.schema")
    assert results["exit_status"] == 1
    assert [entry["shard"] for entry in results["merged_from"]] == ["1/3", "2/3", "3/3"]
    assert {entry["seed"] for entry in results["merged_from"]} == {int(run["id"])}, "every shard used the run's seed"
    ran = {s["name"]: s["outcome"] for s in results["scenarios"] if s["outcome"] != "disabled"}
    assert ran == EXPECTED
    per_shard = [entry["exit_status"] for entry in results["merged_from"]]
    assert sorted(per_shard) == [0, 0, 1]
