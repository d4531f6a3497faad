"""What each kind of value is for, in the words a question uses (recall, issue 11).

"Who handles card charges for us?" shares no word with ``payment_processor = Stripe``;
the gazetteer knows Stripe is a payment processor, and this gloss says what one does.
Recall compares the question with the gloss of a fact's value category (an embedding
cosine, cached per gloss), so a question about what a thing does finds the slot that
holds one. Written from general usage, not from any question set. Pure: a table.
"""

from __future__ import annotations

from collections.abc import Iterable

CATEGORY_GLOSSES: dict[str, str] = {
    "ci": "continuous integration: the CI service whose pipelines build and test every commit",
    "cloud": "cloud provider or hosting platform where services are deployed and run",
    "database": "database: where the data is stored, primary datastore, SQL tables",
    "data_warehouse": "data warehouse: analytics and reporting over all the company's data",
    "cache": "cache: in-memory key-value store for hot data, sessions, caching",
    "queue": "message broker or job queue: events, async background jobs, workers, tasks, pub/sub",
    "monitoring": "monitoring and observability: metrics, dashboards, logs, alerts, traces",
    "errors": "error tracking: exceptions, crash reports, stack traces",
    "chat": "team chat: messaging, channels, where the team talks",
    "tracker": "issue tracker: tickets, bugs, tasks, project board, backlog",
    "editor": "code editor or IDE the person writes code in",
    "programming_language": "programming language the code is written in",
    "human_language": "spoken language, the language a person speaks or writes",
    "os": "operating system the machine runs",
    "package_manager": "package manager that installs dependencies",
    "test_framework": "test framework or runner for unit tests",
    "ui_test_framework": "end-to-end test framework driving the app's UI in a browser or device",
    "test_helper": "testing library, mocks, fixtures and fakes the tests use",
    "uptime_monitoring": "uptime monitoring: checks from outside that the site is up, pings",
    "crm": "CRM: customers, leads, deals and the sales pipeline",
    "payroll": "payroll: paying staff salaries, payslips, contractors",
    "accounting": "accounting and bookkeeping: ledgers, invoices, expenses, tax",
    "data_ingestion": "data ingestion: syncing data from sources into the warehouse, ELT",
    "bi": "BI dashboards and reports over the warehouse data",
    "experiment_tracking": "experiment tracking: ML runs, metrics, models and artifacts logged",
    "subscription_billing": "subscription billing: plans, invoices, renewals, usage billing",
    "job_title": "job title or role: what a person does, their position",
    "build_tool": "build tool, bundler or compiler that builds the project",
    "formatter": "code formatter that rewrites source code style and layout",
    "linter": "linter: static analysis that flags style problems and bugs in the code",
    "registry": "container or package registry where images and artifacts are published",
    "iac": "infrastructure as code: provisioning cloud resources, terraform",
    "config_management": "configuration management: setting up servers, playbooks, host packages",
    "workflow_engine": "workflow engine: durable long-running workflows and retries in app code",
    "orchestrator": "container orchestration: clusters, pods, deployments, scheduling containers",
    "email": "email sending service: the app's transactional mail, receipts, newsletters",
    "mailbox": "email accounts and inboxes the team reads and writes mail in",
    "auth_library": "authentication library in the app's code: login, sessions, OAuth sign-in",
    "payments": "payment processor: card payments, charges, checkout, subscriptions, invoices",
    "auth": "authentication and identity provider: login, sign-in, single sign-on, users",
    "cdn": "CDN: content delivery network, edge caching of static assets",
    "dns": "DNS provider: domain name records",
    "registrar": "domain registrar where domain names are bought",
    "vcs_host": "code hosting where the git repositories live",
    "video_call": "video call and meeting tool",
    "paging": "on-call paging and incident alerts",
    "docs_generator": "documentation or static site generator that builds the docs website",
    "web_framework": "web framework that serves the HTTP API endpoints and pages",
    "css": "CSS framework or styling library for the user interface",
    "ui": "component library or design system for the user interface",
    "secrets": "secrets manager: credentials, passwords, API keys, tokens",
    "analytics": "product analytics: tracking users, events, funnels",
    "feature_flags": "feature flags: toggles, gradual rollout, experiments",
    "shell": "command-line shell",
    "terminal": "terminal emulator",
    "browser": "web browser",
    "search": "search engine: full-text search index, queries",
    "storage": "object storage: files, blobs, buckets, uploads",
    "design": "design tool: mockups, UI designs, prototypes",
    "scheduler": "scheduler: cron jobs, scheduled tasks, workflows",
    "web_server": "web server or reverse proxy in front of the app, load balancing",
    "notes": "notes app: personal notes, second brain, knowledge notes",
    "wiki": "wiki or knowledge base: documentation pages, design docs, internal docs",
    "async_runtime": "async runtime: the event loop or executor that runs async tasks",
    "data_processing": "data processing engine: stream and batch jobs, pipelines, big data",
    "query_engine": "SQL query engine over a data lake or warehouse: analytics queries",
    "app_distribution": "beta app distribution: builds for testers, TestFlight",
    "api_protocol": "API style or protocol: how clients call the service, REST, RPC",
    "orm": "ORM or database library: models, queries and migrations from code",
    "http_client": "HTTP client library that calls other services and APIs",
    "state_management": "front-end state management: the app's shared state, store",
    "mobile_framework": "mobile app framework the iOS and Android apps are built with",
    "load_testing": "load testing tool: performance tests, traffic, benchmarks",
    "service_mesh": "service mesh: traffic between services, mTLS, sidecars",
    "api_gateway": "API gateway: routing, rate limits and auth in front of the APIs",
    "ml_framework": "machine learning framework: training and running models",
    "llm_provider": "LLM provider or model API: the AI model the product calls",
    "support_desk": "customer support desk: tickets and chat from customers",
    "status_page": "status page: public incident and uptime announcements",
    "container_runtime": "container runtime: runs containers and images locally",
    "version_manager": "language version manager: which Node, Python or Ruby is installed",
    "type_checker": "static type checker for the code",
    "api_client": "API client for sending test requests by hand",
    "dependency_bot": "dependency update bot: automatic pull requests for upgrades",
    "security_scanner": "security scanner: vulnerabilities, static analysis, leaked secrets",
    "branch": "git branch",
    "cadence": "how often something happens: schedule, frequency",
    "weekday": "day of the week",
    "company": "company or organisation",
    "city": "city, town, place where someone lives or works",
    "country": "country",
    "region": "cloud region or data centre location",
    "person": "a person: who, someone responsible, a colleague",
    "handle": "a username or handle",
    "channel": "a chat channel",
}  # fmt: skip
"""One gloss per category of ``value_categories.CATEGORY_NAMES``."""


def glosses(categories: Iterable[str]) -> list[str]:
    """The glosses of these categories, in a stable order (unknown ones skipped).

    >>> glosses(["cache"])
    ['cache: in-memory key-value store for hot data, sessions, caching']
    """
    return [CATEGORY_GLOSSES[c] for c in sorted(categories) if c in CATEGORY_GLOSSES]
