"""How the CLI words what a write did (twoclocks/cli_render.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from twoclocks.cli_render import (
    empty_line,
    fact_line,
    facts_lines,
    mended_rows,
    merge_lines,
    missed_line,
    remember_lines,
    retract_lines,
    revise_lines,
    split_lines,
    timeline_line,
)
from twoclocks.domain.block_lines import format_time


def test_a_write_under_another_slot_name_says_so_and_how_to_split_it() -> None:
    answer = {
        "outcome": "inserted",
        "fact_id": "35b04bdd402f4d89ae5c1e2863672128",
        "predicate": "ci_provider",
        "tier": "asserted",
        "written_as": "ci_system",
        "replaced": [{"fact_id": "ee16a9ce960d4877932f58472f1af625", "object": "GitHub Actions"}],
    }
    assert remember_lines(answer, "checkout") == [
        "stored: 35b04bdd402f4d89ae5c1e2863672128 (ci_provider, asserted)",
        "written under ci_provider, the slot ci_system names too "
        "(`twoclocks split ci_system --subject checkout` keeps them apart)",
        "replaced: GitHub Actions (ee16a9ce960d), now history",
    ]


def test_a_value_a_dated_word_overruled_says_how_it_left_not_only_now_history() -> None:
    told = {"fact_id": "ee16a9ce960d4877932f58472f1af625", "object": "Vercel",
            "retired_reason": "outdated"}  # fmt: skip
    guess = {"fact_id": "7f77eea1f7c349b9bdb84527c47722be", "object": "Render",
             "retired_reason": "corrected"}  # fmt: skip
    answer = {
        "outcome": "inserted",
        "fact_id": "35b04bdd402f4d89ae5c1e2863672128",
        "predicate": "deploy_target",
        "tier": "asserted",
        "replaced": [told, guess],
    }
    assert remember_lines(answer, "web")[1:] == [
        "replaced: Vercel (ee16a9ce960d), outdated: told with no start, it had changed before"
        " (now history)",
        "replaced: Render (7f77eea1f7c3), corrected: the guess this contradicts (now history)",
    ]
    left = {"fact_id": answer["fact_id"], "status": "retracted", "left_ended": [told]}
    assert retract_lines(left)[1] == (
        "its slot holds no value now; what it had replaced stays ended: Vercel (ee16a9ce960d,"
        " outdated)"
    )


def test_a_value_that_starts_later_replaces_the_old_one_from_then() -> None:
    # Release day Friday from next year: Tuesday is what holds today, not history.
    answer = {
        "outcome": "inserted",
        "fact_id": "f2",
        "predicate": "release_day",
        "tier": "asserted",
        "replaced": [{"fact_id": "cbb0e6da4d9a4ad1", "object": "Tuesday"}],
    }
    later = (datetime.now(UTC) + timedelta(days=30)).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    lines = remember_lines(answer, "team", "project", later.isoformat())
    assert lines[1:] == [
        f"true from {format_time(later, UTC)}: not true until then; `facts` lists it as "
        "starting later, recall names it so when asked, the block in its last 7 days before "
        f"(`twoclocks facts --as-of {later.date().isoformat()}` shows it as true)",
        f"replaced from {format_time(later, UTC)}: Tuesday (cbb0e6da4d9a)",
    ]
    earlier = (datetime.now(UTC) - timedelta(days=30)).isoformat()
    assert remember_lines(answer, "team", "project", earlier)[1:] == [
        "replaced: Tuesday (cbb0e6da4d9a), now history"
    ]


def test_a_restatement_says_nothing_changed_and_a_late_value_says_it_is_history() -> None:
    base = {"fact_id": "f1", "predicate": "runs_on", "tier": "asserted", "replaced": []}
    assert remember_lines({**base, "outcome": "restated"}, "api") == [
        "already known, nothing changed: f1 (runs_on, asserted)"
    ]
    raised = {**base, "outcome": "restated", "raised": "tier inferred -> asserted"}
    assert remember_lines(raised, "api") == [
        "already known, now tier inferred -> asserted: f1 (runs_on, asserted)"
    ]
    past = (datetime.now(UTC) - timedelta(days=3)).replace(microsecond=0)
    late = {**base, "outcome": "stored_closed", "invalid_at": past.isoformat()}
    assert remember_lines(late, "api", "project") == [
        "stored as history: f1 (runs_on, asserted)",
        f"true until {format_time(past, UTC)}, when a later value of the slot took over",
    ]
    # The value that holds after it is named, and, told with no start, said to be so.
    after = {"fact_id": "78be7eb184054796", "object": "Sentry", "tier": "asserted"}
    named = {**late, "held_after": {**after, "start_stated": True}}
    assert remember_lines(named, "api", "project")[1] == (
        f"true until {format_time(past, UTC)}, when Sentry (78be7eb18405) took over"
    )
    told = {**late, "held_after": {**after, "start_stated": False}}
    assert remember_lines(told, "api", "project")[1] == (
        f"true until {format_time(past, UTC)}, when Sentry (78be7eb18405), told then with no "
        "start stated (asserted), took over"
    )


def test_a_value_closed_by_a_later_value_still_to_come_is_not_history() -> None:
    # deploy_freeze "on" from the 8th, written when "off" from the 20th was already known:
    # the write is closed at the 20th, and on the 4th that is no history yet.
    start = (datetime.now(UTC) + timedelta(days=4)).replace(microsecond=0)
    end = start + timedelta(days=12)
    answer = {
        "outcome": "stored_closed",
        "fact_id": "f9",
        "predicate": "deploy_freeze",
        "tier": "asserted",
        "replaced": [],
        "invalid_at": end.isoformat(),
    }
    assert remember_lines(answer, "team", "project", start.isoformat()) == [
        "stored: f9 (deploy_freeze, asserted)",
        f"true from {format_time(start, UTC)}: not true until then; `facts` lists it as "
        "starting later, recall names it so when asked, the block in its last 7 days before "
        f"(`twoclocks facts --as-of {start.isoformat()}` shows it as true)",
        f"true until {format_time(end, UTC)}, when a later value of the slot takes over",
    ]


def test_a_value_told_with_its_end_says_it_holds_until_the_end_given() -> None:
    # "--until": Ravi covers on call until a day; not "when a later value takes over".
    start = (datetime.now(UTC) + timedelta(days=4)).replace(microsecond=0)
    end = start + timedelta(days=7)
    answer = {
        "outcome": "stored_closed", "fact_id": "f9", "predicate": "on_call",
        "tier": "asserted", "replaced": [], "invalid_at": end.isoformat(),
    }  # fmt: skip
    lines = remember_lines(answer, "team", "project", start.isoformat(), end.isoformat())
    assert lines[0] == "stored: f9 (on_call, asserted)"
    assert lines[-1] == f"true until {format_time(end, UTC)}, the end you gave"


def test_a_replaced_value_with_a_line_break_prints_on_one_line() -> None:
    answer = {
        "outcome": "inserted",
        "fact_id": "f2",
        "predicate": "note",
        "tier": "observed",
        "replaced": [{"fact_id": "f1", "object": "two\nlines"}],
    }
    assert len(remember_lines(answer, "api")) == 2


def test_a_fact_filed_under_another_name_shows_that_name_when_it_says_more() -> None:
    fact = {
        "fact_id": "5cc5a9743a394dbe85a39040abbde7e4",
        "subject": "web",
        "predicate": "timeout_seconds",
        "object": "45000",
        "written_as": "timeout_ms",
        "valid_at": "2026-12-02T07:54:00+00:00",
        "tier": "asserted",
    }
    utc = ZoneInfo("UTC")
    assert "web · timeout_seconds (written as timeout ms): 45000" in fact_line(fact, utc)
    spelt = fact | {"predicate": "ci_provider", "written_as": "ci_platform"}
    assert "web · ci_provider: 45000" in fact_line(spelt, utc)


def test_an_event_reads_as_happening_at_its_time_not_from_it() -> None:
    # "incident ... (from 2026-03-14)" read as an incident still going on.
    event = {
        "fact_id": "5cc5a9743a394dbe85a39040abbde7e4", "subject": "payroll",
        "predicate": "incident", "object": "database failover", "kind": "event",
        "valid_at": "2026-03-14T00:00:00+00:00", "tier": "asserted",
    }  # fmt: skip
    utc = ZoneInfo("UTC")
    assert "(at 2026-03-14 00:00 +00, asserted)" in fact_line(event, utc)
    assert "(from 2026-03-14" in fact_line(event | {"kind": "fact"}, utc)


def test_a_write_kept_apart_from_a_close_slot_says_how_to_merge_them() -> None:
    answer = {
        "outcome": "inserted",
        "fact_id": "f2",
        "predicate": "provider",
        "tier": "asserted",
        "replaced": [],
        "near_slot": {"predicate": "vendor", "values": ["Acme Payments"], "similarity": 0.6},
    }
    assert remember_lines(answer, "billing api") == [
        "stored: f2 (provider, asserted)",
        "kept apart from the close slot vendor (Acme Payments): if the two name one thing, "
        "`twoclocks merge provider --into vendor --subject 'billing api'` makes vendor the "
        "one slot; if two, `twoclocks keep-apart vendor provider --subject 'billing api'` "
        "stops this hint",
    ]


def test_the_timeline_says_why_a_version_stopped_and_until_when_it_was_believed() -> None:
    utc = ZoneInfo("UTC")
    held = {
        "fact_id": "3d8e5585d06e4574", "subject": "team", "predicate": "standup",
        "object": "09:30", "valid_at": "2026-01-05T00:00:00Z", "invalid_at": None,
        "created_at": "2026-06-01T08:00:00Z", "expired_at": "2026-12-03T06:38:00Z",
        "retired_reason": "ended",
    }  # fmt: skip
    # The belief the change replaced: open on the world clock, but no longer held.
    assert timeline_line(held, "world", utc).endswith("09:30 [believed until 2026-12-03 06:38 +00]")
    # What is held now: true until it ended (a correction would say corrected).
    closed = {**held, "invalid_at": "2026-12-01T00:00:00Z", "expired_at": None}
    assert timeline_line(closed, "world", utc).startswith(
        "2026-01-05 00:00 +00 -> 2026-12-01 00:00 +00"
    )
    assert timeline_line(closed, "world", utc).endswith("09:30 [ended]")
    corrected = {**closed, "retired_reason": "corrected"}
    assert timeline_line(corrected, "world", utc).endswith("09:30 [corrected]")
    current = {**held, "expired_at": None, "retired_reason": None}
    assert timeline_line(current, "world", utc).endswith("team · standup: 09:30")
    # The system clock keeps its own window: held from created_at until expired_at.
    assert timeline_line(held, "system", utc).startswith(
        "2026-06-01 08:00 +00 -> 2026-12-03 06:38 +00"
    )
    # ... and the same notes: the belief the change replaced is not what ended, and the
    # version held now is; unmarked, "Redis -> open" read as the current cache.
    assert timeline_line(held, "system", utc).endswith("[believed until 2026-12-03 06:38 +00]")
    assert timeline_line(closed, "system", utc).endswith("09:30 [ended]")
    assert timeline_line(corrected, "system", utc).endswith("09:30 [corrected]")
    assert timeline_line(current, "system", utc).endswith("team · standup: 09:30")


def test_the_value_a_correction_gave_back_is_never_listed_as_corrected() -> None:
    # An agent's "Redis streams" closed RabbitMQ at 06:54; correcting it at 06:55 retired
    # RabbitMQ's closed copy and wrote RabbitMQ again. The copy's end was the mistake.
    utc = ZoneInfo("UTC")
    rabbit = {
        "fact_id": "f5399fbbd6104c8f", "version_id": "v2", "subject": "inventory",
        "predicate": "queue", "object": "RabbitMQ", "tier": "asserted",
        "valid_at": "2026-10-01T00:00:00Z", "invalid_at": "2026-12-06T06:54:00Z",
        "created_at": "2026-12-06T06:54:00Z", "expired_at": "2026-12-06T06:55:00Z",
        "retired_reason": "corrected",
    }  # fmt: skip
    again = {**rabbit, "version_id": "v3", "invalid_at": None, "expired_at": None,
             "created_at": "2026-12-06T06:55:00Z", "retired_reason": None}  # fmt: skip
    guess = {**rabbit, "fact_id": "2e895e4ba94f404e", "version_id": "g1", "object": "Redis",
             "valid_at": "2026-12-06T06:54:00Z", "invalid_at": None}  # fmt: skip
    now = datetime(2026, 12, 6, 7, tzinfo=UTC)
    listed = facts_lines([guess, again, rabbit], utc, now)
    assert listed[0].endswith("Redis  (from 2026-12-06 06:54 +00, asserted) [corrected]")
    assert listed[2].endswith("2026-12-06 06:54 +00, asserted) [end corrected]")
    assert mended_rows([guess, again, rabbit]) == {"v2"}
    assert timeline_line(rabbit, "world", utc, mended={"v2"}).endswith("[end corrected]")


def test_a_fact_with_no_class_says_it_applies_in_this_workspace_only() -> None:
    # Typed in one checkout with no class, a fact is a task of that worktree (DESIGN §4):
    # the next repository's block will not hold it, so the write says so and how to widen.
    answer = {
        "outcome": "inserted",
        "fact_id": "f3",
        "predicate": "editor",
        "tier": "asserted",
        "replaced": [],
        "place": "worktree",
        "workspace": "worktree:/home/ana/src/shop",
    }
    assert remember_lines(answer, "user") == [
        "stored: f3 (editor, asserted)",
        "applies in this worktree only (/home/ana/src/shop): `--class project` for the whole "
        "project, `--class user` or `--class rule` for everywhere",
    ]
    assert remember_lines(answer, "user", "task") == ["stored: f3 (editor, asserted)"]
    everywhere = answer | {"place": "everywhere", "workspace": None}
    assert remember_lines(everywhere, "user") == ["stored: f3 (editor, asserted)"]
    project = answer | {"place": "project", "workspace": "project:/home/ana/src/shop"}
    assert remember_lines(project, "user")[1] == (
        "applies in this project only (/home/ana/src/shop): "
        "`--class user` or `--class rule` for everywhere"
    )


def test_a_revision_names_its_successor_what_it_restored_or_that_nothing_replaced_it() -> None:
    given = {"fact_id": "f1", "successor_id": "f2", "successor_tier": "asserted"}
    assert revise_lines(given, "ended") == ["ended: f1; successor f2 (asserted)"]
    restored = {
        "fact_id": "f1",
        "successor_id": None,
        "restored": ["f0"],
        "values": {"f0": "Render"},
    }
    assert revise_lines(restored, "corrected") == ["corrected: f1; believed again: Render (f0)"]
    # A server from before `values` answers with ids alone.
    ids_only = {"fact_id": "f1", "successor_id": None, "restored": ["f0"]}
    assert revise_lines(ids_only, "corrected") == ["corrected: f1; believed again: f0"]
    bare = {"fact_id": "f1", "successor_id": None, "restored": []}
    assert revise_lines(bare, "corrected") == [
        "corrected: f1; nothing replaces it, and no earlier value was believed again"
    ]
    assert revise_lines(bare, "ended") == ["ended: f1; nothing replaces it"]


def test_a_split_names_what_it_moved_or_says_nothing_was_current() -> None:
    answer = {
        "alias": "exception_monitoring",
        "canonical": "error_tracker",
        "subject": "shop",
        "moved": ["fecb05a99e284aa0b72868c8a511a972"],
        "reopened": ["cb9497e7a0e14ce48f579c49f6e84c0d"],
        "values": {
            "fecb05a99e284aa0b72868c8a511a972": "Bugsnag",
            "cb9497e7a0e14ce48f579c49f6e84c0d": "Sentry",
        },
    }
    assert split_lines(answer) == [
        "split exception_monitoring from error_tracker (shop)",
        "moved back: Bugsnag (fecb05a99e28)",
        "believed open again: Sentry (cb9497e7a0e1)",
    ]
    nothing = answer | {"moved": [], "reopened": [], "values": {}}
    assert split_lines(nothing)[1:] == [
        "nothing written as exception_monitoring is believed any more, so no fact moved; "
        "from now on exception_monitoring is a slot of its own"
    ]


def test_a_merge_says_what_moved_what_ended_what_became_one_fact_and_how_to_undo_it() -> None:
    answer = {
        "alias": "steward",
        "canonical": "owner",
        "subject": "core",
        "moved": ["a" * 32],
        "closed": ["b" * 32],
        "folded": {"c" * 32: "d" * 32},
        "teaches": True,
        "values": {"a" * 32: "Lucía", "b" * 32: "Mateo", "c" * 32: "Aiko", "d" * 32: "Aiko"},
    }
    assert merge_lines(answer) == [
        "merged steward into owner (core)",
        f"moved: Lucía ({'a' * 12})",
        f"now history (the later value replaced them): Mateo ({'b' * 12})",
        f"one fact: Aiko ({'c' * 12}) said the same as Aiko ({'d' * 12}), which keeps its start",
        "from now on, steward written beside owner for any other subject joins it too",
        "undo: twoclocks split steward --subject core",
    ]
    quiet = answer | {"moved": [], "closed": [], "folded": {}, "teaches": False}
    assert merge_lines(quiet)[1:] == [
        "other subjects are left to drift (you kept these two names apart elsewhere)",
        "undo: twoclocks split steward --subject core",
    ]


def test_history_marks_the_closed_version_ended_and_the_replaced_belief_by_its_end() -> None:
    # `facts --history` after "deploy target Heroku" was replaced by Fly.io: two rows of one
    # fact id. The one memory holds (closed on the world clock) is the one that ended.
    utc = ZoneInfo("UTC")
    closed = {
        "fact_id": "d5114a40d56c4d72", "subject": "shop-api", "predicate": "deploy_target",
        "object": "Heroku", "valid_at": "2026-12-01T09:00:00Z",
        "invalid_at": "2026-12-03T23:30:00Z", "created_at": "2026-12-03T23:30:00Z",
        "expired_at": None, "retired_reason": "ended", "tier": "asserted",
    }  # fmt: skip
    believed = {**closed, "invalid_at": None, "created_at": "2026-12-01T09:00:00Z",
                "expired_at": "2026-12-03T23:30:00Z"}  # fmt: skip
    assert fact_line(closed, utc).endswith(
        "(from 2026-12-01 09:00 +00 until 2026-12-03 23:30 +00, asserted) [ended]"
    )
    assert fact_line(believed, utc).endswith(
        "(from 2026-12-01 09:00 +00, asserted) [believed until 2026-12-03 23:30 +00]"
    )
    corrected = {**believed, "retired_reason": "corrected"}
    assert fact_line(corrected, utc).endswith("asserted) [corrected]")


def test_a_fact_whose_end_is_still_to_come_is_listed_without_a_history_mark() -> None:
    # `facts` the day a later value was written to start next month: the old one holds.
    utc = ZoneInfo("UTC")
    ends = (datetime.now(UTC) + timedelta(days=30)).replace(second=0, microsecond=0)
    holding = {
        "fact_id": "cbb0e6da4d9a4ad1", "subject": "team", "predicate": "release_day",
        "object": "Tuesday", "valid_at": "2026-06-01T00:00:00Z",
        "invalid_at": ends.isoformat(), "created_at": "2026-06-01T00:00:00Z",
        "expired_at": None, "retired_reason": "ended", "tier": "asserted",
    }  # fmt: skip
    assert fact_line(holding, utc).endswith(f"until {format_time(ends, utc)}, asserted)")


def test_an_end_still_to_come_is_said_as_one() -> None:
    # `revise --reason ended --at <next month> --replacement Valkey`: Redis holds until then.
    answer = {
        "fact_id": "3d8ae28e31bc",
        "successor_id": "0556add8daab",
        "successor_tier": "asserted",
    }
    ends = (datetime.now(UTC) + timedelta(days=30)).replace(second=0, microsecond=0)
    assert revise_lines(answer, "ended", ends.isoformat()) == [
        f"ends {format_time(ends, UTC)}: 3d8ae28e31bc (true until then); "
        "successor 0556add8daab (asserted) from then"
    ]
    assert revise_lines(answer, "ended") == [
        "ended: 3d8ae28e31bc; successor 0556add8daab (asserted)"
    ]


def test_a_retract_that_leaves_its_slot_empty_says_what_stays_ended_and_the_ways_on() -> None:
    full = "422c592abc524ca584ea0b5a548bfc35"
    assert retract_lines({"fact_id": full, "status": "retracted", "left_ended": []}) == [
        f"retracted {full}"
    ]
    answer = {
        "fact_id": full,
        "status": "retracted",
        "left_ended": [{"fact_id": "10ceb58edb5a49338633b0f91ecd45a5", "object": "Redis"}],
    }
    assert retract_lines(answer) == [
        f"retracted {full}",
        "its slot holds no value now; what it had replaced stays ended: Redis (10ceb58edb5a)",
        "if it was never true: `twoclocks reopen 422c592abc52` then "
        "`twoclocks revise 422c592abc52 --reason corrected` believes that again; "
        "if a value holds again, remember it",
    ]


def test_a_read_across_every_workspace_names_each_rows_workspace() -> None:
    # Two checkouts' `working_on`: without the place they read as two current values of
    # one slot. A value that applies everywhere has no place to name.
    utc = ZoneInfo("UTC")
    base = {"fact_id": "f6a3e87e41d2aaaa", "subject": "api", "predicate": "working_on",
            "valid_at": "2026-12-04T23:51:00Z", "tier": "asserted"}  # fmt: skip
    hotfix = base | {"object": "login timeout", "workspace": "worktree:/src/api-hotfix"}
    main = base | {"object": "router cache", "workspace": "worktree:/src/api"}
    everywhere = base | {"object": "docs", "workspace": None}
    now = datetime(2026, 12, 5, tzinfo=UTC)
    lines = facts_lines([hotfix, main, everywhere], utc, now, with_place=True)
    assert lines[0].endswith("login timeout  (from 2026-12-04 23:51 +00, asserted)  "
                             "[worktree:/src/api-hotfix]")  # fmt: skip
    assert lines[1].endswith("[worktree:/src/api]") and lines[2].endswith("asserted)")
    assert "[worktree" not in facts_lines([hotfix], utc, now)[0]  # one workspace's read


def test_an_empty_timeline_counts_versions_elsewhere_not_facts() -> None:
    assert empty_line(6, "version") == (
        "result: empty here; 6 versions in other workspaces (add --all-workspaces to list them)"
    )
    assert empty_line(1).startswith("result: empty here; 1 fact in other")
    assert empty_line(None) == "result: empty"


def test_rows_none_of_which_is_about_the_thing_named_point_at_the_projects_that_are() -> None:
    assert missed_line(
        1, "other projects or worktrees of this space", "add --scope wide to read them"
    ) == (
        "none of these is about what the question names; 1 fact about it is in other "
        "projects or worktrees of this space (add --scope wide to read them)"
    )
