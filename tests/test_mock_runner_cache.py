"""The runner's cache server: act_runner's artifactcache protocol, its scoping per repository and its refusals."""

from __future__ import annotations

import hashlib
import io
import os
import threading
import tracemalloc
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from forge_proto import runner_pb2

from mock_runner.cache_server import API_PATH, DOWNLOAD_TTL, CacheServer, parse_content_range
from mock_runner.cache_store import KEEP_UNUSED, KEEP_USED, STALE_RESERVATION, CacheError, CacheStore, covered
from mock_runner.jobenv import job_environment

VERSION = "c19da02a2bd7e77277f1ac29ab45c09b7d46a4ee758284e26bb3045ad11d9d20"
TOKEN_A, TOKEN_B = "runtime-token-of-a-job-of-repo-a", "runtime-token-of-a-job-of-repo-b"


class Clock:
    """A clock the test moves (signed URLs expire, reservations go stale)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class Job:
    """What ``@actions/cache`` does with ``ACTIONS_CACHE_URL`` and ``ACTIONS_RUNTIME_TOKEN``."""

    def __init__(self, server: CacheServer, token: str | None) -> None:
        self.base = server.url + API_PATH.lstrip("/")
        self.session = requests.Session()
        if token is not None:
            self.session.headers["Authorization"] = f"Bearer {token}"

    def find(self, *keys: str, version: str = VERSION) -> requests.Response:
        return self.session.get(f"{self.base}/cache", params={"keys": ",".join(keys), "version": version}, timeout=10)

    def reserve(self, key: str, size: int | None, version: str = VERSION) -> requests.Response:
        return self.session.post(
            f"{self.base}/caches", json={"key": key, "version": version, "cacheSize": size}, timeout=10
        )

    def patch(self, cache_id: object, start: int, data: bytes, end: int | None = None) -> requests.Response:
        last = start + len(data) - 1 if end is None else end
        headers = {"Content-Type": "application/octet-stream", "Content-Range": f"bytes {start}-{last}/*"}
        return self.session.patch(f"{self.base}/caches/{cache_id}", data=data, headers=headers, timeout=10)

    def commit(self, cache_id: object, size: int) -> requests.Response:
        return self.session.post(f"{self.base}/caches/{cache_id}", json={"size": size}, timeout=10)

    def save(self, key: str, data: bytes, chunk: int = 1000) -> int:
        """Reserve, upload in chunks sent concurrently and in reverse order, commit; the cache id."""
        reserved = self.reserve(key, len(data))
        assert reserved.status_code == 200, reserved.text
        cache_id = int(reserved.json()["cacheId"])
        starts = list(range(0, len(data), chunk))[::-1]
        with ThreadPoolExecutor(4) as pool:
            answers = list(pool.map(lambda s: self.patch(cache_id, s, data[s : s + chunk]), starts))
        assert [answer.status_code for answer in answers] == [200] * len(starts)
        committed = self.commit(cache_id, len(data))
        assert committed.status_code == 200, committed.text
        return cache_id

    def restore(self, *keys: str) -> tuple[str, bytes]:
        hit = self.find(*keys)
        assert hit.status_code == 200, hit.text
        body = hit.json()
        assert body["result"] == "hit"
        download = requests.get(body["archiveLocation"], timeout=10)  # the client sends no Authorization here
        assert download.status_code == 200, download.text
        return str(body["cacheKey"]), download.content


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def server(tmp_path: Path, clock: Clock) -> Iterator[CacheServer]:
    with CacheServer(tmp_path / "cache", clock=clock, max_entry_size=64_000_000) as cache:
        cache.register_job(TOKEN_A, "alice/app")
        cache.register_job(TOKEN_B, "bob/tool")
        yield cache


def test_url_is_the_server_root_ending_in_a_slash(server: CacheServer) -> None:
    assert server.url == f"http://127.0.0.1:{server.port}/"


def test_a_non_loopback_cache_host_is_put_in_the_url_and_the_server_listens_everywhere(tmp_path: Path) -> None:
    with CacheServer(tmp_path / "cache", host="203.0.113.7") as cache:
        assert cache.url == f"http://203.0.113.7:{cache.port}/"
        answer = requests.get(f"http://127.0.0.1:{cache.port}{API_PATH}/cache?keys=k&version=v", timeout=10)
        assert answer.status_code == 401


def test_save_then_restore_by_exact_key_with_identical_bytes(server: CacheServer) -> None:
    job = Job(server, TOKEN_A)
    data = os.urandom(4321)
    assert job.find("deps-linux-abc").status_code == 204
    job.save("deps-linux-abc", data)
    key, restored = job.restore("deps-linux-abc")
    assert key == "deps-linux-abc"
    assert hashlib.sha256(restored).hexdigest() == hashlib.sha256(data).hexdigest()


def test_restore_keys_exact_first_then_newest_prefix_and_case_insensitive(server: CacheServer, clock: Clock) -> None:
    job = Job(server, TOKEN_A)
    for offset, key in enumerate(["k_a_b_c", "k_a_b", "k_a"]):
        clock.now += offset + 1
        job.save(key, key.encode())
    assert job.restore("k_a_b_x", "k_a_b", "k_a") == ("k_a_b", b"k_a_b")  # exact k_a_b beats the newer k_a_b_c
    clock.now += 10
    job.save("k_a_b_z", b"newest")
    assert job.restore("k_a_b_x", "K_A_B_") == ("k_a_b_z", b"newest")  # a prefix: the newest entry
    assert job.restore("K_A") == ("k_a", b"k_a")
    assert job.find("k_a", version="other-version").status_code == 204


def test_a_job_never_sees_nor_writes_another_repositorys_entries(server: CacheServer) -> None:
    alice, bob = Job(server, TOKEN_A), Job(server, TOKEN_B)
    alice.save("shared-key", b"alice's bytes")
    assert bob.find("shared-key").status_code == 204
    assert bob.find("shared").status_code == 204
    pending = int(alice.reserve("pending", 3).json()["cacheId"])
    assert bob.patch(pending, 0, b"bad").status_code == 403
    assert bob.commit(pending, 3).json() == {"error": f"cache {pending}: forbidden"}
    bob.save("shared-key", b"bob's bytes")
    assert alice.restore("shared-key") == ("shared-key", b"alice's bytes")
    assert bob.restore("shared-key") == ("shared-key", b"bob's bytes")


def test_requests_without_the_jobs_token_are_refused(server: CacheServer) -> None:
    answers = [
        Job(server, None).find("k"),
        Job(server, "not-a-job-token").reserve("k", 1),
        Job(server, "").patch(1, 0, b"x"),
    ]
    assert [(a.status_code, a.json()["error"]) for a in answers] == [
        (401, "missing bearer token"),
        (401, "unknown bearer token"),
        (401, "missing bearer token"),
    ]
    revoke = server.register_job("token-of-a-finished-job", "alice/app")
    assert Job(server, "token-of-a-finished-job").find("k").status_code == 204
    revoke()
    assert Job(server, "token-of-a-finished-job").find("k").status_code == 401


def test_registration_is_counted_so_one_revoke_leaves_the_other_job_working(server: CacheServer) -> None:
    first = server.register_job("shared-token", "alice/app")
    second = server.register_job("shared-token", "alice/app")
    first()
    first()  # a revoker works once
    assert Job(server, "shared-token").find("k").status_code == 204
    second()
    assert Job(server, "shared-token").find("k").status_code == 401


def test_download_url_is_signed_and_expires(server: CacheServer, clock: Clock) -> None:
    job = Job(server, TOKEN_A)
    job.save("signed", b"0123456789")
    location = job.find("signed").json()["archiveLocation"]
    parts = urlsplit(location)
    query = parse_qs(parts.query)
    bare = f"{parts.scheme}://{parts.netloc}{parts.path}"
    assert requests.get(bare, timeout=10).status_code == 401
    tampered = f"{bare}?exp={int(query['exp'][0]) + 60}&sig={query['sig'][0]}"
    assert requests.get(tampered, timeout=10).json() == {"error": "bad signature"}
    ranged = requests.get(location, headers={"Range": "bytes=2-5"}, timeout=10)
    assert (ranged.status_code, ranged.content) == (206, b"2345")
    clock.now += DOWNLOAD_TTL + 1
    assert requests.get(location, timeout=10).json() == {"error": "signature expired"}
    fresh = server.download_url(999)
    assert requests.get(fresh, timeout=10).status_code == 404


@pytest.mark.parametrize(
    ("send", "status", "error"),
    [
        (lambda j: j.session.post(f"{j.base}/caches", data=b"{not json", timeout=10), 400, "the body is not JSON"),
        (lambda j: j.session.post(f"{j.base}/caches", json=[1], timeout=10), 400, "the body must be a JSON object"),
        (lambda j: j.reserve("", 1), 400, "key is required"),
        (lambda j: j.reserve("a,b", 1), 400, "key cannot contain commas"),
        (lambda j: j.reserve("k" * 513, 1), 400, "key is longer than 512"),
        (lambda j: j.reserve("k", -1), 400, "cacheSize must be a non-negative integer"),
        (lambda j: j.reserve("k", 65_000_000), 400, "cache size of 65000000 bytes is over the limit"),
        (lambda j: j.reserve("k", 1, version=""), 400, "version is required"),
        (lambda j: j.find(""), 400, "keys is required"),
        (lambda j: j.find(*[f"k{n}" for n in range(11)]), 400, "at most 10 keys"),
        (lambda j: j.find("k", version=""), 400, "version is required"),
        (lambda j: j.patch("abc", 0, b"x"), 400, "cache id 'abc' is not a number"),
        (lambda j: j.patch("99999999999999999999", 0, b"x"), 400, "is not a number"),
        (lambda j: j.patch(12345, 0, b"x"), 400, "cache 12345: not reserved"),
        (lambda j: j.commit(12345, 1), 400, "cache 12345: not reserved"),
        (lambda j: j.session.get(f"{j.base}/artifacts/..%2F..%2Fcache%2Findex.sqlite", timeout=10), 404, "not found"),
        (lambda j: j.session.get(f"{j.base}/artifacts/1x", timeout=10), 400, "cache id '1x' is not a number"),
        (lambda j: j.session.get(f"{j.base}/caches", timeout=10), 405, "GET is not allowed here"),
        (lambda j: j.session.get(f"{j.base}/nothing", timeout=10), 404, "not found"),
    ],
)
def test_bad_input_gets_a_4xx_with_an_error_body(server: CacheServer, send: object, status: int, error: str) -> None:
    answer = send(Job(server, TOKEN_A))  # type: ignore[operator]
    assert answer.status_code == status, answer.text
    assert error in answer.json()["error"]


def test_chunks_are_checked_against_the_range_and_the_reservation(server: CacheServer) -> None:
    job = Job(server, TOKEN_A)
    cache_id = int(job.reserve("chunks", 10).json()["cacheId"])
    headers = {"Content-Range": "bytes x-9/*"}
    assert job.session.patch(f"{job.base}/caches/{cache_id}", data=b"0", headers=headers, timeout=10).status_code == 400
    assert job.patch(cache_id, 5, b"56789abc").json()["error"].endswith("past the reserved size of 10 bytes")
    assert "the body has 3" in job.patch(cache_id, 0, b"012", end=4).json()["error"]
    assert "the body has 6" in job.patch(cache_id, 0, b"012345", end=4).json()["error"]
    assert job.patch(cache_id, 0, b"01234").status_code == 200
    assert "do not cover 10 bytes" in job.commit(cache_id, 10).json()["error"]  # a hole: 5..9 never sent
    assert "commit says 9 bytes, 10 were reserved" in job.commit(cache_id, 9).json()["error"]
    assert job.patch(cache_id, 3, b"3456789").status_code == 200  # overlapping a retried chunk is fine
    assert job.commit(cache_id, 10).status_code == 200
    assert "already complete" in job.commit(cache_id, 10).json()["error"]
    assert "already complete" in job.patch(cache_id, 0, b"x").json()["error"]
    assert job.restore("chunks") == ("chunks", b"0123456789")


def test_a_chunked_request_body_is_streamed_to_disk(server: CacheServer) -> None:
    """Node's client sends each chunk with Transfer-Encoding: chunked (no Content-Length)."""
    job = Job(server, TOKEN_A)
    data = os.urandom(3 * 1024 * 1024 + 7)
    cache_id = int(job.reserve("streamed", len(data)).json()["cacheId"])

    def pieces() -> Iterator[bytes]:
        for start in range(0, len(data), 65536):
            yield data[start : start + 65536]

    headers = {"Content-Range": f"bytes 0-{len(data) - 1}/*"}
    answer = job.session.patch(f"{job.base}/caches/{cache_id}", data=pieces(), headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    assert job.commit(cache_id, len(data)).status_code == 200
    assert job.restore("streamed")[1] == data


def test_duplicate_reservations_get_their_own_ids_and_the_newest_commit_wins(server: CacheServer, clock: Clock) -> None:
    job = Job(server, TOKEN_A)
    first = job.save("same", b"first")
    clock.now += 1
    second = job.save("same", b"second")
    assert first != second
    assert job.restore("same") == ("same", b"second")


def test_store_refuses_a_commit_while_a_chunk_is_being_written(tmp_path: Path) -> None:
    store = CacheStore(tmp_path)
    cache_id = store.reserve("o/r", "k", VERSION, 4)
    started, release = threading.Event(), threading.Event()

    class SlowBody:
        def __init__(self) -> None:
            self.parts = [b"01", b"23", b""]

        def read(self, _size: int = -1) -> bytes:
            started.set()
            release.wait(5)
            return self.parts.pop(0) if self.parts else b""

    writer = threading.Thread(target=store.write, args=("o/r", cache_id, 0, 3, SlowBody()))
    writer.start()
    started.wait(5)
    with pytest.raises(CacheError, match="still being written"):
        store.commit("o/r", cache_id, 4)
    release.set()
    writer.join(5)
    assert store.commit("o/r", cache_id, 4) == 4
    assert store.blob_path(cache_id).read_bytes() == b"0123"


def test_stale_reservations_are_pruned_with_their_parts(tmp_path: Path, clock: Clock) -> None:
    store = CacheStore(tmp_path, clock=clock)
    stale = store.reserve("o/r", "k", VERSION, 4)
    clock.now += STALE_RESERVATION + 1
    fresh = store.reserve("o/r", "k", VERSION, 4)
    assert store.get(stale) is None
    assert store.get(fresh) is not None
    assert sorted(path.name for path in (tmp_path / "parts").iterdir()) == [str(fresh)]


def test_entries_unused_for_a_week_or_older_than_a_month_are_pruned(tmp_path: Path, clock: Clock) -> None:
    store = CacheStore(tmp_path, clock=clock)

    def saved(key: str) -> int:
        entry_id = store.reserve("o/r", key, VERSION, 1)
        store.write("o/r", entry_id, 0, 0, io.BytesIO(b"x"))
        store.commit("o/r", entry_id, 1)
        return entry_id

    unused, used = saved("unused"), saved("used")
    clock.now += KEEP_UNUSED - 10
    store.touch(used)
    clock.now += 20
    assert store.prune() == [unused]
    assert not store.blob_path(unused).exists()
    assert store.find("o/r", ["used"], VERSION) is not None
    clock.now += KEEP_USED
    store.touch(used)
    assert store.prune() == [used]
    assert store.find("o/r", ["used"], VERSION) is None


def test_coverage_and_content_range_rules() -> None:
    assert covered([(5, 5), (0, 5)], 10)
    assert covered([(0, 6), (3, 7)], 10)
    assert not covered([(0, 4), (5, 5)], 10)
    assert not covered([(0, 11)], 10)
    assert covered([], 0)
    assert parse_content_range("bytes 0-99/*") == (0, 99)
    assert parse_content_range("bytes 100-199/1000") == (100, 199)
    for bad in (None, "", "bytes 9-1/*", "bytes -1-5/*", "items 0-1/*", "bytes 0-1"):
        with pytest.raises(CacheError):
            parse_content_range(bad)


def test_the_job_gets_actions_cache_url_only_from_a_runner_serving_a_cache(tmp_path: Path) -> None:
    task = runner_pb2.Task()
    with_cache = job_environment(
        task, {}, instance_url="http://f", workspace=tmp_path, temp=tmp_path, base={}, cache_url="http://c:1/"
    )
    inherited = {"ACTIONS_CACHE_URL": "http://cache-of-the-host-job/"}
    without = job_environment(task, {}, instance_url="http://f", workspace=tmp_path, temp=tmp_path, base=inherited)
    assert with_cache["ACTIONS_CACHE_URL"] == "http://c:1/"
    assert "ACTIONS_CACHE_URL" not in without


def test_memory_does_not_grow_with_the_entry_size(server: CacheServer) -> None:
    """A 40 MiB chunk goes to disk and back in pieces: the server never holds it whole."""
    job = Job(server, TOKEN_A)
    size, piece = 40 * 1024 * 1024, os.urandom(65536)
    cache_id = int(job.reserve("big", size).json()["cacheId"])

    def pieces() -> Iterator[bytes]:
        for _ in range(size // len(piece)):
            yield piece

    tracemalloc.start()
    try:
        headers = {"Content-Range": f"bytes 0-{size - 1}/*"}
        answer = job.session.patch(f"{job.base}/caches/{cache_id}", data=pieces(), headers=headers, timeout=60)
        assert answer.status_code == 200, answer.text
        assert job.commit(cache_id, size).status_code == 200
        location = job.find("big").json()["archiveLocation"]
        digest, received = hashlib.sha256(), 0
        with requests.get(location, stream=True, timeout=60) as download:
            for block in download.iter_content(1024 * 1024):
                digest.update(block)
                received += len(block)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert received == size
    assert digest.hexdigest() == hashlib.sha256(piece * (size // len(piece))).hexdigest()
    assert peak < 16 * 1024 * 1024, f"peak {peak} bytes traced while moving {size}"  # constant: ~11 MiB for 10 or 40
