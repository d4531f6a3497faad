"""How the CLI lays out a recall's answer (twoclocks/cli_recall_lines.py)."""

from __future__ import annotations

from twoclocks.cli_recall_lines import (
    changed_lines,
    ended_lines,
    holds_in,
    later_lines,
    then_lines,
    to_come_lines,
)
from twoclocks.domain.times_to_come import ANY_TIME_TO_COME_LABEL


def test_a_recall_naming_a_past_time_lists_what_held_then_first_under_its_own_head() -> None:
    answered = ["result: rows", "- api · cache: Redis"]
    then = ["- api · cache: Memcached (until 2026-06-01)"]
    # What held then answers the question: it comes first, what holds now after it.
    assert then_lines(answered, "March 2026", then, held_now=True) == [
        "result: rows",
        "held in March 2026 (the question names it), ended since (not true now):",
        *then,
        "holds now:",
        "- api · cache: Redis",
    ]
    assert then_lines(["result: empty"], "March 2026", then, held_now=False)[1] == (
        "nothing holds now; held in March 2026 (the question names it), ended since (not true now):"
    )
    # Nothing found held then: said first, or the first row would read as March's
    # ("what warehouse did we use in October?" answered BigQuery, from November 15).
    none = then_lines(answered, "March 2026", [], held_now=True)
    assert none[1].startswith("these hold now; the question names March 2026")
    assert none[2:] == ["- api · cache: Redis"]
    assert then_lines(answered, None, [], held_now=True) == answered


def test_a_recall_naming_a_past_time_says_what_held_then_and_still_holds_after_what_ended() -> None:
    # "who maintained ledger in April?": Bo left in September; Ana held then and holds
    # still; Dana began in June. Bo alone first would read as April's whole answer.
    bo = ["- ledger · maintainer: Bo (until 2026-09-01) [ended]"]
    ana = ["- ledger · maintainer: Ana (since 2026-01-05)"]
    answered = ["result: rows", "- ledger · maintainer: Dana (since 2026-06-01)"]
    assert then_lines(answered, "April 2026", bo, True, ana) == [
        "result: rows",
        "held in April 2026 (the question names it), ended since (not true now):",
        *bo,
        "held in April 2026 too, and still holds now:",
        *ana,
        "holds now:",
        answered[1],
    ]
    # Nothing ended: what held then and holds still is the answer, first.
    assert then_lines(answered, "April 2026", [], True, ana) == [
        "result: rows",
        "held in April 2026 (the question names it), and still holds now:",
        *ana,
        "holds now:",
        answered[1],
    ]
    # Events that happened then: said so, not "ended since".
    failover = ["- payroll · incident: failover (at 2026-04-03)"]
    assert then_lines(answered, "April 2026", failover, True, events=True)[1] == (
        "happened in April 2026 (the question names it):"
    )
    # Every row held then: no empty "holds now" head.
    assert then_lines(["result: rows"], "April 2026", [], False, ana) == [
        "result: rows",
        "held in April 2026 (the question names it), and still holds now:",
        *ana,
    ]


def test_recall_lines_put_a_plan_that_matches_best_right_after_the_result_line() -> None:
    now, plan = ["result: rows", "team · deploy_target: Fly.io"], ["team · deploy_freeze: on"]
    assert later_lines(now, plan, first=True) == [
        "result: rows",
        "starts later (not true yet), the best match for the question:",
        "team · deploy_freeze: on",
        "holds now, each a weaker match:",
        "team · deploy_target: Fly.io",
    ]
    assert later_lines(now, plan) == [*now, "starts later (not true yet):", *plan]


def test_a_slot_the_question_names_that_ended_is_said_first_then_the_other_slots() -> None:
    answered = ["result: rows", "- team · sprint_length: two weeks"]
    ended = ["- app · release_cadence: weekly (until 2026-12-01) [ended]"]
    assert ended_lines(answered, ended, [], held_now=True) == [
        "result: rows",
        "no value now in the slot the question names; its last one ended (not true now):",
        *ended,
        "holds now, in other slots:",
        "- team · sprint_length: two weeks",
    ]
    assert ended_lines(["result: empty"], ended, [], held_now=False) == [
        "result: empty",
        "nothing holds now; no value now in the slot the question names; its last one ended "
        "(not true now):",
        *ended,
    ]
    assert ended_lines(answered, [], [], held_now=True) == answered


def test_an_ended_value_the_question_names_is_said_first_then_what_its_slot_holds_now() -> None:
    answered = ["result: rows", "- ledger · maintainer: Ana Ruiz"]
    bo = ["- ledger · maintainer: Bo Lin (until 2026-09-01) [ended]"]
    assert ended_lines(answered, [], bo, held_now=True) == [
        "result: rows",
        "ended, not true now (the question names it; what holds now follows):",
        *bo,
        "holds now:",
        "- ledger · maintainer: Ana Ruiz",
    ]


def test_a_value_the_question_names_that_was_found_wrong_is_said_as_never_true() -> None:
    answered = ["result: rows", "- ledger · ci: Buildkite"]
    gha = ["- ledger · ci: GitHub Actions [corrected]"]
    # "Ended" would say it held once: a corrected value never did.
    assert ended_lines(answered, [], gha, True, ["corrected"])[1] == (
        "found wrong, never true (the question names it; what holds now follows):"
    )


def test_a_question_asking_what_changed_says_the_changes_first_then_what_holds_now() -> None:
    answered = ["result: rows", "- shop · ci: GitHub Actions"]
    changed = [
        "- shop · database: PostgreSQL (until 2026-12-03) [ended]",
        "- shop · database: MySQL",
    ]
    assert changed_lines(answered, "this week (from 2026-11-30)", changed, held_now=True) == [
        "result: rows",
        "changed this week (from 2026-11-30): began or ended then, oldest first (the question "
        "asks what changed):",
        *changed,
        "holds now, matching the question's words:",
        "- shop · ci: GitHub Actions",
    ]
    # None changed: said so, never "empty" alone, which reads as an answer by chance.
    assert changed_lines(["result: empty"], "today (2026-12-06)", [], held_now=False) == [
        "result: empty",
        "no fact memory holds began or ended today (2026-12-06) (the question asks what changed)",
    ]
    # Of a slot the question names: said of it, not of every fact.
    assert changed_lines(["result: rows"], "today (2026-12-06)", [], False, about=["shop · ci"])[
        1
    ] == (
        "no fact memory holds of shop · ci began or ended today (2026-12-06) (the question "
        "asks what changed)"
    )
    # Of a thing no fact that changed holds: the other changes are counted, not listed.
    assert changed_lines(
        ["result: empty"], "today (2026-12-06)", [], False, about=["kubernetes"], more=3
    )[2] == (
        "… 3 changes of other things today (2026-12-06), not listed: ask what changed without "
        "naming a thing to read them"
    )
    # Cut to the latest: the rest are counted, not left to read as none.
    assert changed_lines(["result: rows"], "today (2026-12-06)", changed, False, more=3)[-1] == (
        "… 3 more changes today (2026-12-06), not listed: ask of one thing or slot, or read "
        "the timeline"
    )


def test_a_question_asking_what_was_corrected_says_the_corrections_then_first() -> None:
    wrong = ["- shop · ci: GitHub Actions [corrected]", "- shop · ci: Buildkite"]
    head = (
        "corrected today (2026-12-07): found wrong then, each followed by what holds instead "
        "(memory's belief changed, not the world):"
    )
    answered = ["result: rows", "- shop · database: Postgres 16"]
    asked = changed_lines(
        answered, "today (2026-12-07)", [], True, corrected=wrong, corrections=True
    )
    assert asked == [
        "result: rows",
        head,
        *wrong,
        "holds now, matching the question's words:",
        answered[1],
    ]
    # None: said so, never the rows alone (they would read as the corrections).
    assert changed_lines(["result: empty"], "today (2026-12-07)", [], False, corrections=True) == [
        "result: empty",
        "memory corrected no fact today (2026-12-07) (the question asks what was corrected)",
    ]
    # Asked what changed, the corrections follow the changes, under their own head.
    changed = ["- shop · database: SQLite [ended]"]
    lines = changed_lines(["result: rows"], "today (2026-12-07)", changed, False, corrected=wrong)
    assert lines[2:] == [*changed, head, *wrong]


def test_a_question_asking_what_memory_learned_says_what_was_told_then() -> None:
    told = ["- shop · database: MySQL 8 (from 2025-01-01)"]
    assert changed_lines(["result: rows"], "today (2026-12-06)", told, False, told=True) == [
        "result: rows",
        "told to memory today (2026-12-06), first told first (the question asks what memory "
        "learned; each line says when it held):",
        *told,
    ]
    assert changed_lines(["result: empty"], "today (2026-12-06)", [], False, told=True) == [
        "result: empty",
        "memory was told nothing it still holds today (2026-12-06)",
    ]


def test_a_question_naming_a_time_to_come_says_what_holds_then_first_then_what_holds_now() -> None:
    # "who is on call next week?": Dana now, until Monday; Ravi from Monday.
    now = [
        "result: rows",
        "- ledger · on_call: Dana (until 2026-12-14)",
        "- ledger · ci: Buildkite",
    ]
    ravi = ["- ledger · on_call: Ravi (from 2026-12-14)"]
    freeze = ["- ledger · deploy_freeze: on (from 2027-01-04)"]
    label = "next week (the week of 2026-12-14)"
    assert to_come_lines(now, label, ravi, freeze, first=True) == [
        "result: rows",
        "holds next week (the week of 2026-12-14), the time the question names (not true yet):",
        *ravi,
        "holds now:",
        *now[1:],
        "starts later (not true yet):",
        *freeze,
    ]
    # Not the best match: said after the rows, still under the time's own head.
    assert to_come_lines(now, label, ravi, [], first=False) == [
        *now,
        "holds next week (the week of 2026-12-14), the time the question names (not true yet):",
        *ravi,
    ]
    # Nothing that starts later holds then: the rows are all memory knows of then, said so.
    assert to_come_lines(now, "tomorrow (2026-12-08)", [], ravi, first=False) == [
        "result: rows",
        "these hold now; nothing found that starts later holds tomorrow (2026-12-08), the time "
        "the question names",
        *now[1:],
        "starts later (not true yet):",
        *ravi,
    ]
    assert to_come_lines(["result: empty"], label, ravi, [], first=False) == [
        "result: empty",
        "nothing that matches the question holds now; holds next week (the week of "
        "2026-12-14), the time the question names (not true yet):",
        *ravi,
    ]
    # Asked only what is to come, the plans beyond k are counted after them.
    assert to_come_lines(["result: empty"], label, ravi, [], first=False, more=2)[-1] == (
        "… 2 more facts start next week (the week of 2026-12-14), not listed: ask with a larger"
        " k, or of one thing or slot"
    )
    # "What's coming up?" with no plan and no row: said of what is to come, not a bare
    # "result: empty".
    assert to_come_lines(["result: empty"], ANY_TIME_TO_COME_LABEL, [], [], first=False) == [
        "result: empty",
        "nothing memory holds starts later (the question asks what is to come)",
    ]


def test_a_plan_holds_in_a_time_to_come_when_its_valid_window_meets_it() -> None:
    week = {
        "said": "next week",
        "label": "next week (the week of 2026-12-14)",
        "since": "2026-12-14T00:00:00+00:00",
        "until": "2026-12-21T00:00:00+00:00",
    }
    assert holds_in({"valid_at": "2026-12-14T00:00:00+00:00", "invalid_at": None}, week)
    assert holds_in(
        {"valid_at": "2026-12-09T00:00:00Z", "invalid_at": "2026-12-15T00:00:00Z"}, week
    )
    # Over before the week starts, or starting when it has ended: not then.
    assert not holds_in(
        {"valid_at": "2026-12-09T00:00:00+00:00", "invalid_at": "2026-12-14T00:00:00+00:00"}, week
    )
    assert not holds_in({"valid_at": "2026-12-21T00:00:00+00:00", "invalid_at": None}, week)


def test_a_question_asking_what_memory_believed_then_says_that_belief_first() -> None:
    # "what did you think our host was on December 10?": Heroku then, corrected since.
    answered = ["result: rows", "- team · host: Render"]
    heroku = ["- team · host: Heroku (corrected 2029-12-20: never true)"]
    assert then_lines(answered, "2029-12-10", heroku, True, believed=True) == [
        "result: rows",
        "memory believed on 2029-12-10, read at its start, its end, and the slot asked in "
        "between (the question asks what "
        "it believed then; "
        "a mark says what changed since):",
        *heroku,
        "holds now:",
        "- team · host: Render",
    ]
    # Every current fact among what was believed (today, still believed): no empty "holds
    # now:" head, and never "nothing holds now".
    render = ["- team · host: Render"]
    assert then_lines(["result: rows"], "today (2029-12-10)", render, True, believed=True) == [
        "result: rows",
        "memory believed today (2029-12-10), read at its start, its end, and the slot asked in "
        "between (the question asks what it believed then; a mark says what changed since):",
        *render,
    ]
    # Nothing believed then: said so before the rows, never "ended since" (a world-time word).
    assert then_lines(answered, "2029-11-15", [], True, believed=True) == [
        "result: rows",
        "memory believed nothing found for the question on 2029-11-15, read at its start and "
        "its end; these hold now",
        "- team · host: Render",
    ]


def test_a_question_asking_what_came_before_a_slots_first_value_says_so_after_it() -> None:
    lines = ["result: rows", "bea-line", "other-line"]
    assert then_lines(lines, "the time before Bea", [], True, first_value="before Bea") == [
        "result: rows",
        "bea-line",
        "nothing memory holds came before Bea: Bea is the first value memory holds of its slot",
        "other-line",
    ]
