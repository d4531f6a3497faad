"""What a question names besides its subject: a product of some kind, or a value a slot held.

"Is the docs site still on Jekyll?" names a static site generator, so the slot that
answers it is the one holding a thing of that kind (Docusaurus, today). "Do we still use
Black?" names a formatter the team used before: the answer is that slot's current value,
whatever it is now. Recall (issue 11) reads both; neither needs a model. Pure: text in,
names out.
"""

from __future__ import annotations

import re
from functools import lru_cache

from twoclocks.domain.text_fold import fold_case_and_spacing
from twoclocks.domain.value_categories import (
    BROAD_CATEGORIES,
    LONGEST_NAME_WORDS,
    TRAILING_VERSION,
    categories_of_name,
    value_categories,
)

EVERYDAY_NAMES = frozenset(
    """
    arc arch around bind box brave buck bun c checkout chef dagger dash drone echo edge
    element emotion express fathom fiber fish fleet fly foot foundation gather gin glacier
    go harness hatch heap helix hover hyper just karma koa less lima linear make matrix
    meet meta monday nano neon nice ninja nomad nose notion opera oracle pants parcel
    phoenix pip puma r render rider rocket rollup rust safari segment sentry shortcut
    signal sketch solid spanner split spring square swift task teams temporal trunk tuple
    umbrella unicorn vault warp yarn zed zoom aurora cursor prefect
    ambassador artillery bandit bear beam bedrock bottle capacitor capacities cohere coda
    cortex crisp curl dataflow drift effector expo falcon finch flow front gatling gemini
    got graphite grape guru hive impala insomnia ionic iris locust mise mistral outline paw
    poem postman presto proto pyramid quip ray recoil renovate requests rest roam sails
    salvo slab spark thrift tide tornado vapor volta wiz zap salt cadence conductor restate
    """.split()
)
"""Product names that are also everyday words ("go", "vault", "make"): in a question they
name the product only when written with a capital ("Go", "Vault")."""

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+#/!_-]*")
_EDGE = ".,;:!?/-"
_DOTTED_VERSION = re.compile(r"v?\d+(?:\.\d+)+", re.IGNORECASE)
"""A value that is a version alone ("1.82", "v3.11.4"): a number, yet no count or size."""
_FUNCTION_WORDS = frozenset("a an the of and or to in on at for is are be yes no none".split())


def _tokens(text: str) -> list[str]:
    """Words as written, edge punctuation off: "Jekyll?" -> "Jekyll", "Next.js" stays."""
    return [t for t in (m.strip(_EDGE) for m in _TOKEN.findall(text)) if t]


@lru_cache(maxsize=16384)  # recall asks it of every candidate's value, for every question
def named_categories(question: str) -> frozenset[str]:
    """The specific categories of the gazetteer things a question names (broad ones left out).

    A person or a city names no slot (a subject has many of each), so only categories
    like a CI product or a static site generator count.

    >>> sorted(named_categories("is the docs site still on Jekyll?"))
    ['docs_generator']
    >>> sorted(named_categories("do we deploy with GitHub Actions or CircleCI?"))
    ['ci']
    >>> sorted(named_categories("where do we go for lunch?"))
    []
    >>> sorted(named_categories("which Go version does ingest use?"))
    ['programming_language']
    """
    written = _tokens(question)
    found: set[str] = set()
    start = 0
    while start < len(written):
        # The longest name wins: "GitHub Actions" is a CI product, not the code host.
        size, categories = _longest_name_at(written, start)
        found |= categories
        start += size
    return frozenset(found - BROAD_CATEGORIES)


def _longest_name_at(written: list[str], start: int) -> tuple[int, frozenset[str]]:
    """How many words from ``start`` make the longest gazetteer name, and its categories."""
    for size in range(min(LONGEST_NAME_WORDS, len(written) - start), 0, -1):
        words = written[start : start + size]
        name = " ".join(words).lower()
        if size == 1 and name in EVERYDAY_NAMES and words[0].islower():
            continue
        categories = categories_of_name(name)
        if categories:
            return size, categories
    return 1, frozenset()


# Where a value's name ends and what qualifies it begins: "Render, Oregon region",
# "GCP (Azure only for data-pipeline)", "Notion - the team space".
_QUALIFIED = re.compile(r",\s|\s\(|\s[-\u2013\u2014]\s|;\s")


# Words that open a question capitalized and are first names too: "Will the deploy run
# tonight?" names no Will Smith, "May we ship?" no May Chen.
_OPENING_VERBS = frozenset(
    "will may can should would could shall might must do does did is are was were has have"
    " had".split()
)


def _names_a_person_by_first_name(question: str, value: str) -> bool:
    """A person is named by their first name, capitalized: "is Kwame still the owner?".

    Not when another surname follows it: "Charles Darwin" names no Charles Dickens.

    >>> _names_a_person_by_first_name("is Kwame still the owner?", "Kwame Mensah")
    True
    >>> _names_a_person_by_first_name("Who is Charles Darwin married to?", "Charles Dickens")
    False
    """
    first, *rest = value.split()
    said = _tokens(question)
    if said and said[0].lower() in _OPENING_VERBS:
        said = said[1:]
    # The word check first: it is cheap, and most questions name no one.
    if first not in said:
        return False
    followed = [said[i + 1] if i + 1 < len(said) else "" for i, w in enumerate(said) if w == first]
    if all(after[:1].isupper() and after not in rest for after in followed):
        return False  # every "Charles" in the question is another Charles
    return "person" in value_categories(value)


_VERSION = re.compile(r"v?\d+(\.\d+)*")


def _names_a_versioned_part(asked: list[str], wanted: list[str]) -> bool:
    """The question names a thing and its version inside a longer value: "OTP 26" in
    "Elixir 1.15 on OTP 26", "Python 3.11" in "Python 3.11 with uv"."""
    for i in range(len(wanted) - 1):
        name, version = wanted[i], wanted[i + 1]
        if len(name) < 2 or not any(c.isalpha() for c in name) or not _VERSION.fullmatch(version):
            continue
        if i + 2 < len(wanted) and wanted[i + 2][:1].isdigit():
            continue  # "USD 4,200" is not "USD 4"
        if any(asked[j : j + 2] == [name, version] for j in range(len(asked) - 1)):
            return True
    return False


def names_value(question: str, value: str) -> bool:
    """Whether the question names ``value``: its words in a row, a trailing version aside.

    Values that are only function words or whole numbers ("yes", "2") are never named: too
    many questions hold them. A dotted version ("1.82", "3.11.4") is named when the question
    holds it whole: "are we on Rust 1.82?" names the 1.82 found wrong.

    >>> names_value("do we still use Black?", "Black")
    True
    >>> names_value("are we on Elasticsearch or OpenSearch?", "Elasticsearch 7.10")
    True
    >>> names_value("how many replicas?", "2")
    False
    >>> names_value("which formatter do we use?", "Ruff format")
    False
    >>> names_value("is inventory still on actix?", "actix-web")
    True
    >>> names_value("do we still deploy to Render?", "Render, Oregon region")
    True
    >>> names_value("is Kwame still the infrastructure owner?", "Kwame Mensah")
    True
    >>> names_value("is the ingestor still on OTP 26?", "Elixir 1.15 on OTP 26")
    True
    >>> names_value("are we on Rust 1.82?", "1.82"), names_value("on 1.821?", "1.82")
    (True, False)
    """
    folded = fold_case_and_spacing(value)
    if _DOTTED_VERSION.fullmatch(folded):
        return folded.lstrip("v") in {t.lower().lstrip("v") for t in _tokens(question)}
    head = _QUALIFIED.split(folded, maxsplit=1)[0]
    if head != folded and names_value(question, head):
        return True  # "Render" names "Render, Oregon region"; "GCP" names "GCP (Azure ...)"
    bare = TRAILING_VERSION.sub("", folded)
    wanted = [t.lower() for t in _tokens(bare)]
    if not any(
        len(w) >= 3 and w not in _FUNCTION_WORDS and sum(c.isalpha() for c in w) >= 2
        for w in wanted
    ):
        return False
    asked = [t.lower() for t in _tokens(question)]
    size = len(wanted)
    if any(asked[i : i + size] == wanted for i in range(len(asked) - size + 1)):
        return True
    whole = [t.lower() for t in _tokens(folded)]
    if _names_a_person_by_first_name(question, value) or _names_a_versioned_part(asked, whole):
        return True
    if _names_by_initials(question, bare) or _names_by_its_version(question, folded):
        return True
    # A hyphenated product is named by its first part: "actix" for "actix-web".
    head = wanted[0].split("-")[0] if size == 1 and "-" in wanted[0] else ""
    return len(head) >= 4 and head in asked


def _names_by_its_version(question: str, value: str) -> bool:
    """The question names a versioned value by its dotted version alone: "still on 3.10?"
    for "Python 3.10". A bare number ("on 16?") is too many other things.

    >>> _names_by_its_version("telemetry-ingest still on 3.10?", "python 3.10")
    True
    >>> _names_by_its_version("still on 3.1?", "python 3.10")
    False
    """
    found = TRAILING_VERSION.search(value)
    version = found.group(0).split()[0].lstrip("v") if found else ""
    return "." in version and version in _tokens(question)


_INITIALISM = re.compile(r"\b[A-Z]{3,5}\b")


def _names_by_initials(question: str, value: str) -> bool:
    """The question names a value of three to five words by their initials, in capitals:
    "CRA" for "Create React App", "GCP" for "Google Cloud Platform". Two letters are too
    many other things ("GA" is general availability as often as GitHub Actions).

    >>> _names_by_initials("is the dashboard still a CRA project?", "create react app")
    True
    >>> _names_by_initials("is the CI still GA?", "github actions")
    False
    """
    words = [w for w in value.split() if w[:1].isalpha()]
    if not 3 <= len(words) <= 5 or len(words) != len(value.split()):
        return False
    initials = "".join(w[0] for w in words).upper()
    return initials in _INITIALISM.findall(question)
