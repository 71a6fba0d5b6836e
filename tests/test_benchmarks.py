"""The artifact benchmark's parts, and a tiny end-to-end run so the script cannot rot unnoticed."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
import zlib
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from node_clients import needs_node
from werkzeug.test import Client

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # ``benchmarks`` is a folder of scripts, not an installed package
    sys.path.insert(0, str(REPO))

from benchmarks.artifact_roundtrip import checked_phases, parse_clients  # noqa: E402
from benchmarks.measure import (  # noqa: E402
    CHUNK,
    MIB,
    format_size,
    make_data_file,
    parse_size,
    parse_sizes,
    read_cpu_seconds,
    read_peak_rss,
    reset_peak_rss,
    sha256_file,
)
from benchmarks.processes import BenchmarkError, python_command, run_client, start_server  # noqa: E402
from benchmarks.raw_server import RawBlobApp, waitress_settings  # noqa: E402
from benchmarks.report import PathFigures, SizeFigures, Targets, best_of, evaluate, render_table, to_json  # noqa: E402
from benchmarks.transfer_client import Phase, raw_get, raw_put  # noqa: E402


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("64M", 64 * MIB),
        ("1G", 1024 * MIB),
        ("512k", 512 * 1024),
        ("3MiB", 3 * MIB),
        ("1000", 1000),
        (" 8 MB ", 8 * MIB),
    ],
)
def test_parse_size_reads_binary_units(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "M", "1.5G", "-1M", "0", "12T", "64 M B"])
def test_parse_size_rejects_what_is_not_a_size(text: str) -> None:
    with pytest.raises(ValueError, match="size"):
        parse_size(text)


def test_parse_sizes_sorts_and_dedupes() -> None:
    assert parse_sizes("1G,8M,8M,64M") == [8 * MIB, 64 * MIB, 1024 * MIB]
    with pytest.raises(ValueError, match="no sizes"):
        parse_sizes(" , ")


def test_format_size_picks_the_largest_exact_unit() -> None:
    assert [format_size(n) for n in (1024 * MIB, 64 * MIB, 1536, 3 * 1024, 1000)] == [
        "1 GiB",
        "64 MiB",
        "1536 B",
        "3 KiB",
        "1000 B",
    ]


def test_data_file_is_exact_distinct_per_mib_and_incompressible(tmp_path: Path) -> None:
    size = 2 * CHUNK + 12345
    data = make_data_file(tmp_path / "data.bin", size)
    raw = data.path.read_bytes()
    assert len(raw) == size == data.size
    assert data.sha256 == hashlib.sha256(raw).hexdigest() == sha256_file(data.path)
    first, second = raw[:CHUNK], raw[CHUNK : 2 * CHUNK]
    assert first != second and first[8:] == second[8:], "each MiB is the seed block stamped with its index"
    assert len(zlib.compress(raw, 6)) > 0.99 * size


def test_data_file_rejects_a_seed_of_the_wrong_size(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="seed block"):
        make_data_file(tmp_path / "data.bin", 10, seed_block=b"short")


def test_peak_memory_is_read_and_reset_per_phase() -> None:
    reset_peak_rss()
    before = read_peak_rss()
    ballast = bytearray(48 * MIB)
    ballast[::4096] = b"x" * len(ballast[::4096])  # touch every page so it is resident
    assert read_peak_rss() >= before + 40 * MIB
    del ballast
    reset_peak_rss()
    assert read_peak_rss() < before + 40 * MIB


def test_raw_store_puts_gets_and_deletes(tmp_path: Path) -> None:
    client = Client(RawBlobApp(tmp_path / "store"))
    body = b"0123456789" * 1000
    assert client.put("/blob/a.bin", data=body).status_code == 201
    got = client.get("/blob/a.bin")
    assert got.status_code == 200 and got.data == body
    assert got.headers["Content-Length"] == str(len(body))
    assert client.delete("/blob/a.bin").status_code == 204
    assert client.get("/blob/a.bin").status_code == 404
    assert list((tmp_path / "store" / ".tmp").iterdir()) == [], "no temporary file is left behind"


@pytest.mark.parametrize("path", ["/blob/../secret", "/blob/", "/other/a.bin", "/blob/.hidden", "/blob/a%00b"])
def test_raw_store_refuses_names_outside_its_folder(tmp_path: Path, path: str) -> None:
    response = Client(RawBlobApp(tmp_path / "store")).put(path, data=b"x")
    assert response.status_code == 404
    assert sorted(p.name for p in (tmp_path / "store").iterdir()) == [".tmp"]


def test_raw_store_answers_bad_requests_with_4xx(tmp_path: Path) -> None:
    client = Client(RawBlobApp(tmp_path / "store"))
    assert client.post("/blob/a.bin", data=b"x").status_code == 405
    no_length = client.put("/blob/a.bin", environ_overrides={"CONTENT_LENGTH": ""})
    assert no_length.status_code == 411


def test_baseline_uses_the_reference_servers_waitress_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The baseline is only fair while it copies reference_server/cli.py: this fails when that file changes."""
    import waitress.server
    from flask import Flask

    from reference_server import app as app_module
    from reference_server import cli

    captured: dict[str, Any] = {}

    class FakeServer:
        effective_port = 1

        def run(self) -> None:
            return None

    def fake_create_server(app: object, **kwargs: Any) -> FakeServer:
        captured.update(kwargs)
        return FakeServer()

    monkeypatch.setattr(waitress.server, "create_server", fake_create_server)
    monkeypatch.setattr(app_module, "create_app", lambda config: Flask("stand-in"))
    assert cli.main(["--port", "0", "--data-dir", str(tmp_path / "data"), "--admin-token", "t" * 40]) == 0
    reference = {key: value for key, value in captured.items() if key not in ("host", "port", "map", "_dispatcher")}
    ours = waitress_settings(threads=16, max_body=reference["max_request_body_size"])
    assert ours == reference


def test_raw_server_round_trip_over_real_http(tmp_path: Path) -> None:
    server = start_server(
        "baseline server",
        python_command(REPO / "benchmarks" / "raw_server.py", "--data-dir", str(tmp_path / "store")),
        tmp_path / "raw.log",
    )
    try:
        data = make_data_file(tmp_path / "data.bin", 3 * CHUNK + 7)
        assert raw_put(server.url + "blob/data.bin", data.path) == (data.size, "")
        assert raw_get(server.url + "blob/data.bin", tmp_path / "back.bin") == (data.size, data.sha256)
        assert (tmp_path / "back.bin").read_bytes() == data.path.read_bytes()
    finally:
        server.stop()
    assert server.process.returncode == 0, "SIGINT is a clean shutdown"


def test_a_server_that_dies_is_reported_with_its_log(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "import sys; print('cannot bind'); sys.exit(3)"]
    with pytest.raises(BenchmarkError, match="exited with status 3 before announcing its address") as caught:
        start_server("broken server", command, tmp_path / "broken.log", timeout=10)
    assert "cannot bind" in str(caught.value)


def test_a_server_that_never_announces_itself_is_stopped(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "import time; time.sleep(60)"]
    with pytest.raises(BenchmarkError, match="did not announce its address within 1 s"):
        start_server("silent server", command, tmp_path / "silent.log", timeout=1)


def test_a_failing_client_is_reported_with_its_reason(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    script = f"import json,sys; open({str(out)!r}, 'w').write(json.dumps({{'error': 'boom'}})); sys.exit(1)"
    with pytest.raises(BenchmarkError, match="client failed: boom"):
        run_client([sys.executable, "-c", script], out, tmp_path / "client.log", timeout=30)
    with pytest.raises(BenchmarkError, match="without figures"):
        run_client([sys.executable, "-c", "pass"], out, tmp_path / "client.log", timeout=30)


def test_what_comes_back_must_be_what_went(tmp_path: Path) -> None:
    data = make_data_file(tmp_path / "data.bin", 1000)

    def phase(direction: str, size: int = 1000, sha256: str = data.sha256) -> dict[str, Any]:
        return asdict(Phase(direction, size, sha256, 0.5, MIB, MIB, 0.1, 0.1))

    good = checked_phases([phase("upload", sha256=""), phase("download")], data, "baseline")
    assert (good.upload.size, good.download.sha256) == (1000, data.sha256)
    cases = [
        ([phase("upload"), phase("download", sha256="0" * 64)], "download: sha256 0000"),
        ([phase("upload", size=999), phase("download")], "upload moved 999 bytes, expected 1000"),
        ([phase("upload"), phase("download", sha256="")], "download reported no sha256"),
        ([phase("upload")], "unreadable figures"),
        ([{"direction": "upload", "bogus": 1}, phase("download")], "unreadable figures"),
    ]
    for raw, message in cases:
        with pytest.raises(BenchmarkError, match=message):
            checked_phases(raw, data, "artifact")


def test_cpu_time_of_another_process_is_read_from_proc() -> None:
    busy = (
        "import time\nend = time.process_time() + 0.3\n"
        "while time.process_time() < end: pass\nprint('done', flush=True)\ntime.sleep(60)"
    )
    child = subprocess.Popen([sys.executable, "-c", busy], stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline() == b"done\n"
        assert 0.25 <= read_cpu_seconds(child.pid) <= 5
    finally:
        child.kill()
        child.wait()


def _phase(direction: str, size: int, seconds: float, client: float = 30, server: float = 40) -> Phase:
    """A phase whose CPU time is a tenth (client) and a quarter (server) of its wall time."""
    return Phase(direction, size, "ab", seconds, int(client * MIB), int(server * MIB), seconds / 10, seconds / 4)


def _figures(size: int, *, base: float, art: float, client: float = 30, server: float = 40) -> SizeFigures:
    baseline = PathFigures(_phase("upload", size, base), _phase("download", size, base))
    artifact = PathFigures(_phase("upload", size, art, client, server), _phase("download", size, art, client, server))
    return SizeFigures(size, "ab", [baseline], [artifact])


def test_best_of_takes_the_fastest_time_and_the_highest_peak() -> None:
    quick_but_fat = PathFigures(_phase("upload", MIB, 1.0, client=90), _phase("download", MIB, 4.0, server=70))
    slow_but_lean = PathFigures(_phase("upload", MIB, 2.0, client=20), _phase("download", MIB, 3.0, server=10))
    best = best_of([quick_but_fat, slow_but_lean])
    assert (best.upload.seconds, best.download.seconds) == (1.0, 3.0)
    assert (best.upload.client_peak_bytes, best.download.server_peak_bytes) == (90 * MIB, 70 * MIB)
    assert (best.upload.server_peak_bytes, best.download.client_peak_bytes) == (40 * MIB, 30 * MIB)
    with pytest.raises(ValueError, match="no runs"):
        best_of([])


def test_targets_met_give_no_miss() -> None:
    figures = [_figures(64 * MIB, base=1.0, art=1.5), _figures(1024 * MIB, base=10.0, art=15.0, server=60)]
    assert figures[0].ratio("upload") == pytest.approx(2 / 3)
    assert evaluate(figures, Targets()) == []


def test_each_missed_target_is_one_clear_line() -> None:
    slow = _figures(64 * MIB, base=1.0, art=2.5)
    misses = evaluate([slow], Targets())
    assert misses == [
        "64 MiB upload: artifact 25.6 MiB/s is 0.40 of the baseline 64.0 MiB/s (target at least 0.50)",
        "64 MiB download: artifact 25.6 MiB/s is 0.40 of the baseline 64.0 MiB/s (target at least 0.50)",
    ]
    fat = _figures(64 * MIB, base=1.0, art=1.0, server=150)
    assert [m for m in evaluate([fat], Targets()) if "server" in m] == [
        "64 MiB upload: peak memory of the server 150.0 MiB (target under 150 MiB)",
        "64 MiB download: peak memory of the server 150.0 MiB (target under 150 MiB)",
    ]
    growing = [_figures(64 * MIB, base=1, art=1, client=30), _figures(1024 * MIB, base=1, art=1, client=100)]
    assert evaluate(growing, Targets()) == [
        "peak memory of the client grows with the size: 30.0 MiB at 64 MiB, 100.0 MiB at 1 GiB "
        "(+70.0 MiB, allowed +32 MiB)"
    ]


def test_table_and_json_carry_every_figure() -> None:
    figures = [_figures(64 * MIB, base=1.0, art=1.25)]
    table = render_table(figures).splitlines()
    assert len(table) == 5, "a header, then baseline and artifact rows for each direction"
    assert table[1].split() == ["64", "MiB", "upload", "baseline", "64.0", "30.0", "/", "40.0", "1.60", "/", "4.00"]
    assert table[2].split() == ["artifact", "51.2", "0.80", "30.0", "/", "40.0", "2.00", "/", "5.00"]
    assert table[3].split()[:3] == ["download", "baseline", "64.0"]
    report = to_json(figures, Targets(), [], {"cpus": 2})
    entry = report["sizes"][0]
    assert entry["ratio"] == {"upload": 0.8, "download": 0.8}
    assert entry["artifact"]["upload"]["mib_per_second"] == 51.2
    assert entry["artifact"]["upload"]["server_cpu_seconds"] == 1.25 / 4
    assert report["ok"] is True and report["targets"]["max_peak_mib"] == 150.0


def test_clients_are_the_kits_and_optionally_the_official_one() -> None:
    assert parse_clients("kit") == ["kit"]
    assert parse_clients("official, kit") == ["kit", "official"]
    for bad in ("official", "kit,npm", ""):
        with pytest.raises(ValueError, match="--clients takes kit"):
            parse_clients(bad)


def test_the_official_client_gets_its_rows_its_ratio_and_its_target() -> None:
    """With the official client's runs the table, the JSON and the targets compare the kit's client with it."""
    size = 64 * MIB
    entry = _figures(size, base=1.0, art=1.25)
    slower = PathFigures(_phase("upload", size, 2.5, client=90), _phase("download", size, 1.0, client=95))
    faster = PathFigures(_phase("upload", size, 3.0), _phase("download", size, 0.5))
    entry = SizeFigures(size, "ab", entry.baseline_runs, entry.artifact_runs, [slower, faster])
    assert (entry.client_ratio("upload"), entry.client_ratio("download")) == (2.0, 0.4)
    table = render_table([entry]).splitlines()
    assert len(table) == 9, "baseline, artifact, official and kit/official rows for each direction"
    assert table[3].split() == ["official", "25.6", "0.40", "90.0", "/", "40.0", "4.00", "/", "10.00"]
    assert table[4].split() == ["kit/official", "2.00"]
    assert table[8].split() == ["kit/official", "0.40"]
    assert evaluate([entry], Targets()) == [
        "64 MiB download: the kit's client 51.2 MiB/s is 0.40 of the official client's 128.0 MiB/s "
        "(target at least 1.00)"
    ]
    assert evaluate([entry], Targets(min_client_ratio=0.4)) == []
    report = to_json([entry], Targets(), [], {})["sizes"][0]
    assert report["client_ratio"] == {"upload": 2.0, "download": 0.4}
    assert report["official"]["download"]["mib_per_second"] == 128.0
    assert len(report["runs"]["official"]) == 2
    without = to_json([_figures(size, base=1.0, art=1.25)], Targets(), [], {})["sizes"][0]
    assert "official" not in without and "official" not in without["runs"]


def test_cpu_time_of_a_process_is_read_from_proc() -> None:
    before = read_cpu_seconds()
    deadline = time.process_time() + 0.3
    while time.process_time() < deadline:
        hashlib.sha256(b"x" * 65536).digest()
    assert 0.2 <= read_cpu_seconds() - before <= 5


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--sizes", "64X"], "unknown size unit"),
        (["--sizes", "8M", "--repeat", "0"], "--threads and --repeat must be at least 1"),
        (["--sizes", "8M", "--json", "/nonexistent-folder/bench.json"], "folder /nonexistent-folder does not exist"),
        (["--sizes", "100000G"], "100000 GiB needs about"),
    ],
)
def test_what_cannot_run_exits_2_with_a_message(tmp_path: Path, arguments: list[str], message: str) -> None:
    completed = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "artifact_roundtrip.py"), "--work-dir", str(tmp_path), *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert message in completed.stderr
    assert list(tmp_path.iterdir()) == [], "nothing was generated"


def run_roundtrip(tmp_path: Path, *options: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """``artifact_roundtrip.py`` with ``options`` for real; its exit (0, or 1 for a target missed at a toy size)
    is checked, and its JSON report returned."""
    report_path = tmp_path / "bench.json"
    completed = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "artifact_roundtrip.py"),
            *options,
            *("--json", str(report_path), "--work-dir", str(tmp_path / "work")),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode in (0, 1), completed.stdout + completed.stderr
    return completed, json.loads(report_path.read_text())


@pytest.mark.slow
def test_smoke_run_of_the_whole_benchmark(tmp_path: Path) -> None:
    """Two tiny sizes through both paths, for real: figures come out, bytes come back intact."""
    completed, report = run_roundtrip(tmp_path, "--sizes", "256K,1M", "--repeat", "2")
    assert [entry["size"] for entry in report["sizes"]] == [256 * 1024, MIB]
    for entry in report["sizes"]:
        for path in ("baseline", "artifact"):
            for direction in ("upload", "download"):
                phase = entry[path][direction]
                assert phase["size"] == entry["size"]
                assert phase["seconds"] > 0 and phase["client_peak_bytes"] > 0 and phase["server_peak_bytes"] > 0
                assert phase["client_cpu_seconds"] >= 0 and phase["server_cpu_seconds"] >= 0
            assert entry[path]["download"]["sha256"] == entry["sha256"]
        assert entry["artifact"]["upload"]["sha256"] == entry["sha256"]
        assert len(entry["runs"]["baseline"]) == len(entry["runs"]["artifact"]) == 2
        fastest = min(run["upload"]["seconds"] for run in entry["runs"]["artifact"])
        assert entry["artifact"]["upload"]["seconds"] == fastest
    assert report["ok"] == (completed.returncode == 0) == (report["misses"] == [])
    assert report["environment"]["repeat"] == 2 and report["environment"]["cpus"] >= 1
    assert "ratio" in completed.stdout and "1 MiB" in completed.stdout


@pytest.mark.slow
@needs_node("@actions/artifact")
@pytest.mark.parametrize("zip_level", [None, 1], ids=["raw", "zipped"])
def test_smoke_run_beside_the_official_client(tmp_path: Path, zip_level: int | None) -> None:
    """The official client runs in the same job set-up, and both clients' bytes come back intact."""
    zipping = ["--zip-level", str(zip_level)] if zip_level is not None else []
    completed, report = run_roundtrip(tmp_path, "--sizes", "1M", "--repeat", "1", "--clients", "kit,official", *zipping)
    (entry,) = report["sizes"]
    for path in ("artifact", "official"):
        for direction in ("upload", "download"):
            phase = entry[path][direction]
            assert phase["size"] == MIB and phase["seconds"] > 0
            assert phase["client_peak_bytes"] > 0 and phase["client_cpu_seconds"] >= 0
        assert entry[path]["download"]["sha256"] == entry["sha256"], "the extracted or downloaded file is the data"
    assert set(entry["client_ratio"]) == {"upload", "download"}
    assert "kit/official" in completed.stdout
