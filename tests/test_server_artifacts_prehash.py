"""Hashing ahead while blocks arrive: the resumed digest always equals hashing the committed list."""

from __future__ import annotations

import base64
import hashlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reference_server.artifacts import prehash

ARTIFACT = 4242
AHEAD = prehash.LOOKAHEAD
COUNT = AHEAD + 6
"""Blocks per upload: the first ``COUNT - AHEAD`` can be hashed ahead, the last ``AHEAD`` are left to finalize."""


def block_id(index: int) -> str:
    return base64.b64encode(f"upload-0123456789abcdef{index:016d}".encode()).decode()


class Staging:
    """A staging folder where blocks land as the upload handler stores them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data: dict[str, bytes] = {}

    def put(self, index: int, data: bytes) -> None:
        ident = block_id(index)
        path = self.folder / f"block-{index}"
        tmp = self.folder / f".tmp-{index}-{os.urandom(4).hex()}"
        tmp.write_bytes(data)
        tmp.replace(path)
        self.data[ident] = data
        prehash.block_stored(self.folder, ARTIFACT, ident, path)

    def expected(self, order: list[int]) -> str:
        return hashlib.sha256(b"".join(self.data[block_id(i)] for i in order)).hexdigest()

    def finish(self, order: list[int]) -> tuple[int, str]:
        """What finalize computes: the resumed prefix, then the remaining blocks hashed here."""
        ids = [block_id(i) for i in order]
        resume = prehash.resume_point(self.folder, ARTIFACT, ids)
        state = resume.state
        for ident in ids[resume.count :]:
            state.update(self.data[ident])
        return resume.count, state.hexdigest()


def settle(staging: Staging, order: list[int], wanted: int, timeout: float = 10.0) -> int:
    """Wait until the background hasher covers ``wanted`` blocks of ``order`` (or time runs out)."""
    ids = [block_id(i) for i in order]
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


def test_blocks_in_order_are_hashed_ahead_but_the_last_few(staging: Staging) -> None:
    for index in range(COUNT):
        staging.put(index, os.urandom(100_000))
    order = list(range(COUNT))
    assert settle(staging, order, COUNT - AHEAD) == COUNT - AHEAD
    time.sleep(0.05)
    assert staging.finish(order) == (COUNT - AHEAD, staging.expected(order))


def test_out_of_order_arrival_is_repaired(staging: Staging) -> None:
    arrival = list(range(COUNT))
    arrival[1], arrival[4] = arrival[4], arrival[1]
    arrival[0], arrival[9] = arrival[9], arrival[0]
    for index in arrival:
        staging.put(index, os.urandom(50_000))
    order = list(range(COUNT))
    assert settle(staging, order, COUNT - AHEAD) == COUNT - AHEAD
    assert staging.finish(order) == (COUNT - AHEAD, staging.expected(order))


def test_a_block_arriving_late_inside_the_hashed_range_is_repaired(staging: Staging) -> None:
    order = list(range(COUNT))
    for index in order:
        if index != 2:
            staging.put(index, os.urandom(50_000))
    settle(staging, order, 2)
    staging.put(2, os.urandom(50_000))
    assert settle(staging, order, COUNT - AHEAD) == COUNT - AHEAD
    assert staging.finish(order) == (COUNT - AHEAD, staging.expected(order))


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
