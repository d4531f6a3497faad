"""The HTTP API v1 (DESIGN.md §8) over the real embedded FalkorDB store."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_remember_then_read_back_with_both_clocks(api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/v1/facts",
        json={
            "subject": "demo",
            "predicate": "build_tool",
            "object": "Make",
            "valid_at": "2026-01-10T00:00:00+00:00",
            "tier": "asserted",
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["outcome"] == "inserted" and body["closed"] == []
    facts = (await api.get("/v1/facts", params={"subject": "demo"})).json()["facts"]
    assert [f["object"] for f in facts] == ["Make"]
    assert facts[0]["created_at"] and facts[0]["expired_at"] is None


async def test_naive_datetime_is_422_with_a_message(api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/v1/facts",
        json={"subject": "a", "predicate": "b", "object": "c", "valid_at": "2026-01-10T00:00:00"},
    )
    assert r.status_code == 422
    assert r.json()["error"] == "NaiveDatetime" and "offset" in r.json()["message"]


async def test_unknown_field_is_422_naming_the_field(api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/v1/facts", json={"subject": "a", "predicate": "b", "object": "c", "space": "work"}
    )
    assert r.status_code == 422 and "space" in r.json()["message"]


async def test_a_field_named_query_is_named_in_the_422(api: httpx.AsyncClient) -> None:
    # Recall's field "query" shares its name with the query-string location, and the
    # message said "body: String should have at least 1 character".
    r = await api.post("/v1/recall", json={"query": ""})
    assert r.status_code == 422
    assert r.json()["message"] == "query: String should have at least 1 character"
    r = await api.get("/v1/facts", params={"limit": "many"})
    assert r.status_code == 422 and r.json()["message"].startswith("limit: ")


async def test_a_text_too_long_or_blank_is_counted_in_characters(api: httpx.AsyncClient) -> None:
    # An optional field's bound is checked after its one-line rule, and pydantic worded it
    # for a list: "Value should have at most 500 items after validation, not 600".
    r = await api.get("/v1/facts", params={"subject": "x" * 600})
    assert r.status_code == 422
    assert r.json()["message"] == "subject: String should have at most 500 characters"
    r = await api.get("/v1/aliases", params={"subject": ""})
    assert r.json()["message"] == "subject: String should have at least 1 character"


async def test_body_over_64_kb_is_413(api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/v1/facts",
        content=b'{"subject": "' + b"x" * 70_000 + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 413 and r.json()["error"] == "BodyTooLarge"


async def test_secret_is_422_secret_refused_and_export_shows_nothing(
    api: httpx.AsyncClient,
) -> None:
    r = await api.post(
        "/v1/facts",
        json={
            "subject": "ci",
            "predicate": "token",
            "object": "npm_abcdefghijklmnopqrstuvwxyz0123456789",
        },
    )
    assert r.status_code == 422 and r.json()["error"] == "SecretRefused"
    assert "npm_" not in r.json()["message"]
    export = await api.get("/v1/export")
    assert export.status_code == 200 and export.text == ""


async def test_a_revise_replacement_is_checked_for_secrets_under_the_slot_it_lands_in(
    api: httpx.AsyncClient,
) -> None:
    fact = {"subject": "db", "predicate": "db_password", "object": "in 1Password, item db"}
    fid = (await api.post("/v1/facts", json=fact)).json()["fact_id"]
    for replacement in (
        {"object": "hunter2Sup3rS3cret!"},  # a secret only because the slot names it
        {"object": "in Vault", "evidence": "token ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
    ):
        r = await api.post(
            f"/v1/facts/{fid}/revise", json={"reason": "ended", "replacement": replacement}
        )
        assert r.status_code == 422 and r.json()["error"] == "SecretRefused", r.text
        assert "hunter2" not in r.text and "ghp_" not in r.text
    [only] = (await api.get("/v1/facts")).json()["facts"]  # nothing changed
    assert only["fact_id"] == fid and only["expired_at"] is None


async def test_no_key_is_401_and_a_wrong_key_is_401(api: httpx.AsyncClient) -> None:
    r = await api.get("/v1/facts", headers={"Authorization": ""})
    assert r.status_code == 401 and r.json()["error"] == "Unauthorized"
    r = await api.get("/v1/facts", headers={"Authorization": "Bearer tck_nope"})
    assert r.status_code == 401


async def test_revise_statuses(api: httpx.AsyncClient) -> None:
    fid = (
        await api.post(
            "/v1/facts",
            json={
                "subject": "demo",
                "predicate": "build_tool",
                "object": "Make",
                "valid_at": "2026-01-10T00:00:00+00:00",
            },
        )
    ).json()["fact_id"]
    r = await api.post(
        f"/v1/facts/{fid}/revise", json={"reason": "ended", "at": "2026-01-01T00:00:00+00:00"}
    )
    assert r.status_code == 422 and r.json()["error"] == "InvalidTemporalRange"
    r = await api.post(
        f"/v1/facts/{fid}/revise",
        json={
            "reason": "ended",
            "at": "2026-02-01T00:00:00+00:00",
            "replacement": {"object": "Ninja"},
        },
    )
    assert r.status_code == 200 and r.json()["successor_id"]
    r = await api.post(f"/v1/facts/{fid}/revise", json={"reason": "ended"})
    assert r.status_code == 409 and r.json()["error"] == "FactAlreadyRetired"
    r = await api.post("/v1/facts/nope/revise", json={"reason": "corrected"})
    assert r.status_code == 404 and r.json()["error"] == "FactNotFound"


async def test_retract_and_reopen(api: httpx.AsyncClient) -> None:
    fid = (
        await api.post("/v1/facts", json={"subject": "x", "predicate": "y", "object": "z"})
    ).json()["fact_id"]
    assert (await api.post(f"/v1/facts/{fid}/retract")).status_code == 200
    assert (await api.get("/v1/facts", params={"subject": "x"})).json()["facts"] == []
    assert (await api.post(f"/v1/facts/{fid}/reopen")).status_code == 200
    assert [
        f["object"] for f in (await api.get("/v1/facts", params={"subject": "x"})).json()["facts"]
    ] == ["z"]


async def test_block_and_timeline_and_health(api: httpx.AsyncClient) -> None:
    await api.post(
        "/v1/facts",
        json={
            "subject": "prod",
            "predicate": "deploy_target",
            "object": "Render",
            "tier": "asserted",
            "evidence": "we deploy to Render",
        },
    )
    r = await api.post("/v1/block", json={})
    assert r.status_code == 200
    assert r.json()["status"] == "rows" and "Render" in r.json()["text"]
    assert len(r.json()["text"]) <= 8000
    r = await api.get("/v1/timeline", params={"clock": "system"})
    assert r.status_code == 200 and len(r.json()["facts"]) == 1
    assert (await api.get("/healthz")).status_code == 200


async def test_empty_query_and_k_out_of_range_are_clear_errors(api: httpx.AsyncClient) -> None:
    r = await api.post("/v1/recall", json={"query": "  "})
    assert r.status_code == 422 and "blank" in r.json()["message"]
    r = await api.post("/v1/recall", json={"query": "ci", "k": 500})
    assert r.status_code == 422 and "k" in r.json()["message"]


async def test_account_settings_move_decisions_to_the_project_and_set_the_zone(
    api: httpx.AsyncClient, tmp_path: Any
) -> None:
    assert (await api.get("/v1/settings")).json() == {
        "timezone": None,
        "places": {},
        "timezone_in_use": "UTC",  # the server's default, shown to clients rendering times
        "capture": True,
    }
    r = await api.put("/v1/settings", json={"timezone": "Mars/Olympus"})
    assert r.status_code == 422 and "Mars/Olympus" in r.json()["message"]
    r = await api.put(
        "/v1/settings", json={"timezone": "Europe/Istanbul", "places": {"decision": "project"}}
    )
    assert r.status_code == 200
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = git@github.com:acme/api.git\n'
    )
    r = await api.post(
        "/v1/facts",
        json={
            "subject": "router-cache",
            "predicate": "decided",
            "object": "plain Map with a size cap",
            "class": "decision",
            "tier": "asserted",
            "cwd": str(repo),
            "valid_at": "2026-01-10T09:00:00+00:00",
        },
    )
    assert r.status_code == 201
    fact = (await api.get("/v1/facts", params={"cwd": str(repo)})).json()["facts"][0]
    assert fact["place"] == "project"
    block = (await api.post("/v1/block", json={"cwd": str(repo)})).json()["text"]
    assert "2026-01-10 12:00 +03" in block


async def test_a_fact_says_the_place_its_readers_see_it_in(
    api: httpx.AsyncClient, tmp_path: Path
) -> None:
    # No working directory: no workspace key, so every read sees it; it says everywhere,
    # never "worktree" beside an empty workspace.
    fact = {"subject": "api", "predicate": "runtime", "object": "Python 3.12"}
    r = await api.post("/v1/facts", json=fact)
    assert (r.json()["place"], r.json()["workspace"]) == ("everywhere", None)
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    seen = (await api.get("/v1/facts", params={"cwd": str(elsewhere)})).json()["facts"]
    assert [(f["object"], f["place"]) for f in seen] == [("Python 3.12", "everywhere")]
    # With one, a fact with no class stays in this worktree, and says so.
    r = await api.post("/v1/facts", json={**fact, "subject": "web", "cwd": str(elsewhere)})
    assert r.json()["place"] == "worktree" and r.json()["workspace"].startswith("worktree:")


async def test_the_person_key_writes_as_the_person_and_an_agent_claim_needs_evidence(
    api: httpx.AsyncClient,
) -> None:
    fact = {"subject": "me", "predicate": "editor", "object": "Helix", "tier": "asserted"}
    r = await api.post("/v1/facts", json=fact)
    by_person = r.json()["fact_id"]
    r = await api.post("/v1/facts", json={**fact, "subject": "you"}, headers=api.agent)  # type: ignore[attr-defined]
    by_agent = r.json()["fact_id"]
    r = await api.post(
        "/v1/facts", json={**fact, "subject": "hook"}, headers={"X-Twoclocks-Channel": "hook"}
    )
    by_hook = r.json()["fact_id"]
    tiers = {f["fact_id"]: f["tier"] for f in (await api.get("/v1/facts")).json()["facts"]}
    assert tiers[by_person] == "asserted"
    assert tiers[by_agent] == "inferred"  # asserted, but "Helix" is in no message of the person
    assert tiers[by_hook] == "observed"  # a hook's ceiling


async def test_a_write_without_a_tier_gets_its_writers_and_the_201_says_which(
    api: httpx.AsyncClient,
) -> None:
    fact = {"subject": "api", "predicate": "owner", "object": "Selin"}
    agent = api.agent  # type: ignore[attr-defined]
    r = await api.post("/v1/facts", json=fact, headers=agent)
    assert r.status_code == 201
    assert r.json()["tier"] == "inferred" and r.json()["tier_lowered"] is None
    r = await api.post("/v1/facts", json={**fact, "subject": "web"})  # the person's key
    assert r.json()["tier"] == "asserted"
    r = await api.post(
        "/v1/facts", json={**fact, "subject": "ops", "tier": "asserted"}, headers=agent
    )
    assert r.json()["tier"] == "inferred"
    assert "evidence" in r.json()["tier_lowered"]
    shown = {f["subject"]: f["tier"] for f in (await api.get("/v1/facts")).json()["facts"]}
    assert shown == {"api": "inferred", "web": "asserted", "ops": "inferred"}


# -- ids: any unique start of a fact id, as git takes commit ids ----------------------


def _ids_starting_with(api: httpx.AsyncClient, start: str) -> None:
    """Make the service issue ids that share a start (``start`` + a counter)."""
    import itertools

    counter = itertools.count(1)
    api.runtime.service.new_id = lambda: f"{start}{next(counter):06d}"  # type: ignore[attr-defined]


async def _remember(api: httpx.AsyncClient, subject: str, **extra: Any) -> str:
    fact = {"subject": subject, "predicate": "p", "object": "o", **extra}
    r = await api.post("/v1/facts", json=fact)
    assert r.status_code == 201, r.text
    return str(r.json()["fact_id"])


async def test_a_unique_id_prefix_names_its_fact_in_revise_retract_and_reopen(
    api: httpx.AsyncClient,
) -> None:
    _ids_starting_with(api, "cafe")
    full = await _remember(api, "one")
    _ids_starting_with(api, "beef")
    other = await _remember(api, "two")
    r = await api.post(f"/v1/facts/{full[:6]}/retract")
    assert r.status_code == 200
    assert r.json() == {"fact_id": full, "status": "retracted", "left_ended": []}
    r = await api.post(f"/v1/facts/{full[:6]}/reopen")
    assert r.status_code == 200 and r.json()["fact_id"] == full
    r = await api.post(f"/v1/facts/{other[:4]}/revise", json={"reason": "corrected"})
    assert r.status_code == 200 and r.json()["fact_id"] == other


async def test_an_ambiguous_id_prefix_is_refused_naming_the_matches(
    api: httpx.AsyncClient,
) -> None:
    _ids_starting_with(api, "cafe")
    first = await _remember(api, "one")
    second = await _remember(api, "two")
    r = await api.post("/v1/facts/cafe/retract")
    assert r.status_code == 409 and r.json()["error"] == "AmbiguousFactId"
    assert first in r.json()["message"] and second in r.json()["message"]
    assert len((await api.get("/v1/facts")).json()["facts"]) == 2  # nothing changed


async def test_an_id_prefix_under_four_characters_is_not_a_match(api: httpx.AsyncClient) -> None:
    _ids_starting_with(api, "cafe")
    await _remember(api, "one")
    r = await api.post("/v1/facts/caf/retract")
    assert r.status_code == 404 and "at least 4" in r.json()["message"]


# -- reads across workspaces ----------------------------------------------------------


async def test_all_workspaces_is_a_read_only_the_person_may_make(
    api: httpx.AsyncClient, tmp_path: Any
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    await _remember(api, "only-in-a", cwd=str(tmp_path / "a"))
    here = {"cwd": str(tmp_path / "b")}
    scoped = (await api.get("/v1/facts", params=here)).json()
    assert scoped == {"facts": [], "elsewhere": 1, "total": None, "told_later": []}
    everywhere = {**here, "all_workspaces": "true"}
    r = await api.get("/v1/facts", params=everywhere, headers=api.agent)  # type: ignore[attr-defined]
    assert r.status_code == 403 and r.json()["error"] == "ReadNotAllowed"
    r = await api.get("/v1/facts", params=everywhere)  # the person's key
    assert [f["subject"] for f in r.json()["facts"]] == ["only-in-a"]
    assert r.json()["elsewhere"] is None


async def test_close_slots_read_the_callers_workspace_and_refuse_bad_input(
    api: httpx.AsyncClient, tmp_path: Any
) -> None:
    (tmp_path / "a").mkdir()
    here = {"cwd": str(tmp_path / "a")}
    r = await api.get("/v1/aliases/close", params=here, headers=api.agent)  # type: ignore[attr-defined]
    assert r.status_code == 200 and r.json() == {"close": []}
    everywhere = {**here, "all_workspaces": "true"}
    r = await api.get("/v1/aliases/close", params=everywhere, headers=api.agent)  # type: ignore[attr-defined]
    assert r.status_code == 403 and r.json()["error"] == "ReadNotAllowed"
    r = await api.get("/v1/aliases/close", params={"all_workspaces": "maybe"})
    assert r.status_code == 422 and "all_workspaces" in r.json()["message"]


# -- error texts a person can act on --------------------------------------------------


async def test_an_enum_error_names_the_allowed_values_plainly(api: httpx.AsyncClient) -> None:
    fid = await _remember(api, "x")
    r = await api.post(f"/v1/facts/{fid}/revise", json={"reason": "finished"})
    message = r.json()["message"]
    assert r.status_code == 422 and "'ended'" in message and "'corrected'" in message
    assert "RetiredReason" not in message and "<" not in message


async def test_a_body_that_is_not_json_says_so_and_where(api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/v1/facts", content=b'{"subject": "a",, }', headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 422
    assert "not valid JSON" in r.json()["message"] and "character 16" in r.json()["message"]


async def test_an_empty_text_names_its_field(api: httpx.AsyncClient) -> None:
    r = await api.post("/v1/facts", json={"subject": "a", "predicate": "  ", "object": "c"})
    assert r.status_code == 422 and r.json()["message"].startswith("predicate is empty")


async def test_a_malformed_body_without_a_key_is_401_before_422(api: httpx.AsyncClient) -> None:
    for content in (b"{not json", b'{"subject": 1}'):
        r = await api.post(
            "/v1/facts",
            content=content,
            headers={"Authorization": "", "Content-Type": "application/json"},
        )
        assert r.status_code == 401 and r.json()["error"] == "Unauthorized"


async def test_a_text_plain_body_is_415_saying_to_send_json(api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/v1/facts", content=b"subject=a", headers={"Content-Type": "text/plain; charset=utf-8"}
    )
    assert r.status_code == 415 and r.json()["error"] == "UnsupportedMediaType"
    assert "text/plain" in r.json()["message"] and "application/json" in r.json()["message"]
    assert (await api.get("/v1/facts")).json()["facts"] == []


async def test_a_chunked_body_without_a_content_type_is_read_as_json(
    api: httpx.AsyncClient,
) -> None:
    async def chunks() -> Any:
        yield b'{"subject": "api", "predicate": "runs_on",'
        yield b' "object": "Fly"}'

    r = await api.post("/v1/facts", content=chunks())
    assert r.status_code == 201, r.text
    assert "content-type" not in r.request.headers and "chunked" in str(r.request.headers)
    r = await api.post("/v1/facts", content=chunks(), headers={"Content-Type": ""})
    assert r.status_code == 201, r.text


async def test_a_chunked_json_body_parses_on_a_real_server(api: httpx.AsyncClient) -> None:
    from live_server import serving

    async def chunks() -> Any:
        yield b'{"subject": "api", "predicate": "runs_on",'
        yield b' "object": "Fly"}'

    runtime = api.runtime  # type: ignore[attr-defined]
    async with (
        serving(runtime) as url,
        httpx.AsyncClient(base_url=url, headers=dict(api.headers)) as real,
    ):
        for content_type in ({"Content-Type": "application/json"}, {}):
            r = await real.post("/v1/facts", content=chunks(), headers=content_type)
            assert r.status_code == 201, r.text


async def test_get_facts_pages_with_limit_and_offset_and_says_the_total(
    api: httpx.AsyncClient,
) -> None:
    for n in range(3):
        body = {"subject": "svc", "predicate": f"p{n}", "object": f"v{n}"}
        body["valid_at"] = f"2026-01-1{n}T00:00:00+00:00"
        assert (await api.post("/v1/facts", json=body)).status_code == 201
    whole = (await api.get("/v1/facts")).json()
    assert whole["total"] is None and [f["object"] for f in whole["facts"]] == ["v2", "v1", "v0"]
    page = (await api.get("/v1/facts", params={"limit": 2, "offset": 1})).json()
    assert [f["object"] for f in page["facts"]] == ["v1", "v0"] and page["total"] == 3
    past = (await api.get("/v1/facts", params={"limit": 2, "offset": 5})).json()
    assert past["facts"] == [] and past["total"] == 3
    refused = await api.get("/v1/facts", params={"limit": 0})
    assert refused.status_code == 422 and "limit" in refused.text


async def test_the_graph_neighbourhood_shows_the_facts_naming_an_entity_on_both_clocks(
    api: httpx.AsyncClient,
) -> None:
    async def say(subject: str, predicate: str, value: str, valid_at: str) -> None:
        body = {"subject": subject, "predicate": predicate, "object": value, "valid_at": valid_at}
        assert (await api.post("/v1/facts", json=body)).status_code == 201

    await say("billing", "runs_on", "postgres", "2026-01-10T00:00:00+00:00")
    await say("web", "calls", "billing", "2026-01-11T00:00:00+00:00")
    await asyncio.sleep(0.01)
    between = datetime.now(UTC).isoformat()
    await asyncio.sleep(0.01)
    await say("billing", "runs_on", "mysql", "2026-06-01T00:00:00+00:00")

    async def around(**params: str) -> set[tuple[str, str, str]]:
        reply = await api.get("/v1/graph/neighbourhood", params={"entity": "billing", **params})
        assert reply.status_code == 200, reply.text
        return {(f["subject"], f["predicate"], f["object"]) for f in reply.json()["facts"]}

    calls = ("web", "calls", "billing")
    assert await around() == {("billing", "runs_on", "mysql"), calls}
    old = {("billing", "runs_on", "postgres"), calls}
    assert await around(as_of="2026-03-01T00:00:00+00:00") == old
    assert await around(as_believed=between, as_of="2026-07-01T00:00:00+00:00") == old
    names = (await api.get("/v1/graph/entities", params={"text": "billing"})).json()
    assert names["entities"][0] == "billing"
    naive = await api.get("/v1/graph/neighbourhood", params={"entity": "x", "as_of": "2026-01-01"})
    assert naive.status_code == 422


async def test_aliases_lists_a_drift_merge_split_undoes_it_and_an_unknown_alias_is_404(
    api: httpx.AsyncClient,
) -> None:
    for predicate, value in (("ci_provider", "CircleCI"), ("ci_platform", "Buildkite")):
        r = await api.post(
            "/v1/facts", json={"subject": "web", "predicate": predicate, "object": value}
        )
        assert r.status_code == 201, r.text
    assert r.json()["predicate"] == "ci_provider"
    merges = (await api.get("/v1/aliases")).json()["aliases"]
    assert merges == [
        {"subject": "web", "alias": "ci_platform", "canonical": "ci_provider", "decided_by": None}
    ]
    # One subject's merges: another subject's list is empty, a blank subject is refused.
    assert (await api.get("/v1/aliases", params={"subject": "web"})).json()["aliases"] == merges
    assert (await api.get("/v1/aliases", params={"subject": "api"})).json()["aliases"] == []
    r = await api.get("/v1/aliases", params={"subject": ""})
    assert r.status_code == 422 and "subject" in r.text
    r = await api.post("/v1/aliases/split", json={"alias": "ci_platform"})
    assert r.status_code == 200, r.text
    assert (await api.get("/v1/aliases")).json()["aliases"] == []
    assert (r.json()["canonical"], len(r.json()["moved"]), len(r.json()["reopened"])) == (
        "ci_provider",
        1,
        1,
    )
    facts = (await api.get("/v1/facts", params={"subject": "web"})).json()["facts"]
    assert sorted((f["predicate"], f["object"]) for f in facts) == [
        ("ci_platform", "Buildkite"),
        ("ci_provider", "CircleCI"),
    ]
    r = await api.post("/v1/aliases/split", json={"alias": "ci_platform"})
    assert r.status_code == 404 and r.json()["error"] == "AliasNotFound"
    assert "written_as" in r.json()["message"]
    # The split is remembered: the two names are kept apart, and listed so.
    assert (await api.get("/v1/aliases", params={"subject": "api"})).json()["apart"] == []
    assert (await api.get("/v1/aliases", params={"subject": "web"})).json()["apart"] == [
        {
            "subject": "web",
            "first": "ci_platform",
            "second": "ci_provider",
            "decided_by": "kept apart by person",
        }
    ]


async def test_keep_apart_records_a_pair_and_refuses_what_is_not_two_slots(
    api: httpx.AsyncClient,
) -> None:
    for predicate, value in (("cache_ttl", "5 minutes"), ("cache_expiry", "10 minutes")):
        body = {"subject": "billing", "predicate": predicate, "object": value}
        assert (await api.post("/v1/facts", json=body)).status_code == 201
    listed = (await api.get("/v1/aliases/close", params={"all_workspaces": "true"})).json()
    assert [(c["slot"], c["other"]) for c in listed["close"]] == [("cache_ttl", "cache_expiry")]
    pair = {"subject": "billing", "slot": "cache_ttl", "other": "cache_expiry"}
    r = await api.post("/v1/aliases/apart", json=pair)
    assert r.status_code == 200, r.text
    assert (r.json()["first"], r.json()["second"]) == ("cache_expiry", "cache_ttl")
    listed = (await api.get("/v1/aliases/close", params={"all_workspaces": "true"})).json()
    assert listed["close"] == []
    r = await api.post("/v1/aliases/apart", json=pair | {"other": "acquirer"})
    assert r.status_code == 404 and r.json()["error"] == "SlotNotFound"
    r = await api.post("/v1/aliases/apart", json=pair | {"other": "cache_ttl"})
    assert r.status_code == 422 and "two different slots" in r.json()["message"]
    r = await api.post("/v1/aliases/apart", json={"subject": "billing", "slot": "cache_ttl"})
    assert r.status_code == 422
    assert len((await api.get("/v1/aliases")).json()["apart"]) == 1


async def test_merge_joins_two_slots_a_split_parts_them_and_an_unknown_slot_is_404(
    api: httpx.AsyncClient,
) -> None:
    for predicate, value, at in (
        ("owner", "Aiko", "2026-01-01"),
        ("steward", "Lucía", "2026-03-01"),
    ):
        body = {"subject": "core", "predicate": predicate, "object": value}
        r = await api.post("/v1/facts", json=body | {"valid_at": f"{at}T00:00:00+00:00"})
        assert r.status_code == 201, r.text
    assert r.json()["predicate"] == "steward"  # no drift merge: two current values
    body = {"subject": "core", "alias": "steward", "canonical": "owner"}
    r = await api.post("/v1/aliases/merge", json=body)
    assert r.status_code == 200, r.text
    assert (r.json()["canonical"], len(r.json()["moved"]), len(r.json()["closed"])) == (
        "owner",
        1,
        1,
    )
    merges = (await api.get("/v1/aliases")).json()["aliases"]
    assert [(m["alias"], m["canonical"]) for m in merges] == [("steward", "owner")]
    facts = (await api.get("/v1/facts", params={"subject": "core"})).json()["facts"]
    assert [(f["predicate"], f["object"]) for f in facts] == [("owner", "Lucía")]
    r = await api.post("/v1/aliases/split", json={"alias": "steward", "subject": "core"})
    assert r.status_code == 200, r.text
    facts = (await api.get("/v1/facts", params={"subject": "core"})).json()["facts"]
    assert sorted((f["predicate"], f["object"]) for f in facts) == [
        ("owner", "Aiko"),
        ("steward", "Lucía"),
    ]
    r = await api.post("/v1/aliases/merge", json=body | {"canonical": "sponsor"})
    assert r.status_code == 404 and r.json()["error"] == "SlotNotFound"
    assert "no slot 'sponsor'" in r.json()["message"]
    r = await api.post("/v1/aliases/merge", json=body | {"canonical": "steward"})
    assert r.status_code == 422 and "already one slot" in r.json()["message"]


async def test_a_fact_told_with_its_end_holds_until_then_and_a_bad_end_changes_nothing(
    api: httpx.AsyncClient,
) -> None:
    # Dana on call from December 1; Ravi covers from the 14th until the 21st: Dana again after.
    base = {"subject": "team", "predicate": "on_call"}
    await api.post("/v1/facts", json=base | {"object": "Dana", "valid_at": "2026-12-01T00:00:00Z"})
    cover = base | {
        "object": "Ravi", "valid_at": "2026-12-14T00:00:00Z", "invalid_at": "2026-12-21T00:00:00Z"
    }  # fmt: skip
    r = await api.post("/v1/facts", json=cover)
    assert r.status_code == 201, r.text
    assert r.json()["invalid_at"].startswith("2026-12-21")

    async def on_call(at: str) -> list[str]:
        got = await api.get("/v1/facts", params={"subject": "team", "as_of": at})
        return [f["object"] for f in got.json()["facts"]]

    assert await on_call("2026-12-15T00:00:00Z") == ["Ravi"]
    assert await on_call("2026-12-22T00:00:00Z") == ["Dana"]
    # An end before the start, or an end of an event, is refused, and nothing is written.
    before = base | {
        "object": "Mia", "valid_at": "2026-12-14T00:00:00Z", "invalid_at": "2026-12-10T00:00:00Z"
    }  # fmt: skip
    r = await api.post("/v1/facts", json=before)
    assert r.status_code == 422 and r.json()["error"] == "InvalidTemporalRange"
    assert "invalid_at" in r.json()["message"]
    event = before | {"kind": "event", "invalid_at": "2026-12-20T00:00:00Z"}
    r = await api.post("/v1/facts", json=event)
    assert r.status_code == 422 and "event" in r.json()["message"]
    got = await api.get("/v1/facts", params={"subject": "team", "include_history": "true"})
    assert "Mia" not in [f["object"] for f in got.json()["facts"]]
