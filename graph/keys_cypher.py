"""API keys in the store: one ``(:ApiKey)`` node per key, shared by every engine.

``(:ApiKey {hash, name, role, account, created_at_us, last_used_at_us, revoked_at_us})``
lives beside the ``(:Account)`` nodes (FalkorDB: the accounts graph; Neo4j: the one
database). Only the SHA-256 of a key is stored. A revoked key stays, so the list shows
when it was revoked; a live key's name is unique within its account.
"""

from __future__ import annotations

KEY_FIELDS = """
RETURN k.name AS name, k.role AS role, k.account AS account, k.created_at_us AS created_at_us,
       k.last_used_at_us AS last_used_at_us, k.revoked_at_us AS revoked_at_us
"""
"""The columns every key read returns (never the hash)."""

SAVE_KEY = (
    """
MATCH (a:Account {name: $account})
SET a.keys_written_at_us = $created_at_us
WITH a
OPTIONAL MATCH (live:ApiKey {account: $account, name: $name})
WHERE live.revoked_at_us IS NULL
WITH a, count(live) AS taken
WHERE taken = 0
CREATE (k:ApiKey {hash: $hash, name: $name, role: $role, account: a.name,
                  created_at_us: $created_at_us})
"""
    + KEY_FIELDS
)
"""Add a key; no row when the account is unknown or a live key has the name.

Writing the account node first takes its write lock (Neo4j holds it to the end of the
transaction), so two creates of one name in one account run one after the other and the
second sees the first's key; without it both saw none and both created one. FalkorDB runs
one write query at a time anyway."""

KEY_BY_HASH = "MATCH (k:ApiKey {hash: $hash})" + KEY_FIELDS + "LIMIT 1"
"""The key a hash names, live or revoked."""

KEYS_OF = "MATCH (k:ApiKey {account: $account})" + KEY_FIELDS + "ORDER BY created_at_us, name"
"""Every key of an account, oldest first."""

ROTATE_KEY = (
    """
MATCH (k:ApiKey {account: $account, name: $name})
WHERE k.revoked_at_us IS NULL
SET k.hash = $hash, k.rotated_at_us = $at_us
"""
    + KEY_FIELDS
)
"""A live key's new secret; no row when the account has no live key of that name."""

REVOKE_KEY = (
    """
MATCH (k:ApiKey {account: $account, name: $name})
WHERE k.revoked_at_us IS NULL
SET k.revoked_at_us = $at_us
"""
    + KEY_FIELDS
)
"""Revoke a live key; no row when there is none of that name."""

TOUCH_KEY = """
MATCH (k:ApiKey {hash: $hash})
SET k.last_used_at_us = $at_us
"""
"""Record a key's last use."""

ADOPT_ACCOUNT_KEYS = """
MATCH (a:Account)
WHERE a.key_hash IS NOT NULL
CREATE (k:ApiKey {hash: a.key_hash, name: 'person', role: 'person', account: a.name,
                  created_at_us: a.created_at_us})
SET a.key_hash = NULL
RETURN count(k) AS adopted
"""
"""Schema 1 -> 2: the key each account was created with becomes its person key."""
