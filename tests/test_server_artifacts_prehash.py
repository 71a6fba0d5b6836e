"""Hashing ahead while blocks arrive: the resumed digest always equals hashing the committed list."""

from __future__ import annotations

import base64
import hashlib
import mmap
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from reference_server.artifacts import prehash

ARTIFACT = 4242
AHEAD = prehash.LOOKAHEAD
COUNT = AHEAD + 6
"""Blocks per upload: unnumbered, the first ``COUNT - AHEAD`` can be hashed ahead, the last ``AHEAD`` are left
to finalize; numbered as the Azure SDK and the mock runner number them, all of them."""


def numbered_id(index: int) -> str:
    """A block id as the Azure SDK makes them: a fixed prefix (ending in a digit here), then the padded index."""
    return base64.b64encode(f"upload-0123456789abcde7{index:016d}".encode()).decode()


def unnumbered_id(index: int) -> str:
    """An id that sorts by index but does not end with it: hashing ahead cannot know what comes next."""
    return base64.b64encode(f"upload-{index:016d}-abcdef".encode()).decode()


block_id = numbered_id


class Staging:
    """A staging folder where blocks land as the upload handler stores them."""

    def __init__(self, folder: Path, make_id: Callable[[int], str] = numbered_id) -> None:
        self.folder = folder
        self.make_id = make_id
        self.data: dict[str, bytes] = {}

    def _land(self, index: int, data: bytes) -> Path:
        path = self.folder / f"block-{index}"
        tmp = self.folder / f".tmp-{index}-{os.urandom(4).hex()}"
        tmp.write_bytes(data)
        tmp.replace(path)
        self.data[self.make_id(index)] = data
        return path

    def put(self, index: int, data: bytes) -> None:
        """Store a block without hashing it on the way (the background thread may hash it)."""
        prehash.block_stored(self.folder, ARTIFACT, self.make_id(index), self._land(index, data))

    def claim(self, index: int) -> prehash.Claim | None:
        return prehash.claim(self.folder, ARTIFACT, self.make_id(index))

    def put_claimed(self, index: int, data: bytes, claim: prehash.Claim, hashed: bytes | None = None) -> None:
        """Store a block hashed while written, as the upload handler does (``hashed``: what the hasher saw)."""
        claim.state.update(data if hashed is None else hashed)
        path = self._land(index, data)
        prehash.block_stored(self.folder, ARTIFACT, self.make_id(index), path, claim=claim, size=len(data))

    def expected(self, order: list[int]) -> str:
        return hashlib.sha256(b"".join(self.data[self.make_id(i)] for i in order)).hexdigest()

    def finish(self, order: list[int], wait: float = 0.0) -> tuple[int, str]:
        """What finalize computes: the resumed prefix, then the remaining blocks hashed here."""
        ids = [self.make_id(i) for i in order]
        resume = prehash.resume_point(self.folder, ARTIFACT, ids, wait=wait)
        state = resume.state
        for ident in ids[resume.count :]:
            state.update(self.data[ident])
        return resume.count, state.hexdigest()


def settle(staging: Staging, order: list[int], wanted: int, timeout: float = 10.0) -> int:
    """Wait until the background hasher covers ``wanted`` blocks of ``order`` (or time runs out)."""
    ids = [staging.make_id(i) for i in order]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        count = prehash.resume_point(staging.folder, ARTIFACT, ids).count
        if count >= wanted:
            return count
        time.sleep(0.01)
    return prehash.resume_point(staging.folder, ARTIFACT, ids).count


@pytest.fixture
def staging(tmp_path: Path) -> Iterator[Staging]:
    prehash.forget(ARTIFACT)
    yield Staging(tmp_path)
    prehash.forget(ARTIFACT)


@pytest.fixture
def unnumbered(tmp_path: Path) -> Iterator[Staging]:
    prehash.forget(ARTIFACT)
    yield Staging(tmp_path, unnumbered_id)
    prehash.forget(ARTIFACT)


def test_numbered_blocks_in_order_are_all_hashed_ahead(staging: Staging) -> None:
    for index in range(COUNT):
        staging.put(index, os.urandom(100_000))
    order = list(range(COUNT))
    assert settle(staging, order, COUNT) == COUNT
    assert staging.finish(order) == (COUNT, staging.expected(order))


def test_unnumbered_blocks_in_order_are_hashed_ahead_but_the_last_few(unnumbered: Staging) -> None:
    for index in range(COUNT):
        unnumbered.put(index, os.urandom(100_000))
    order = list(range(COUNT))
    assert settle(unnumbered, order, COUNT - AHEAD) == COUNT - AHEAD
    time.sleep(0.05)
    assert unnumbered.finish(order) == (COUNT - AHEAD, unnumbered.expected(order))


def test_a_numbered_block_waits_for_its_predecessor(staging: Staging) -> None:
    for index in (1, 2, 3):
        staging.put(index, os.urandom(10_000))
    time.sleep(0.1)
    assert prehash.resume_point(staging.folder, ARTIFACT, [block_id(i) for i in (1, 2, 3)]).count == 0
    staging.put(0, os.urandom(10_000))
    assert settle(staging, [0, 1, 2, 3], 4) == 4
    assert staging.finish([0, 1, 2, 3]) == (4, staging.expected([0, 1, 2, 3]))


@pytest.mark.parametrize("fixture", ["staging", "unnumbered"])
def test_out_of_order_arrival_is_repaired(fixture: str, request: pytest.FixtureRequest) -> None:
    staging: Staging = request.getfixturevalue(fixture)
    hashed = COUNT if fixture == "staging" else COUNT - AHEAD
    arrival = list(range(COUNT))
    arrival[1], arrival[4] = arrival[4], arrival[1]
    arrival[0], arrival[9] = arrival[9], arrival[0]
    for index in arrival:
        staging.put(index, os.urandom(50_000))
    order = list(range(COUNT))
    assert settle(staging, order, hashed) == hashed
    assert staging.finish(order) == (hashed, staging.expected(order))


@pytest.mark.parametrize("fixture", ["staging", "unnumbered"])
def test_a_block_arriving_late_inside_the_hashed_range_is_repaired(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    staging: Staging = request.getfixturevalue(fixture)
    hashed = COUNT if fixture == "staging" else COUNT - AHEAD
    order = list(range(COUNT))
    for index in order:
        if index != 2:
            staging.put(index, os.urandom(50_000))
    settle(staging, order, 2)
    staging.put(2, os.urandom(50_000))
    assert settle(staging, order, hashed) == hashed
    assert staging.finish(order) == (hashed, staging.expected(order))


def test_a_reuploaded_block_is_hashed_again(staging: Staging) -> None:
    for index in range(COUNT):
        staging.put(index, bytes([index]) * 30_000)
    order = list(range(COUNT))
    settle(staging, order, COUNT - AHEAD)
    staging.put(1, b"replacement")
    settle(staging, order, COUNT - AHEAD)
    assert staging.finish(order)[1] == staging.expected(order)


def test_a_committed_order_other_than_the_guess_is_hashed_in_full(staging: Staging) -> None:
    for index in range(COUNT):
        staging.put(index, os.urandom(20_000))
    settle(staging, list(range(COUNT)), COUNT - AHEAD)
    reverse = list(reversed(range(COUNT)))
    assert staging.finish(reverse) == (0, staging.expected(reverse))
    assert staging.finish([0, 2, 1]) == (1, staging.expected([0, 2, 1]))


def test_forgetting_an_upload_drops_its_states(staging: Staging) -> None:
    for index in range(COUNT):
        staging.put(index, b"abc")
    settle(staging, list(range(COUNT)), 1)
    prehash.forget(ARTIFACT)
    assert prehash.resume_point(staging.folder, ARTIFACT, [block_id(0)]).count == 0


def test_states_of_another_staging_folder_are_not_used(staging: Staging, tmp_path: Path) -> None:
    for index in range(COUNT):
        staging.put(index, b"first instance")
    settle(staging, list(range(COUNT)), COUNT - AHEAD)
    other = tmp_path / "other-instance"
    other.mkdir()
    assert prehash.resume_point(other, ARTIFACT, [block_id(0)]).count == 0


def test_a_vanished_block_stops_hashing_without_harm(staging: Staging) -> None:
    for index in range(COUNT):
        if index != 3:
            staging.put(index, bytes([index]) * 1000)
    settle(staging, list(range(COUNT)), 2)
    (staging.folder / "block-5").unlink()
    staging.put(3, b"late")
    order = list(range(COUNT))
    resumed, digest = staging.finish(order)
    assert digest == staging.expected(order)
    assert resumed <= 5


def test_a_block_claimed_in_order_is_hashed_from_what_was_written(staging: Staging) -> None:
    first = staging.claim(0)
    assert first is not None
    staging.put_claimed(0, b"first block", first, hashed=b"what the handler hashed")
    second = staging.claim(1)
    assert second is not None
    staging.put_claimed(1, b"second block", second)
    want = hashlib.sha256(b"what the handler hashed" + b"second block").hexdigest()
    assert staging.finish([0, 1]) == (2, want)  # the bytes on disk were not read again


def test_only_the_certain_next_block_can_be_claimed(staging: Staging) -> None:
    assert staging.claim(1) is None  # block 0 may still come
    held = staging.claim(0)
    assert held is not None
    assert staging.claim(0) is None  # one hasher at a time
    staging.put_claimed(0, b"zero", held)
    assert staging.claim(2) is None
    again = staging.claim(1)
    assert again is not None
    prehash.abandon(again)  # its body failed: it can be claimed again
    assert staging.claim(1) is not None


def test_unnumbered_blocks_are_never_claimed(unnumbered: Staging) -> None:
    assert unnumbered.claim(0) is None


def test_a_reuploaded_block_is_not_claimed(staging: Staging) -> None:
    staging.put(0, b"zero")
    assert settle(staging, [0], 1) == 1
    assert staging.claim(0) is None
    staging.put(0, b"replaced")
    assert settle(staging, [0], 1) == 1
    assert staging.finish([0]) == (1, staging.expected([0]))


def test_a_claim_overtaken_by_an_earlier_block_is_dropped(staging: Staging) -> None:
    staging.put(0, b"zero")
    settle(staging, [0], 1)
    held = staging.claim(1)
    assert held is not None
    staging.put(0, b"zero, uploaded again while block 1 was being written")
    staging.put_claimed(1, b"one", held)
    assert settle(staging, [0, 1], 2) == 2
    assert staging.finish([0, 1]) == (2, staging.expected([0, 1]))


def test_finalize_waits_for_the_block_being_hashed_instead_of_hashing_it_again(staging: Staging) -> None:
    held = staging.claim(0)
    assert held is not None
    staging.data[block_id(0)] = b"zero"
    staging.data[block_id(1)] = b"one"
    assert staging.finish([0, 1], wait=0.0)[0] == 0  # no wait asked: nothing hashed yet
    results: list[tuple[int, str]] = []
    waiter = threading.Thread(target=lambda: results.append(staging.finish([0, 1], wait=10.0)))
    waiter.start()
    time.sleep(0.2)
    assert not results
    staging.put_claimed(0, b"zero", held)
    waiter.join(10)
    assert results == [(1, staging.expected([0, 1]))]


def test_finalize_does_not_wait_for_a_block_outside_its_order(staging: Staging) -> None:
    held = staging.claim(0)
    assert held is not None
    staging.data[block_id(5)] = b"five"
    started = time.monotonic()
    assert staging.finish([5], wait=5.0) == (0, staging.expected([5]))
    assert time.monotonic() - started < 1
    prehash.abandon(held)


@pytest.mark.parametrize("size", [0, 1, 4096, prehash.MAPPED_WINDOW + 12345])
def test_a_stored_file_hashes_mapped_to_its_bytes(tmp_path: Path, size: int) -> None:
    """Mapped hashing crosses window boundaries and handles an empty file: the digest is the file's."""
    data = os.urandom(min(size, 1 << 16)) * (size // (1 << 16) + 1)
    path = tmp_path / "part"
    path.write_bytes(data[:size])
    state = hashlib.sha256(b"prefix")
    assert prehash.hash_file(path, state) == size
    assert state.hexdigest() == hashlib.sha256(b"prefix" + data[:size]).hexdigest()


def test_a_file_that_cannot_be_mapped_is_read_instead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("no mmap here")

    monkeypatch.setattr(mmap, "mmap", refuse)
    path = tmp_path / "part"
    path.write_bytes(b"x" * 3_000_000)
    state = hashlib.sha256()
    assert prehash.hash_file(path, state, bytearray(1 << 20)) == 3_000_000
    assert state.hexdigest() == hashlib.sha256(b"x" * 3_000_000).hexdigest()
