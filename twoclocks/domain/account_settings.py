"""What an account may change about its own memory: its time zone, where classes go, and
whether tool events are captured."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from twoclocks.domain.model import FactClass, Place


class AccountSettings(BaseModel):
    """Per-account settings; absent fields fall back to the server's defaults.

    ``places`` moves a class's default place, e.g. ``{"decision": "project"}`` shares
    decisions across every worktree of a project (DESIGN.md §4).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    timezone: str | None = Field(
        None, max_length=64, description="IANA time zone for rendered times, e.g. Europe/Istanbul"
    )
    places: dict[FactClass, Place] = Field(
        default_factory=dict, description="a class's default place, e.g. {'decision': 'project'}"
    )
    capture: bool = Field(
        True, description="store facts from tool events (commits, tests, ...); off stores nothing"
    )
