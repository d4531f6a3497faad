"""The lexical half of slot-drift matching: are two predicate names one slot?

Embeddings catch most synonyms, but they are weak exactly where a merge would do the
most harm: two names that share almost every word yet mean different slots
(``deploy_target`` vs ``deploy_region``, ``owner`` vs ``previous_owner``). The rules
here settle those cases before any similarity is consulted, and settle abbreviations
(``db`` / ``database``) that a small model scores unevenly.

Everything here is pure: no model, no I/O, the similarity arrives as a number.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from twoclocks.domain.name_core import (
    GENERIC_HEADS,
    core_words,
    subject_words,
    without_the_subject,
    written_words,
)
from twoclocks.domain.name_quantities import (
    numbers_in,
    opposite_directions,
    same_but_for_units,
)
from twoclocks.domain.name_spellings import (
    abbreviates,
    join_compounds,
    spell_numeronyms,
    split_compounds,
)
from twoclocks.domain.name_verbs import (
    is_verb_phrase,
    same_verb_and_noun,
    share_a_word,
)
from twoclocks.domain.person_roles import SAME_ROLE, another_role
from twoclocks.domain.slot_names import (
    canonical_tokens,
    humanize_predicate,
    predicate_tokens,
)
from twoclocks.domain.slot_values import DECISION_WORDS
from twoclocks.domain.value_categories import VENDOR_WORDS, value_categories

LexicalVerdict = Literal["same", "different", "unknown"]

# Attribute nouns name a property of a thing rather than the thing: "db" vs "db_port".
_ATTRIBUTE_NOUNS = frozenset(
    {
        "version", "port", "host", "url", "command", "name", "user", "path", "key",
        "id", "count", "size", "limit", "timeout", "date", "time", "email", "image",
        "tag", "branch", "region", "zone", "address", "budget", "format", "level",
        "directory", "location", "schedule", "theme", "city", "country", "state", "font",
        "color", "file",
    }
)  # fmt: skip

# Attribute nouns a name often adds or drops while meaning the same slot:
# "deploy_command" / "deploy_script", "ssh_user" / "ssh_username", "formatter" /
# "format_tool". Their presence on one side only proves nothing.
_OPTIONAL_ATTRIBUTES = frozenset({"command", "user", "path", "format", "budget", "address", "time"})

# Ordinals: "first_reviewer" and "second_reviewer" are two slots, as "item_1" and "item_2".
_ORDINALS = frozenset(
    {
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
        "ninth", "tenth", "tertiary", "quaternary",
    }
)  # fmt: skip

# Attribute nouns that stand in for a neighbour: "db_host" / "db_address",
# "release_date" / "release_time", "test_directory" / "test_path",
# "backup_location" / "backup_directory". Swapping one for another proves nothing.
_LOOSE_ATTRIBUTES = frozenset({"address", "time", "path", "location", "file"})

# Qualifiers that split a slot in two when one name has one and the other does not:
# "owner" vs "previous_owner", "db" vs "db_port", "replicas" vs "max_replicas".
_ABSENCE_DISCRIMINATORS = (_ATTRIBUTE_NOUNS - _OPTIONAL_ATTRIBUTES) | frozenset(
    {
        # time and order
        "previous", "new", "next", "last", "first", "original", "legacy", "future",
        # where a person comes from, against where they are ("city" / "hometown")
        "native",
        # a negated preference ("least_favorite_food" is not "favorite_food")
        "least",
        # roles of one of several things
        "replica", "secondary", "standby", "backup", "fallback",
        # sides and directions
        "frontend", "backend", "source", "target", "upstream", "downstream",
        # bounds and ends
        "minimum", "maximum", "start", "end", "lower", "upper",
        # environments
        "production", "staging", "development", "qa", "preview", "local",
        # kinds of test
        "unit", "integration", "e2e", "smoke",
        # places and spheres of a person or a thing
        "home", "work", "office", "personal", "private", "public", "internal", "external",
        "remote", "cold", "hot", "soft", "hard",
        # what one of several stores, hosts or queues is for: "database" / "analytics_db",
        # "hosting" / "staging_host", "queue" / "dead_letter_queue", "region" / "dr_region"
        "analytics", "reporting", "warehouse", "test", "testing", "dr", "disaster", "api",
        "admin", "metric", "cdn", "dead", "letter", "dlq", "job", "audit", "archive",
        "session", "search", "status", "health", "management", "example", "sample",
        "template", "sandbox", "demo", "shadow", "mirror", "batch", "stream", "worker",
        "marketing", "landing", "blog", "docs", "documentation", "nightly", "release",
        "feature", "support",
        # platforms and audiences one role serves of several ("ci" / "ios_ci", "terminal"
        # / "windows_terminal", "chat" / "community_chat", "oncall_tool" / "weekend_...")
        "ios", "android", "mobile", "web", "desktop", "macos", "windows", "linux",
        "weekend", "weekday", "community",
    }
    | _ORDINALS
)  # fmt: skip

# Whose one of several things is: a person's password manager is not their team's. Words of
# the subject's own name restate it ("team_standup" of the team is its standup).
_OWNERS = frozenset({"team", "shared", "company", "org", "organization"})

# Side words are qualifiers only before a noun; see _qualifiers.
_SIDE_WORDS = frozenset({"frontend", "backend"})

# Tokens that never stand for one another: when each name has a different one of these
# ("test_command" vs "build_command", "log_level" vs "log_format"), the slots differ.
_SWAP_DISCRIMINATORS = (
    _ABSENCE_DISCRIMINATORS
    | (_ATTRIBUTE_NOUNS - _LOOSE_ATTRIBUTES)
    | frozenset(
        {
            # activities a project runs
            "build", "test", "lint", "format", "install", "deployment", "release", "run",
            "serve", "migrate", "seed", "typecheck", "benchmark", "compile", "publish",
            "clean", "watch",
            # platforms and clients
            "mobile", "web", "desktop", "client", "server", "ios", "android",
            # data flow
            "input", "output", "read", "write", "inbound", "outbound", "request",
            "response", "fork", "origin",
            # stages of data, and kinds of capacity one pays for differently
            "raw", "curated", "processed", "enriched", "spot", "demand", "preemptible",
            "reserved",
            # periods
            "hourly", "daily", "weekly", "monthly", "quarterly", "yearly",
            # pipelines
            "ci", "cd", "primary",
            # the present, against every other time ("current_owner" / "previous_owner")
            "current",
            # likes and rules, and halves of the day
            "allowed", "forbidden", "blocked", "denied", "preferred", "avoided", "liked",
            "disliked", "favorite", "day", "night", "weekday", "weekend", "morning", "evening",
            # who you are against what you may do (authn / authz)
            "authentication", "authorization",
            # opposites
            "ingress", "egress", "open", "closed", "enabled", "disabled", "included",
            "excluded", "allow", "deny", "accept", "reject", "approved", "rejected",
            "required", "optional", "success", "failure", "pass", "fail", "before", "after",
            "pre", "post", "light", "dark", "push", "pull", "import", "export", "encrypt",
            "decrypt", "active", "inactive", "online", "offline", "top", "bottom", "left",
            "right", "front", "back", "head", "tail", "old", "young", "past", "blocks", "block",
            # kinds of problem that live in different tools
            "error", "issue",
            # more contrasting modifiers in general use (issue 11)
            "from", "to", "into", "sandbox", "live", "canary", "stable", "beta", "alpha",
            "passive", "leader", "follower", "producer", "consumer", "publisher", "subscriber",
            "author", "reviewer", "assignee", "reporter", "approver", "requester", "recipient",
            "mentor", "mentee", "buyer", "seller", "width", "height", "horizontal", "vertical",
            "low", "high", "short", "long", "small", "large", "medium", "fast", "slow", "warm",
            "inner", "outer", "close", "entry", "exit", "include", "exclude", "allowlist",
            "denylist", "blocklist", "whitelist", "blacklist", "add", "remove", "create",
            "delete", "get", "set", "sync", "async", "base", "compare", "average", "median",
            "mean", "peak", "total", "cpu", "memory", "disk", "gpu", "bandwidth", "eu", "us",
            "apac", "emea", "europe", "asia", "america", "macos", "windows", "linux", "uat",
            "demo", "afternoon", "breakfast", "lunch", "dinner", "mother", "father", "sent",
            "received", "free", "paid", "trial",
            # roles in an exchange
            "sender", "receiver", "parent", "child", "major", "minor", "incoming", "outgoing",
            # more antonym pairs in general use, written before the tune split was read
            # (quality, fourth round): each side of a pair is its own slot
            "opening", "closing", "reader", "writer", "put", "business", "professional",
            "floor", "ceiling", "lowest", "highest", "upload", "download", "uplink", "downlink",
            "send", "receive", "inbox", "outbox", "debug", "guest", "employee", "teacher",
            "student", "landlord", "tenant", "husband", "wife", "son", "daughter", "brother",
            "sister", "customer", "supplier", "caller", "callee", "winner", "loser", "gross",
            "net", "income", "expense", "debit", "credit", "revenue", "profit", "loss",
            "birth", "native", "death", "born", "died", "arrival", "departure", "shutdown", "stop",
            "enable", "disable", "compress", "decompress", "encode", "decode", "serialize",
            "deserialize", "uppercase", "lowercase", "north", "south", "east", "west", "cheap",
            "expensive", "inside", "outside", "http", "https", "tcp", "udp", "patch", "header",
            "footer", "prefix", "suffix", "row", "column", "noon", "midnight", "summer",
            "winter", "autumn", "forward", "reverse", "backward", "blue", "green", "ascending",
            "descending", "increase", "decrease", "even", "odd", "spoken", "written",
            "landline", "login", "logout", "signin", "signout", "signup", "big", "wide",
            "narrow", "thin", "thick", "heavy", "full", "partial", "incremental", "away",
            "like", "dislike", "approve", "omit", "grant", "revoke", "plaintext", "manual",
            "automatic", "scheduled", "warning", "critical", "runtime", "worst", "best",
            "indoor", "outdoor", "expected", "actual", "planned", "estimated", "baseline",
            "publishable", "secret", "subsidiary",
            # roles in an organisation: one person often holds several ("chair" and
            # "chairman" are spelt "chairperson" by the lexicon, "chief executive officer"
            # is read as "ceo")
            "founder", "chairperson", "ceo", "cto", "cfo", "coo",
        }
    )
)  # fmt: skip


# Canonical words that say which one a person or team chose, not which of several things:
# a person's "preferred_editor" is their editor ("favorite", "default" and "main" are
# spelt "preferred" and "primary" by then). Not "current" (the one now, beside the one
# wanted: "current_node_version" / "preferred_node_version") nor "official".
_CHOSEN = frozenset({"primary", "preferred", "usual"})


# Asked of each new name against each of its subject's slots, and again of every pair each
# time the close-slots list is drawn (the web panel redraws it after each merge).
@lru_cache(maxsize=65536)  # 45,000 pairs measured about 10 MB
def lexical_verdict(a: str, b: str, subject: str = "", loose: bool = True) -> LexicalVerdict:
    """Say whether two predicate names are the same slot, different slots, or unclear.

    "same": equal once humanized, or equal after plurals and abbreviations are made
    canonical (db/database, env/environment, repo/repository, deploy/deployment,
    config/configuration, ...), or equal once the spaces are gone (on_call/oncall), or
    equal once a generic head noun is dropped (ci_tool/ci_provider/ci_platform).

    "different" also: the names hold different numbers (item_1/item_2), or the two ends
    of a move (moved_from/moved_to). "same" also: one quantity in two units
    (timeout_seconds/timeout_ms).

    "different": one name carries a discriminating qualifier the other lacks
    (previous, primary, replica, frontend, min, max, start, end, region, port, url,
    version, count, ...); or each carries a different discriminating word (test vs
    build, primary vs replica, ci vs cd); or both share an attribute noun but qualify
    it with different words (python_version vs node_version).

    "different" also: one name is the other's person role with a word before it
    ("owner" / "product_owner", "lead" / "design_lead"), unless that word is the
    ``subject``'s own ("lead" / "security_lead" of the security team).

    "unknown": everything else; the embedding decides.

    ``loose`` False reads the names without the lexicon's loose readings (a wiki as
    documentation; see ``same_only_by_a_loose_reading``).

    >>> lexical_verdict("db_engine", "database_engine")
    'same'
    >>> lexical_verdict("deploy_target", "deploymentTarget")
    'same'
    >>> lexical_verdict("on_call", "oncall")
    'same'
    >>> lexical_verdict("deploy_target", "deploy_region")
    'different'
    >>> lexical_verdict("owner", "previous_owner")
    'different'
    >>> lexical_verdict("primary_db", "replica_db")
    'different'
    >>> lexical_verdict("frontend_port", "backend_port")
    'different'
    >>> lexical_verdict("test_command", "build_command")
    'different'
    >>> lexical_verdict("ci_provider", "ci_platform")
    'same'
    >>> lexical_verdict("item_1", "item_2")
    'different'
    >>> lexical_verdict("i18n_library", "internationalization_library")
    'same'
    >>> lexical_verdict("home_city", "work_city")
    'different'
    >>> lexical_verdict("search_engine", "search_backend")
    'unknown'
    >>> lexical_verdict("dbname", "database_name")
    'same'
    >>> lexical_verdict("timeout_seconds", "timeout_ms")
    'same'
    >>> lexical_verdict("moved_from", "moved_to")
    'different'
    >>> lexical_verdict("default_model", "preferred_LLM")
    'same'
    >>> lexical_verdict("database", "db_decision")
    'different'
    """
    raw_a, raw_b = predicate_tokens(a), predicate_tokens(b)
    if raw_a == raw_b or "".join(raw_a) == "".join(raw_b):
        return "same"
    # Numeronyms are spelt out first, against the words as written: "o11y" meets
    # "observability" before the lexicon makes that "monitoring".
    spelt_a, spelt_b = spell_numeronyms(raw_a, raw_b), spell_numeronyms(raw_b, raw_a)
    canon_a = canonical_tokens("_".join(spelt_a), loose)
    canon_b = canonical_tokens("_".join(spelt_b), loose)
    canon_a, canon_b = (
        split_compounds(canon_a, set(canon_b), _ABSENCE_DISCRIMINATORS, loose),
        split_compounds(canon_b, set(canon_a), _ABSENCE_DISCRIMINATORS, loose),
    )
    canon_a, canon_b = (
        join_compounds(canon_a, set(canon_b)),
        join_compounds(canon_b, set(canon_a)),
    )
    if canon_a == canon_b or "".join(canon_a) == "".join(canon_b):
        return "same"
    if bool(DECISION_WORDS & set(canon_a)) != bool(DECISION_WORDS & set(canon_b)):
        # "database" / "db_decision": the decision about it is not the thing. A "rule" or a
        # "policy" is no such word: "retention_policy" is the retention.
        return "different"
    if numbers_in(canon_a) != numbers_in(canon_b):
        return "different"
    if opposite_directions(canon_a, canon_b):
        return "different"
    if same_but_for_units(canon_a, canon_b):
        return "same"
    bare_a, bare_b = core_words(canon_a), core_words(canon_b)
    if bare_a == bare_b or "".join(bare_a) == "".join(bare_b) or abbreviates(bare_a, bare_b):
        return "same"
    if subject and without_the_subject(bare_a, subject) == without_the_subject(bare_b, subject):
        return "same"  # "billing_api_port" of billing-api is its "port"
    if (is_verb_phrase(canon_a) or is_verb_phrase(canon_b)) and same_verb_and_noun(bare_a, bare_b):
        return "same"

    set_a, set_b = set(canon_a), set(canon_b)
    if set_a & _CHOSEN and set_b & _CHOSEN and set_a - _CHOSEN == set_b - _CHOSEN:
        return "same"  # "preferred_model" / "default_model": two words for the one chosen
    only_a = _qualifiers(canon_a) - set_b
    only_b = _qualifiers(canon_b) - set_a
    # A qualifier qualifies something both names share ("db" / "db_url"); between names
    # with no word in common ("url" / "endpoint", "font" / "typeface") it is only a
    # different word, and the embedding decides.
    if (only_a | only_b) & _ABSENCE_DISCRIMINATORS and share_a_word(bare_a, bare_b):
        return "different"
    own = subject_words(subject)
    if (only_a | only_b) & (_OWNERS - own) and share_a_word(bare_a, bare_b):
        return "different"
    if only_a & _SWAP_DISCRIMINATORS and only_b & _SWAP_DISCRIMINATORS:
        return "different"
    if (set_a - set_b) and (set_b - set_a) and set_a & set_b & _ATTRIBUTE_NOUNS:
        return "different"
    if _two_kinds_of_one_head(bare_a, bare_b):
        return "different"
    if another_role(bare_a, bare_b, own) or another_role(bare_b, bare_a, own):
        return "different"
    return "unknown"


def says_which_one(name: str) -> bool:
    """True when a name carries a word that says which one of several things it is.

    >>> says_which_one("staging_cloud"), says_which_one("docs_hosting")
    (True, True)
    >>> says_which_one("cloud_provider"), says_which_one("hosting")
    (False, False)
    """
    return bool(set(canonical_tokens(name)) & _ABSENCE_DISCRIMINATORS)


def same_only_by_a_loose_reading(a: str, b: str, subject: str = "") -> bool:
    """True when two names are one slot only through a loose reading of the lexicon's.

    "wiki_tool" / "documentation_tool" are one slot when the wiki is where the docs live,
    two when the team wiki sits beside a docs site: the values decide (the matcher asks
    their categories). Spellings and abbreviations ("db" / "database") are not loose.

    >>> same_only_by_a_loose_reading("wiki_tool", "documentation_tool")
    True
    >>> same_only_by_a_loose_reading("db_engine", "database_engine")
    False
    """
    return (
        lexical_verdict(a, b, subject) == "same"
        and lexical_verdict(a, b, subject, loose=False) != "same"
    )


@lru_cache(maxsize=65536)
def narrowed_by_a_qualifier(a: str, b: str, subject: str = "") -> bool:
    """True when one name is the other with a word added that says which one of several.

    "timeout" / "idle_timeout", "theme" / "terminal_theme", "bucket" / "logs_bucket": the
    added word narrows the slot to one thing that holds its own value beside the other's.
    Words that restate (primary, default, preferred), generic heads (tool, provider,
    library), the ``subject``'s own words ("port" / "billing_api_port" of billing-api)
    and a namespace leading a dotted key ("datasource.url" / "spring.datasource.url": a
    product the gazetteer knows, or a settings file's section such as ``config.``)
    narrow nothing. The matcher lets two things of one category overrule it
    (``static_type_checker`` mypy, then ``type_checker`` Pyright): the values say which.

    >>> narrowed_by_a_qualifier("timeout", "idle_timeout")
    True
    >>> narrowed_by_a_qualifier("pronouns", "preferred_pronouns")
    False
    """
    own = subject_words(subject)
    written_a, written_b = written_words(a), written_words(b)
    return _narrowed(a, written_a, written_b, own) or _narrowed(b, written_b, written_a, own)


# Words a name adds to another's without naming another slot: "standup" / "standup_time",
# "ci" / "ci_platform". Any other added word says which one ("queue" / "task_queue").
_LOOSE_ADDITIONS = _OPTIONAL_ATTRIBUTES | GENERIC_HEADS
# ...and, in the lexicon's words, the one a person chose ("editor" / "preferred editor").
_WORDING_ADDITIONS = _LOOSE_ADDITIONS | _CHOSEN


def lexicon_wording(a: str, b: str) -> tuple[str, str] | None:
    """Two names in the lexicon's canonical words, for the embedding to compare too.

    The embedding reads a name as written, so synonyms the lexicon knows score low
    ("daily sync" / "standup time": 0.14). In canonical words they score as the lexicon
    means them. Not when one name is the other with a qualifier added: "queue" (a
    broker) / "task queue" are two roles, and the written words keep them further apart.
    None also when the canonical words are the written ones (nothing to add).

    >>> lexicon_wording("daily_sync", "standup_time")
    ('daily sync', 'daily sync time')
    >>> lexicon_wording("broker", "task_queue") is None
    True
    >>> lexicon_wording("editor", "preferred_IDE")
    ('editor', 'preferred editor')
    """
    canon_a, canon_b = canonical_tokens(a), canonical_tokens(b)
    if canon_a == predicate_tokens(a) and canon_b == predicate_tokens(b):
        return None
    set_a, set_b = set(canon_a), set(canon_b)
    for fewer, more in ((set_a, set_b), (set_b, set_a)):
        if fewer < more and not (more - fewer) <= _WORDING_ADDITIONS:
            return None
    return " ".join(canon_a), " ".join(canon_b)


def name_used(predicate: str, written_as: str | None) -> str | None:
    """The name a value was written under, when it says more than its slot's name does.

    A value filed under another name by slot drift or a merge may lean on the name it was
    given: "45000" written as ``timeout_ms`` under ``timeout_seconds``. Spellings of one
    name and generic heads (``deploymentTarget``, ``ci_platform`` for ``ci_provider``) say
    nothing more.

    >>> name_used("timeout_seconds", "timeout_ms")
    'timeout ms'
    >>> name_used("deploy_target", "deploymentTarget"), name_used("ci_provider", "ci_platform")
    (None, None)
    """
    if not written_as:
        return None
    if core_words(canonical_tokens(written_as)) == core_words(canonical_tokens(predicate)):
        return None
    return humanize_predicate(written_as)


# Words a name may add to another's and still name the same thing: the main one, the one
# now, the one a person chose ("pronouns" / "preferred_pronouns"), as written (so
# "favorite" too, which the lexicon spells "preferred").
_RESTATING = SAME_ROLE | _WORDING_ADDITIONS | {
    "favorite", "library", "framework", "server", "engine",
}  # fmt: skip


def _narrowed(written: str, longer: list[str], shorter: list[str], own: frozenset[str]) -> bool:
    """``narrowed_by_a_qualifier`` one way: ``longer`` (spelt ``written``) over ``shorter``."""
    if not shorter or len(longer) <= len(shorter) or not set(shorter) <= set(longer):
        return False
    # An attribute a name may add or drop ("ssh" / "ssh_user") restates only as its last
    # word: inside a name it says which one ("cache.ttl" / "cache.user.ttl").
    inside = {w for w in longer[:-1] if w in _OPTIONAL_ATTRIBUTES and w != longer[-1]}
    added = set(longer) - set(shorter) - (_RESTATING - inside) - own - VENDOR_WORDS
    head = written.split(".", 1)[0] if "." in written else ""
    if head and (head.lower() in _NAMESPACES or value_categories(head)):
        added -= set(written_words(head))
    return bool(added)


# Leading segments of a dotted key that only say whose settings file it is: a tool's own
# ("spring.", "terraform.", "tool.black.", any product the gazetteer knows) or a file's
# sections ("config.", "app."). Any other leading segment says which one
# ("webhook.retry.max_attempts" is not "retry.max_attempts").
_NAMESPACES = frozenset(
    {
        "config", "configuration", "settings", "app", "application", "tool", "tools", "server",
        "project", "global", "default", "defaults", "env", "environment", "core", "common",
        "main", "site", "system",
    }
)  # fmt: skip


def _two_kinds_of_one_head(a: list[str], b: list[str]) -> bool:
    """True when both names qualify one head noun, each with a word the other lacks.

    "page_cache" / "sessionCache", "interactive shell" / "script_shell", "web_analytics" /
    "product analytics": two kinds of the head, two slots. Synonymous qualifiers are one
    word by then (the lexicon runs first: "docker_registry" / "container_registry").
    """
    return bool(a and b and a[-1] == b[-1] and set(a) - set(b) and set(b) - set(a))


def _qualifiers(tokens: list[str]) -> set[str]:
    # As the last word, "backend" / "frontend" name an implementation ("search_backend",
    # "cache_backend"), not a side of an application, so they discriminate nothing there.
    words = set(tokens)
    if tokens and tokens[-1] in _SIDE_WORDS and tokens.count(tokens[-1]) == 1:
        words.discard(tokens[-1])
    return words
