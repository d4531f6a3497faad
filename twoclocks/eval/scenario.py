"""The store eval's scenario: 24 facts about one team's setup, each changed 1 to 3 times.

Written for the eval before any run, and not tuned after: every value is a distinct
string (graded by exact match), values change about 30 days apart (each fact starts on
its own day), and every fact has a second name for the same slot, the kind of drift a
real writer produces, used by the drift variant for the fact's second write.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
"""valid_at of the first value of the first fact."""

CHANGE_EVERY = timedelta(days=30)
RECORDED_AT = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
"""The record clock's start: every row is written after all of its world-time changes."""


@dataclass(frozen=True)
class ScenarioFact:
    """One slot and the values it held, oldest first, and how a person asks for it."""

    subject: str
    predicate: str
    drift_predicate: str
    question: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Write:
    """One write of the scenario: which fact, which value, under which name, when."""

    fact: int
    index: int
    predicate: str
    value: str
    valid_at: datetime


@dataclass(frozen=True)
class DateQuestion:
    """What a fact held the day before one of its changes."""

    fact: int
    as_of: datetime
    expect: str


@dataclass(frozen=True)
class MultiQuestion:
    """A question about three facts at once."""

    question: str
    facts: tuple[int, int, int]


FACTS: tuple[ScenarioFact, ...] = (
    ScenarioFact("production", "deploy_target", "deploy_platform",
                 "Where does production deploy to?",
                 ("Hetzner Cloud, Falkenstein", "Render, Oregon region", "Fly.io, Frankfurt")),
    ScenarioFact("team", "on_call_engineer", "on_call_person",
                 "Who is the on-call engineer?", ("Selin Aydin", "Baran Kaya")),
    ScenarioFact("repo", "ci_provider", "ci_platform", "Which CI service runs our builds?",
                 ("CircleCI", "Buildkite", "GitHub Actions")),
    ScenarioFact("backend", "database", "primary_datastore",
                 "Which database does the backend use?", ("PostgreSQL 14", "PostgreSQL 16")),
    ScenarioFact("backend", "python_version", "python_runtime",
                 "Which Python version does the backend run?",
                 ("Python 3.10", "Python 3.11", "Python 3.12")),
    ScenarioFact("frontend", "framework", "ui_framework",
                 "Which framework is the frontend built with?",
                 ("Create React App", "Next.js 13", "Next.js 14", "Remix")),
    ScenarioFact("team", "package_manager", "js_package_manager",
                 "Which package manager do we use?", ("npm", "pnpm")),
    ScenarioFact("team", "issue_tracker", "ticket_system", "Where do we track issues?",
                 ("Jira", "Linear")),
    ScenarioFact("team", "chat_tool", "messaging_app", "Which chat tool does the team use?",
                 ("Slack", "Discord", "Microsoft Teams")),
    ScenarioFact("backend", "error_tracker", "error_monitoring",
                 "Which error tracking service do we use?",
                 ("Sentry", "Rollbar", "Honeybadger")),
    ScenarioFact("team", "tech_lead", "lead_engineer", "Who is the tech lead?",
                 ("Deniz Yilmaz", "Ayse Demir")),
    ScenarioFact("staging", "url", "base_url", "What is the staging URL?",
                 ("staging.acme.dev", "stage.acme.io")),
    ScenarioFact("backend", "cache", "cache_store", "Which cache does the backend use?",
                 ("Memcached", "Redis 6", "Redis 7", "Valkey 8")),
    ScenarioFact("team", "release_day", "release_weekday", "On which day do we release?",
                 ("Thursday", "Tuesday")),
    ScenarioFact("backend", "test_runner", "test_framework",
                 "Which test runner does the backend use?", ("nose", "pytest")),
    ScenarioFact("frontend", "node_version", "nodejs_version",
                 "Which Node.js version does the frontend use?",
                 ("Node 18", "Node 20", "Node 22")),
    ScenarioFact("team", "required_approvals", "review_approvals",
                 "How many approvals does a pull request need?",
                 ("1 approval", "2 approvals")),
    ScenarioFact("production", "log_platform", "logging_service",
                 "Where do production logs go?",
                 ("Papertrail", "Datadog Logs", "Grafana Loki")),
    ScenarioFact("repo", "default_branch", "main_branch",
                 "What is the repository's default branch?", ("master", "main")),
    ScenarioFact("production", "cdn", "cdn_provider", "Which CDN serves production?",
                 ("CloudFront", "Fastly", "Cloudflare")),
    ScenarioFact("team", "sprint_length", "sprint_duration", "How long is a sprint?",
                 ("2 weeks", "1 week", "3 weeks")),
    ScenarioFact("backend", "api_style", "api_protocol",
                 "What API style does the backend expose?", ("REST", "GraphQL")),
    ScenarioFact("repo", "formatter", "code_formatter", "Which code formatter do we use?",
                 ("black", "ruff format")),
    ScenarioFact("production", "dns_provider", "dns_host", "Who hosts our DNS?",
                 ("GoDaddy", "Route 53", "Cloudflare DNS")),
)  # fmt: skip

MULTI: tuple[MultiQuestion, ...] = (
    MultiQuestion("What is our production setup: deploy target, CDN and DNS?", (0, 19, 23)),
    MultiQuestion("Who is on call, who is the tech lead, and where do we track issues?",
                  (1, 10, 7)),
    MultiQuestion("What is the backend stack: database, cache and Python version?", (3, 12, 4)),
    MultiQuestion("Frontend: which framework, Node.js version and package manager?", (5, 15, 6)),
    MultiQuestion("How do we ship: CI service, release day and default branch?", (2, 13, 18)),
    MultiQuestion("Which error tracker, log platform and test runner do we use?", (9, 17, 14)),
)  # fmt: skip


def valid_at(fact: int, index: int) -> datetime:
    """When value ``index`` of fact ``fact`` became true: its own start day, then every 30 days."""
    return START + timedelta(days=fact) + index * CHANGE_EVERY


def writes(facts: tuple[ScenarioFact, ...] = FACTS, drift: bool = False) -> list[Write]:
    """Every write in world-time order; with ``drift`` the second value uses the other name."""
    out = []
    for f, fact in enumerate(facts):
        for i, value in enumerate(fact.values):
            name = fact.drift_predicate if drift and i == 1 else fact.predicate
            out.append(Write(f, i, name, value, valid_at(f, i)))
    return sorted(out, key=lambda w: (w.valid_at, w.fact))


def date_questions(facts: tuple[ScenarioFact, ...] = FACTS) -> list[DateQuestion]:
    """One per change, by a fixed rule: the day before the change, the old value holds."""
    return [
        DateQuestion(f, valid_at(f, i) - timedelta(days=1), fact.values[i - 1])
        for f, fact in enumerate(facts)
        for i in range(1, len(fact.values))
    ]
