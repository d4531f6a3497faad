"""Cross-project recall quality (issue 17) on the labelled set in tests/data.

    .venv/bin/python bench/cross_project.py [--split heldout] [--store embedded|bolt://...]

Loads tests/data/recall_facts.jsonl through ``MemoryService.remember`` as the person (each
fact's history first, oldest first, then its current value; every write asserted), a fact
with a ``repo`` written from that repo's checkout (a real ``git init`` with an origin in a
temp dir, no spaces file: every checkout shares the implicit space), the others with no
working directory (unplaced). Then asks every question of tests/data/cross_project.jsonl of
the chosen split from its ``from_repo`` checkout with scope ``wide`` (and, for comparison,
``here``) through ``RecallService.recall`` with the real MiniLM embedder, and reports:

* hit@1: the first fact returned is one of the expected facts (answerable questions);
* all@5: every expected fact is among the first five (answerable questions);
* for ``none`` questions, how many returned nothing (recall has no threshold: usually 0).

Nothing here is tuned on the heldout split: it only measures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

from twoclocks import bootstrap
from twoclocks.domain.scope import Scope
from twoclocks.domain.trust import Writer
from twoclocks.service.recall_requests import RecallRequest
from twoclocks.service.requests import Caller, RememberRequest

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def load(name: str) -> list[dict[str, Any]]:
    """One JSONL file of the labelled set."""
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


def checkout(root: Path, repo: str) -> Path:
    """A real git checkout of ``repo`` with an origin, as a person's clone would be."""
    path = root / repo
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    subprocess.run(
        ["git", "-C", str(path), "remote", "add", "origin", f"git@github.com:acme/{repo}.git"],
        check=True,
    )
    return path


async def run(split: str, store: str) -> dict[str, Any]:
    """Load the facts, ask the questions, return the figures."""
    facts, questions = load("recall_facts.jsonl"), load("cross_project.jsonl")
    questions = [q for q in questions if q["split"] == split]
    with tempfile.TemporaryDirectory(prefix="xproj") as tmp:
        root = Path(tmp)
        repos = {f["repo"] for f in facts if f.get("repo")} | {q["from_repo"] for q in questions}
        where = {repo: checkout(root / "code", repo) for repo in sorted(repos)}
        settings = bootstrap.load_settings(data_dir=root / "data", store=store)
        runtime = await bootstrap.start_runtime(settings)
        try:
            account = f"x{uuid.uuid4().hex[:12]}"
            await runtime.accounts.create(account)
            person = Caller(account=account, writer=Writer.PERSON)
            ids: dict[str, str] = {}
            for f in facts:
                cwd = str(where[f["repo"]]) if f.get("repo") else None
                versions = [*f["history"], {"object": f["object"], "valid_at": f["valid_at"]}]
                for v in versions:
                    said = f"{f['subject']} {f['predicate']}: {v['object']}"
                    fields = {
                        "subject": f["subject"],
                        "predicate": f["predicate"],
                        "object": v["object"],
                        "valid_at": v["valid_at"],
                        "class": f.get("class"),
                        "tier": "asserted",
                        "evidence": said,
                        "cwd": cwd,
                    }
                    req = RememberRequest.model_validate(fields)
                    done = await runtime.service.remember(person, req)
                ids[done.fact_id] = f["id"]
            repo_of = {f["id"]: f.get("repo") for f in facts}
            return {
                scope.value: await ask(runtime, person, questions, where, ids, scope, repo_of)
                for scope in (Scope.WIDE, Scope.HERE)
            }
        finally:
            await runtime.close()


async def ask(
    runtime: bootstrap.Runtime,
    person: Caller,
    questions: list[dict[str, Any]],
    where: dict[str, Path],
    ids: dict[str, str],
    scope: Scope,
    repo_of: dict[str, str | None],
) -> dict[str, Any]:
    """Every question in one scope: hit@1, all@5, the misses, and how often ``elsewhere``
    pointed at other projects (``here``), against how many questions expect a fact there."""
    hit1 = all5 = answerable = empty_none = nones = 0
    pointed = pointed_rightly = expect_away = 0
    misses: list[str] = []
    for q in questions:
        req = RecallRequest(query=q["question"], k=5, cwd=str(where[q["from_repo"]]), scope=scope)
        answer = await runtime.recall.recall(person, req)
        got = [ids.get(f.fact_id, "?") for f in answer.facts]
        away = any(repo_of.get(e) not in (None, q["from_repo"]) for e in q["expect"])
        expect_away += away
        pointed += answer.elsewhere is not None
        pointed_rightly += answer.elsewhere is not None and away
        if not q["expect"]:
            nones += 1
            empty_none += not got
            continue
        answerable += 1
        first = bool(got) and got[0] in q["expect"]
        hit1 += first
        all5 += set(q["expect"]) <= set(got)
        if not first:
            misses.append(f"{q['id']} {q['question']!r}: expected {q['expect']}, got {got}")
    return {
        "answerable": answerable,
        "hit@1": round(hit1 / answerable, 3) if answerable else None,
        "all@5": round(all5 / answerable, 3) if answerable else None,
        "none_questions": nones,
        "none_answered_empty": empty_none,
        "expect_a_fact_of_another_project": expect_away,
        "elsewhere_pointed": pointed,
        "elsewhere_pointed_and_one_was_there": pointed_rightly,
        "misses": misses,
    }


def main() -> None:
    """Print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="heldout", choices=["heldout", "tune"])
    parser.add_argument("--store", default="embedded", help="embedded FalkorDB or a Neo4j URI")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.split, args.store)), indent=2))


if __name__ == "__main__":
    main()
