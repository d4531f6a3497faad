"""What kind of value a question asks for, and whether a fact's value is of that kind.

"Who owns billing-api?" wants a person, "when is standup?" a time, "how many replicas?"
a number, "which Node version?" a version. A fact of billing-api whose value is a port
number does not answer the first, however close its words are. The kind of a fact is
read from its predicate's words (``owner``, ``standup_time``, ``max_replicas``) and the
shape of its value (``09:45``, ``Node 20``, ``12``). Pure: words in, a kind out.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import lru_cache

from twoclocks.domain.calendar_words import MONTH_STEM_PATTERN
from twoclocks.domain.slot_names import canonical_tokens, predicate_tokens
from twoclocks.domain.slot_values import DECISION_WORDS, value_kind


class AnswerKind(StrEnum):
    """The kinds of value a question's form asks for."""

    PERSON = "person"
    TIME = "time"
    NUMBER = "number"
    VERSION = "version"
    TASK = "task"
    REASON = "reason"
    RULE = "rule"


_WORD = re.compile(r"[a-z0-9]+")

# Predicate words that say the slot holds a kind of value, whatever the value looks like.
_PERSON_WORDS = frozenset(
    """
    owner manager lead engineer maintainer contact author assignee reviewer approver
    person champion pm boss sponsor steward responsible
    """.split()
)
_TIME_WORDS = frozenset(
    """
    time day date hour hours schedule cadence deadline window weekday when
    """.split()
)
_NUMBER_WORDS = frozenset(
    """
    count size number replicas replica attempts approvals partitions minutes seconds
    days hours weeks length timeout limit lifetime retention port percent percentage
    coverage budget threshold total workers
    """.split()
)
_VERSION_WORDS = frozenset({"version", "sdk"})
# What a person is busy with: "current_task", "current_focus", "in_progress", "todo".
# "working" alone is not ("working_hours"); "working_on" is.
_TASK_WORDS = frozenset({"task", "tasks", "focus", "progress", "todo", "wip", "doing"})
_TASK_PAIRS = (frozenset({"working", "on"}), frozenset({"current", "ticket"}))
# "What am I working on?", "what is Ana focused on?", "what's in progress?": the form
# asks for a piece of work, not a tool or a place.
_ASKS_FOR_WORK = re.compile(
    r"\b(working on|focus(ed|ing)? on|in progress|busy with|doing|pending|to-?do|left to do"
    r"|open (items?|tasks?|work)|next (thing|task|step)s?)\b"
)
# "Why did we move off FreeRTOS?", "what was the reasoning behind ...": the answer is a
# reason, which a decision states ("chose Zephyr over FreeRTOS: ..."), not the choice alone.
_ASKS_FOR_REASON = re.compile(r"\b(why|reasons?|reasoning|rationale)\b")
_REASON_WORDS = DECISION_WORDS | {"because", "choice"}
_GIVES_A_REASON = re.compile(r"\b(because|so that|due to|in order to|to avoid|instead of)\b")
# "Can I deploy on a Friday?", "is that ok?", "anything I should know about reviews?",
# "what convention do we follow ...": the answer is a rule the team keeps.
_ASKS_FOR_RULE = re.compile(
    r"\b(is (that|it|this) (ok|okay|fine|allowed)|allowed|may i|can i|can we"
    r"|anything (i should|i need to|to) (know|remember|keep in mind)"
    r"|conventions?|polic(y|ies)|rules?|guidelines?)\b"
)
_RULE_WORDS = frozenset(
    "rule rules policy convention conventions guideline guidelines freeze protection".split()
)
# "never", "always" and "must" say a rule anywhere; "no", "only" and "don't" only first.
_STATES_A_RULE = re.compile(
    r"^(no|don't|do not|only)\b|\b(must|never|always|not allowed|forbidden)\b"
)


def states_a_rule(value: str) -> bool:
    """Whether a value's words state a rule ("never merge on Friday", "no headings").

    >>> states_a_rule("Never merge on Friday"), states_a_rule("09:30")
    (True, False)
    """
    return _STATES_A_RULE.search(value.lower()) is not None


# Verbs of a service a vendor provides: "who processes our card payments?" asks for a
# company or product (Stripe), not a person, though it starts with "who".
_PROVIDER_VERBS = frozenset(
    """
    processes handles hosts provides supplies issues delivers sends powers serves bills
    stores registers resolves
    """.split()
)

_QUESTION_WORDS = frozenset("who whom whose when where what which how why".split())
_WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday daily weekly nightly hourly".split()
)
_CLOCK_TIME = re.compile(r"\b\d{1,2}:\d{2}\b")
_LEADING_NUMBER = re.compile(r"^\s*\d[\d.,]*\s*(%|[a-z]{0,8})\b", re.IGNORECASE)
# A span of time anywhere in a value: "branches are merged within 2 days" answers "how
# long can a branch live?" though it does not start with the number.
_DURATION = re.compile(
    r"\b\d+(\.\d+)?\s*(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|"
    r"days?|weeks?|months?|years?)\b",
    re.IGNORECASE,
)
_VERSIONED = re.compile(r"\d+(\.\d+)*")
# "May" only capitalized: "may 2 people join" is no date.
_MONTH = rf"(?:(?!(?i:may))(?i:{MONTH_STEM_PATTERN})[a-z]*\.?|May)"
# A calendar date anywhere in a value: "2026-12-10", "March 3, 2027", "20 Dec". A freeze
# "2026-12-18 to 2027-01-04" is a time, not the number 2026; "Jan 15" is no version.
_DATE = re.compile(
    rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b{_MONTH}\s+\d{{1,2}}(st|nd|rd|th)?\b"
    rf"|\b\d{{1,2}}(st|nd|rd|th)?\s+{_MONTH}(\s|$|,)",
)


def asked_kind(question: str) -> AnswerKind | None:
    """The kind of value a question's wording asks for, None when its form does not say.

    >>> asked_kind("who owns ingest?")
    <AnswerKind.PERSON: 'person'>
    >>> asked_kind("what time is the standup?")
    <AnswerKind.TIME: 'time'>
    >>> asked_kind("how many replicas does billing-api need?")
    <AnswerKind.NUMBER: 'number'>
    >>> asked_kind("which Node version does web-app run on?")
    <AnswerKind.VERSION: 'version'>
    >>> asked_kind("which CI do we use?") is None
    True
    >>> asked_kind("who processes our card payments?") is None
    True
    >>> asked_kind("what am I working on right now?")
    <AnswerKind.TASK: 'task'>
    >>> asked_kind("who is working on billing?")
    <AnswerKind.PERSON: 'person'>
    >>> asked_kind("why did we move the firmware off FreeRTOS?")
    <AnswerKind.REASON: 'reason'>
    >>> asked_kind("can I deploy to production on a Friday?")
    <AnswerKind.RULE: 'rule'>
    >>> asked_kind("firmware open items?")
    <AnswerKind.TASK: 'task'>
    >>> asked_kind("how long are our sprints?"), asked_kind("how long have we been on Flutter?")
    (<AnswerKind.NUMBER: 'number'>, None)
    """
    words = _WORD.findall(question.lower())
    # The first question word decides: in "where do I go when I work on site?" the
    # "when" is a conjunction.
    wh = next((i for i, w in enumerate(words) if w in _QUESTION_WORDS), None)
    if wh is None or words[wh] in ("what", "which", "why"):
        # Before "version": "what convention do we follow for a new version line?"
        text = " ".join(words[wh or 0 :])
        for asks, kind in _PHRASED_KINDS:
            if asks.search(text):
                return kind
    if "version" in words or "versions" in words:
        return AnswerKind.VERSION
    if wh is None:
        return None
    first, after = words[wh], words[wh + 1 : wh + 3]
    if first == "who" and after[:1] and after[0] in _PROVIDER_VERBS:
        return None  # a vendor as often as a person: the form does not say
    if first in ("who", "whom", "whose"):
        return AnswerKind.PERSON
    if after[:2] in (["long", "have"], ["long", "has"], ["long", "had"]):
        return None  # "how long have we been on Flutter?": since when, which the window says
    if first == "how" and after[:1] and after[0] in ("many", "much", "long"):
        return AnswerKind.NUMBER
    if first == "when" or (first == "how" and after[:1] == ["often"]):
        return AnswerKind.TIME
    if first in ("what", "which") and after[:1] and after[0] in ("time", "day", "hour", "days"):
        return None if after[1:] == ["zone"] else AnswerKind.TIME
    return None


_PHRASED_KINDS = (
    (_ASKS_FOR_REASON, AnswerKind.REASON),
    (_ASKS_FOR_WORK, AnswerKind.TASK),
    (_ASKS_FOR_RULE, AnswerKind.RULE),
)
"""Kinds a phrase asks for where no question word says one (``what``, ``which``, ``why``,
or none): "what's pending for ingest?", "firmware open items?"."""


_YES_NO = re.compile(
    r"^\s*(am|are|is|do|does|did|can|could|should|will|would|have|has|was|were)\b", re.I
)
# "npm or yarn for the dashboard?": a choice between named things, asked without a verb.
_EITHER_OR = re.compile(
    r"^\s*(?!(?:who|what|when|where|which|why|how)\b)[\w.+#-]+(?:\s+[\w.+#-]+)?\s+or\s+\w",
    re.I,
)


def names_values_to_check(question: str) -> bool:
    """True for a question that names the values to check: one a yes or a no answers
    ("are we an AWS shop?", "am I on Linux?") or a choice between the things it names
    ("npm or yarn for the dashboard?").

    Such a question names a value to check ("AWS", "Linux", "npm"), and the fact that
    answers it is the one whose slot holds a thing of that kind, whatever its words.

    >>> names_values_to_check("are we an AWS shop?")
    True
    >>> names_values_to_check("which cloud do we use?")
    False
    >>> names_values_to_check("poetry or something else for ingest?")
    True
    >>> names_values_to_check("what or who decides the release day?")
    False
    """
    return bool(_YES_NO.match(question) or _EITHER_OR.match(question))


@lru_cache(maxsize=4096)  # a fact is scored for many questions
def value_kinds(predicate: str, value: str) -> frozenset[AnswerKind]:
    """The kinds a fact's value is, from its predicate's words and its value's shape.

    >>> sorted(value_kinds("owner", "Mei Chen"))
    [<AnswerKind.PERSON: 'person'>]
    >>> sorted(value_kinds("standup_time", "09:45 Lisbon time"))
    [<AnswerKind.TIME: 'time'>]
    >>> sorted(value_kinds("max_replicas", "10"))
    [<AnswerKind.NUMBER: 'number'>]
    >>> sorted(value_kinds("language", "Go 1.22"))
    [<AnswerKind.VERSION: 'version'>]
    >>> sorted(value_kinds("working_on", "the refunds webhook"))
    [<AnswerKind.TASK: 'task'>]
    >>> AnswerKind.TASK in value_kinds("working_hours", "09:00-17:30")
    False
    >>> sorted(value_kinds("code_freeze", "2026-12-18 to 2027-01-04"))
    [<AnswerKind.RULE: 'rule'>, <AnswerKind.TIME: 'time'>]
    >>> sorted(value_kinds("next_milestone", "holiday load test on 2026-12-10"))
    [<AnswerKind.TIME: 'time'>]
    """
    # As written and canonical: the drift lexicon may rewrite a word ("on_call").
    words = set(predicate_tokens(predicate)) | set(canonical_tokens(predicate))
    text = value.lower()
    kinds: set[AnswerKind] = set()
    if words & _PERSON_WORDS:
        kinds.add(AnswerKind.PERSON)
    dated = _DATE.search(value) is not None
    if (
        words & _TIME_WORDS
        or dated
        or _CLOCK_TIME.search(text)
        or _WEEKDAYS & set(_WORD.findall(text))
    ):
        kinds.add(AnswerKind.TIME)
    if (
        words & _NUMBER_WORDS
        or (_LEADING_NUMBER.match(text) and not _CLOCK_TIME.match(text) and not dated)
        or _DURATION.search(text)
    ):
        kinds.add(AnswerKind.NUMBER)
    if words & _VERSION_WORDS or (
        _VERSIONED.search(text)
        and not _LEADING_NUMBER.match(text)
        and len(text) <= 24
        and not dated
    ):
        kinds.add(AnswerKind.VERSION)
    if words & _TASK_WORDS or any(pair <= words for pair in _TASK_PAIRS):
        kinds.add(AnswerKind.TASK)
    if words & _REASON_WORDS or value_kind(value) == "decision" or _GIVES_A_REASON.search(text):
        kinds.add(AnswerKind.REASON)
    if words & _RULE_WORDS or _STATES_A_RULE.search(text):
        kinds.add(AnswerKind.RULE)
    if AnswerKind.NUMBER in kinds and _VERSIONED.fullmatch(text.strip()) and "." in text:
        kinds.add(AnswerKind.VERSION)  # "3.12", "1.30": a bare version number
    return frozenset(kinds)


def kind_agreement(asked: AnswerKind | None, predicate: str, value: str) -> float:
    """1 when the fact's value is the kind the question asks for, 0 otherwise or unasked."""
    if asked is None:
        return 0.0
    return 1.0 if asked in value_kinds(predicate, value) else 0.0
