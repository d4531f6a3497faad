"""Every setting twoclocks reads, in one place. Only bootstrap.py builds a Settings.

Each field can be set in the environment as ``TWOCLOCKS_<NAME>`` (e.g.
``TWOCLOCKS_DATA_DIR``); the CLI's flags override the environment.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_data_dir() -> Path:
    """The user data dir (e.g. ~/.local/share/twoclocks), where the embedded store lives."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("twoclocks", appauthor=False))


_UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "UCT", "Zulu"})


def machine_zone(localtime: Path = Path("/etc/localtime")) -> str:
    """This machine's time zone as an IANA name: ``TZ``, else the zone ``localtime`` links to.

    A local server's person lives in the machine's zone, so its block and its dates
    ("--as-of 2026-11-30") read best there. ``UTC`` when neither names a zone this Python
    knows (a POSIX rule such as ``CET-1CEST``, a copied rather than linked file, Windows).
    """
    named = [os.environ.get("TZ", "").strip().removeprefix(":")]
    with contextlib.suppress(OSError):
        named.append(os.path.realpath(localtime) if localtime.is_symlink() else "")
    for name in named:
        # A path names its zone after the zoneinfo folder (Debian, macOS alike).
        name = name.rpartition("zoneinfo/")[2] if "zoneinfo/" in name else name
        if not name or name.startswith("/") or ".." in name:
            continue
        try:
            ZoneInfo(name)
        except (KeyError, ValueError, OSError):  # unknown (a KeyError), malformed, unreadable
            continue
        return "UTC" if name in _UTC_NAMES else name
    return "UTC"


class Settings(BaseSettings):
    """Server and client settings; see docs/configuration.md for each one."""

    model_config = SettingsConfigDict(env_prefix="TWOCLOCKS_", extra="ignore")

    data_dir: Path = Field(
        default_factory=default_data_dir, description="Embedded store, key file and logs live here"
    )
    store: str = Field("embedded", description="'embedded' (FalkorDB) or a neo4j:// / bolt:// URI")
    neo4j_user: str | None = Field(None, description="Neo4j user, when the server needs auth")
    neo4j_password: str | None = Field(None, description="Neo4j password")
    appendfsync: Literal["always", "everysec"] = Field(
        "always", description="Embedded store durability: fsync every write, or once a second"
    )
    host: str = Field("127.0.0.1", description="Address `serve` listens on")
    port: int = Field(8765, ge=1, le=65535, description="Port `serve` listens on")
    model: str = Field(
        "all-MiniLM-L6-v2", description="Embedding model: the bundled name or a local directory"
    )
    embedding_runtime: Literal["onnx", "torch"] = Field(
        "onnx",
        description="Run the model on ONNX Runtime (4x faster per query, same vectors) "
        "or on torch; onnx falls back to torch when the model does not fit",
    )
    drift_threshold: float = Field(
        # Equal to SlotMatcher.DEFAULT_THRESHOLD, where the labelled pairs were measured.
        0.66,
        ge=0,
        le=1,
        description="Similarity above which two slot names merge",
    )
    drift_grey_floor: float = Field(
        # Equal to SlotMatcher's DEFAULT_GREY_FLOOR, chosen on the tune pairs.
        0.30,
        ge=0,
        le=1,
        description="Similarity from which a pair below the threshold goes to the slot judge",
    )
    drift_judge: bool = Field(
        False, description="Let the extractor model judge grey-zone slot pairs (opt-in)"
    )
    drift_judge_timeout_s: float = Field(
        10.0, gt=0, description="How long a write waits for the slot judge's verdict"
    )
    spaces_file: Path | None = Field(None, description="TOML file mapping directories to spaces")
    space: str | None = Field(None, description="Force every session into this space")
    timezone: str = Field(
        default_factory=machine_zone,
        description="Default account time zone for rendered times (default: the machine's)",
    )
    url: str | None = Field(None, description="Where clients find the server")
    key: str | None = Field(None, description="API key clients send (else the data dir's key file)")
    extractor_url: str | None = Field(
        None,
        description="Turn extractor: an OpenAI-compatible endpoint (…/v1), or 'local' for "
        "Ollama's http://127.0.0.1:11434/v1; unset = no facts from turns",
    )
    extractor_model: str = Field("gemma3:270m", description="The extractor's model name")
    extractor_key: str | None = Field(None, description="Bearer key for the extractor endpoint")

    @model_validator(mode="after")
    def _rules_across_settings(self) -> Settings:
        if self.drift_grey_floor > self.drift_threshold:
            raise ValueError(
                f"drift_grey_floor ({self.drift_grey_floor}) must not exceed drift_threshold "
                f"({self.drift_threshold}): the grey zone lies below the threshold"
            )
        if self.drift_judge and not (self.extractor_url or "").strip():
            raise ValueError(
                "TWOCLOCKS_DRIFT_JUDGE is on but TWOCLOCKS_EXTRACTOR_URL is unset: the judge "
                "is the extractor model, so set both (docs/configuration.md)"
            )
        return self
