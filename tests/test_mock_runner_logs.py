"""Log rows and task state reporting: indexes, acknowledgements, resends, no_more, outputs, cancellation."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Mapping

from forge_proto import runner_pb2

from mock_runner.logs import MAX_ROWS_PER_CALL, LogReporter, Masker
from mock_runner.protocol import RunnerCallError
from mock_runner.reporter import TaskReporter


class FakeLogServer:
    """Gitea's UpdateLog rules: append rows[ack-index:], ignore gaps and duplicates, stop after no_more."""

    def __init__(self, lose_replies: int = 0) -> None:
        self.stored: list[str] = []
        self.calls: list[tuple[int, int, bool]] = []
        self.archived = False
        self.lose_replies = lose_replies

    def __call__(self, task_id: int, index: int, rows: list[runner_pb2.LogRow], no_more: bool) -> int:
        self.calls.append((index, len(rows), no_more))
        ack = len(self.stored)
        if rows and index <= ack < index + len(rows):
            assert not self.archived, "rows after no_more"
            self.stored.extend(row.content for row in rows[ack - index :])
            if no_more:
                self.archived = True
        if self.lose_replies:
            self.lose_replies -= 1
            raise RunnerCallError(0, "unavailable", "reply lost")
        return len(self.stored)


def test_rows_are_sent_from_the_acknowledged_index_once() -> None:
    server = FakeLogServer()
    logs = LogReporter(1, server)
    logs.write("one\ntwo\n")
    assert logs.flush()
    logs.write("three")
    assert logs.flush()
    assert logs.flush()  # nothing pending: no call
    assert server.calls == [(0, 2, False), (2, 1, False)]
    assert server.stored == ["one", "two", "three"]
    assert logs.acknowledged == 3


def test_a_lost_reply_resends_without_duplicating() -> None:
    server = FakeLogServer(lose_replies=1)
    logs = LogReporter(1, server)
    logs.write("a\nb")
    with contextlib.suppress(RunnerCallError):
        logs.flush()
    logs.write("c")
    assert logs.flush(no_more=True)
    assert server.stored == ["a", "b", "c"]
    assert server.calls[-1] == (0, 3, True)
    assert server.archived


def test_partial_acknowledgement_keeps_the_rest_pending() -> None:
    acks = iter([1, 3])
    calls: list[tuple[int, int]] = []

    def update(task_id: int, index: int, rows: list[runner_pb2.LogRow], no_more: bool) -> int:
        calls.append((index, len(rows)))
        return next(acks)

    logs = LogReporter(1, update)
    logs.write("a\nb\nc")
    assert not logs.flush()
    assert logs.flush()
    assert calls == [(0, 3), (1, 2)]


def test_large_logs_go_in_bounded_batches_and_no_more_only_on_the_last() -> None:
    server = FakeLogServer()
    logs = LogReporter(1, server)
    logs.write("\n".join(str(n) for n in range(MAX_ROWS_PER_CALL + 5)))
    assert logs.flush(no_more=True)
    assert server.calls == [(0, MAX_ROWS_PER_CALL, False), (MAX_ROWS_PER_CALL, 5, True)]
    assert len(server.stored) == MAX_ROWS_PER_CALL + 5


def test_secrets_are_masked_in_rows_and_lines() -> None:
    server = FakeLogServer()
    masker = Masker(["hunter2", "line1\nline2"])
    logs = LogReporter(1, server, masker)
    logs.write("password=hunter2 and line2")
    masker.add("later")
    logs.write("later on")
    logs.flush()
    assert server.stored == ["password=*** and ***", "*** on"]
    assert logs.lines == server.stored


class FakeClient:
    """UpdateTask/UpdateLog of a server that may cancel the task."""

    def __init__(self) -> None:
        self.log = FakeLogServer()
        self.states: list[runner_pb2.TaskState] = []
        self.outputs: dict[str, str] = {}
        self.cancel = False

    def update_log(self, task_id: int, index: int, rows: list[runner_pb2.LogRow], no_more: bool) -> int:
        return self.log(task_id, index, rows, no_more)

    def update_task(
        self, state: runner_pb2.TaskState, outputs: Mapping[str, str] | None = None
    ) -> runner_pb2.UpdateTaskResponse:
        copy = runner_pb2.TaskState()
        copy.CopyFrom(state)
        self.states.append(copy)
        for key, value in (outputs or {}).items():
            self.outputs.setdefault(key, value)
        result = runner_pb2.RESULT_CANCELLED if self.cancel else state.result
        return runner_pb2.UpdateTaskResponse(
            state=runner_pb2.TaskState(id=state.id, result=result), sent_outputs=sorted(self.outputs)
        )


def test_task_reporter_sends_steps_outputs_and_the_result() -> None:
    client = FakeClient()
    reporter = TaskReporter(client, 5)  # type: ignore[arg-type]
    reporter.set_steps(2)
    reporter.write("setup")
    reporter.step_started(0)
    reporter.write("step zero\nmore")
    reporter.step_finished(0, runner_pb2.RESULT_SUCCESS)
    reporter.step_finished(1, runner_pb2.RESULT_SKIPPED)
    reporter.set_outputs({"version": "1.0"})
    assert reporter.close(runner_pb2.RESULT_SUCCESS)
    final = client.states[-1]
    assert final.id == 5 and final.result == runner_pb2.RESULT_SUCCESS and final.HasField("stopped_at")
    assert [(s.id, s.result, s.log_index, s.log_length) for s in final.steps] == [
        (0, runner_pb2.RESULT_SUCCESS, 1, 2),
        (1, runner_pb2.RESULT_SKIPPED, 3, 0),
    ]
    assert client.outputs == {"version": "1.0"}
    assert client.log.stored == ["setup", "step zero", "more"]
    assert client.log.archived  # the last call carried rows and no_more


def test_task_reporter_notices_a_server_side_cancel_through_the_heartbeat() -> None:
    client = FakeClient()
    reporter = TaskReporter(client, 6, interval=0.05)  # type: ignore[arg-type]
    reporter.start()
    client.cancel = True
    assert reporter.cancelled.wait(2.0)
    reporter.close(runner_pb2.RESULT_CANCELLED)
    assert len(client.states) >= 2


def test_unfinished_steps_are_cancelled_at_close() -> None:
    client = FakeClient()
    reporter = TaskReporter(client, 7)  # type: ignore[arg-type]
    reporter.set_steps(1)
    reporter.step_started(0)
    reporter.write("x")
    reporter.close(runner_pb2.RESULT_FAILURE)
    step = client.states[-1].steps[0]
    assert step.result == runner_pb2.RESULT_CANCELLED
    assert step.log_length == 1


def test_the_closing_call_carries_rows_so_gitea_applies_no_more() -> None:
    client = FakeClient()
    reporter = TaskReporter(client, 8, interval=0.01)  # type: ignore[arg-type]
    reporter.start()
    reporter.write("all of this is flushed by the heartbeat")
    for _ in range(200):
        if client.log.stored:
            break
        threading.Event().wait(0.01)
    assert client.log.stored
    assert reporter.close(runner_pb2.RESULT_SUCCESS, last_line="done")
    index, rows, no_more = client.log.calls[-1]
    assert (index, rows, no_more) == (1, 1, True)
    assert client.log.archived
    assert client.log.stored == ["all of this is flushed by the heartbeat", "done"]
