"""Slot drift's lexical half (DESIGN.md §3 "Slot drift"): are two predicate names one slot?"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from twoclocks.domain.person_roles import another_role_of_people
from twoclocks.domain.slot_verdict import (
    lexical_verdict,
    lexicon_wording,
    narrowed_by_a_qualifier,
    same_only_by_a_loose_reading,
)

PAIRS_FILE = Path(__file__).resolve().parents[2] / "data" / "slot_pairs.jsonl"

# Abbreviations and spelling variants: lexically the same slot, whatever the model says.
SAME = [
    ("db_engine", "database_engine"),
    ("deploy_target", "deployment_target"),
    ("package_manager", "pkg_manager"),
    ("test_command", "test_cmd"),
    ("repo_url", "repository_url"),
    ("config_file", "configuration_file"),
    ("env_name", "environment_name"),
    ("ciProvider", "ci_provider"),
    ("deploy-target", "deploy_target"),
    ("deploy.target", "DeployTarget"),
    ("on_call", "oncall"),
    ("timezone", "time_zone"),
    ("maintainers", "maintainer"),
    ("k8s_namespace", "kubernetes_namespace"),
    ("pr_reviewer", "pull_request_reviewer"),
    ("former_owner", "previous_owner"),
    ("test_framework", "testing_framework"),
    ("on_call_rotation", "oncall_rotation"),
    # a generic head noun dropped (issue 11)
    ("ci_provider", "ci_platform"),
    ("hosting_provider", "hosting_platform"),
    ("ci_tool", "ci_provider"),
    ("lint_tool", "linter"),
    ("monitoring_tool", "observability_platform"),
    ("issue_tracker", "ticket_tracker"),
    ("default_branch", "main_branch"),
    ("release_cadence", "release_frequency"),
    ("on_call_engineer", "on_call"),
]

# Names that differ by a contrasting qualifier: never one slot, whatever the model says.
DIFFERENT = [
    ("deploy_target", "deploy_region"),
    ("primary_db", "replica_db"),
    ("frontend_port", "backend_port"),
    ("owner", "previous_owner"),
    ("test_command", "build_command"),
    ("lint_command", "format_command"),
    ("min_replicas", "max_replicas"),
    ("source_branch", "target_branch"),
    ("staging_url", "production_url"),
    ("db_host", "db_port"),
    ("start_date", "end_date"),
    ("current_sprint", "next_sprint"),
    ("former_ci_provider", "ci_provider"),
    ("ci_provider", "cd_provider"),
    ("python_version", "node_version"),
    ("db_name", "db_user"),
    ("log_level", "log_format"),
    ("monthly_budget", "daily_budget"),
    ("on_call", "on_call_backup"),
    ("min_python_version", "python_version"),
    ("feature_flag_service", "feature_flag_name"),
    # names that differ only by a number or an ordinal (issue 11)
    ("item_1", "item_2"),
    ("step_1", "step_2"),
    ("step1", "step_2"),
    ("api_v1_url", "api_v2_url"),
    ("first_reviewer", "second_reviewer"),
    ("reviewer", "second_reviewer"),
    # contrasting modifiers (issue 11)
    ("home_city", "work_city"),
    ("home_address", "office_address"),
    ("current_owner", "previous_owner"),
    ("read_replica", "write_replica"),
    ("upstream_repo", "downstream_repo"),
    ("soft_limit", "hard_limit"),
    ("error_tracker", "issue_tracker"),
    ("cache_backend", "queue_backend"),
]

# Left to the embedding: synonyms the rules cannot know, and near-names they cannot rule out.
UNKNOWN = [
    ("search_engine", "search_backend"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_lexical_same_in_both_directions(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    assert lexical_verdict(b, a) == "same"


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_lexical_different_in_both_directions(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "different"
    assert lexical_verdict(b, a) == "different"


@pytest.mark.parametrize(("a", "b"), UNKNOWN)
def test_lexical_unknown_in_both_directions(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "unknown"
    assert lexical_verdict(b, a) == "unknown"


def test_identical_names_are_the_same() -> None:
    assert lexical_verdict("ci_provider", "ci_provider") == "same"


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_must_not_merge_pairs_are_different_whatever_the_similarity(a: str, b: str) -> None:
    # The matcher never consults the embedding on a "different" pair.
    assert lexical_verdict(a, b) == "different"
    assert lexical_verdict(b, a) == "different"


@pytest.mark.parametrize(("a", "b"), SAME)
def test_same_pairs_are_the_same_whatever_the_similarity(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    assert lexical_verdict(b, a) == "same"


def _labelled_pairs() -> list[tuple[str, str, bool]]:
    rows = [json.loads(line) for line in PAIRS_FILE.read_text().splitlines() if line.strip()]
    return [(row["a"], row["b"], bool(row["merge"])) for row in rows]


def test_labelled_set_is_large_and_balanced() -> None:
    pairs = _labelled_pairs()
    merges = sum(merge for _, _, merge in pairs)
    assert len(pairs) >= 70
    assert 0.4 <= merges / len(pairs) <= 0.6


def test_lexical_verdict_is_symmetric_on_the_labelled_set() -> None:
    for a, b, _ in _labelled_pairs():
        assert lexical_verdict(a, b) == lexical_verdict(b, a), (a, b)


def test_lexical_same_never_fires_on_a_labelled_must_not_merge_pair() -> None:
    # The rules may miss synonyms (the embedding is there for those), but a lexical
    # "same" overrides the model, so it must never be wrong.
    wrong = [
        (a, b) for a, b, merge in _labelled_pairs() if not merge and lexical_verdict(a, b) == "same"
    ]
    assert wrong == []


def test_names_that_differ_only_by_a_number_or_an_ordinal_never_merge() -> None:
    for a, b in [("item_1", "item_80"), ("step_1", "step_2"), ("second_approver", "approver")]:
        assert lexical_verdict(a, b) == "different", (a, b)
    # The same number on both sides is part of the name, not a difference.
    assert lexical_verdict("s3_bucket", "s3Bucket") == "same"


def test_contrasting_modifiers_block_a_merge() -> None:
    for a, b in [
        ("home_city", "work_city"),
        ("min_replicas", "max_replicas"),
        ("read_timeout", "write_timeout"),
        ("source_branch", "target_branch"),
        ("previous_owner", "current_owner"),
        ("staging_url", "production_url"),
        ("first_reviewer", "last_reviewer"),
        ("upstream_remote", "downstream_remote"),
        ("allowed_licenses", "forbidden_licenses"),
        ("day_shift_oncall", "night_shift_oncall"),
    ]:
        assert lexical_verdict(a, b) == "different", (a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("reader_endpoint", "writer_endpoint"),
        ("start_command", "stop_command"),
        ("upload_bucket", "download_bucket"),
        ("warning_threshold", "critical_threshold"),
        ("blue_environment", "green_environment"),
        ("forward_proxy", "reverse_proxy"),
        ("gross_salary", "net_salary"),
        ("http_port", "https_port"),
        ("login_url", "logout_url"),
        ("place_of_birth", "place_of_death"),
        ("birthplace", "death_city"),
        ("incremental_backup", "full_backup"),
        ("landlord", "tenant"),
        ("encode_format", "decode_format"),
        ("build_image", "runtime_image"),
        ("least_favorite_food", "favorite_food"),
        ("expected_latency", "actual_latency"),
        ("publishable_key", "secret_key"),
    ],
)
def test_antonym_modifiers_from_general_usage_block_a_merge(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "different"
    assert lexical_verdict(b, a) == "different"


def test_two_roles_in_an_organisation_are_two_slots() -> None:
    # One person is often founder, chair and CEO at once; each role is its own slot.
    for a, b in [
        ("chairperson", "chief_executive_officer"),
        ("founder", "chairperson"),
        ("ceo", "cto"),
        ("chief_financial_officer", "chief_operating_officer"),
    ]:
        assert lexical_verdict(a, b) == "different", (a, b)
    for a, b in [
        ("ceo", "chief_executive_officer"),
        ("chair", "chairperson"),
        ("chairman", "chairperson"),
        ("cto", "chief_technology_officer"),
        ("place_of_birth", "birthplace"),
    ]:
        assert lexical_verdict(a, b) == "same", (a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("code_host", "git_host"),
        ("repo_host", "forge"),
        ("vcs_host", "git_hosting"),
        ("version_control", "scm"),
        ("artifact_repository", "package_registry"),
        ("object_storage", "blob_storage"),
        ("meeting_tool", "video_call"),
        ("log_aggregator", "logging"),
        ("incident_management", "paging"),
        ("cdn", "edge_cache"),
        ("registrar", "domain_registrar"),
        ("editor_theme", "editor_color_scheme"),
        ("release_day", "release_weekday"),
    ],
)
def test_synonym_phrases_in_general_use_merge(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    assert lexical_verdict(b, a) == "same"


def test_a_synonym_phrase_keeps_its_contrasts() -> None:
    assert lexical_verdict("weekday_hours", "weekend_hours") == "different"
    assert lexical_verdict("git_host", "dns_host") == "different"


def test_a_generic_head_noun_or_a_relating_verb_does_not_split_a_slot() -> None:
    for a, b in [
        ("email_service", "email_platform"),
        ("uses_cache", "cache"),
        ("hosted_on", "hosting"),
        ("backed_up_to", "backup_destination"),
    ]:
        assert lexical_verdict(a, b) == "same", (a, b)


def test_abbreviations_and_acronyms_match_word_by_word() -> None:
    for a, b in [
        ("tf_version", "terraform_version"),
        ("gh_org", "github_organization"),
        ("ci_tool", "continuous_integration_tool"),
        ("pm", "product_manager"),
        ("max_req_per_min", "max_requests_per_minute"),
        ("e2e_framework", "end_to_end_framework"),
    ]:
        assert lexical_verdict(a, b) == "same", (a, b)


def test_synonyms_and_phrases_of_the_lexicon_merge() -> None:
    for a, b in [
        ("mother_tongue", "native_language"),
        ("reports_to", "manager"),
        ("cdn", "edge_network"),
        ("sre_contact", "site_reliability_contact"),
        ("pager_holder", "on_call_engineer"),
        ("favourite_editor", "preferred_editor"),
        ("message_broker", "message_queue"),
        ("issue_tracker", "ticketing_system"),
        ("container_registry", "image_registry"),
        ("oauth2_provider", "oauth_provider"),
        ("e2e_framework", "end_to_end_test_framework"),
    ]:
        assert lexical_verdict(a, b) == "same", (a, b)


def test_an_inflection_or_a_compound_is_not_an_abbreviation() -> None:
    assert lexical_verdict("blocked_by", "blocks") == "different"
    assert lexical_verdict("design_tool", "design_system") != "same"


def test_three_scattered_letters_are_not_an_abbreviation() -> None:
    # "dns" is not a plural of "dn", and "dn" is no abbreviation of "deployment".
    assert lexical_verdict("dns_provider", "deploy_target") != "same"
    assert lexical_verdict("dns_provider", "dns_service") == "same"


def test_a_qualifier_between_names_sharing_no_word_proves_nothing() -> None:
    # "url" qualifies "db" in "db_url"; beside "endpoint" it is just another word.
    assert lexical_verdict("font", "typeface") == "unknown"
    assert lexical_verdict("dbname", "database_name") != "different"
    assert lexical_verdict("db", "db_url") == "different"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("provisions_with", "provisioner"),
        ("schedules_with", "scheduler"),
        ("sends_email_via", "email_sending_provider"),
        ("managed_by", "manager"),
    ],
)
def test_a_verb_phrase_is_its_agent_noun(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    assert lexical_verdict(b, a) == "same"


def test_a_passive_verb_is_not_its_active_form() -> None:
    # What blocks us and what we block are two lists; so are a hire made and one sought.
    assert lexical_verdict("blocked_by", "blocks") != "same"
    assert lexical_verdict("hiring_for", "hired") != "same"


def test_stages_of_data_and_kinds_of_capacity_are_two_slots() -> None:
    assert lexical_verdict("raw_dataset", "curated_dataset") == "different"
    assert lexical_verdict("spot_node_pool", "on_demand_node_pool") == "different"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("code_host", "git_forge"),
        ("pager", "incident_tool"),
        ("feature_flags", "toggles"),
        ("keyboard_layout", "keymap"),
        ("api_url", "api_endpoint"),
        ("sprint_length", "iteration_duration"),
        ("ci_runners", "build_agents"),
        ("sms_gateway", "text_message_provider"),
        ("gcs_bucket", "cloud_storage_bucket"),
        ("seed_data", "sample_dataset"),
    ],
)
def test_synonyms_a_second_team_uses_merge(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("i18n_library", "internationalization_library"),
        ("a11y_owner", "accessibility_owner"),
        ("o11yStack", "observability_stack"),
        ("l10n_tool", "localization_tool"),
    ],
)
def test_a_numeronym_is_the_word_it_counts_out_not_a_number(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    assert lexical_verdict(b, a) == "same"


def test_numeronyms_of_different_words_and_numbered_names_stay_apart() -> None:
    assert lexical_verdict("i18n_library", "l10n_library") == "different"
    assert lexical_verdict("a11y_owner", "owner") == "different"
    assert lexical_verdict("step_1", "step_2") == "different"


def test_slot_drift_where_a_person_comes_from_is_not_where_they_are() -> None:
    # Set B's tune part: "city" (Berlin) then "hometown" (Valencia) closed Berlin.
    for a, b in [("city", "hometown"), ("city", "birthplace"), ("location", "place_of_birth")]:
        assert lexical_verdict(a, b) == "different", (a, b)
        assert lexical_verdict(b, a) == "different", (a, b)
    assert lexical_verdict("hometown", "birthplace") == "same"


@pytest.mark.parametrize(
    ("plain", "for_one"),
    [
        ("ci", "ios_ci"),
        ("crash_reporter", "android_crash_reporter"),
        ("package_manager", "linux_package_manager"),
        ("terminal", "windows_terminal"),
        ("analytics", "web_analytics"),
        ("chat", "community_chat"),
        ("oncall_tool", "weekend_oncall_tool"),
    ],
)
def test_slot_drift_a_role_for_one_platform_or_audience_is_another_role(
    plain: str, for_one: str
) -> None:
    # MiniLM scores these pairs 0.69-0.88 alike, and their values share a category.
    assert lexical_verdict(plain, for_one) == "different"
    assert lexical_verdict(for_one, plain) == "different"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("dbname", "database_name"),
        ("pyver", "python_version"),
        ("testcmd", "test_command"),
        ("repourl", "repository_url"),
    ],
)
def test_slot_drift_a_run_together_name_is_the_words_it_runs_together(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    assert lexical_verdict(b, a) == "same"


def test_a_run_together_name_splits_only_into_words_the_other_name_has() -> None:
    assert lexical_verdict("dbname", "database_host") != "same"
    assert lexical_verdict("maxconn", "min_connections") != "same"
    assert lexical_verdict("pyver", "node_version") != "same"


@pytest.mark.parametrize(
    ("short", "compound"),
    [("db", "dbname"), ("node", "nodever"), ("api", "apikey"), ("time", "timezone")],
)
def test_slot_drift_a_name_run_together_with_a_qualifier_is_another_slot(
    short: str, compound: str
) -> None:
    # Not an abbreviation of the short name: "db" is the engine, "dbname" its database's name.
    assert lexical_verdict(short, compound) == "different"
    assert lexical_verdict(compound, short) == "different"


def test_username_and_hostname_are_the_user_and_the_host() -> None:
    assert lexical_verdict("db_user", "db_username") == "same"
    assert lexical_verdict("ssh_host", "ssh_hostname") == "same"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("page_cache", "sessionCache"),
        ("interactive shell", "script_shell"),
        ("web_analytics", "product analytics"),
        ("image_registry", "npm registry"),
    ],
)
def test_slot_drift_two_kinds_of_one_head_are_two_slots(a: str, b: str) -> None:
    # Each name qualifies the shared head with a word the other lacks.
    assert lexical_verdict(a, b) == "different"
    assert lexical_verdict(b, a) == "different"


def test_slot_drift_irregular_plurals_are_their_singular() -> None:
    assert lexical_verdict("indices_prefix", "index_prefix") == "same"
    assert lexical_verdict("caches", "cache") == "same"
    assert lexical_verdict("statuses_url", "status_url") == "same"


def test_slot_drift_http_names_the_web_and_https_stays_its_own() -> None:
    assert lexical_verdict("web_framework", "http framework") == "same"
    assert lexical_verdict("http_server", "web_server") == "same"
    assert lexical_verdict("http_port", "https_port") == "different"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("database", "analytics_db"),
        ("database", "test_db"),
        ("hosting", "api_hosting"),
        ("queue", "dead_letter_queue"),
        ("region", "dr_region"),
        ("url", "admin_url"),
        ("port", "metrics_port"),
    ],
)
def test_slot_drift_a_role_word_on_one_name_is_another_slot(a: str, b: str) -> None:
    # An analytics database is a database, but not the service's database: both stay true.
    assert lexical_verdict(a, b) == "different"
    assert lexical_verdict(b, a) == "different"


def test_slot_drift_a_role_word_meets_a_verbs_form_of_the_shared_noun() -> None:
    # "hosting" and "host" are one word for the rule: the staging host is another slot.
    assert lexical_verdict("hosting", "staging_host") == "different"
    assert lexical_verdict("staging_host", "hosting") == "different"
    assert lexical_verdict("hosted_on", "staging_host") == "different"
    assert lexical_verdict("staging_host", "hosted_on") == "different"


def test_a_role_word_on_both_names_leaves_them_one_slot() -> None:
    assert lexical_verdict("analytics_db", "analytics_database") == "same"
    assert lexical_verdict("product_analytics", "analytics") != "different"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("github_username", "github_handle"),
        ("access_token_lifetime", "access_token_ttl"),
        ("lan_ip", "local_ip"),
        ("crash_reporter", "crash_reporting"),
        ("application_performance_monitoring", "apm"),
        ("job_title", "role"),
        ("machine_name", "hostname"),
        ("psp", "payment_provider"),
    ],
)
def test_slot_drift_common_synonyms_and_abbreviations_are_one_slot(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    assert lexical_verdict(b, a) == "same"


@pytest.mark.parametrize(
    ("a", "b"),
    [("owner", "product_owner"), ("lead", "tech_lead"), ("reviewer", "security_reviewer")],
)
def test_slot_drift_a_persons_role_with_a_word_before_it_is_another_role(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "different"
    assert lexical_verdict(b, a) == "different"


def test_a_role_named_by_the_subjects_own_words_is_its_role() -> None:
    # The security team's lead is its security lead; the main owner is the owner.
    assert lexical_verdict("security_lead", "lead", subject="security-team") == "same"
    # The lexicon reads "eng" as "engineering", the subject's own word.
    assert lexical_verdict("platform_eng_lead", "lead", subject="platform-engineering") == "same"
    assert lexical_verdict("primary_owner", "owner") == "unknown"
    # A tool's name ends in words that are roles elsewhere: those rules do not apply.
    assert lexical_verdict("password_manager", "password vault") != "different"


@pytest.mark.parametrize(
    ("a", "b"),
    [("moved_from", "moved to"), ("migrating_from", "migrating_to"), ("copy_from", "copy_into")],
)
def test_slot_drift_the_two_ends_of_a_move_are_two_slots(a: str, b: str) -> None:
    # "from" and "to" are particles the comparison otherwise drops ("hosted_on" is "host").
    assert lexical_verdict(a, b) == "different"
    assert lexical_verdict(b, a) == "different"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("timeout_seconds", "timeout_ms"),
        ("timeout_s", "timeout_ms"),
        ("max_memory_mb", "max_memory_gb"),
        ("poll_interval_sec", "poll_interval_minutes"),
    ],
)
def test_slot_drift_one_quantity_in_two_units_is_one_slot(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    assert lexical_verdict(b, a) == "same"


def test_units_of_two_dimensions_or_two_quantities_stay_apart() -> None:
    # A duration is not a size, and the unit does not make two quantities one.
    assert lexical_verdict("cache_seconds", "cache_mb") != "same"
    assert lexical_verdict("disk_gb", "memory_gb") == "different"
    # "second" alone is still an ordinal: the second reviewer is not the first.
    assert lexical_verdict("first_reviewer", "second_reviewer") == "different"


def test_lexicon_wording_spells_synonyms_in_the_lexicons_words() -> None:
    assert lexicon_wording("standup_time", "daily_sync") == ("daily sync time", "daily sync")
    assert lexicon_wording("ci_tool", "build_server") == ("ci tool", "ci")


def test_lexicon_wording_is_none_when_a_name_adds_a_qualifier_or_nothing_changes() -> None:
    assert lexicon_wording("queue", "task_queue") is None  # "task" says which queue
    assert lexicon_wording("db", "analytics_db") is None  # "analytics" says which database
    assert lexicon_wording("deploy_target", "hosting") is not None
    assert lexicon_wording("owner", "maintainer") is None  # the lexicon knows neither


@pytest.mark.parametrize(
    ("plain", "narrowed", "subject"),
    [
        ("timeout", "idle_timeout", ""),
        ("theme", "terminal_theme", "user"),
        ("bucket", "logs_bucket", "infra"),
        ("log retention", "audit log retention", "billing-api"),
        ("retry.max_attempts", "retry.webhook.max_attempts", ""),
        ("cache.ttl", "cache.user.ttl", "web"),  # an attribute noun inside a name
        ("retry.max_attempts", "webhook.retry.max_attempts", "billing-api"),  # not a namespace
        ("deploy_timeout", "deploy_command_timeout", ""),
    ],
)
def test_slot_drift_a_qualifier_that_says_which_one_is_another_slot(
    plain: str, narrowed: str, subject: str
) -> None:
    assert narrowed_by_a_qualifier(plain, narrowed, subject)
    assert narrowed_by_a_qualifier(narrowed, plain, subject)


@pytest.mark.parametrize(
    ("plain", "restated", "subject"),
    [
        ("pronouns", "preferred_pronouns", "user"),
        ("ci", "ci_provider", ""),
        ("navigation", "navigation library", ""),
        ("port", "billing_api_port", "billing-api"),
        ("datasource.url", "spring.datasource.url", ""),
        ("required_version", "terraform.required_version", ""),  # a product's namespace
        ("retry_max", "config.retry.max", ""),  # a settings file's section
        ("feature flags", "feature flag service", ""),
        ("idle_timeout", "timeout_budget", ""),  # not one name inside the other
        ("ssh", "ssh_user", ""),  # an attribute noun as the last word restates
        ("deploy", "deploy_command", ""),
    ],
)
def test_slot_drift_a_word_that_restates_narrows_nothing(
    plain: str, restated: str, subject: str
) -> None:
    assert not narrowed_by_a_qualifier(plain, restated, subject)
    assert not narrowed_by_a_qualifier(restated, plain, subject)


def test_authentication_and_authorization_are_two_slots() -> None:
    # Who you are (Auth0) and what you may do (OpenFGA) run side by side.
    assert lexical_verdict("authentication_provider", "authorization_service") == "different"
    assert lexical_verdict("auth_provider", "authz_service") == "different"


def test_slot_drift_a_loose_reading_is_told_from_a_spelling() -> None:
    # A wiki is documentation, an SMTP provider an email provider, "workflow" a pipeline:
    # readings the values may overrule. An abbreviation or a plural is one word twice.
    for a, b in (
        ("wiki_tool", "documentation_tool"),
        ("smtp_provider", "email_provider"),
        ("workflow_engine", "pipeline_engine"),
        ("identity_provider", "authentication_provider"),
        ("alerting_tool", "paging_tool"),
    ):
        assert lexical_verdict(a, b) == "same", (a, b)
        assert same_only_by_a_loose_reading(a, b), (a, b)
        assert same_only_by_a_loose_reading(b, a), (b, a)
    for a, b in (("db_engine", "database_engine"), ("pkg_mgr", "package_manager")):
        assert not same_only_by_a_loose_reading(a, b), (a, b)
    assert not same_only_by_a_loose_reading("deploy_target", "deploy_region")  # not same


def test_slot_drift_a_loose_reading_inside_a_run_together_word_is_loose_too() -> None:
    # "wikitool" is "wiki" and "tool" run together: cut apart, the wiki is documentation
    # only loosely, as it is when written "wiki_tool". A run-together abbreviation is not.
    assert same_only_by_a_loose_reading("wikitool", "documentation_tool")
    assert same_only_by_a_loose_reading("bugtracker", "issue_tracker")
    assert not same_only_by_a_loose_reading("dbname", "database_name")


def test_slot_drift_whose_one_of_several_things_is_another_slot() -> None:
    # A person's password manager (1Password) beside their team's (Bitwarden): two vaults.
    assert lexical_verdict("password_manager", "team_password_manager", "user") == "different"
    assert lexical_verdict("shared_calendar", "calendar", "user") == "different"
    assert lexical_verdict("channel", "company_channel", "billing-api") == "different"
    # The subject's own word restates it: the team's "team wiki" is its wiki.
    assert lexical_verdict("wiki", "team_wiki", "team") == "same"
    assert lexical_verdict("team standup", "standup", "team-7") == "same"
    assert lexical_verdict("font", "font_family", "web-app") != "different"  # not an owner


def test_slot_drift_a_name_that_repeats_its_subject_is_the_subjects_slot() -> None:
    # Agents write the subject into the name: billing-api's "billing_api_port" is its port
    # ("api" alone would otherwise say "another slot", as "api" / "admin_api" do).
    assert lexical_verdict("port", "billing_api_port", "billing-api") == "same"
    assert lexical_verdict("app_name", "name", "mobile-app") == "same"
    # Without the subject, or with another subject, the words still qualify.
    assert lexical_verdict("port", "billing_api_port") != "same"
    assert lexical_verdict("port", "billing_api_port", "checkout-api") != "same"
    # A name of nothing but the subject's words is not every other name.
    assert lexical_verdict("api", "billing_api", "billing-api") != "same"


def test_slot_drift_an_abbreviated_password_is_the_password() -> None:
    assert lexical_verdict("pw_manager", "password_manager") == "same"
    assert lexical_verdict("db_pwd_location", "database_password_location") == "same"


def test_slot_drift_a_programming_language_is_a_language_only_by_a_loose_reading() -> None:
    # "preferred_language" English beside "preferred_programming_language" TypeScript: the
    # values decide (a person's spoken language, a coding one), as for any loose reading.
    assert same_only_by_a_loose_reading("preferred_language", "preferred_programming_language")
    assert lexical_verdict("programming_language", "language", "data-pipeline") == "same"


def test_slot_drift_a_lead_engineer_is_the_tech_lead() -> None:
    # Two role heads ("engineer", "lead") read as two people; this one is one role.
    assert lexical_verdict("tech_lead", "lead_engineer", "team") == "same"
    assert not another_role_of_people("lead_engineer", "tech_lead", "team")
    assert lexical_verdict("lead_engineer", "engineer", "team") != "same"


def test_slot_drift_an_identity_provider_written_idp_is_the_sso_provider() -> None:
    assert lexical_verdict("sso_provider", "IdP") == "same"


def test_slot_drift_two_words_for_the_one_chosen_are_one_slot() -> None:
    # "preferred", "favorite", "default", "main", "usual": which one a person chose.
    assert lexical_verdict("default_model", "preferred_LLM") == "same"
    assert lexical_verdict("favorite_editor", "main_editor") == "same"
    # Chosen against refused, or one of several against another, stay two.
    assert lexical_verdict("preferred_language", "avoided_language") == "different"
    assert lexical_verdict("primary_db", "replica_db") == "different"
    # The one now is not the one wanted; a country's language is not a person's choice.
    assert lexical_verdict("current_node_version", "preferred_node_version") != "same"
    assert lexical_verdict("official_language", "preferred_language") != "same"


def test_slot_drift_a_chosen_word_added_keeps_the_lexicon_wording() -> None:
    # The embedding compares "editor" / "preferred editor" (0.84), not "editor" /
    # "preferred IDE" (0.33): a person's preferred IDE is their editor.
    assert lexicon_wording("editor", "preferred_IDE") == ("editor", "preferred editor")
    assert lexicon_wording("broker", "task_queue") is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("llm_provider", "model_provider"),
        ("dataframe_library", "df_lib"),
        ("hq_city", "headquarters_city"),
        ("formatter", "pretty_printer"),
        ("backup_cron", "backup_schedule"),
    ],
)
def test_slot_drift_short_forms_people_type_in_names(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("grpc_port", "grpc_listen_port"),
        ("address", "bind_address"),
        ("ownerEmail", "ownerContactEmail"),
        ("phone", "contact_number"),
        ("repository", "git_repository"),
    ],
)
def test_slot_drift_where_a_server_listens_and_how_to_reach_someone_restate(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    # The word that says which one still does.
    assert lexical_verdict("grpc_listen_port", "http_port") == "different"


@pytest.mark.parametrize(
    ("a", "b"),
    [("team", "owner_team"), ("owning_team", "team"), ("retro_cadence", "sprint_retro_cadence")],
)
def test_slot_drift_a_word_that_only_restates_the_noun_after_it(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    # Another word before the noun still says which one.
    assert lexical_verdict("team", "platform_team") != "same"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("cd_tool", "deployment_tool"),
        ("deploy_tool", "continuous delivery"),
        ("login_shell", "default shell"),
        ("repo_host", "git_remote_service"),
    ],
)
def test_slot_drift_continuous_delivery_the_login_shell_and_the_git_remote(a: str, b: str) -> None:
    # CD is the deployment half of CI/CD, the login shell the default one, the git remote
    # where the repository is hosted.
    assert lexical_verdict(a, b) == "same"
    # CI against CD is still two pipelines, and a remote's URL is not its host.
    assert lexical_verdict("ci_tool", "cd_tool") == "different"
    assert lexical_verdict("git_remote", "git_remote_url") == "different"
