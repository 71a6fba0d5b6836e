"""The runner's main loop, as act_runner's daemon: declare, poll with ``tasks_version``, run, report.

``Daemon.run_once`` is the library entry point the BDD steps use: it takes at most one task within the
timeout, runs it to the end and returns what happened.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forge_proto import runner_pb2

from .cache_server import CacheServer
from .executor import execute_job, run_process, stop_leftover_processes
from .hostexec import REFUSAL, host_execution_allowed, is_loopback_url
from .jobenv import (
    JobRuntime,
    StepError,
    job_environment,
    masker_for,
    runtime_token,
    task_context,
    trusted_by_artifact_client,
)
from .logs import Masker
from .protocol import Codec, RunnerCallError, RunnerClient
from .reporter import TaskReporter, result_name
from .runnerfile import RunnerFile, parse_label
from .workflow import WorkflowError, parse_payload

__all__ = ["TRANSIENT_CODES", "Daemon", "TaskOutcome", "exit_status"]

log = logging.getLogger("mock_runner.daemon")

TRANSIENT_CODES = frozenset({"unavailable", "deadline_exceeded", "resource_exhausted"})


@dataclass(frozen=True)
class TaskOutcome:
    """One finished task: its id, the ``runner.v1.Result`` reported, and every log line sent."""

    task_id: int
    result: int
    log_lines: list[str]

    @property
    def result_name(self) -> str:
        return result_name(self.result)


def exit_status(result: int) -> int:
    """The process status for a job result: 0 success or skipped, 1 failure, 3 cancelled."""
    statuses: dict[int, int] = {
        runner_pb2.RESULT_SUCCESS: 0,
        runner_pb2.RESULT_SKIPPED: 0,
        runner_pb2.RESULT_CANCELLED: 3,
    }
    return statuses.get(result, 1)


class Daemon:
    """A registered runner (from its ``.runner`` file) taking and running tasks."""

    def __init__(
        self,
        runner_file_path: str | Path = ".runner",
        *,
        workdir: str | Path | None = None,
        capacity: int = 1,
        fetch_interval: float = 2.0,
        fetch_timeout: float = 5.0,
        report_interval: float = 1.0,
        codec: Codec = "proto",
        keep_workdir: bool = False,
        echo: Callable[[str], None] | None = None,
        allow_host_execution: bool | None = None,
        cache: CacheServer | None = None,
    ) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.runner = RunnerFile.load(runner_file_path)
        self.allow_host_execution = host_execution_allowed(self.runner.address, allow_host_execution)
        if not self.allow_host_execution:
            log.warning("run: steps of %s will not be executed: %s", self.runner.address, REFUSAL)
        elif not is_loopback_url(self.runner.address):
            log.warning("run: steps of %s will run with bash on this host, as this user", self.runner.address)
        self.client = RunnerClient(self.runner.address, self.runner.uuid, self.runner.token, codec=codec)
        default_workdir = Path(tempfile.gettempdir()) / "mock-runner" / self.runner.uuid[:8]
        self.workdir = Path(workdir) if workdir is not None else default_workdir
        self.capacity = capacity
        self.fetch_interval = fetch_interval
        self.fetch_timeout = fetch_timeout
        self.report_interval = report_interval
        self.keep_workdir = keep_workdir
        self.echo = echo
        self.stopping = threading.Event()
        self.tasks_version = 0
        self._version_lock = threading.Lock()
        self._pace_lock = threading.Lock()
        self._next_poll = 0.0
        self._declared = False
        self._active: dict[int, TaskReporter] = {}
        self._active_lock = threading.Lock()
        self.cache = cache
        """The cache served to jobs (``ACTIONS_CACHE_URL``); the daemon's owner starts and closes it."""
        self._cache_revokers: dict[int, Callable[[], None]] = {}

    # --- protocol -------------------------------------------------------------------------------
    def declare(self) -> None:
        """Declare labels and version once, as act_runner does at start (tolerating servers without it)."""
        if self._declared:
            return
        for label in self.runner.labels:
            if parse_label(label).schema != "host":
                log.warning("label %r asks for a container; mock-runner runs every job on the host", label)
        try:
            self.client.declare(self.runner.label_names)
        except RunnerCallError as exc:
            if exc.code != "unimplemented":
                raise
            log.warning("the server does not implement Declare (Gitea before 1.21); continuing")
        self._declared = True

    def fetch(self) -> runner_pb2.Task | None:
        """One FetchTask: keep the largest tasks version seen, and reset it to 0 after a task."""
        with self._version_lock:
            version = self.tasks_version
        task, server_version = self.client.fetch_task(version, timeout=self.fetch_timeout)
        with self._version_lock:
            if task is not None:
                self.tasks_version = 0
            elif server_version > self.tasks_version:
                self.tasks_version = server_version
        return task

    def _pace(self) -> bool:
        """Wait for this poller's turn (one request per ``fetch_interval`` overall); False when stopping."""
        with self._pace_lock:
            now = time.monotonic()
            wait = max(0.0, self._next_poll - now)
            self._next_poll = max(now, self._next_poll) + self.fetch_interval
        return not self.stopping.wait(wait)

    def wait_for_task(self, timeout: float | None, *, raise_errors: bool = True) -> runner_pb2.Task | None:
        """Poll until a task comes, the timeout passes or the daemon stops."""
        deadline = time.monotonic() + timeout if timeout is not None else None
        while not self.stopping.is_set():
            try:
                task = self.fetch()
            except RunnerCallError as exc:
                if raise_errors and exc.code not in TRANSIENT_CODES and exc.status not in (429, 502, 503, 504):
                    raise
                log.warning("FetchTask failed: %s", exc)
                task = None
            if task is not None:
                return task
            if deadline is not None and time.monotonic() >= deadline:
                return None
            if not self._pace():
                return None
        return None

    # --- running tasks --------------------------------------------------------------------------
    def _reporter(self, task: runner_pb2.Task) -> tuple[TaskReporter, dict[str, Any], Masker]:
        """The task's reporter, registered so that ``stop`` can cancel the task."""
        context = task_context(task)
        masker = masker_for(task, context)
        echo = self.echo
        if echo is not None and self.capacity > 1:
            plain = echo

            def echo(line: str) -> None:  # jobs run side by side: say which one each line is from
                plain(f"[task {task.id}] {line}")

        reporter = TaskReporter(self.client, task.id, masker, interval=self.report_interval, echo=echo)
        with self._active_lock:
            self._active[task.id] = reporter
            if self.cache is not None:  # the job's runtime token opens its repository's cache while it runs
                repo = str(context.get("repository") or "")
                self._cache_revokers[task.id] = self.cache.register_job(runtime_token(task, context), repo)
        if self.stopping.is_set():
            reporter.cancelled.set()
        return reporter, context, masker

    def _prepare(self, task: runner_pb2.Task) -> tuple[TaskReporter, JobRuntime | None, Path | None]:
        """Reporter and workspace; without a workspace (disk trouble) the runtime is None and the log says why."""
        reporter, context, masker = self._reporter(task)
        try:
            base = Path(tempfile.mkdtemp(prefix=f"task-{task.id}-", dir=self._workdir()))
            workspace, temp = base / "workspace", base / "temp"
            workspace.mkdir()
            temp.mkdir()
        except OSError as exc:
            reporter.write(f"Error: mock-runner cannot make the task's workspace under {self.workdir}: {exc}")
            return reporter, None, None
        runtime = JobRuntime(
            task=task,
            context=context,
            instance_url=self.runner.address,
            workspace=workspace,
            temp=temp,
            write=reporter.write,
            masker=masker,
            cancelled=reporter.cancelled,
            allow_host_execution=self.allow_host_execution,
            cache_url=self.cache.url if self.cache is not None else "",
        )
        return reporter, runtime, base

    def _workdir(self) -> Path:
        self.workdir.mkdir(parents=True, exist_ok=True)
        return self.workdir

    def _finish(self, task: runner_pb2.Task, reporter: TaskReporter, result: int, base: Path | None) -> TaskOutcome:
        reporter.close(result, last_line=f"mock-runner reports task {task.id} as {result_name(result)}")
        with self._active_lock:
            self._active.pop(task.id, None)
            revoke = self._cache_revokers.pop(task.id, None)
        if revoke is not None:
            revoke()
        if base is not None and not self.keep_workdir:
            shutil.rmtree(base, ignore_errors=True)
        return TaskOutcome(task_id=task.id, result=result, log_lines=list(reporter.logs.lines))

    def execute(self, task: runner_pb2.Task) -> TaskOutcome:
        """Run the task's job in host mode, reporting as it goes; always ends with a reported result."""
        reporter, runtime, base = self._prepare(task)
        if runtime is None:
            return self._finish(task, reporter, runner_pb2.RESULT_FAILURE, None)
        reporter.start()
        try:
            result = execute_job(task, runtime, reporter, runner_name=self.runner.name)
        except Exception as exc:  # the task must still be closed and reported
            log.exception("task %d failed inside mock-runner", task.id)
            reporter.write(f"Error: mock-runner failed: {type(exc).__name__}: {exc}")
            result = runner_pb2.RESULT_FAILURE
        if reporter.cancelled.is_set():
            result = runner_pb2.RESULT_CANCELLED
        return self._finish(task, reporter, result, base)

    def run_command(
        self, task: runner_pb2.Task, argv: Sequence[str], *, keep_server_url: bool = False
    ) -> tuple[TaskOutcome, int]:
        """Run ``argv`` as the whole job (``mock-runner exec``); returns the outcome and the command's status."""

        def command(runtime: JobRuntime, env: dict[str, str]) -> int:
            runtime.write(f"mock-runner exec: {' '.join(argv)}")
            try:
                code = run_process(list(argv), runtime.workspace, env, runtime, timeout=None)
            except StepError as exc:
                runtime.write(f"Error: {exc}")
                return 127
            finally:
                stop_leftover_processes(runtime)
            return 143 if code is None else (128 - code if code < 0 else code)

        return self.run_callable(task, command, keep_server_url=keep_server_url)

    def run_callable(
        self,
        task: runner_pb2.Task,
        body: Callable[[JobRuntime, dict[str, str]], int],
        *,
        keep_server_url: bool = False,
    ) -> tuple[TaskOutcome, int]:
        """Run ``body(runtime, env)`` in this process as the whole job; its return value is the exit status.

        The job gets the environment a step would (runtime token, results URL, ``GITHUB_*``), so a
        library such as :class:`mock_runner.artifacts.ArtifactClient` can act as the job without a
        child process: how benchmarks run many jobs at once and measure them from one process.
        """
        reporter, runtime, base = self._prepare(task)
        if runtime is None:
            return self._finish(task, reporter, runner_pb2.RESULT_FAILURE, None), 1
        try:
            steps = len(parse_payload(task.workflow_payload).job.steps)
        except WorkflowError:
            steps = 0
        reporter.set_steps(steps)
        reporter.start()
        status = 1
        try:
            env = job_environment(
                task,
                runtime.context,
                instance_url=self.runner.address,
                workspace=runtime.workspace,
                temp=runtime.temp,
                runner_name=self.runner.name,
                cache_url=runtime.cache_url,
            )
            if not keep_server_url and not trusted_by_artifact_client(env["GITHUB_SERVER_URL"]):
                # @actions/artifact refuses any other host as "GHES"; the job still finds the forge in GITEA_SERVER_URL.
                env["GITEA_SERVER_URL"] = env.pop("GITHUB_SERVER_URL")
            if steps:
                reporter.step_started(0)
            status = body(runtime, env)
        except StepError as exc:
            reporter.write(f"Error: {exc}")
            status = 127
        except Exception as exc:  # the task must still be closed and reported
            log.exception("task %d failed inside mock-runner", task.id)
            reporter.write(f"Error: mock-runner failed: {type(exc).__name__}: {exc}")
            status = 1
        if reporter.cancelled.is_set():
            result = runner_pb2.RESULT_CANCELLED
        else:
            result = runner_pb2.RESULT_SUCCESS if status == 0 else runner_pb2.RESULT_FAILURE
        if steps:
            reporter.step_finished(0, result)
            for index in range(1, steps):
                reporter.step_finished(index, runner_pb2.RESULT_SKIPPED)
        if status:
            reporter.write(f"Error: the command exited with status {status}")
        return self._finish(task, reporter, result, base), status

    def run_once(self, timeout: float | None = 30.0) -> TaskOutcome | None:
        """Declare, take at most one task within ``timeout`` seconds, run it and report it."""
        self.declare()
        task = self.wait_for_task(timeout)
        return self.execute(task) if task is not None else None

    def stop(self) -> None:
        """Stop polling and cancel running jobs (act_runner with ``shutdown_timeout`` 0)."""
        self.stopping.set()
        with self._active_lock:
            for reporter in self._active.values():
                reporter.cancelled.set()

    def run(self, *, once: bool = False) -> int:
        """Poll and run until stopped (or one task with ``once`` or an ephemeral runner); the exit status."""
        self.declare()
        if self.echo is not None:  # as act_runner says once declared: from here a signal stops it cleanly
            self.echo(f"runner {self.runner.name!r} declared; waiting for jobs")
        single = once or self.runner.ephemeral
        outcomes: list[TaskOutcome] = []
        workers = 1 if single else self.capacity

        def worker() -> None:
            while not self.stopping.is_set():
                task = self.wait_for_task(None, raise_errors=False)
                if task is None:
                    return
                outcome = self.execute(task)
                outcomes.append(outcome)
                log.info("task %d finished: %s", outcome.task_id, outcome.result_name)
                if single:
                    self.stopping.set()
                    return

        threads = [threading.Thread(target=worker, name=f"poller-{n}") for n in range(workers)]
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            for thread in threads:
                thread.join(0.2)
        if single and outcomes:
            return exit_status(outcomes[0].result)
        return 0
