"""Reports one task to the server while it runs: log rows, step states, outputs, heartbeat, cancellation.

Like act_runner's reporter: every interval it flushes the log and sends the whole ``TaskState`` with the
outputs not yet acknowledged; an answer of ``RESULT_CANCELLED`` means the server stopped the job. At the
end it flushes with ``no_more`` and sends the result, retrying until the server has both.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

from forge_proto import runner_pb2
from google.protobuf.timestamp_pb2 import Timestamp

from .logs import LogReporter, Masker
from .protocol import RunnerCallError, RunnerClient

__all__ = ["RESULT_NAMES", "TaskReporter", "result_name"]

log = logging.getLogger("mock_runner.reporter")

RESULT_NAMES: dict[int, str] = {
    runner_pb2.RESULT_UNSPECIFIED: "unspecified",
    runner_pb2.RESULT_SUCCESS: "success",
    runner_pb2.RESULT_FAILURE: "failure",
    runner_pb2.RESULT_CANCELLED: "cancelled",
    runner_pb2.RESULT_SKIPPED: "skipped",
}


def result_name(result: int) -> str:
    """``success``, ``failure``... for a ``runner.v1.Result`` value."""
    return RESULT_NAMES.get(result, f"result {result}")


def _now_stamp(clock: Callable[[], datetime]) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(clock())
    return stamp


class TaskReporter:
    """State of one running task as the server should see it, kept in sync by a background thread."""

    def __init__(
        self,
        client: RunnerClient,
        task_id: int,
        masker: Masker | None = None,
        *,
        interval: float = 1.0,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        echo: Callable[[str], None] | None = None,
    ) -> None:
        self.client = client
        self.task_id = task_id
        self.interval = interval
        self.clock = clock
        self.logs = LogReporter(task_id, client.update_log, masker, clock=clock, echo=echo)
        self.state = runner_pb2.TaskState(id=task_id, started_at=_now_stamp(clock))
        self.cancelled = threading.Event()
        self._lock = threading.RLock()
        self._outputs: dict[str, str] = {}
        self._sent_outputs: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- what the executor tells us -------------------------------------------------------------
    def write(self, text: str) -> None:
        """Add log lines."""
        self.logs.write(text)

    def set_steps(self, count: int) -> None:
        """Declare the job's steps (``StepState.id`` is the step index)."""
        with self._lock:
            del self.state.steps[:]
            self.state.steps.extend(runner_pb2.StepState(id=index) for index in range(count))

    def step_started(self, index: int) -> None:
        with self._lock:
            step = self.state.steps[index]
            step.started_at.CopyFrom(_now_stamp(self.clock))
            step.log_index = self.logs.count

    def step_finished(self, index: int, result: int) -> None:
        with self._lock:
            step = self.state.steps[index]
            if not step.HasField("started_at"):
                step.log_index = self.logs.count
            step.stopped_at.CopyFrom(_now_stamp(self.clock))
            step.log_length = self.logs.count - step.log_index
            step.result = result  # type: ignore[assignment]

    def set_outputs(self, outputs: Mapping[str, str]) -> None:
        """Job outputs to send (each once; the server keeps the first value it receives)."""
        with self._lock:
            for key, value in outputs.items():
                if key not in self._sent_outputs:
                    self._outputs[key] = value

    # --- talking to the server ------------------------------------------------------------------
    def _snapshot(self) -> tuple[runner_pb2.TaskState, dict[str, str]]:
        with self._lock:
            state = runner_pb2.TaskState()
            state.CopyFrom(self.state)
            count = self.logs.count
            for step in state.steps:
                if step.HasField("started_at") and not step.HasField("stopped_at"):
                    step.log_length = count - step.log_index
            return state, {k: v for k, v in self._outputs.items() if k not in self._sent_outputs}

    def report_state(self) -> bool:
        """One ``UpdateTask``; True when every output is acknowledged. Notes a server-side cancel."""
        state, outputs = self._snapshot()
        reply = self.client.update_task(state, outputs)
        with self._lock:
            self._sent_outputs.update(reply.sent_outputs)
            for key in reply.sent_outputs:
                self._outputs.pop(key, None)
            pending = bool(self._outputs)
        if reply.state.result == runner_pb2.RESULT_CANCELLED and state.result != runner_pb2.RESULT_CANCELLED:
            if not self.cancelled.is_set():
                log.warning("task %d was cancelled by the server", self.task_id)
            self.cancelled.set()
        return not pending

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.logs.flush()
                self.report_state()
            except RunnerCallError as exc:
                log.warning("task %d: report failed: %s", self.task_id, exc)

    def start(self) -> None:
        """Start the periodic reports (heartbeat): the server then knows the task is alive."""
        self._thread = threading.Thread(target=self._loop, name=f"report-task-{self.task_id}", daemon=True)
        self._thread.start()

    def close(self, result: int, *, last_line: str = "", attempts: int = 10) -> bool:
        """Send the rest of the log with ``no_more`` and the final state; True when the server has both.

        ``last_line`` is written once the periodic reports have stopped, so the ``no_more`` call carries at
        least one row: Gitea ignores ``no_more`` on a call without rows and would never close the log.
        """
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if last_line:
            self.logs.write(last_line)
        with self._lock:
            stopped = _now_stamp(self.clock)
            for step in self.state.steps:
                if step.result == runner_pb2.RESULT_UNSPECIFIED:
                    step.result = runner_pb2.RESULT_CANCELLED if step.HasField("started_at") else result  # type: ignore[assignment]
                    if step.HasField("started_at"):
                        step.stopped_at.CopyFrom(stopped)
                        step.log_length = self.logs.count - step.log_index
            self.state.result = result  # type: ignore[assignment]
            self.state.stopped_at.CopyFrom(stopped)
        logs_done = state_done = False
        for attempt in range(attempts):
            try:
                logs_done = logs_done or self.logs.flush(no_more=True)
                if logs_done:
                    state_done = self.report_state()
                if logs_done and state_done:
                    return True
            except RunnerCallError as exc:
                log.warning("task %d: final report failed (attempt %d): %s", self.task_id, attempt + 1, exc)
            time.sleep(min(0.2 * 2**attempt, 5.0))
        log.error("task %d: the server never acknowledged the end of the task", self.task_id)
        return False
