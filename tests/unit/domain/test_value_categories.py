"""What a slot's value names (issue 11): two things of one category vouch for a merge."""

from __future__ import annotations

from twoclocks.domain import value_categories
from twoclocks.domain.value_categories import categories_verdict, kinds_by_slot
from twoclocks.domain.value_categories import value_categories as cats


def test_two_values_of_one_category_support_a_merge() -> None:
    assert categories_verdict("CircleCI", ["Jenkins"]) == "same_category"
    assert categories_verdict("Redis 7", ["Memcached"]) == "same_category"


def test_two_values_of_a_category_many_slots_share_are_only_a_broad_match() -> None:
    # A team has an owner, an on-call and a manager; a person a home and a work city.
    assert categories_verdict("Lisbon", ["Porto"]) == "same_broad_category"
    assert categories_verdict("Jonas Berg", ["Priya Raman"]) == "same_broad_category"
    assert categories_verdict("eu-central-1", ["us-east-1"]) == "same_broad_category"


def test_values_of_different_categories_block_a_merge() -> None:
    assert categories_verdict("Lisbon", ["Priya Raman"]) == "different_category"
    assert categories_verdict("Figma", ["Acme UI"]) == "different_category"
    assert categories_verdict("Cloudflare", ["Namecheap"]) == "different_category"


def test_a_value_in_several_categories_meets_each() -> None:
    assert {"cdn", "dns"} <= cats("Cloudflare")
    assert categories_verdict("Cloudflare", ["Fastly"]) == "same_category"
    assert categories_verdict("Cloudflare", ["Route 53"]) == "same_category"
    # HubSpot is a CRM as much as a help desk.
    assert categories_verdict("HubSpot", ["Salesforce"]) == "same_category"
    assert categories_verdict("HubSpot", ["Zendesk"]) == "same_category"


def test_unknown_values_prove_nothing() -> None:
    assert categories_verdict("make test", ["make build"]) == "unknown"
    assert categories_verdict("Lisbon", []) == "unknown"
    assert cats("GitHub Actions") == {"ci"}
    assert cats("github actions") == {"ci"}


def test_a_product_named_after_its_vendor_is_not_a_person() -> None:
    # "Apache Beam" and "Cloud Spanner" look like two capitalized names.
    assert "person" not in cats("Apache Beam")
    assert "person" not in cats("Cloud Spanner")
    assert cats("Priya Raman") == {"person"}


def test_formatters_and_linters_are_kinds_of_their_own() -> None:
    assert categories_verdict("Black", ["Ruff format"]) == "same_category"
    assert categories_verdict("ESLint", ["Prettier"]) == "different_category"


def test_every_category_has_a_gloss_for_recall() -> None:
    from twoclocks.domain.category_glosses import CATEGORY_GLOSSES

    assert sorted(value_categories.CATEGORY_NAMES - set(CATEGORY_GLOSSES)) == []


def test_slot_drift_two_tools_of_one_kind_vouch_beyond_ci_and_clouds() -> None:
    # Notes apps, async runtimes, stream processors, beta distribution, API protocols.
    for a, b in [
        ("Obsidian", "Logseq"),
        ("tokio", "async-std"),
        ("Apache Beam", "Apache Flink"),
        ("TestFlight", "Firebase App Distribution"),
        ("REST", "gRPC"),
        ("SQLAlchemy", "Prisma"),
        ("Zustand", "Redux Toolkit"),
    ]:
        assert categories_verdict(b, [a]) == "same_category", (a, b)
    assert categories_verdict("Obsidian", ["Confluence"]) == "different_category"
    assert categories_verdict("Notion", ["Obsidian"]) == "same_category"


def test_a_product_named_like_a_place_or_a_word_is_listed_once_as_the_place() -> None:
    assert cats("Lima") == frozenset({"city"})
    assert "web_framework" not in cats("Warp")


def test_a_value_of_no_known_category_is_of_its_slots_usual_kind() -> None:
    # FactConsolidation: "Filipino" lost to a famous "German" in another slot of the subject.
    categories = {
        "sky": frozenset(),
        "simpsons": frozenset({"natural_language"}),
        "monk": frozenset({"natural_language"}),
        "odd": frozenset({"city"}),
        "tool": frozenset(),
    }
    slots = {
        "sky": "original_language",
        "simpsons": "original_language",
        "monk": "original_language",
        "odd": "original_language",
        "tool": "build_tool",
    }
    kinds = kinds_by_slot(categories, slots)
    assert kinds["sky"] == {"natural_language"}  # the most usual of its slot's kinds
    assert kinds["odd"] == {"city"}  # a known category is kept
    assert kinds["tool"] == frozenset()  # nothing to go by


def test_a_vendor_and_its_product_both_listed_of_one_kind_are_that_kind_not_a_person() -> None:
    # "Grafana Loki" read as a person kept `centralized_logging` apart from a
    # `log_aggregator` holding Papertrail ("a person beside a product": two slots).
    assert cats("Grafana Loki") == {"monitoring"}
    assert categories_verdict("Grafana Loki", ["Papertrail"]) == "same_category"
    # Two listed words of two kinds, or a place, are still a person's name.
    for person in ("Ava Jenkins", "Jordan Lee", "Ruby Chen", "Hugo Martin"):
        assert cats(person) == {"person"}, person


def test_a_capitalized_name_of_a_product_or_practice_is_not_a_person() -> None:
    # Read as people, "React Testing Library" kept its slot apart from a test framework by
    # the people rule, and "who ..." questions favoured "Conventional Commits".
    for thing in (
        "React Testing Library",
        "Conventional Commits",
        "Plain English",
        "Font Awesome",
        "App Store",
        "Swift Package Manager",
        "Data Platform",
    ):
        assert "person" not in cats(thing), thing
    for person in ("Priya Raman", "Tomás Ortega", "Dev Okafor", "Grace Hopper"):
        assert cats(person) == {"person"}, person


def test_a_job_title_is_a_kind_of_its_own_not_a_person_or_a_tool() -> None:
    # "role" Data Engineer, then "job_title" Senior Data Engineer: two titles vouch for one
    # slot as two people do; "Swift Package Manager" stays a tool.
    for title in ("Senior Data Engineer", "Engineering Manager", "Tech Lead", "Staff SRE"):
        assert cats(title) == {"job_title"}, title
    assert categories_verdict("Senior Data Engineer", ["Data Engineer"]) == "same_category"
    assert "job_title" not in cats("Swift Package Manager")
    assert "job_title" not in cats("LastPass password manager")


def test_subscription_billing_is_a_kind_beside_the_payment_processor() -> None:
    # Chargebee runs plans and invoices and charges through Stripe: both are current.
    assert cats("Chargebee") == {"subscription_billing"} == cats("Stripe Billing")
    assert cats("Stripe") == {"payments"}
    assert categories_verdict("Chargebee", ["Stripe"]) == "different_category"


def test_kinds_a_team_keeps_side_by_side_are_categories_apart() -> None:
    # Each pair is two tools one team runs at once, so values of the two never vouch for
    # one slot (and a loose reading of the lexicon yields to them).
    for one, other in (
        ("SendGrid", "Google Workspace"),  # the app's mail, the team's inboxes
        ("NextAuth", "Okta"),  # sign-in code in the app, the company's directory
        ("Ansible", "Terraform"),  # configuring hosts, provisioning the cloud
        ("Temporal", "Dagster"),  # workflows in application code, data pipelines
        ("Grafana Alerting", "PagerDuty"),  # alert rules, paging a person
        ("Playwright", "Vitest"),  # the app driven in a browser, the units run in Node
        ("Cypress", "Jest"),
    ):
        assert categories_verdict(one, [other]) == "different_category", (one, other)
    assert "person" not in cats("Grafana Alerting")
    assert categories_verdict("Mailgun", ["SendGrid"]) == "same_category"
    assert categories_verdict("Fastmail", ["Gmail"]) == "same_category"
    assert categories_verdict("Playwright", ["Cypress"]) == "same_category"


def test_a_branch_named_by_the_usual_prefixes_is_a_branch_and_a_file_path_is_not() -> None:
    # "which branch am I on?": the default branch "main" was a branch, a feature branch
    # nothing, so the default read as the better answer.
    for name in ("feat/invoice-pdf-export", "hotfix/vat-1.2", "release/2.4.0", "chore/deps"):
        assert cats(name) == {"branch"}, name
    assert categories_verdict("feature/JIRA-123-login", ["main"]) == categories_verdict(
        "develop", ["main"]
    )
    for path in ("fix/notes.md", "docs/api.md", "release/v1.2.tar", "src/feat/x"):
        assert cats(path) == set(), path
