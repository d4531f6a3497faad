"""What a model reads of a recall or a timeline (twoclocks/mcp_server/rendering.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from twoclocks.domain.before_questions import BEFORE_ANY_FACT
from twoclocks.domain.block_lines import format_time
from twoclocks.domain.model import Kind, RetiredReason, Tier
from twoclocks.domain.times_to_come import ANY_TIME_TO_COME_LABEL
from twoclocks.mcp_server.rendering import fact_line, recall_text, timeline_text
from twoclocks.service.recall_requests import NamedSpan, RecallResult, ScoredFact
from twoclocks.service.requests import Fact

T0 = datetime(2026, 1, 5, tzinfo=UTC)
T1 = datetime(2026, 6, 1, tzinfo=UTC)


def fact(**fields: Any) -> ScoredFact:
    base: dict[str, Any] = {
        "fact_id": "1f0fca608f1241ddae1d73facd5385d7", "version_id": "v1",
        "subject": "billing-api", "predicate": "cache", "object": "Redis", "kind": Kind.FACT,
        "tier": Tier.ASSERTED, "place": None, "workspace": "repo:/src/billing",
        "valid_at": T0, "invalid_at": None, "created_at": T0, "expired_at": None,
        "retired_reason": None, "supersedes": None, "score": 1.0,
    }  # fmt: skip
    return ScoredFact(**(base | fields))


def test_a_current_fact_reads_as_its_value_window_tier_and_short_id() -> None:
    assert fact_line(fact()) == (
        "- billing-api · cache: Redis (since 2026-01-05 00:00 +00, asserted) id 1f0fca608f12"
    )


def test_an_inferred_fact_says_it_is_a_guess_and_one_from_elsewhere_says_where() -> None:
    line = fact_line(fact(tier=Tier.INFERRED, elsewhere=True, workspace="project:/src/web"))
    assert "(since 2026-01-05 00:00 +00, inferred — a guess, verify, from project:/src/web)" in line
    # Here, the workspace is the caller's own: not said again.
    assert "from" not in fact_line(fact(elsewhere=False))


def test_history_says_why_it_is_history_on_its_own_clock() -> None:
    ended = fact(invalid_at=T1, retired_reason=RetiredReason.ENDED)
    assert fact_line(ended).startswith(
        "- billing-api · cache: Redis (2026-01-05 00:00 +00 until 2026-06-01 00:00 +00, "
        "asserted) [ended] id "
    )
    corrected = fact(expired_at=T1, retired_reason=RetiredReason.CORRECTED)
    assert "(since 2026-01-05 00:00 +00, asserted) [corrected]" in fact_line(corrected)
    # What memory believed before the end was told: open then, replaced by the ended line.
    replaced = fact(expired_at=T1, retired_reason=RetiredReason.ENDED)
    assert "(since 2026-01-05 00:00 +00, asserted) [believed until 2026-06-01 00:00 +00] id " in (
        fact_line(replaced)
    )


def test_a_value_filed_under_another_slot_name_says_the_name_it_was_written_as() -> None:
    # "45000" under timeout_seconds leans on the name it was given.
    line = fact_line(fact(predicate="timeout_seconds", object="45000", written_as="timeout_ms"))
    assert "· timeout_seconds (written as timeout ms): 45000 (" in line


def test_a_value_with_a_line_break_stays_one_line() -> None:
    assert "\n" not in fact_line(fact(object="Redis\nrows: 1 fact"))


def test_a_recall_heads_its_lines_and_says_empty_and_unavailable_apart() -> None:
    text = recall_text(RecallResult(status="rows", facts=[fact(), fact(object="Memcached")]))
    head, *lines = text.splitlines()
    assert head == "rows: 2 facts, best first (revise and retract take the id)"
    assert [line.split(": ")[1].split(" (")[0] for line in lines] == ["Redis", "Memcached"]
    assert recall_text(RecallResult(status="empty", facts=[])).startswith("empty: nothing")
    unavailable = recall_text(RecallResult(status="unavailable", facts=[]))
    assert unavailable.startswith("unavailable:") and "not" in unavailable


def test_an_empty_recall_here_points_at_scope_wide_when_other_projects_answer() -> None:
    # A bare "empty" reads as "never recorded": the model would not think to ask wide.
    text = recall_text(RecallResult(status="empty", facts=[], elsewhere=3))
    assert text == (
        "empty here: nothing recorded in this workspace matches; 3 facts in other projects or "
        'worktrees of this space may answer it: call recall again with scope "wide" to read them'
    )
    one = recall_text(RecallResult(status="empty", facts=[], elsewhere=1))
    assert (
        "; 1 fact in other projects or worktrees of this space may answer it: call recall again"
        in one
    )


def test_an_empty_recall_names_what_starts_later_as_not_true_yet() -> None:
    starts = datetime.now(UTC).replace(microsecond=0) + timedelta(days=16)
    later = fact(predicate="deploy_freeze", object="on", valid_at=starts)
    text = recall_text(RecallResult(status="empty", facts=[], starting_later=[later]))
    head, line = text.splitlines()
    assert head == (
        "empty now: nothing that matches the question holds now; 1 fact starts later (not true"
        " yet, say so if you use them):"
    )
    beside = recall_text(RecallResult(status="rows", facts=[fact()], starting_later=[later]))
    assert beside.splitlines()[2:] == [
        "1 fact starts later (not true yet, say so if you use them):",
        line,
    ]
    assert line.startswith(f"- billing-api · deploy_freeze: on (from {format_time(starts, UTC)},")


def test_a_fact_told_with_no_start_reads_as_known_since_and_a_past_read_names_it_apart() -> None:
    told = fact(start_stated=False, predicate="workers", object="8", valid_at=T1)
    line = "- billing-api · workers: 8 (known since 2026-06-01 00:00 +00, asserted) id 1f0fca608f12"
    assert fact_line(told) == line
    closed = fact_line(told.model_copy(update={"invalid_at": T1 + timedelta(days=2)}))
    assert "(known from 2026-06-01 00:00 +00 until 2026-06-03 00:00 +00," in closed
    head = (
        "told later, with no start stated (they may have held then; memory does not know, "
        "say so if you use them):"
    )
    empty = recall_text(RecallResult(status="empty", facts=[], told_later=[told]))
    assert empty.splitlines() == [f"empty then: nothing on the record held then; {head}", line]
    rows = recall_text(RecallResult(status="rows", facts=[fact()], told_later=[told]))
    assert rows.splitlines()[2:] == [head, line]


def test_a_plan_that_matches_best_comes_before_the_rows_that_hold_now() -> None:
    starts = datetime.now(UTC).replace(microsecond=0) + timedelta(days=5)
    later = fact(predicate="deploy_freeze", object="on", valid_at=starts, score=1.1)
    now = fact(predicate="deploy_target", object="Fly.io", score=0.7)
    text = recall_text(
        RecallResult(status="rows", facts=[now], starting_later=[later], later_first=True)
    )
    assert text.splitlines() == [
        "1 fact starts later and matches the question best (not true yet, say so if you use them):",
        fact_line(later),
        "rows: 1 fact true now, each a weaker match than the above (revise and retract take"
        " the id)",
        fact_line(now),
    ]


def test_a_question_naming_a_time_to_come_reads_what_holds_then_first() -> None:
    # "who is on call next week?": Dana now, until Monday; Ravi from Monday; a freeze later.
    monday, after = datetime(2026, 12, 14, tzinfo=UTC), datetime(2026, 12, 21, tzinfo=UTC)
    dana = fact(predicate="on_call", object="Dana", invalid_at=monday, score=0.9)
    ravi = fact(predicate="on_call", object="Ravi", valid_at=monday, version_id="v2", score=0.8)
    freeze = fact(
        predicate="deploy_freeze", object="on", valid_at=after, version_id="v3", score=0.5
    )
    week = NamedSpan(said="next week", label="next week (the week of 2026-12-14)", since=monday,
                     until=after)  # fmt: skip
    answer = RecallResult(
        status="rows", facts=[dana], starting_later=[ravi, freeze], later_first=True,
        time_to_come=week,
    )  # fmt: skip
    assert recall_text(answer).splitlines() == [
        "holds next week (the week of 2026-12-14), the time the question names (not true yet), "
        "say so if you use them:",
        fact_line(ravi),
        "rows: 1 fact true now (revise and retract take the id)",
        fact_line(dana),
        "1 fact starts later (not true yet, say so if you use them):",
        fact_line(freeze),
    ]
    # Nothing that starts later holds then: the rows are all memory knows of it, said so.
    tomorrow = NamedSpan(said="tomorrow", label="tomorrow (2026-12-08)",
                         since=datetime(2026, 12, 8, tzinfo=UTC),
                         until=datetime(2026, 12, 9, tzinfo=UTC))  # fmt: skip
    asked = answer.model_copy(update={"time_to_come": tomorrow, "later_first": False})
    assert recall_text(asked).splitlines()[2:4] == [
        "these hold now; nothing found that starts later holds tomorrow (2026-12-08), the time "
        "the question names; the rows say when each ends",
        "2 facts start later (not true yet, say so if you use them):",
    ]
    # "What's coming up?" with no plan and no row: said of what is to come.
    ahead = NamedSpan(said="coming up", label=ANY_TIME_TO_COME_LABEL, since=T0, until=T1)
    none = RecallResult(status="empty", facts=[], time_to_come=ahead)
    assert recall_text(none) == (
        "empty: nothing memory holds starts later (the question asks what is to come)"
    )
    # With plans and no matching row, the plans are the answer, under that time, and
    # those beyond k are counted: "nothing holds now" read as an empty store.
    ten_years = NamedSpan(said="coming up", label=ANY_TIME_TO_COME_LABEL, since=monday,
                          until=datetime(2036, 12, 14, tzinfo=UTC))  # fmt: skip
    plans = RecallResult(
        status="empty", facts=[], time_to_come=ten_years, starting_later=[ravi],
        starting_later_more=2, later_first=True,
    )  # fmt: skip
    assert recall_text(plans).splitlines() == [
        "empty now: nothing that matches the question holds now",
        "holds from now on (no time named), soonest first (not true yet; the question asks "
        "what is to come), say so if you use them:",
        fact_line(ravi),
        "… 2 more facts start later, not listed: ask with a larger k, or of one thing or slot",
    ]


def test_a_question_asking_what_memory_believed_then_reads_that_belief_first() -> None:
    day = NamedSpan(said="on December 10", label="2029-12-10", since=T0, until=T1)
    heroku = fact(
        predicate="host", object="Heroku", version_id="v2", expired_at=T1,
        retired_reason=RetiredReason.CORRECTED,
    )  # fmt: skip
    render = fact(predicate="host", object="Render")
    asked = RecallResult(
        status="rows", facts=[render], named_time=day, held_then=[heroku], then_believed=True
    )
    lines = recall_text(asked).splitlines()
    assert lines[:2] == [
        "memory believed on 2029-12-10, read at its start, its end, and the slot asked in "
        "between (the question asks what "
        "it believed then; "
        "a mark says what changed since):",
        fact_line(heroku),
    ]
    assert fact_line(render) in lines[2:]
    none = asked.model_copy(update={"held_then": []})
    assert recall_text(none).splitlines()[0] == (
        "memory believed nothing found for the question on 2029-12-10, read at its start and its "
        "end; these hold now"
    )


def test_what_memory_believed_then_marks_a_closed_copy_a_correction_gave_back_end_corrected() -> (
    None
):
    # Airflow held; an agent's "Prefect" closed it at T1; correcting Prefect at T2 retired
    # Airflow's closed copy and wrote Airflow again. "What did we believe the orchestrator
    # was this afternoon?" lists the copy: "Airflow [corrected]" read as Airflow found wrong.
    t2 = T1 + timedelta(minutes=1)
    day = NamedSpan(said="this afternoon", label="this afternoon", since=T0, until=t2)
    copy = fact(predicate="orchestrator", object="Airflow", version_id="v2", invalid_at=T1,
                created_at=T1, expired_at=t2, retired_reason=RetiredReason.CORRECTED)  # fmt: skip
    again = fact(predicate="orchestrator", object="Airflow", version_id="v3", created_at=t2)
    guess = fact(fact_id="2e895e4ba94f404e9d3d2bb7c52c1a11", predicate="orchestrator",
                 object="Prefect", version_id="g1", valid_at=T1, created_at=T1, expired_at=t2,
                 retired_reason=RetiredReason.CORRECTED)  # fmt: skip
    asked = RecallResult(status="rows", facts=[again], named_time=day, held_then=[copy, guess],
                         then_believed=True)  # fmt: skip
    lines = recall_text(asked).splitlines()
    assert lines[1].endswith("[end corrected] id 1f0fca608f12")
    assert lines[2].endswith("[corrected] id 2e895e4ba94f") and "[end" not in lines[2]


def test_a_timeline_line_adds_when_memory_believed_it_and_counts_what_was_cut() -> None:
    replaced = Fact.model_validate(
        fact(invalid_at=T1, expired_at=T1, retired_reason=RetiredReason.ENDED).model_dump()
    )
    text = timeline_text([replaced], more=3, clock="system")
    head, line = text.splitlines()
    assert head == "1 version, by when memory recorded each; 3 more matched " \
        "(narrow since/until or raise limit)"  # fmt: skip
    # A replaced belief says its end once: "[believed until T]" and "(recorded A until T)"
    # told the same T twice.
    assert "[believed until 2026-06-01 00:00 +00]" in line
    assert line.endswith("(recorded 2026-01-05 00:00 +00)")
    assert line.count("2026-06-01 00:00 +00") == 2  # the world end, and the belief's end
    corrected = Fact.model_validate(
        fact(expired_at=T1, retired_reason=RetiredReason.CORRECTED).model_dump()
    )
    (_, wrong) = timeline_text([corrected], more=0, clock="system").splitlines()
    assert "[corrected]" in wrong
    assert wrong.endswith("(recorded 2026-01-05 00:00 +00 until 2026-06-01 00:00 +00)")
    assert timeline_text([], more=0, clock="world").startswith("empty:")


def test_a_recall_naming_a_past_time_names_what_held_then_and_still_holds_once() -> None:
    # "who maintained ledger in April?": Bo left since; Ana held then and holds still,
    # named there once; Dana, from June, holds now only.
    april = NamedSpan(label="April 2026", said="in april", since=T0, until=T1)
    bo = fact(object="Bo", invalid_at=T1, retired_reason=RetiredReason.ENDED)
    ana, dana = fact(object="Ana"), fact(object="Dana", version_id="v-dana")
    answer = RecallResult(
        status="rows", facts=[ana, dana], named_time=april, held_then=[bo], still_held=[ana]
    )
    assert recall_text(answer).splitlines() == [
        "held in April 2026 (the question names it), ended since (not true now):",
        fact_line(bo),
        "held in April 2026 too, and still holds now:",
        fact_line(ana),
        "rows: 1 other fact true now, best first (revise and retract take the id)",
        fact_line(dana),
    ]
    # Nothing ended: what held then and holds still comes first; here every row did.
    alone = RecallResult(status="rows", facts=[ana], named_time=april, still_held=[ana])
    assert recall_text(alone).splitlines() == [
        "held in April 2026 (the question names it), and still holds now:",
        fact_line(ana),
    ]


def test_an_event_reads_as_happening_at_its_time_and_once_under_the_time_named() -> None:
    # "incident ... (since March)" read as an incident still going on.
    november = NamedSpan(label="November 2026", said="in november", since=T0, until=T1)
    failover = fact(predicate="incident", object="failover", kind=Kind.EVENT)
    assert "(at 2026-01-05 00:00 +00, asserted)" in fact_line(failover)
    cache = fact(version_id="v2")
    answer = RecallResult(
        status="rows", facts=[failover, cache], named_time=november, held_then=[failover]
    )
    assert recall_text(answer).splitlines() == [
        "happened in November 2026 (the question names it):",
        fact_line(failover),
        "rows: 1 other fact true now, best first (revise and retract take the id)",
        fact_line(cache),
    ]


def test_the_lines_cost_a_fraction_of_the_rows_as_json() -> None:
    # What Claude Code would have shown its model: the rows' JSON (structured content).
    answer = RecallResult(status="rows", facts=[fact(object=f"Redis {i}") for i in range(10)])
    assert len(recall_text(answer)) * 4 < len(answer.model_dump_json())


def test_a_recall_naming_a_past_time_names_what_held_then_first_apart_from_what_holds_now() -> None:
    # "which cache did we use in March?" answered with Redis alone would read as March's.
    march = NamedSpan(label="March 2026", said="in march", since=T0, until=T1)
    then = fact(
        object="Memcached", version_id="v0", invalid_at=T1, retired_reason=RetiredReason.ENDED
    )
    text = recall_text(
        RecallResult(status="rows", facts=[fact()], named_time=march, held_then=[then])
    )
    # Then's value is the answer: read first, today's would be taken for March's.
    assert text.splitlines() == [
        "held in March 2026 (the question names it), ended since (not true now):",
        fact_line(then),
        "rows: 1 fact true now, best first (revise and retract take the id)",
        fact_line(fact()),
    ]
    empty = recall_text(RecallResult(status="empty", facts=[], named_time=march, held_then=[then]))
    assert empty.splitlines()[0] == (
        "empty now: nothing holds now; held in March 2026 (the question names it), ended since "
        "(not true now):"
    )
    # Nothing found held then: said first, or the first row would read as March's.
    none = recall_text(RecallResult(status="rows", facts=[fact()], named_time=march))
    assert none.splitlines() == [
        "these hold now; the question names March 2026, and no fact found for it held then "
        "and ended since",
        "rows: 1 fact, best first (revise and retract take the id)",
        fact_line(fact()),
    ]


def test_rows_none_of_which_is_about_the_thing_named_say_other_projects_hold_it() -> None:
    # "who owns checkout-api?" asked in the storefront: its owner is a row, not the answer.
    text = recall_text(RecallResult(status="rows", facts=[fact()], elsewhere=2))
    assert text.splitlines()[2] == (
        "none of these is about what the question names; 2 facts about it are in other "
        'projects or worktrees of this space: call recall again with scope "wide" to read them'
    )


def test_a_slot_the_question_names_that_ended_is_read_before_the_rows_of_other_slots() -> None:
    # "what was our release cadence?" after it ended: "two weeks" of the sprint, read
    # first, would be taken for the cadence.
    weekly = fact(
        predicate="release_cadence", object="weekly", invalid_at=T1,
        retired_reason=RetiredReason.ENDED,
    )  # fmt: skip
    sprint = fact(predicate="sprint_length", object="two weeks")
    text = recall_text(RecallResult(status="rows", facts=[sprint], ended=[weekly]))
    assert text.splitlines() == [
        "no value now in the slot the question names; its last one ended (not true now):",
        fact_line(weekly),
        "rows: 1 fact true now, in other slots, best first (revise and retract take the id)",
        fact_line(sprint),
    ]
    empty = recall_text(RecallResult(status="empty", facts=[], ended=[weekly]))
    assert empty.splitlines() == [
        "empty now: nothing holds now; no value now in the slot the question names; its last "
        "one ended (not true now):",
        fact_line(weekly),
    ]


def test_an_ended_value_the_question_names_is_read_before_the_values_its_slot_holds_now() -> None:
    # "is Bo still a maintainer?" after Bo's value ended: the maintainers now do not say it.
    bo = fact(
        predicate="maintainer", object="Bo Lin", invalid_at=T1,
        retired_reason=RetiredReason.ENDED,
    )  # fmt: skip
    ana = fact(predicate="maintainer", object="Ana Ruiz")
    text = recall_text(RecallResult(status="rows", facts=[ana], ended_values=[bo]))
    assert text.splitlines() == [
        "ended, not true now (the question names it; what holds now follows):",
        fact_line(bo),
        "rows: 1 fact true now, best first (revise and retract take the id)",
        fact_line(ana),
    ]


def test_a_question_asking_what_changed_reads_the_changes_first_then_the_other_rows() -> None:
    # "what changed this week?": pnpm began on Wednesday; "empty" would read as "no change".
    week = NamedSpan(said="this week", label="this week (from 2026-05-25)", since=T0, until=T1)
    pnpm = fact(predicate="package_manager", object="pnpm", version_id="v2")
    ci = fact(predicate="ci", object="GitHub Actions", version_id="v3")
    text = recall_text(
        RecallResult(status="rows", facts=[pnpm, ci], changes_in=week, changed=[pnpm])
    )
    assert text.splitlines() == [
        "changed this week (from 2026-05-25): began or ended then, oldest first (the question "
        "asks what changed):",
        fact_line(pnpm),
        "rows: 1 other fact true now that match the question's words, best first (revise and "
        "retract take the id)",
        fact_line(ci),
    ]
    none = recall_text(RecallResult(status="empty", facts=[], changes_in=week))
    assert none == (
        "no fact memory holds began or ended this week (from 2026-05-25) (the question asks "
        "what changed)"
    )
    # Of a slot it names: said of that slot ("what changed in the ci this week?").
    of_ci = RecallResult(status="rows", facts=[ci], changes_in=week, changes_about=["shop · ci"])
    assert recall_text(of_ci).splitlines()[0] == (
        "no fact memory holds of shop · ci began or ended this week (from 2026-05-25) (the "
        "question asks what changed)"
    )


def test_a_change_list_cut_to_the_latest_says_how_many_more_changed() -> None:
    # Ten lines read as every change of a week that had twelve.
    week = NamedSpan(said="this week", label="this week (from 2026-05-25)", since=T0, until=T1)
    pnpm = fact(predicate="package_manager", object="pnpm", version_id="v2")
    answer = RecallResult(status="rows", facts=[], changes_in=week, changed=[pnpm], changes_more=2)
    assert recall_text(answer).splitlines()[1:] == [
        fact_line(pnpm),
        "… 2 more changes this week (from 2026-05-25), not listed: ask of one thing or slot, "
        "or read the timeline",
    ]


def test_a_change_question_of_a_thing_no_fact_holds_counts_the_other_changes() -> None:
    # "What changed with kubernetes this week?", no kubernetes fact: the week's changes
    # were told as its answer.
    week = NamedSpan(said="this week", label="this week (from 2026-05-25)", since=T0, until=T1)
    answer = RecallResult(
        status="empty", facts=[], changes_in=week, changes_about=["kubernetes"], changes_more=4
    )
    assert recall_text(answer).splitlines() == [
        "no fact memory holds of kubernetes began or ended this week (from 2026-05-25) (the "
        "question asks what changed)",
        "… 4 changes of other things this week (from 2026-05-25), not listed: ask what changed "
        "without naming a thing to read them",
    ]


def test_a_question_asking_what_was_corrected_reads_the_corrections_first() -> None:
    # "what did we correct today?": GitHub Actions found wrong, Buildkite told instead.
    today = NamedSpan(said="today", label="today (2026-05-26)", since=T0, until=T1)
    gha = fact(predicate="ci", object="GitHub Actions", version_id="v2", expired_at=T1,
               retired_reason="corrected")  # fmt: skip
    bk = fact(predicate="ci", object="Buildkite", version_id="v3", supersedes=gha.fact_id)
    db = fact(predicate="database", object="Postgres 16", version_id="v4")
    asked = RecallResult(
        status="rows", facts=[bk, db], changes_in=today, changes_corrected=True,
        corrected=[gha, bk],
    )  # fmt: skip
    head = (
        "corrected today (2026-05-26): found wrong then, each followed by what holds instead "
        "(memory's belief changed, not the world):"
    )
    assert recall_text(asked).splitlines() == [
        head,
        fact_line(gha),
        fact_line(bk),
        "rows: 1 other fact true now that match the question's words, best first (revise and "
        "retract take the id)",
        fact_line(db),
    ]
    assert "[corrected]" in fact_line(gha)
    none = RecallResult(status="empty", facts=[], changes_in=today, changes_corrected=True)
    assert recall_text(none) == (
        "memory corrected no fact today (2026-05-26) (the question asks what was corrected)"
    )
    # Asked what changed: the changes, then the corrections.
    changed = asked.model_copy(update={"changes_corrected": False, "changed": [db]})
    assert recall_text(changed).splitlines()[2:5] == [head, fact_line(gha), fact_line(bk)]


def test_a_question_asking_what_memory_learned_reads_what_was_told_first() -> None:
    # "what did you learn today?": the facts told today, whatever their own valid time.
    today = NamedSpan(said="today", label="today (2026-05-26)", since=T0, until=T1)
    db = fact(predicate="database", object="MySQL 8", version_id="v2")
    asked = RecallResult(
        status="rows", facts=[db], changes_in=today, changes_told=True, changed=[db]
    )
    assert recall_text(asked).splitlines() == [
        "told to memory today (2026-05-26), first told first (the question asks what memory "
        "learned; each line says when it held):",
        fact_line(db),
    ]
    none = RecallResult(status="empty", facts=[], changes_in=today, changes_told=True)
    assert recall_text(none) == "memory was told nothing it still holds today (2026-05-26)"
    # A plan told today is said once, among what was told, not again as starting later.
    ravi = fact(predicate="on_call", object="Ravi", version_id="v3", valid_at=T1)
    told = asked.model_copy(update={"changed": [db, ravi], "starting_later": [ravi]})
    assert recall_text(told).splitlines()[1:] == [fact_line(db), fact_line(ravi)]


def test_a_question_asking_what_came_before_a_slots_first_value_says_nothing_did() -> None:
    # "Who owned checkout before?" answered with Bea alone read Bea as the former owner.
    bea = fact(predicate="owner", object="Bea")
    before = NamedSpan(said="before Bea", label="the time before Bea", since=BEFORE_ANY_FACT,
                       until=T0)  # fmt: skip
    answer = RecallResult(status="rows", facts=[bea], named_time=before)
    assert recall_text(answer).splitlines()[0] == (
        "nothing memory holds came before Bea: Bea is the first value memory holds of its slot"
    )
    # A value told late that Bea's stated start outdated did come before her: it is named.
    ana = fact(predicate="owner", object="Ana", version_id="v0", expired_at=T1,
               retired_reason=RetiredReason.OUTDATED, start_stated=False)  # fmt: skip
    told = answer.model_copy(update={"held_then": [ana]})
    lines = recall_text(told).splitlines()
    assert lines[0].startswith("held in the time before Bea (the question names it)")
    assert lines[1] == fact_line(ana) and "[outdated when told]" in lines[1]


def test_a_facts_line_is_written_in_the_zone_asked_for() -> None:
    # The block writes its times in the account's zone; the MCP lines wrote UTC beside it.
    from zoneinfo import ZoneInfo

    istanbul = ZoneInfo("Europe/Istanbul")
    assert "(since 2026-01-05 03:00 +03, asserted)" in fact_line(fact(), zone=istanbul)
    assert "(since 2026-01-05 00:00 +00, asserted)" in fact_line(fact())
    answer = RecallResult(status="rows", facts=[fact()])
    assert "03:00 +03" in recall_text(answer, istanbul)
