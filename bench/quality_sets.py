"""Every labelled set's quality figures in one table (issue 11): the closing notes' numbers.

    .venv/bin/python bench/quality_sets.py --tune-only   # while deciding
    .venv/bin/python bench/quality_sets.py               # the held-out part, to report

Runs, one process each, ``bench/quality.py --only drift --fast`` on the drift pairs of
sets A (tests/data), B, C, D, F, G and H, ``bench/subject_drift.py`` on set E,
``bench/quality.py --only recall --no-legs`` on the recall sets A, B, D and I, and
``bench/cross_project.py``; then prints drift precision / recall and recall hit@1 / MRR
per set for one split. Takes some 4 minutes on 2 cores (each run loads MiniLM).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
DRIFT_SETS = {"A": DATA, **{s.upper(): DATA / f"set_{s}" for s in "bcdfgh"}}
RECALL_SETS = {"A": DATA, "B": DATA / "set_b", "D": DATA / "set_d", "I": DATA / "set_i"}


def quality(args: list[str], data: Path, tune_only: bool) -> dict:
    """``bench/quality.py`` on one set, its figures as ``--json`` writes them."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "figures.json"
        command = [sys.executable, str(ROOT / "bench" / "quality.py"), *args, "--data", str(data)]
        command += ["--json", str(out)] + (["--tune-only"] if tune_only else [])
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
        return dict(json.loads(out.read_text()))


def subject_drift(split: str, tune_only: bool) -> str:
    """Set E's row for ``split`` (precision and recall), as ``bench/subject_drift.py`` prints it."""
    command = [sys.executable, str(ROOT / "bench" / "subject_drift.py")]
    done = subprocess.run(
        command + (["--tune-only"] if tune_only else []),
        check=True, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    for line in done.stdout.splitlines():
        cells = line.split()
        if cells[:1] == [split]:
            return f"{float(cells[3]):.3f} / {float(cells[4]):.3f}"
    raise RuntimeError(f"bench/subject_drift.py printed no {split} row:\n{done.stdout}")


def cross_project(split: str) -> str:
    """hit@1 and all@5 of the cross-project questions, read across every workspace."""
    command = [sys.executable, str(ROOT / "bench" / "cross_project.py"), "--split", split]
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
    wide = json.loads(done.stdout)["wide"]
    return f"hit@1 {wide['hit@1']:.3f}, all@5 {wide['all@5']:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune-only", action="store_true", help="the tune part, not held-out")
    args = parser.parse_args()
    split = "tune" if args.tune_only else "heldout"
    print(f"{split} part, drift precision / recall:")
    for name, folder in DRIFT_SETS.items():
        row = quality(["--only", "drift", "--fast"], folder, args.tune_only)["drift"]
        part = row[f"split {split}"]
        print(f"  {name}  {part['precision']:.3f} / {part['recall']:.3f}", flush=True)
    print(f"  E  {subject_drift(split, args.tune_only)}  (whole subjects)", flush=True)
    print(f"{split} part, recall single hit@1 / MRR:")
    for name, folder in RECALL_SETS.items():
        figures = quality(["--only", "recall", "--no-legs"], folder, args.tune_only)["recall"]
        part = figures[split]
        print(f"  {name}  {part['hit1']:.3f} / {part['mrr']:.3f}", flush=True)
    print(f"  cross-project  {cross_project(split)}")


if __name__ == "__main__":
    main()
