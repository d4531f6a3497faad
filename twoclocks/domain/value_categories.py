"""What kind of thing a slot's value names: a CI product, a city, a person (slot drift, issue 11).

Two names of one slot hold two things of one category: ``ci_tool = Jenkins`` and
``build_server = CircleCI`` are one slot even though the names share no word, while
``monitoring = Datadog`` and ``dashboard_url = ...`` are not. ``slot_values`` sees the
shape of a value (a number, a URL); this module sees what it names, from a small
gazetteer of the products, places and languages coding-agent memory is full of, and
from the shape of a person's name. Pure: the value arrives as text.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Literal

from twoclocks.domain.gazetteer import GAZETTEER
from twoclocks.domain.text_fold import fold_case_and_spacing

CategoryVerdict = Literal["same_category", "same_broad_category", "different_category", "unknown"]

# Categories a subject's slots often share: a team has an owner, an on-call and a manager
# (three people), a person a home, a work and a birth city. Two values of one of these
# vouch for a merge no more than two values of one kind (two versions) do.
BROAD_CATEGORIES = frozenset(
    {"person", "city", "country", "region", "human_language", "weekday", "company", "branch",
     "cadence", "channel", "handle"}
)  # fmt: skip

_CATEGORIES: dict[str, frozenset[str]] = {}
for _category, _names in GAZETTEER.items():
    for _name in _names:
        _CATEGORIES[_name] = _CATEGORIES.get(_name, frozenset()) | {_category}

# Patterns for things no list can hold: cloud regions (eu-west-1, europe-west4,
# eastus2), a chat channel (#incidents) and a handle (@priya).
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(us|eu|ap|sa|ca|me|af|il|cn|mx)(-gov)?-[a-z]+-\d$"), "region"),
    (
        re.compile(r"^(us|europe|asia|australia|northamerica|southamerica|me|africa)-[a-z]+\d+$"),
        "region",
    ),
    (re.compile(r"^(east|west|north|south|central)[a-z]*us\d?$"), "region"),
    (re.compile(r"^#[\w-]+$"), "channel"),
    # A component library or design system: "Acme UI", "Polaris Design System".
    (re.compile(r"^[\w.-]+( [\w.-]+)? (ui|design system|components|component library)$"), "ui"),
    (re.compile(r"^@[\w.-]+$"), "handle"),
    # A git branch named by the usual conventions: "feat/invoice-pdf", "hotfix/vat-1.2".
    # Prefixes that are as often folders ("docs/", "test/", "ci/") are left out, and so is
    # a name ending in a file's extension.
    (
        re.compile(
            r"^(feat|feature|fix|bugfix|hotfix|chore|release|refactor|dependabot|renovate|wip)"
            r"/[\w./-]+(?<!\.[a-z]{2})(?<!\.[a-z]{3})(?<!\.[a-z]{4})$"
        ),
        "branch",
    ),
    # A job title: "Senior Data Engineer", "Engineering Manager", "Staff SRE".
    (
        re.compile(
            r"^([a-z&/-]+ ){0,4}(engineer|developer|designer|architect|scientist|analyst|"
            r"director|administrator|sre|cto|vp|intern|consultant|researcher|lead|"
            # "manager" is as often a tool (package manager): people's kinds only
            r"(engineering|product|project|program|delivery|release|hiring|account|team) manager)$"
        ),
        "job_title",
    ),
)

LONGEST_NAME_WORDS = max(len(name.split()) for name in _CATEGORIES)
"""Words in the gazetteer's longest name, so a scan of a text knows how far to look."""

CATEGORY_NAMES = frozenset(GAZETTEER) | {c for _, c in _PATTERNS} | {"person"}
"""Every category ``value_categories`` can return."""

# A person's name: two or three capitalized words of letters ("Priya Raman", "Tomás
# Ortega", "Mary-Jane O'Neil"). Products written that way are in the gazetteer first.
_NAME_WORD = r"[A-ZÀ-Þ][a-zß-ÿ]+(?:[-'][A-ZÀ-Þa-zß-ÿ][a-zß-ÿ]+)?"
_PERSON = re.compile(rf"^{_NAME_WORD}(?: {_NAME_WORD}){{1,2}}$")

VENDOR_WORDS = frozenset(
    """
    apache google amazon aws azure microsoft cloud github gitlab atlassian hashicorp
    elastic oracle ibm mozilla jetbrains firebase meta apple adobe cisco confluent
    databricks vmware salesforce twilio heroku vercel netlify digitalocean
    """.split()
)
"""First words that make a capitalized name a product ("Apache Beam", "Google Meet",
"Cloud Spanner"), never a person."""

THING_WORDS = frozenset(
    """
    library libraries testing test tests commits commit store stores icons icon news
    worker workers service services design primitives release releases based branch
    branches every daily weekly monthly nightly plain english spanish german french
    components component code studio compose text notes kit tools tool framework engine
    server client app apps hub lab labs box base data sdk cli desktop mobile web script
    stack flow works pay mail chat docs sheets drive pages actions functions queue cache
    search analytics monitor monitoring logs metrics security guard build deploy runner
    manager registry router query graph forms form table tables charts chart maps auth
    identity vault secrets keys password awesome pi ui style styles guide guides
    conventional semantic trunk feature features flags flag review reviews standard
    standards only first always never short long answers answer plan plans pro free
    billing payments alerting alerts
    """.split()
)
"""Words of product names, practices and settings ("React Testing Library", "Conventional
Commits", "Plain English", "Font Awesome") that are no one's name: a capitalized value
holding one is not a person."""

# A trailing version ("Redis 7", "Next.js 14", "Ubuntu 22.04 LTS") names the same thing.
TRAILING_VERSION = re.compile(r"\s+v?\d+(\.\d+)*(\s*lts)?$", re.IGNORECASE)


def categories_of_name(name: str) -> frozenset[str]:
    """The gazetteer's categories for one name exactly as listed (lowercase), else none.

    >>> sorted(categories_of_name("jekyll"))
    ['docs_generator']
    """
    return _CATEGORIES.get(name, frozenset())


@lru_cache(maxsize=16384)  # recall asks it of every candidate, for every question
def value_categories(value: str) -> frozenset[str]:
    """The categories of thing ``value`` names; empty when nothing says.

    >>> sorted(value_categories("GitHub Actions"))
    ['ci']
    >>> sorted(value_categories("Redis 7"))
    ['cache']
    >>> sorted(value_categories("Priya Raman"))
    ['person']
    >>> sorted(value_categories("eu-west-1"))
    ['region']
    >>> sorted(value_categories("make test"))
    []
    >>> sorted(value_categories("feat/invoice-pdf")), sorted(value_categories("fix/notes.md"))
    (['branch'], [])
    >>> sorted(value_categories("Grafana Loki")), sorted(value_categories("Ava Jenkins"))
    (['monitoring'], ['person'])
    """
    text = value.strip()
    low = fold_case_and_spacing(text)
    found = _CATEGORIES.get(low) or _CATEGORIES.get(TRAILING_VERSION.sub("", low))
    if found:
        return found
    for pattern, category in _PATTERNS:
        if pattern.match(low):
            return frozenset({category})
    words = low.split()
    products = _product_words(words)
    if products:
        return products
    if _PERSON.match(text) and words[0] not in VENDOR_WORDS and not THING_WORDS & set(words):
        return frozenset({"person"})
    return frozenset()


def _product_words(words: list[str]) -> frozenset[str]:
    # "Grafana Loki": every word a product the gazetteer lists, all of one kind, so a
    # vendor's product of that kind, not a person's name. Words of two kinds ("Ava
    # Jenkins": a test runner, a CI), a word nothing lists ("Jordan Lee") or places of one
    # kind ("Georgia Jordan": two countries) keep the person reading.
    if len(words) < 2:
        return frozenset()
    known = [_CATEGORIES.get(w, frozenset()) for w in words]
    shared = frozenset.intersection(*known)
    return frozenset() if shared & BROAD_CATEGORIES else shared


def categories_verdict(value: str, others: Iterable[str]) -> CategoryVerdict:
    """Whether ``value`` names the same category of thing as a slot's current ``others``.

    ``same_category``: some category of ``value`` is one of every other value's, and it is
    not only one of the BROAD_CATEGORIES (then ``same_broad_category``).
    ``different_category``: every value has a category and ``value`` shares none with
    any of them. ``unknown``: a value the gazetteer does not know, or nothing to compare.

    >>> categories_verdict("CircleCI", ["Jenkins"])
    'same_category'
    >>> categories_verdict("Lisbon", ["Priya Raman"])
    'different_category'
    >>> categories_verdict("Jonas Berg", ["Priya Raman"])
    'same_broad_category'
    >>> categories_verdict("Lisbon", ["make test"])
    'unknown'
    """
    mine = value_categories(value)
    theirs = [value_categories(o) for o in others]
    if not mine or not theirs or not all(theirs):
        return "unknown"
    if all(mine & t for t in theirs):
        specific = all((mine & t) - BROAD_CATEGORIES for t in theirs)
        return "same_category" if specific else "same_broad_category"
    if not any(mine & t for t in theirs):
        return "different_category"
    return "unknown"


def shared_categories(value: str, others: Iterable[str]) -> frozenset[str]:
    """The specific categories ``value`` shares with every one of ``others``.

    >>> sorted(shared_categories("Bitwarden", ["1Password"]))
    ['secrets']
    >>> sorted(shared_categories("Lisbon", ["Porto"]))
    []
    """
    found = value_categories(value) - BROAD_CATEGORIES
    for other in others:
        found &= value_categories(other)
    return found


def kinds_by_slot(
    categories: Mapping[str, frozenset[str]], slot_of: Mapping[str, str]
) -> dict[str, frozenset[str]]:
    """Each value's categories, or, for a value of no known category, its slot's usual ones.

    ``categories`` and ``slot_of`` are keyed alike (a fact): a value the gazetteer does not
    know ("Filipino", "St Leonards-on-Sea", an in-house tool) is of the kind the other
    values of its slot name are, the categories most of them hold. Without it, a question
    favours the fact whose value happens to be famous over the one its slot name answers.

    >>> kinds = kinds_by_slot(
    ...     {"a": frozenset({"language"}), "b": frozenset({"language"}), "c": frozenset()},
    ...     {"a": "original_language", "b": "original_language", "c": "original_language"},
    ... )
    >>> sorted(kinds["c"])
    ['language']
    """
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for key, found in categories.items():
        counts[slot_of[key]].update(found)
    out = dict(categories)
    for key, found in categories.items():
        usual = counts[slot_of[key]]
        if not found and usual:
            most = max(usual.values())
            out[key] = frozenset(c for c, n in usual.items() if n == most)
    return out
