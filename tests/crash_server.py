"""`twoclocks serve` with the hashing embedder, for tests that kill and restart a real server.

    python tests/crash_server.py DATA_DIR PORT [STORE [ACCOUNT]]

The same app, store, data dir and first-run key file as `serve`; only the model differs,
so a start takes a second instead of loading MiniLM (the crash check in bench/ uses the
real `twoclocks serve`). ACCOUNT names the first run's account, so runs can share one
Neo4j.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import uvicorn

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.embeddings.hashing import HashingEmbedder


def main(data_dir: str, port: str, store: str | None = None, account: str = "local") -> None:
    """Serve until killed."""
    settings = bootstrap.load_settings(data_dir=Path(data_dir), port=int(port), store=store)
    key_file = bootstrap.key_file(settings.data_dir)

    async def start() -> bootstrap.Runtime:
        runtime = await bootstrap.start_runtime(settings, embedder=HashingEmbedder(384))
        if not key_file.exists():
            key = await runtime.accounts.create(account)
            fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(key + "\n")
        return runtime

    uvicorn.run(create_app(start=start), host="127.0.0.1", port=settings.port, log_level="warning")


if __name__ == "__main__":
    main(*sys.argv[1:])
