"""A labelled corpus for the secret check (issue 9, point 8), generated with a fixed seed.

Each item is one write's fields, labelled secret or ordinary. Statements are composed from
templates x credential words x values: the secrets put a value after a credential word
(assigned, stated, bare, in a connection string, or under a slot named for it); the
ordinary facts mention the same words about policy, places, durations and products.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass

SEED = 20260901
PER_TEMPLATE = 12
"""Statements drawn from each template; a corpus of a few hundred of each kind."""

Fields = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Item:
    """One write and its label; ``template`` names where it came from, for failure reports."""

    fields: Fields
    secret: bool
    template: str

    @property
    def text(self) -> str:
        """The write as one line, for messages."""
        return " | ".join(f"{name}={value}" for name, value in self.fields)


SERVICES = ["billing-api", "prod", "staging", "acme-web", "ci", "the worker", "payments", "search"]
HOSTS = ["db.internal", "10.0.3.17", "pg-prod.acme.io", "cluster0.x1y2z.mongodb.net", "cache"]
USERS = ["app", "admin", "svc_billing", "deploy", "root"]
ENV_NAMES = [
    "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "GITHUB_TOKEN", "STRIPE_API_KEY", "SLACK_BOT_TOKEN",
    "PGPASSWORD", "REDIS_PASSWORD", "OPENAI_API_KEY", "CLIENT_SECRET", "JWT_SECRET",
    "SENTRY_AUTH_TOKEN", "NPM_TOKEN", "DATADOG_API_KEY", "MYSQL_ROOT_PASSWORD",
]  # fmt: skip
SNAKE_LABELS = [
    "aws_secret_access_key", "db_password", "api_key", "client_secret", "access_token",
    "refresh_token", "secret_key", "admin_password", "auth_token", "apikey", "passwd",
]  # fmt: skip
CAMEL_LABELS = ["apiKey", "clientSecret", "accessToken", "password", "authToken", "dbPassword"]
PROSE_LABELS = [
    "password", "api key", "token", "secret", "client secret", "access token", "passphrase",
    "API key", "root password", "deploy token", "secret access key", "private key", "pwd",
]  # fmt: skip
CREDENTIAL_WORDS = ["password", "token", "API key", "secret", "api key", "client secret"]
STORES = [
    "Vault", "AWS Secrets Manager", "1Password", "GCP Secret Manager", "Doppler", "Bitwarden",
    "SOPS-encrypted files", "the CI settings",
]  # fmt: skip
PRODUCTS = ["1Password", "Bitwarden", "LastPass", "Keeper", "Dashlane", "KeePassXC"]
PERIODS = ["weekly", "monthly", "every 90 days", "quarterly", "on every deploy", "nightly"]
DURATIONS = ["15 minutes", "1 hour", "30m", "3600s", "24h", "7 days", "90d", "12 hours"]
WORDS = ["deploy", "release", "hotfix", "rollback", "staging", "canary"]


def _alnum(rng: random.Random, n: int) -> str:
    while True:
        value = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            return value


def _aws_secret(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits + "/+") for _ in range(40))


def _hex(rng: random.Random) -> str:
    n = rng.choice([32, 40, 64])
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _password(rng: random.Random) -> str:
    """What people choose: words, leetspeak, digits and a symbol."""
    leet = str.maketrans("aeiost", "4310$7")
    first = rng.choice(["hunter", "dragon", "sunset", "Winter", "Tr0ub", "correct", "Falcon"])
    second = rng.choice(["Super", "secret", "horse", "Battery", "staple", "Monkey"])
    if rng.random() < 0.5:
        second = second.translate(leet)
    return f"{first}{rng.randint(0, 99)}{second}{rng.choice('!@#$%&*?')}"


def _token(rng: random.Random) -> str:
    """A machine-made key with a prefix no known-prefix rule lists."""
    prefix = rng.choice(["ghx_", "tok_", "pat-", "key-", "sess_", "live_", "at_", ""])
    return prefix + _alnum(rng, rng.randint(20, 36))


def _any_value(rng: random.Random) -> str:
    return rng.choice([_aws_secret, _hex, _password, _token])(rng)


def _uuid(rng: random.Random) -> str:
    h = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _one(text: str) -> Fields:
    """A statement stored as one fact's object, the way agents write notes."""
    return (("subject", "notes"), ("predicate", "note"), ("object", text))


Template = Callable[[random.Random], Fields]

SECRET_TEMPLATES: dict[str, Template] = {
    "ENV=value": lambda r: _one(f"{r.choice(ENV_NAMES)}={_any_value(r)}"),
    "export ENV=value": lambda r: _one(f"export {r.choice(ENV_NAMES)}={_any_value(r)}"),
    "snake = value": lambda r: _one(f"{r.choice(SNAKE_LABELS)} = {_any_value(r)}"),
    "yaml snake: value": lambda r: _one(f"{r.choice(SNAKE_LABELS)}: {_any_value(r)}"),
    "json key": lambda r: _one(f'{{"{r.choice(CAMEL_LABELS)}": "{_any_value(r)}"}}'),
    "the svc word is value": lambda r: _one(
        f"the {r.choice(SERVICES)} {r.choice(PROSE_LABELS)} is {_any_value(r)}"
    ),
    "svc word: value": lambda r: _one(
        f"{r.choice(SERVICES)} {r.choice(PROSE_LABELS)}: {_any_value(r)}"
    ),
    "word for svc is value": lambda r: _one(
        f"our {r.choice(PROSE_LABELS)} for {r.choice(SERVICES)} is {_any_value(r)}"
    ),
    "db password is pw": lambda r: _one(f"db password is {_password(r)}"),
    "the token: value": lambda r: _one(f"the token: {_token(r)}"),
    "word is now value": lambda r: _one(f"the {r.choice(PROSE_LABELS)} is now {_any_value(r)}"),
    "bearer value": lambda r: _one(f"Authorization: Bearer {_token(r)}"),
    "--password pw": lambda r: _one(f"login with --password {_password(r)}"),
    "AWS pair": lambda r: _one(
        f"aws_access_key_id = AKIA{_alnum(r, 16).upper()}, aws_secret_access_key = {_aws_secret(r)}"
    ),
    "URL with a password": lambda r: _one(
        f"{r.choice(['postgres', 'postgresql', 'mysql', 'amqp', 'mongodb+srv'])}://"
        f"{r.choice(USERS)}:{_password(r)}@{r.choice(HOSTS)}/app"
    ),
    "redis URL, empty user": lambda r: _one(f"redis://:{_alnum(r, 16)}@{r.choice(HOSTS)}:6379/0"),
    "ADO.NET string": lambda r: _one(
        f"Server={r.choice(HOSTS)};Database=app;User Id={r.choice(USERS)};Password={_password(r)};"
    ),
    "client secret uuid": lambda r: _one(f"the client secret is {_uuid(r)}"),
    "set the word to value": lambda r: _one(f"set the {r.choice(PROSE_LABELS)} to {_any_value(r)}"),
    "word changed to value": lambda r: _one(
        f"{r.choice(SERVICES)} {r.choice(PROSE_LABELS)} changed to {_any_value(r)}"
    ),
    "curl header": lambda r: _one(
        f"curl -H 'X-Api-Key: {_token(r)}' https://{r.choice(HOSTS)}/v1/health"
    ),
    "backticks": lambda r: _one(f"the new {r.choice(PROSE_LABELS)} is `{_any_value(r)}`"),
    "URL query token": lambda r: _one(
        f"webhook is https://hooks.acme.io/in?{r.choice(['token', 'access_token', 'key'])}="
        f"{_alnum(r, 24)}"
    ),
    "slot names the secret": lambda r: (
        ("subject", r.choice(SERVICES)),
        ("predicate", r.choice([*SNAKE_LABELS, "password", "deploy_token", "api key"])),
        ("object", _any_value(r)),
    ),
    "evidence says it": lambda r: (
        ("subject", r.choice(SERVICES)),
        ("predicate", "database"),
        ("object", "Postgres 16"),
        ("evidence", f"fyi the {r.choice(PROSE_LABELS)} is {_any_value(r)}, keep it safe"),
    ),
}

ORDINARY_TEMPLATES: dict[str, Template] = {
    "rotate the word period": lambda r: _one(
        f"rotate the {r.choice(CREDENTIAL_WORDS)} {r.choice(PERIODS)}"
    ),
    "word expiry is duration": lambda r: _one(
        f"{r.choice(['token', 'session token', 'access token', 'API key'])} expiry is "
        f"{r.choice(DURATIONS)}"
    ),
    "word TTL is duration": lambda r: _one(f"the token TTL is {r.choice(DURATIONS)}"),
    "password manager is product": lambda r: _one(
        f"{r.choice(['password manager', 'the password manager', 'team password vault'])} is "
        f"{r.choice(PRODUCTS)}"
    ),
    "secrets live in store": lambda r: _one(
        f"{r.choice(['secrets', 'API keys', 'tokens', 'passwords', 'credentials'])} live in "
        f"{r.choice(STORES)}"
    ),
    "words are stored in store": lambda r: _one(
        f"{r.choice(['API keys', 'secrets', 'client secrets', 'deploy tokens'])} are stored in "
        f"{r.choice(STORES)}"
    ),
    "password policy": lambda r: _one(
        f"password policy requires {r.randint(8, 24)} characters"
        + r.choice(["", " and a symbol", ", rotated every 90 days"])
    ),
    "the auth service owns": lambda r: _one(
        f"the auth service owns {r.choice(['login', 'signup', 'SSO', 'session refresh', 'MFA'])}"
    ),
    "word lives in ENV": lambda r: _one(
        f"the {r.choice(SERVICES)} {r.choice(CREDENTIAL_WORDS)} lives in {r.choice(ENV_NAMES)}"
    ),
    "ENV is injected": lambda r: _one(
        f"{r.choice(ENV_NAMES)} is injected by "
        f"{r.choice(['GitHub Actions', 'CircleCI', 'Buildkite', 'the Helm chart'])}"
    ),
    "word comes from a CI secret": lambda r: _one(
        f"the {r.choice(CREDENTIAL_WORDS)} comes from ${{{{ secrets.{r.choice(ENV_NAMES)} }}}}"
    ),
    "word is read from env": lambda r: _one(
        f"password={r.choice(['os.getenv', 'os.environ.get'])}('{r.choice(ENV_NAMES)}')"
    ),
    "token format": lambda r: _one(
        f"{r.choice(['token', 'access token', 'session token'])} format is "
        f"{r.choice(['JWT', 'opaque', 'PASETO', 'base64url'])}"
    ),
    "auth provider": lambda r: _one(
        f"auth provider is {r.choice(['Okta', 'Auth0', 'Keycloak', 'Cognito', 'Azure AD'])}"
    ),
    "header name": lambda r: _one(
        f"the {r.choice(['API key', 'token', 'CSRF token'])} header is "
        f"{r.choice(['X-Api-Key', 'Authorization', 'X-CSRF-Token', 'X-Auth-Token'])}"
    ),
    "word for svc is in store": lambda r: _one(
        f"the {r.choice(CREDENTIAL_WORDS)} for {r.choice(SERVICES)} is in {r.choice(STORES)}"
    ),
    "see store item": lambda r: _one(
        f"{r.choice(['db password', 'deploy token', 'api key'])}: see {r.choice(PRODUCTS)} item "
        f"{r.choice(['prod-db', 'deploy-key', 'stripe-live', 'ci-bot'])}"
    ),
    "secret scanner": lambda r: _one(
        f"never commit {r.choice(['secrets', 'tokens', 'API keys', 'passwords'])}; the pre-commit "
        f"hook runs {r.choice(['gitleaks', 'trufflehog', 'detect-secrets'])}"
    ),
    "URL without a password": lambda r: _one(
        f"DATABASE_URL is postgres://{r.choice(USERS)}@{r.choice(HOSTS)}:5432/app"
    ),
    "URL with a password variable": lambda r: _one(
        f"connect with postgres://{r.choice(USERS)}:${{DB_PASSWORD}}@{r.choice(HOSTS)}/app"
    ),
    "token endpoint": lambda r: _one(
        f"the token endpoint is https://auth.{r.choice(['acme.io', 'example.com'])}/oauth/token"
    ),
    "k8s secret name": lambda r: _one(
        f"the k8s secret {r.choice(['acme-db-creds', 'stripe-keys', 'ci-tokens'])} holds the "
        f"{r.choice(SERVICES)} credentials"
    ),
    "word is required": lambda r: _one(
        f"a {r.choice(CREDENTIAL_WORDS)} is required for {r.choice(SERVICES)} {r.choice(WORDS)}s"
    ),
    "commit and request ids": lambda r: _one(
        f"{r.choice(SERVICES)} {r.choice(WORDS)} at commit {_hex(r)[:40]}, request {_uuid(r)}"
    ),
    "LLM tokens": lambda r: _one(
        r.choice(
            [
                f"max_tokens={r.choice([4096, 8192, 128000])}",
                f"max tokens: {r.choice([1024, 4096, 200000])}",
                f"the prompt token budget is {r.randint(1000, 9000)}",
                f"tokenizer is {r.choice(['tiktoken cl100k_base', 'sentencepiece'])}",
                f"token count for the system prompt is {r.randint(200, 4000)}",
            ]
        )
    ),
    "words in other senses": lambda r: _one(
        r.choice(
            [
                "passwordless login uses magic links",
                "secret santa is on Friday",
                "token bucket allows 100 req/s",
                "the secret is mounted at /var/run/secrets/app",
                "bearer tokens expire after 1h",
                f"OAuth client id: 0oa{_alnum(r, 17)}",
                "api key prefix is sk_live_",
                "JWT secret rotation happens on 2026-03-01",
                "GITHUB_TOKEN permissions: contents read",
                "auth header format: Bearer <token>",
                f"token v2 rollout is at {r.randint(5, 95)}%",
                "secret: true marks a value for the vault",
            ]
        )
    ),
    "word moved to a place": lambda r: _one(
        f"{r.choice(['move', 'migrate', 'switch'])} {r.choice(['secrets', 'auth', 'tokens'])} "
        f"to {r.choice(['Vault', 'Okta', 'v2', 'Doppler', 'the new IdP'])}"
    ),
    "slot about a credential": lambda r: (
        ("subject", r.choice(SERVICES)),
        (
            "predicate",
            r.choice(["password_manager", "token_ttl", "secret_store", "api_key_location"]),
        ),
        ("object", r.choice(PRODUCTS + STORES + DURATIONS)),
    ),
    "slot named for the word": lambda r: (
        ("subject", r.choice(SERVICES)),
        ("predicate", r.choice(["token", "password", "api_key", "auth"])),
        (
            "object",
            r.choice(
                ["rotated weekly", "stored in Vault", "Okta", "managed by the platform team"]
                + [f"expires after {d}" for d in DURATIONS]
            ),
        ),
    ),
    "evidence mentions the words": lambda r: (
        ("subject", r.choice(SERVICES)),
        ("predicate", "secret_store"),
        ("object", r.choice(STORES)),
        ("evidence", f"we keep every {r.choice(CREDENTIAL_WORDS)} in {r.choice(STORES)} now"),
    ),
}


def _draw(templates: dict[str, Template], secret: bool, rng: random.Random) -> Iterator[Item]:
    for name, template in templates.items():
        seen: set[Fields] = set()
        for _ in range(PER_TEMPLATE * 4):
            fields = template(rng)
            if fields not in seen:
                seen.add(fields)
                yield Item(fields, secret, name)
            if len(seen) == PER_TEMPLATE:
                break


def corpus(seed: int = SEED) -> list[Item]:
    """Every labelled item, secrets first; the same list for the same seed."""
    rng = random.Random(seed)
    return [*_draw(SECRET_TEMPLATES, True, rng), *_draw(ORDINARY_TEMPLATES, False, rng)]
