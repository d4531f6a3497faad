"""The store eval's scenario and block reading (issue 16), without a store."""

from __future__ import annotations

from twoclocks.eval import scenario
from twoclocks.eval.store_eval import ArmResult, block_values, table


def test_the_scenario_has_24_facts_62_writes_and_38_changes_each_with_its_own_valid_at() -> None:
    writes = scenario.writes()
    assert (len(scenario.FACTS), len(writes), len(scenario.date_questions())) == (24, 62, 38)
    assert len({w.valid_at for w in writes}) == len(writes)
    assert all(w.valid_at < scenario.RECORDED_AT for w in writes)
    assert all(1 <= len(f.values) - 1 <= 3 for f in scenario.FACTS)


def test_every_scenario_value_is_distinct_so_an_exact_match_names_one_fact() -> None:
    values = [v for f in scenario.FACTS for v in f.values]
    assert len(values) == len(set(values))


def test_the_drift_variant_writes_only_the_second_value_under_the_other_name() -> None:
    drifted = [
        w for w in scenario.writes(drift=True) if w.predicate != scenario.FACTS[w.fact].predicate
    ]
    assert {(w.fact, w.index) for w in drifted} == {(f, 1) for f in range(len(scenario.FACTS))}


def test_a_date_question_asks_the_day_before_a_change_for_the_value_it_replaced() -> None:
    first = scenario.date_questions()[0]
    assert first.expect == scenario.FACTS[0].values[0]
    assert first.as_of < scenario.valid_at(0, 1)


def test_block_values_reads_only_fact_lines_and_stops_at_the_row_limit() -> None:
    text = "\n".join(
        [
            "[[CM-MEM]] rules: 1 your current message overrides every fact;",
            "result: rows",
            "Facts:",
            "- production · deploy target: Render, Oregon region (since 2026-03-01, asserted)",
            "- team · on call engineer: Baran Kaya (since 2026-03-01 12:00 +03, asserted)",
            "Recent changes (last 48 h):",
            "- production · deploy target: Hetzner -> Render, Oregon region (changed 2026-03-01)",
        ]
    )
    assert block_values(text) == ["Render, Oregon region", "Baran Kaya"]
    assert block_values(text, 1) == ["Render, Oregon region"]


def test_the_table_has_one_row_per_arm_and_names_every_column() -> None:
    row = ArmResult(
        "bi-temporal", "plain", 24, 62, 38, 0, 0, 6, 0, 24, 0, 24, 1.0, 1.0, 0, 6, 6, 0, 38, 38
    )
    lines = table([row]).splitlines()
    assert len(lines) == 2
    assert "as-of right" in lines[0] and "38/38" in lines[1]
