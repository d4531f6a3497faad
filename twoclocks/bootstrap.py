"""The one wiring point: reads settings, builds the store, the model and the services.

Nothing else in twoclocks reads configuration or the environment, and nothing
connects or loads a model at import time: everything happens in ``start_runtime``.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import ValidationError

from twoclocks import client_file
from twoclocks.clients import shells
from twoclocks.clients.shells import AgentShell
from twoclocks.config import Settings
from twoclocks.domain.errors import ConfigError, InvalidInput, ModelUnavailable, StoreUnavailable
from twoclocks.domain.places import Workspace
from twoclocks.workspaces import SpacesConfig, checked_out_branch, head_commit, resolve_workspace

if TYPE_CHECKING:
    # Imported where the runtime is built: a CLI command that only calls the server starts
    # without the services (`twoclocks facts` p50 589 -> 489 ms, bench/cli_start.py).
    from twoclocks.embeddings.port import Embedder
    from twoclocks.graph.port import Store
    from twoclocks.service.accounts import Accounts
    from twoclocks.service.api_keys import ApiKeys
    from twoclocks.service.capture import CaptureService
    from twoclocks.service.extractor import Extractor
    from twoclocks.service.memory import MemoryService
    from twoclocks.service.recall import RecallService
    from twoclocks.service.slot_judge import SlotJudge
    from twoclocks.service.turns import TurnService

log = logging.getLogger("twoclocks")

KEY_FILE = "key"
STORE_FILE = "store"
MODEL_CACHE_DIR = "models"
"""Under the data dir: the embedding model exported to ONNX (see embeddings/onnx_cache)."""
LOCAL_ACCOUNT = "local"


def load_settings(**overrides: Any) -> Settings:
    """Settings from the environment (``TWOCLOCKS_*``), with explicit overrides on top.

    When neither names a store, the store a server last ran on with this data dir
    is used, so `accounts create --data-dir DIR` reaches the server's own store.
    """
    try:
        settings = Settings(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as exc:
        raise ConfigError(settings_problems(exc)) from None
    if overrides.get("store") is None and "TWOCLOCKS_STORE" not in os.environ:
        recorded = settings.data_dir / STORE_FILE
        if recorded.exists():
            settings = settings.model_copy(update={"store": recorded.read_text().strip()})
    return settings


def settings_problems(exc: ValidationError) -> str:
    """What failed validation, each setting named as it is set (``TWOCLOCKS_<NAME>``)."""
    lines = []
    for err in exc.errors():
        message = err["msg"].removeprefix("Value error, ")
        if err["loc"]:  # one field; a rule across fields (the grey floor) has no location
            message = f"TWOCLOCKS_{str(err['loc'][0]).upper()}: {message} (got {err['input']!r})"
        lines.append(message)
    return "bad settings: " + "; ".join(lines)


def record_store(settings: Settings) -> None:
    """Note in the data dir which store a server runs on (a URI, never a password)."""
    if "@" not in settings.store:  # a URI with user:password@ is not written to disk
        (settings.data_dir / STORE_FILE).write_text(settings.store + "\n")


def system_clock() -> datetime:
    """The store's record clock: the wall clock in UTC."""
    return datetime.now(UTC)


def new_id() -> str:
    """A fresh id for a fact or a version."""
    return uuid.uuid4().hex


def quiet_libraries() -> None:
    """Settle what third-party libraries read from the environment at import time."""
    # graphiti-core reports telemetry by default and reads these when first imported.
    os.environ["GRAPHITI_TELEMETRY_ENABLED"] = "false"
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def open_store(settings: Settings, attach: bool = False) -> Store:
    """The store the settings name: the embedded FalkorDB by default, or Neo4j by URI.

    ``attach``: for a command run beside a live server on the same data dir (e.g.
    `accounts create`), connect to that server's engine instead of starting one.
    """
    target = settings.store.strip()
    if target in ("", "embedded", "falkordb"):
        from twoclocks.graph.falkordb.store import FalkorDBStore

        data_dir = settings.data_dir / "falkordb"
        if attach:
            return FalkorDBStore.attach_or_embedded(data_dir, settings.appendfsync)
        return FalkorDBStore.embedded(data_dir, settings.appendfsync)
    if target.startswith(("neo4j://", "neo4j+s://", "bolt://", "bolt+s://")):
        from twoclocks.graph.neo4j.store import Neo4jStore

        return Neo4jStore(target, user=settings.neo4j_user, password=settings.neo4j_password)
    raise ConfigError(
        f"store {target!r} is not understood: use 'embedded' or a neo4j:// or bolt:// URI"
    )


def open_extractor(
    settings: Settings, timeout_s: float = 60.0, attempts: int = 3
) -> Extractor | None:
    """The turn extractor the settings name (``TWOCLOCKS_EXTRACTOR_*``), or None when off."""
    if not settings.extractor_url or not settings.extractor_url.strip():
        return None
    from twoclocks.service.extractor import Extractor

    return Extractor(
        settings.extractor_url,
        settings.extractor_model,
        settings.extractor_key,
        timeout_s=timeout_s,
        attempts=attempts,
    )


def open_slot_judge(settings: Settings) -> SlotJudge | None:
    """The grey-zone slot judge: the extractor model, asked once with a short timeout."""
    if not settings.drift_judge:
        return None
    from twoclocks.service.slot_judge import SlotJudge

    extractor = open_extractor(settings, timeout_s=settings.drift_judge_timeout_s, attempts=1)
    return SlotJudge(extractor) if extractor else None


def load_embedder(settings: Settings) -> Embedder:
    """The local sentence-transformers model, loaded now (ModelUnavailable names its path)."""
    from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder

    # The ONNX export kept in the data dir spares a later start ~15 s of torch imports.
    return SentenceTransformerEmbedder(
        settings.model,
        runtime=settings.embedding_runtime,
        onnx_cache=settings.data_dir / MODEL_CACHE_DIR,
    ).load()


def workspace_resolver(settings: Settings) -> Callable[[str | None], Workspace]:
    """cwd -> workspace, with the spaces file and the forced space from the settings."""
    spaces = SpacesConfig.load(settings.spaces_file) if settings.spaces_file else None
    return lambda cwd: resolve_workspace(cwd, spaces, settings.space)


def account_zone(settings: Settings) -> ZoneInfo:
    """The time zone rendered times use."""
    try:
        return ZoneInfo(settings.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"time zone {settings.timezone!r} is unknown: use an IANA name such as Europe/Istanbul"
        ) from None


@dataclass
class Runtime:
    """Everything a running server holds: the store, the model and the services over them."""

    settings: Settings
    store: Store
    embedder: Embedder | None
    service: MemoryService
    accounts: Accounts
    recall: RecallService
    capture: CaptureService
    turns: TurnService
    keys: ApiKeys
    ready: bool = False
    details: dict[str, Any] = field(default_factory=dict)

    async def close(self) -> None:
        """Stop the store (and the embedded engine's process)."""
        self.ready = False
        await self.turns.stop()
        await self.store.close()


async def start_runtime(
    settings: Settings,
    *,
    store: Store | None = None,
    embedder: Embedder | None = None,
    load_model: bool = True,
    attach: bool = False,
) -> Runtime:
    """Build and start everything; tests pass their own store or embedder."""
    from twoclocks.service.accounts import Accounts
    from twoclocks.service.api_keys import ApiKeys
    from twoclocks.service.capture import CaptureService
    from twoclocks.service.capture_pending import PENDING_NAME, PendingEvents
    from twoclocks.service.memory import MemoryService
    from twoclocks.service.recall import RecallService
    from twoclocks.service.schema_versions import ensure_schema
    from twoclocks.service.turns import TurnService

    quiet_libraries()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    if embedder is None and load_model:
        embedder = load_embedder(settings)
    store = store or open_store(settings, attach)
    await store.start()
    try:
        # Before any request: a server never reads a layout it does not know.
        await ensure_schema(store)
    except BaseException:
        await store.close()
        raise
    resolver = workspace_resolver(settings)
    matcher = None
    if embedder is not None:
        from twoclocks.embeddings.slot_matcher import SlotMatcher

        matcher = SlotMatcher(
            embedder, settings.drift_threshold, grey_floor=settings.drift_grey_floor
        )
    accounts = Accounts(store, system_clock, settings.timezone)
    service = MemoryService(
        store,
        system_clock,
        new_id,
        embedder,
        resolver,
        matcher,
        settings_of=accounts.settings,
        slot_judge=open_slot_judge(settings),
    )
    pending = PendingEvents(settings.data_dir / PENDING_NAME)
    turns = TurnService(
        service, store, system_clock, open_extractor(settings), zone_of=accounts.zone_in_use
    )
    capture = CaptureService(
        service,
        store,
        system_clock,
        resolver,
        accounts.settings,
        pending,
        turns=turns,
        branch_of=checked_out_branch,
        commit_of=head_commit,
    )
    recall = RecallService(
        store,
        system_clock,
        embedder,
        resolver,
        account_zone(settings),
        settings_of=accounts.settings,
        slot_matcher=matcher,  # one cache of name embeddings for drift and recall
        observe_checkout=capture.observe_checkout,
    )
    # Facts of events accepted just before the last stop, written before serving new ones.
    recovered = await capture.recover()
    if recovered:
        log.info("capture: wrote the facts of %d event(s) accepted before the last stop", recovered)
    keys = ApiKeys(store, system_clock)
    runtime = Runtime(settings, store, embedder, service, accounts, recall, capture, turns, keys)
    record_store(settings)
    runtime.ready = True
    if not attach:
        # A command run beside a live server leaves the queue to that server's worker;
        # a server starts with the turns queued before its restart.
        turns.start()
        await _warm_recall(recall)
    runtime.details = {
        "store": type(store).__name__,
        "model": embedder.model_name if embedder else None,
        # Which runtime encodes (onnx / torch), for adapters that have a choice.
        "embedding_runtime": getattr(embedder, "runtime_in_use", None),
    }
    return runtime


async def _warm_recall(recall: RecallService) -> None:
    """Encode the local account's slot names now, so no early question waits on the model."""
    started = time.perf_counter()
    try:
        encoded = await recall.warm(LOCAL_ACCOUNT)
    except (StoreUnavailable, ModelUnavailable) as exc:  # recall encodes them as it goes
        log.warning("recall not warmed: %s", exc)
        return
    log.info("recall warmed: %d texts in %.1f s", encoded, time.perf_counter() - started)


def key_file(data_dir: Path) -> Path:
    """Where the local account's key is kept (mode 0600)."""
    return data_dir / KEY_FILE


async def ensure_local_account(runtime: Runtime) -> str | None:
    """On first run, create the `local` account and write its key to the data dir."""
    path = key_file(runtime.settings.data_dir)
    if path.exists():
        return None
    try:
        key = await runtime.accounts.create(LOCAL_ACCOUNT)
    except InvalidInput:
        log.warning("account 'local' exists but %s is missing; create a new account", path)
        return None
    client_file.write_key_file(path, key)
    return key


def agent_shell() -> AgentShell | None:
    """The coding agent whose shell runs this command, if any (``clients.shells``)."""
    return shells.agent_shell(os.environ)


def cli_channel() -> str:
    """The channel this command's CLI calls name (``clients.shells.cli_channel``)."""
    return shells.cli_channel(agent_shell())


def client_settings(agent: bool = False) -> client_file.Target:
    """For CLI, hooks and MCP-over-stdio: URL, key and data dir (environment, then client file).

    ``agent`` (hooks, MCP): the agent key file first, then the person's key file.
    """
    settings = load_settings()
    explicit = settings.model_fields_set
    return client_file.resolve(
        url=settings.url,
        host=settings.host if "host" in explicit else None,
        port=settings.port if "port" in explicit else None,
        data_dir=settings.data_dir if "data_dir" in explicit else None,
        key=settings.key,
        agent=agent,
    )


def announce(settings: Settings) -> Path:
    """Write the client file naming this server's URL and data dir (never its key)."""
    return client_file.write(
        client_file.listen_url(settings.host, settings.port), settings.data_dir
    )
