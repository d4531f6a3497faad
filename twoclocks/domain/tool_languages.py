"""Which language a tool serves, so a slot named for one language keeps its own value.

In a repository of two languages, ``formatter`` Prettier and ``python_formatter`` Black
are two roles: the second name is the first plus a qualifier, and a small model scores
such names 0.6-0.8 alike, enough to merge them and close Prettier while it is still
true. Whether the qualifier narrows the same role (a Python-only repository that
renamed ``formatter`` Black to ``python_formatter`` Ruff) or names another one, the
values tell: a tool of another language under the unqualified name is another role.

Pure: a table of tools by language and a rule over names and values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from twoclocks.domain.slot_names import predicate_tokens
from twoclocks.domain.text_fold import fold_case_and_spacing
from twoclocks.domain.value_categories import TRAILING_VERSION

# Words in a slot name that say which language its value is for. TypeScript and Node
# share JavaScript's tools (Prettier, ESLint, npm), so they are one language here; so
# are the JVM's languages (Gradle and Maven build Java and Kotlin alike).
_LANGUAGE_WORDS: dict[str, str] = {
    "python": "python", "py": "python",
    "javascript": "javascript", "js": "javascript", "typescript": "javascript",
    "ts": "javascript", "node": "javascript", "nodejs": "javascript",
    "go": "go", "golang": "go",
    "rust": "rust",
    "ruby": "ruby", "rb": "ruby",
    "java": "jvm", "kotlin": "jvm", "scala": "jvm", "jvm": "jvm",
    "php": "php",
    "elixir": "elixir",
    "swift": "swift",
    "csharp": "dotnet", "dotnet": "dotnet",
}  # fmt: skip

# Tools (lowercase, as the gazetteer spells them) that serve one language's code only.
# Tools for many (Bazel, Playwright, Docker, clang-format) are left out: they say
# nothing about which language a slot is for.
_TOOLS: dict[str, tuple[str, ...]] = {
    "python": (
        "black", "ruff", "ruff format", "yapf", "autopep8", "isort", "flake8", "pylint",
        "mypy", "pyright", "basedpyright", "pyre", "pytype", "pytest", "unittest", "nose",
        "hypothesis", "tox", "nox", "pip", "pipenv", "poetry", "uv", "pdm", "hatch",
        "hatchling", "rye", "setuptools", "conda", "mamba", "pyenv", "django", "flask",
        "fastapi", "starlette", "sqlalchemy", "sqlmodel", "django orm", "peewee",
        "tortoise orm", "alembic", "celery", "sphinx", "requests", "httpx", "aiohttp",
    ),
    "javascript": (
        "prettier", "eslint", "biome", "oxlint", "standard", "tslint", "tsc",
        "typescript compiler", "flow", "jest", "vitest", "mocha", "jasmine", "ava", "karma",
        "npm", "yarn", "pnpm", "bun", "nvm", "volta", "fnm", "nodenv", "webpack", "vite",
        "esbuild", "rollup", "parcel", "turbopack", "babel", "swc", "express", "fastify",
        "koa", "hapi", "nestjs", "next.js", "nextjs", "nuxt", "remix", "prisma", "typeorm",
        "sequelize", "drizzle", "drizzle orm", "knex", "kysely", "mikro-orm", "axios",
        "jsdoc", "typedoc",
    ),
    "go": (
        "gofmt", "goimports", "gofumpt", "golangci-lint", "golint", "staticcheck", "go vet",
        "go test", "testify", "go modules", "goenv", "gin", "echo", "fiber", "chi", "gorm",
    ),
    "rust": (
        "rustfmt", "clippy", "cargo", "cargo test", "rustup", "actix", "actix web", "axum",
        "rocket", "diesel", "sea-orm", "reqwest",
    ),
    "ruby": (
        "rubocop", "standardrb", "rspec", "minitest", "bundler", "rbenv", "rvm", "chruby",
        "rake", "rails", "ruby on rails", "sinatra", "sorbet", "active record",
        "activerecord", "faraday", "httparty",
    ),
    "jvm": (
        "maven", "gradle", "sbt", "junit", "testng", "ktlint", "detekt", "checkstyle",
        "spotless", "google-java-format", "spring", "spring boot", "hibernate", "jooq",
        "mybatis", "sdkman", "jenv", "okhttp", "retrofit",
    ),
    "php": (
        "composer", "phpunit", "pest", "php-cs-fixer", "phpstan", "psalm", "laravel",
        "symfony", "doctrine", "eloquent",
    ),
    "elixir": ("mix", "credo", "exunit", "dialyzer", "phoenix", "ecto", "hex"),
    "swift": ("swiftlint", "swiftformat", "xctest", "cocoapods", "swift package manager"),
    "dotnet": (
        "nuget", "xunit", "nunit", "mstest", "entity framework", "ef core",
        "entity framework core", "asp.net core",
    ),
}  # fmt: skip

_LANGUAGES_OF_TOOL: dict[str, frozenset[str]] = {}
for _language, _names in _TOOLS.items():
    for _name in _names:
        _LANGUAGES_OF_TOOL[_name] = _LANGUAGES_OF_TOOL.get(_name, frozenset()) | {_language}

_TRAILING_DIGITS = re.compile(r"\d+$")
_PARENTHESES = re.compile(r"\s*\([^)]*\)")


def language_of_name(predicate: str) -> str | None:
    """The one language a slot name is for, else None (none named, or two).

    >>> language_of_name("python_formatter"), language_of_name("tsLinter")
    ('python', 'javascript')
    >>> language_of_name("formatter") is None
    True
    """
    found = {
        _LANGUAGE_WORDS[word]
        for word in (_TRAILING_DIGITS.sub("", w) for w in predicate_tokens(predicate))
        if word in _LANGUAGE_WORDS
    }
    return next(iter(found)) if len(found) == 1 else None


def languages_of_value(value: str) -> frozenset[str]:
    """The languages a tool named by ``value`` serves; empty when it is not one we know.

    >>> sorted(languages_of_value("Prettier 3"))
    ['javascript']
    >>> sorted(languages_of_value("Bazel"))
    []
    """
    low = fold_case_and_spacing(_PARENTHESES.sub("", value)).strip()
    return _LANGUAGES_OF_TOOL.get(low) or _LANGUAGES_OF_TOOL.get(
        TRAILING_VERSION.sub("", low), frozenset()
    )


def for_another_language(a: str, a_values: Iterable[str], b: str, b_values: Iterable[str]) -> bool:
    """True when one name is for a language and the other's values are tools of others.

    Worked example: ``formatter`` holds Prettier; ``python_formatter`` Black arrives.
    The new name is for Python, and Prettier serves JavaScript only, so the two are two
    roles: True, and Prettier stays current. Had ``formatter`` held Black, the same
    write would rename the slot (False), as would any value this table does not know.
    Two names for two languages (``python_linter``, ``go_linter``) are two roles too.
    """
    language_a, language_b = language_of_name(a), language_of_name(b)
    if language_a == language_b:
        return False
    if language_a is not None and language_b is not None:
        return True
    language, others = (language_a, list(b_values)) if language_a else (language_b, list(a_values))
    if not others:
        return False
    served = [languages_of_value(value) for value in others]
    return all(langs and language not in langs for langs in served)


def narrowed_to_its_language(
    a: str, a_values: Iterable[str], b: str, b_values: Iterable[str]
) -> bool:
    """True when one name is the other plus the language the other's values serve.

    Worked example: ``test_runner`` holds Jest; ``typescript_test_runner`` Vitest
    arrives. Take "typescript" out and the names are equal, and Jest is a JavaScript
    tool, so the new name narrows the same role to the language it already had: one slot
    (True), and Jest is closed, though the model scores the names only 0.52 alike.
    """
    language_a, language_b = language_of_name(a), language_of_name(b)
    if (language_a is None) == (language_b is None):
        return False
    if language_a is not None:
        language, qualified, bare, values = language_a, a, b, list(b_values)
    else:
        assert language_b is not None
        language, qualified, bare, values = language_b, b, a, list(a_values)
    words = [
        w for w in predicate_tokens(qualified) if _TRAILING_DIGITS.sub("", w) not in _LANGUAGE_WORDS
    ]
    if words != predicate_tokens(bare) or not values:
        return False
    return all(language in languages_of_value(value) for value in values)
