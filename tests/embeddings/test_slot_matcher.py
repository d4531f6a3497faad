"""Slot drift (DESIGN.md §3): SlotMatcher with the real MiniLM, both directions."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder
from twoclocks.embeddings.slot_matcher import (
    DEFAULT_THRESHOLD,
    SAME_CATEGORY_MARGIN,
    SAME_KIND_MARGIN,
    SlotMatcher,
)

PAIRS_FILE = Path(__file__).resolve().parents[1] / "data" / "slot_pairs.jsonl"

# What the default threshold reaches on tests/data/slot_pairs.jsonl (211 pairs) is
# precision 0.952 and recall 0.762; the floors below leave a small margin for float
# noise across CPUs. Recall falls short of the 0.8 aim: see the module docstring of
# twoclocks.embeddings.slot_matcher for what was measured and why.
MIN_PRECISION = 0.93
MIN_RECALL = 0.74

MUST_MERGE = [
    ("ci_provider", "ci_platform"),
    ("deploy_target", "deployment_target"),
    ("db_engine", "database_engine"),
    ("package_manager", "pkg_manager"),
    ("repo_url", "repository_url"),
    ("config_file", "configuration_file"),
    ("env_name", "environment_name"),
    ("test_command", "test_cmd"),
    ("ciProvider", "ci-platform"),
    ("preferred_editor", "editor"),
    ("auth_provider", "authentication_provider"),
]

MUST_NOT_MERGE = [
    ("deploy_target", "deploy_region"),
    ("primary_db", "replica_db"),
    ("frontend_port", "backend_port"),
    ("owner", "previous_owner"),
    ("test_command", "build_command"),
    ("ci_provider", "cd_provider"),
    ("python_version", "node_version"),
    ("min_replicas", "max_replicas"),
    ("staging_url", "production_url"),
    ("hosting_provider", "dns_provider"),
    ("linter", "formatter"),
]


@pytest.fixture(scope="module")
def matcher() -> Iterator[SlotMatcher]:
    yield SlotMatcher(SentenceTransformerEmbedder().load())


@pytest.mark.slow
@pytest.mark.parametrize(("a", "b"), MUST_MERGE)
def test_synonyms_merge_in_both_directions(matcher: SlotMatcher, a: str, b: str) -> None:
    assert matcher.match(a, [b]) == b
    assert matcher.match(b, [a]) == a


def test_on_call_engineer_merges_with_on_call() -> None:
    # The lexicon knows "on call engineer" is "on call": MiniLM alone scored it 0.632.
    matcher = SlotMatcher(HashingEmbedder(), threshold=0.99)
    assert matcher.match("on_call_engineer", ["on_call"]) == "on_call"
    assert matcher.match("on_call", ["on_call_engineer"]) == "on_call_engineer"


@pytest.mark.slow
@pytest.mark.parametrize(("a", "b"), MUST_NOT_MERGE)
def test_different_slots_never_merge_in_either_direction(
    matcher: SlotMatcher, a: str, b: str
) -> None:
    assert matcher.match(a, [b]) is None
    assert matcher.match(b, [a]) is None


@pytest.mark.slow
def test_match_picks_the_right_slot_among_many(matcher: SlotMatcher) -> None:
    existing = ["deploy_region", "deployment_target", "ci_platform", "owner", "previous_owner"]
    assert matcher.match("deploy_target", existing) == "deployment_target"
    assert matcher.match("ci_provider", existing) == "ci_platform"
    assert matcher.match("former_owner", existing) == "previous_owner"
    assert matcher.match("owner", existing) == "owner"
    assert matcher.match("build_command", existing) is None
    assert matcher.match("anything", []) is None


@pytest.mark.slow
def test_precision_and_recall_on_the_labelled_pairs(
    matcher: SlotMatcher, record_property: Callable[[str, object], None]
) -> None:
    rows = [json.loads(line) for line in PAIRS_FILE.read_text().splitlines() if line.strip()]
    tp = fp = fn = tn = 0
    for row in rows:
        a, b, merge = row["a"], row["b"], bool(row["merge"])
        forward = matcher.match(a, [b]) is not None
        backward = matcher.match(b, [a]) is not None
        assert forward == backward, f"match is not symmetric for {a} / {b}"
        tp += forward and merge
        fp += forward and not merge
        fn += not forward and merge
        tn += not forward and not merge
    precision = tp / (tp + fp)
    recall = tp / (tp + fn)
    summary = (
        f"slot matcher on {len(rows)} labelled pairs at threshold {matcher.threshold}: "
        f"precision {precision:.3f} recall {recall:.3f} (tp={tp} fp={fp} fn={fn} tn={tn})"
    )
    print(summary)
    record_property("slot_matcher_precision", round(precision, 4))
    record_property("slot_matcher_recall", round(recall, 4))
    assert precision >= MIN_PRECISION, summary
    assert recall >= MIN_RECALL, summary


def test_default_threshold_is_the_measured_one() -> None:
    assert pytest.approx(0.66) == DEFAULT_THRESHOLD


def test_exact_and_lexical_matches_need_no_model() -> None:
    # HashingEmbedder stands in: these paths must not depend on semantics.
    matcher = SlotMatcher(HashingEmbedder(), threshold=0.99)
    assert matcher.match("ci_provider", ["ci_provider", "ci_platform"]) == "ci_provider"
    assert matcher.match("db_engine", ["database_engine"]) == "database_engine"
    assert matcher.match("deploy_target", ["deploy_region"]) is None
    assert matcher.match("db_engine", ["database_engine", "db-engine"]) in {
        "database_engine",
        "db-engine",
    }


def test_cached_vectors_answers_only_from_the_cache_and_matches_the_encoder() -> None:
    matcher = SlotMatcher(HashingEmbedder())
    names, texts = ["ci_provider", "deploy_target"], ["where its builds run"]
    assert matcher.cached_vectors(names, texts) is None  # nothing encoded yet
    wanted = (matcher.name_vectors(names), matcher.text_vectors(texts))
    cached = matcher.cached_vectors(names, texts)
    assert cached is not None
    for got, want in zip(cached, wanted, strict=True):
        assert [v.tolist() for v in got] == [v.tolist() for v in want]
    assert matcher.cached_vectors([*names, "owner"], texts) is None  # one name missing


def test_threshold_must_be_a_cosine() -> None:
    with pytest.raises(ValueError):
        SlotMatcher(HashingEmbedder(), threshold=1.5)


def test_values_of_different_kinds_block_a_merge_the_names_would_make() -> None:
    # Threshold 0: the names alone would always merge.
    matcher = SlotMatcher(HashingEmbedder(), threshold=0.0)
    assert matcher.match("search_engine", ["search_backend"]) == "search_backend"
    kept = matcher.match(
        "search_engine", ["search_backend"], "https://search.acme.dev", {"search_backend": ["42"]}
    )
    assert kept is None


def test_two_values_of_one_kind_let_names_merge_a_little_below_the_threshold() -> None:
    probe = SlotMatcher(HashingEmbedder())
    score = probe.similarity("search_engine", "search_backend")
    matcher = SlotMatcher(HashingEmbedder(), threshold=min(1.0, score + SAME_KIND_MARGIN / 2))
    assert matcher.match("search_engine", ["search_backend"]) is None
    merged = matcher.match(
        "search_engine", ["search_backend"], "8.11", {"search_backend": ["7.17"]}
    )
    assert merged == "search_backend"


def test_two_values_of_one_category_let_names_merge_below_the_threshold() -> None:
    probe = SlotMatcher(HashingEmbedder())
    score = probe.similarity("search_engine", "search_backend")
    matcher = SlotMatcher(HashingEmbedder(), threshold=min(1.0, score + SAME_CATEGORY_MARGIN / 2))
    assert matcher.match("search_engine", ["search_backend"]) is None
    merged = matcher.match(
        "search_engine", ["search_backend"], "Typesense", {"search_backend": ["Algolia"]}
    )
    assert merged == "search_backend"


def test_values_of_different_categories_block_a_merge_the_names_would_make() -> None:
    matcher = SlotMatcher(HashingEmbedder(), threshold=0.0)
    assert matcher.match("dns_provider", ["domain_registrar"]) == "domain_registrar"
    kept = matcher.match(
        "dns_provider", ["domain_registrar"], "Cloudflare", {"domain_registrar": ["Namecheap"]}
    )
    assert kept is None
    person_or_city = matcher.match("contact", ["base"], "Lisbon", {"base": ["Priya Raman"]})
    assert person_or_city is None


@pytest.mark.slow
def test_slot_drift_a_relation_of_use_names_the_slot_its_values_are(
    matcher: SlotMatcher,
) -> None:
    # "deployed_to" only says where the app is served from; Netlify and Vercel are two
    # hosting platforms, so it is the hosting slot. MiniLM scores the names 0.36.
    assert matcher.decide("deployed_to", ["hosting"], "Vercel",
                          {"hosting": ["Netlify"]}, "web-app").name == "hosting"  # fmt: skip
    assert matcher.decide("hostedOn", ["cloud_provider"], "Google Cloud",
                          {"cloud_provider": ["AWS"]}, "shop").name == "cloud_provider"  # fmt: skip
    # A move under way, a copy, another role: two slots, each with its current value.
    for relation, existing, old, new in (
        ("migrating_to", "hosting", "Netlify", "Vercel"),
        ("replicates_to", "database", "PostgreSQL", "MySQL"),
        ("backs_up_to", "object_storage", "Amazon S3", "Backblaze B2"),
        ("alerts_sent_to", "chat", "Slack", "Microsoft Teams"),
        ("hosted_on", "staging_cloud", "GCP", "AWS"),  # the name says which of several
    ):
        found = matcher.decide(relation, [existing], new, {existing: [old]}, "web-app")
        assert found.name is None, relation
    # Values of another kind say nothing of the relation.
    assert matcher.decide("deployed_to", ["hosting"], "eu-west-1",
                          {"hosting": ["Netlify"]}, "web-app").name is None  # fmt: skip


@pytest.mark.slow
def test_slot_drift_a_relation_naming_the_slots_own_thing_is_that_slot(
    matcher: SlotMatcher,
) -> None:
    # The relation's object is the plain name's own word, its verb an ordinary use:
    # images are what a container registry holds, logs what a log destination takes.
    for relation, existing, old, new in (
        ("images_pushed_to", "container_registry", "Docker Hub", "GitHub Container Registry"),
        ("logs_sent_to", "log_destination", "Papertrail", "Grafana Loki"),
    ):
        found = matcher.decide(relation, [existing], new, {existing: [old]}, "web-app")
        assert found.name == existing, relation
    # Another verb (a mirror, a backup), another object (alerts in the team chat), or a
    # plain name that says which one: two slots.
    for relation, existing, old, new in (
        ("mirrors_images_to", "container_registry", "Docker Hub", "GitHub Container Registry"),
        ("pushes_backups_to", "object_storage", "Amazon S3", "Backblaze B2"),
        ("sends_alerts_to", "chat", "Slack", "Microsoft Teams"),
        ("pushes_images_to", "staging_registry", "Docker Hub", "GitHub Container Registry"),
    ):
        found = matcher.decide(relation, [existing], new, {existing: [old]}, "web-app")
        assert found.name is None, relation


@pytest.mark.slow
def test_slot_drift_a_relation_naming_what_its_category_holds_is_that_slot(
    matcher: SlotMatcher,
) -> None:
    # Credentials are what a secrets manager holds, deals what a CRM tracks, in the words
    # of their categories' glosses: the relation is the slot named for the thing.
    for relation, existing, old, new in (
        ("keeps_credentials_in", "secrets_manager", "HashiCorp Vault", "AWS Secrets Manager"),
        ("deals_tracked_in", "crm", "Salesforce", "HubSpot"),
    ):
        found = matcher.decide(relation, [existing], new, {existing: [old]}, "web-app")
        assert found.name == existing, relation
    # A monitoring product holds logs, metrics or traces, each a slot of its own; a
    # backup is no thing object storage is for; the plain name says which one.
    for relation, existing, old, new in (
        ("traces_sent_to", "monitoring", "Prometheus", "Jaeger"),
        ("pushes_backups_to", "object_storage", "Amazon S3", "Backblaze B2"),
        ("keeps_credentials_in", "staging_secrets", "HashiCorp Vault", "AWS Secrets Manager"),
    ):
        found = matcher.decide(relation, [existing], new, {existing: [old]}, "web-app")
        assert found.name is None, relation


@pytest.mark.slow
def test_slot_drift_a_browser_test_tool_is_not_the_unit_test_framework(
    matcher: SlotMatcher,
) -> None:
    # Vitest runs the units, Playwright drives the app in a browser: one project keeps both.
    # Read as one category, the pair was a close slot "holding things of one kind".
    found = matcher.decide("browser_tests", ["testFramework"], "Playwright",
                           {"testFramework": ["Vitest"]}, "web-app")  # fmt: skip
    assert found.name is None and not found.vouched
    e2e = matcher.decide("end_to_end_test_framework", ["e2e_framework"], "Playwright",
                         {"e2e_framework": ["Cypress"]}, "web-app")  # fmt: skip
    assert e2e.name == "e2e_framework"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "value"),
    [("data_warehouse", "Snowflake"), ("search_engine", "OpenSearch 2.11")],
)
def test_slot_drift_a_warehouse_or_a_search_engine_is_not_the_database(
    matcher: SlotMatcher, name: str, value: str
) -> None:
    # MiniLM scores "data warehouse" close to "database"; the values are of two categories.
    values = {"database": ["PostgreSQL 16"]}
    assert matcher.match(name, ["database"], value, values) is None


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "value", "other", "other_value"),
    [
        # The lexicon once read every "style" as CSS: a writing style closed a CSS framework.
        ("writing_style", "plain English", "css_framework", "Tailwind"),
        ("css_preference", "utility classes", "answer_style", "short answers"),
        ("style_guide", "Airbnb JavaScript Style Guide", "css_framework", "Tailwind"),
        # ... and "library" as "framework": React Testing Library closed Jest, which every
        # React project runs beside it.
        ("testing_library", "React Testing Library", "test_framework", "Jest"),
        ("ui_library", "MUI", "frontend_framework", "Next.js 14"),
        ("http_library", "httpx", "web_framework", "FastAPI"),
        # ... and "billing" as "payment": the subscription biller closed the processor.
        ("billing_provider", "Chargebee", "payment_provider", "Stripe"),
        ("billing_platform", "Recurly", "payment_processor", "Adyen"),
        # ... and the loose readings (a wiki as documentation, "bug" as "issue", SMTP as
        # email) called two tools one team keeps at once one slot: the values now decide.
        ("documentation_tool", "Docusaurus", "wiki_tool", "Confluence"),
        ("email_provider", "Google Workspace", "smtp_provider", "SendGrid"),
        ("authentication_library", "NextAuth", "identity_provider", "Okta"),
        ("paging_tool", "PagerDuty", "alerting_tool", "Grafana Alerting"),
        ("pipeline_tool", "Dagster", "workflow_engine", "Temporal"),
        ("issue_tracker", "Linear", "bug_tracker", "Sentry"),
    ],
)
def test_slot_drift_two_roles_the_lexicon_once_called_one_stay_two_slots(
    matcher: SlotMatcher, name: str, value: str, other: str, other_value: str
) -> None:
    assert matcher.match(name, [other], value, {other: [other_value]}) is None


def test_slot_drift_a_loose_reading_still_merges_values_of_one_kind() -> None:
    matcher = SlotMatcher(HashingEmbedder())
    held = {"wiki_tool": ["Confluence"]}
    assert matcher.match("documentation_tool", ["wiki_tool"], "Notion", held) == "wiki_tool"
    held = {"smtp_provider": ["SendGrid"]}
    assert matcher.match("email_provider", ["smtp_provider"], "Postmark", held) == "smtp_provider"


@pytest.mark.slow
def test_slot_drift_stylesheets_are_still_css(matcher: SlotMatcher) -> None:
    assert matcher.match("styles", ["css"], "CSS Modules", {"css": ["Sass"]}) == "css"
    assert matcher.match("styling", ["css"], "CSS Modules", {"css": ["Sass"]}) == "css"


def test_an_equal_value_is_no_evidence_that_two_names_are_one_slot() -> None:
    # One person, two roles (General Motors' chairperson and CEO were both Mary Barra):
    # the shared value must not lower the bar as two different people do.
    probe = SlotMatcher(HashingEmbedder())
    # (Names of one role: lead and architect, once used here, are two roles by that rule.)
    score = probe.similarity("owner", "maintainer")
    matcher = SlotMatcher(HashingEmbedder(), threshold=min(1.0, score + SAME_KIND_MARGIN / 2))
    held = {"maintainer": ["Priya Raman"]}
    assert matcher.match("owner", ["maintainer"], "priya  raman.", held) is None
    assert matcher.match("owner", ["maintainer"], "Jonas Berg", held) == "maintainer"


def test_an_equal_value_leaves_the_names_to_decide() -> None:
    # Not a block either: names the threshold accepts still merge when the value is restated.
    matcher = SlotMatcher(HashingEmbedder(), threshold=0.0)
    held = {"cache_backend": ["Redis"]}
    assert matcher.match("cache_store", ["cache_backend"], "Redis", held) == "cache_backend"


def test_two_people_vouch_for_a_merge_only_as_much_as_two_values_of_one_kind() -> None:
    # A subject has many person-valued slots (founder, chair, on-call, manager): two people
    # lower the bar by SAME_KIND_MARGIN, not by the margin of two CI products.
    probe = SlotMatcher(HashingEmbedder())
    score = probe.similarity("tech_lead", "architect")
    between = score + (SAME_KIND_MARGIN + SAME_CATEGORY_MARGIN) / 2
    matcher = SlotMatcher(HashingEmbedder(), threshold=min(1.0, between))
    people = {"architect": ["Priya Raman"]}
    assert matcher.match("tech_lead", ["architect"], "Jonas Berg", people) is None
    products = {"architect": ["Jenkins"]}
    assert matcher.match("tech_lead", ["architect"], "CircleCI", products) == "architect"


def test_a_name_between_the_grey_floor_and_the_threshold_is_named_as_grey() -> None:
    probe = SlotMatcher(HashingEmbedder())
    score = probe.similarity("search_engine", "search_backend")
    above = SlotMatcher(HashingEmbedder(), threshold=min(1.0, score + 0.1), grey_floor=score - 0.1)
    found = above.decide("search_engine", ["search_backend"])
    assert (found.name, found.grey) == (None, "search_backend")
    assert found.similarity == pytest.approx(score)
    below = SlotMatcher(HashingEmbedder(), threshold=min(1.0, score + 0.2), grey_floor=score + 0.1)
    assert below.decide("search_engine", ["search_backend"]).grey is None


def test_names_the_rules_or_values_keep_apart_are_never_grey() -> None:
    # Grey floor 0: every open pair would be grey; these are not open.
    matcher = SlotMatcher(HashingEmbedder(), threshold=0.99, grey_floor=0.0)
    assert matcher.decide("home_city", ["work_city"]).grey is None
    held = {"domain_registrar": ["Namecheap"]}
    assert matcher.decide("dns_provider", ["domain_registrar"], "Cloudflare", held).grey is None
    assert matcher.decide("db_engine", ["database_engine"]).name == "database_engine"


def test_a_grey_floor_at_or_above_the_threshold_leaves_no_grey_zone() -> None:
    probe = SlotMatcher(HashingEmbedder())
    score = probe.similarity("search_engine", "search_backend")
    matcher = SlotMatcher(HashingEmbedder(), threshold=min(1.0, score + 0.1), grey_floor=1.0)
    assert matcher.decide("search_engine", ["search_backend"]).grey is None
    with pytest.raises(ValueError):
        SlotMatcher(HashingEmbedder(), grey_floor=1.5)


@pytest.mark.slow
def test_slot_drift_a_synonym_the_lexicon_knows_merges_though_the_model_scores_it_low(
    matcher: SlotMatcher,
) -> None:
    # MiniLM puts "daily sync" and "standup time" at 0.14; the lexicon says a standup is
    # the daily sync, and in those words the two names are one slot plus "time".
    assert matcher.match("daily_sync", ["standup_time"]) == "standup_time"
    assert matcher.match("standup_time", ["daily_sync"]) == "daily_sync"


@pytest.mark.slow
def test_slot_drift_a_qualifier_the_lexicon_leaves_in_keeps_two_roles_apart(
    matcher: SlotMatcher,
) -> None:
    # The lexicon reads a broker as a queue; "task queue" is a queue of another role.
    assert matcher.match("task_queue", ["broker"]) is None
    assert matcher.match("broker", ["task_queue"]) is None


# Written after the weakness was known and before the rule (tool_languages): each pair is
# an unqualified tool role and the same role for one language, in both orders.
ANOTHER_LANGUAGES_TOOL = [
    ("formatter", "Prettier", "python_formatter", "Black"),
    ("package_manager", "pnpm", "python_package_manager", "uv"),
    ("linter", "Ruff", "typescript_linter", "ESLint"),
    ("test_runner", "pytest", "ts_test_runner", "Vitest"),
    ("linter", "Clippy", "go_linter", "staticcheck"),
    ("dependency_manager", "Bundler", "python_dependency_manager", "Poetry"),
]
ITS_OWN_LANGUAGES_TOOL = [
    ("package_manager", "Poetry", "python_package_manager", "uv"),
    ("test_runner", "Jest", "typescript_test_runner", "Vitest"),
    ("python_formatter", "Black", "formatter", "Ruff"),
    ("build_tool", "Maven", "java_build_tool", "Gradle"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("a", "value_a", "b", "value_b"), ANOTHER_LANGUAGES_TOOL)
def test_slot_drift_a_language_qualifier_keeps_another_languages_tool_apart(
    matcher: SlotMatcher, a: str, value_a: str, b: str, value_b: str
) -> None:
    # MiniLM scores these names 0.64-0.88 alike: enough to close a tool still in use.
    assert matcher.match(b, [a], value_b, {a: [value_a]}) is None
    assert matcher.match(a, [b], value_a, {b: [value_b]}) is None


@pytest.mark.slow
@pytest.mark.parametrize(("a", "value_a", "b", "value_b"), ITS_OWN_LANGUAGES_TOOL)
def test_slot_drift_a_name_narrowed_to_its_values_language_merges(
    matcher: SlotMatcher, a: str, value_a: str, b: str, value_b: str
) -> None:
    assert matcher.match(b, [a], value_b, {a: [value_a]}) == a


@pytest.mark.slow
def test_slot_drift_a_qualifier_keeps_two_settings_apart_unless_the_values_are_one_kind(
    matcher: SlotMatcher,
) -> None:
    # MiniLM puts "timeout" and "idle timeout" at about 0.7, over the threshold.
    assert matcher.match("idle_timeout", ["timeout"], "5 min", {"timeout": ["30 s"]}) is None
    assert matcher.match("terminal_theme", ["theme"], "Dracula", {"theme": ["Gruvbox"]}) is None
    # Two type checkers: "static" restates what a type checker is, and the values say so.
    merged = matcher.match("type_checker", ["static_type_checker"], "Pyright",
                           {"static_type_checker": ["mypy"]})  # fmt: skip
    assert merged == "static_type_checker"


@pytest.mark.slow
def test_the_fast_drift_bench_asks_for_the_pairs_subject_as_the_service_does(
    matcher: SlotMatcher,
) -> None:
    # "team wiki" of the team is its wiki: the subject's own word. The bench's fast path
    # asked with no subject, so it scored such pairs unlike the service it stands for.
    from twoclocks.eval.data import DriftPair
    from twoclocks.eval.drift import match_directly

    pair = DriftPair(subject="team", a="wiki", b="team wiki", value_a="Confluence",
                     value_b="Notion", merge=True)  # fmt: skip
    mine = DriftPair(subject="user", a="password manager", b="team password manager",
                     value_a="1Password", value_b="Bitwarden", merge=False)  # fmt: skip
    assert [o.merged for o in match_directly(matcher, [pair, mine])] == [True, False]


@pytest.mark.slow
def test_slot_drift_a_persons_preferred_ide_is_their_editor(matcher: SlotMatcher) -> None:
    # The names score 0.33 as written; in the lexicon's words ("preferred editor") 0.84.
    merged = matcher.match("preferred_IDE", ["editor"], "Cursor", {"editor": ["VS Code"]})
    assert merged == "editor"
    assert matcher.match("IDE", ["preferred_editor"], "Cursor",
                         {"preferred_editor": ["Sublime Text"]}) == "preferred_editor"  # fmt: skip


def test_slot_drift_an_attribute_word_the_values_already_are_restates(
    matcher: SlotMatcher,
) -> None:
    # "location" is an attribute noun that splits "db" / "db_location"; of an office
    # holding Berlin it only says what the value is.
    held = {"office": ["Berlin"]}
    assert matcher.match("office location", ["office"], "Munich", held) == "office"
    assert matcher.match("sprint start day", ["sprint_start"], "Monday",
                         {"sprint_start": ["Wednesday"]}) == "sprint_start"  # fmt: skip
    assert matcher.match("db_location", ["db"], "eu-west-1", {"db": ["Postgres"]}) is None


@pytest.mark.slow
def test_slot_drift_a_decision_about_a_thing_is_not_the_thing(matcher: SlotMatcher) -> None:
    # `remember ride-api db_decision "chose Postgres over DynamoDB: ..."` closed the
    # database (db is database, and the decision's words are close to it): the current
    # database was left as the decision's sentence. A name for the decision, or a value
    # stating one, is its own slot.
    for name, existing, old, new in (
        ("db_decision", "database", "Postgres 16 on RDS", "chose Postgres over DynamoDB: PostGIS"),
        ("framework_choice", "framework", "Flutter 3.24", "chose Flutter over React Native: BLE"),
        ("ci_rationale", "ci", "GitHub Actions", "moved off Jenkins because of flaky agents"),
    ):
        found = matcher.decide(name, [existing], new, {existing: [old]}, "ride-api")
        assert (found.name, found.grey) == (None, None), name
    # Two decisions are one slot; the chosen thing under a name with "choice" is the thing.
    assert matcher.decide("database_decision", ["db_decision"], "chose Postgres over MySQL: joins",
                          {"db_decision": ["chose MySQL over Postgres: ops"]}, "ride-api"
                          ).name == "db_decision"  # fmt: skip
    assert matcher.decide("framework_choice", ["framework"], "React Native",
                          {"framework": ["Flutter 3.24"]}, "app").name == "framework"  # fmt: skip
