"""What a model reads of the MCP server: its instructions and each tool's description.

Kept apart from the tools themselves (``mcp_server.tools``), which only build requests and
hand them to a backend: these texts are what teaches an agent to use memory well (when to
remember, ended vs corrected, how to read a recall's heads), and they change on their own.
"""

SERVER_INSTRUCTIONS = """\
twoclocks is the person's long-term memory, shared by every coding agent they use.
It holds short facts (subject -predicate-> object) with two clocks: when each fact
was true in the world (valid_at / invalid_at) and when memory believed it
(created_at / expired_at). The first-turn block you may already have is the
current state for this directory; recall searches further.

- remember durable facts the person states or that you observe in tool results
  (decisions, environment, conventions, preferences), one short fact per call.
- When a value simply changes, remember the new value: the old one closes itself.
- revise needs a reason. Ask: "if someone asked what was true last month, should
  this fact be in the answer?" yes -> ended; no -> corrected. If you cannot tell, ask.
- The server decides the workspace from the session's directory; no tool takes one.
- Times are RFC 3339 with an offset, e.g. 2026-03-01T09:00:00+03:00, or a date alone
  (2026-03-01), which is midnight in the account's zone."""

REMEMBER_DOC = """\
Store one short fact about the person's work so later sessions, in any agent, know it.
A fact is subject -predicate-> object, e.g. subject "production", predicate
"deploy_target", object "Render, Oregon region". Keep it under about 10 words; one
fact per call.

- A new value for a one-value slot (same subject and predicate) closes the old value
  at the new valid_at. When something simply changed, remember the new value; no
  revise needed. Restating a stored fact only adds evidence.
- valid_at is when it became true. When the person says ("since Monday", "we moved
  last week"), pass it; a date alone is fine. Omitted, it is the time you told it, read
  as "known since" then, and a later write that dates the change earlier replaces it.
- invalid_at is when it stops being true, when the person says so now ("a deploy freeze
  until January 4", "Ravi covers on call until Friday"): the value it interrupts holds
  again from then. Omitted, it holds until changed.
- tier: "asserted" only for the person's own words (pass their message as evidence),
  "observed" for what you read in a tool result (commit, test run, file), "inferred"
  for your own guess. Omitted, it is "inferred" (your guess); an "asserted" whose
  value is not in the evidence is stored as "inferred", and the answer says so.
- The workspace is decided by the server from the session's directory.
- Anything that looks like a credential is refused (SecretRefused).
Returns fact_id, the outcome (inserted / restated / stored_closed: closed at once,
because a later value of the slot was already known or invalid_at was given; invalid_at
says when it stops being true, and until then it is no history; held_after names that
later value: one told with no start at a tier above yours was kept over your write, and
if the person told you of the change, remember it again with tier "asserted" and their
message as evidence), the slot name
used (it may be an existing synonym; then written_as is the name you gave), the facts it
closed (closed: their ids; replaced: their ids, values and how each left, ended or, for a
value this write's date overruled, outdated or corrected, so you can tell the person
what changed), the tier stored and, if it is lower than asked, why (tier_lowered), and
where it applies (workspace: the repo, project or worktree it is kept in, null for
everywhere; a preference of the person's needs fact_class "user" to follow them). Saying
a stored fact again with a higher tier or a wider class raises it (raised says what).
near_slot, when present, is an existing slot of the subject whose name is close to yours
and holds the same kind of thing, but was not merged with it, with its current values:
both are current now. If the two
name one thing (vendor / provider of one service), tell the person: `twoclocks merge
<predicate> --into <near_slot.predicate> --subject <subject>` makes them one slot, keeps
the name you used as an alias for later writes (for every subject: the person's merges
teach the store their words), and can be undone with `twoclocks split`."""

RECALL_DOC = """\
Search memory for facts relevant to a question, by keyword, meaning and graph links
(from the things the question names and from this workspace's repo or project, so
"which CI do we use?" asked in a checkout finds that repo's CI). Returns current facts
unless as_of (what was true at that world time), as_believed (what memory believed at
that time about that time; with as_of, about as_of) or include_history is given.
status "empty" means memory has no matching fact; "unavailable" means the store could
not answer, which is not the same as "no". Asked of the present, facts memory holds that
start later (a freeze from the 20th) follow the answer under "start later (not true
yet)", or come first when one matches the question best ("matches the question best",
the rows after it being weaker matches): mention them as plans, never as what holds now.
A question naming a time to come ("next week", "tomorrow", "on December 15") gets the
plans that hold then first, under "holds <that time>, the time the question names (not
true yet)", or a line saying none does: answer that time from them, as plans. One asking
of nothing but what is to come ("what's coming up?", "anything planned next week?") gets
every fact that holds then, soonest first, under "holds from now on (no time named)"
when it names no time; a last line counts those beyond k.
A question naming a past time in words ("in March", "last year", "two weeks ago", "this
morning"), or asking what came before a value ("before Discord", "which test failed
earlier?"), is still answered with what holds now, but the asked slot's facts that held
then and have ended since come first, under "held in <that time>", with the ones that held
then and still hold after them ("held in <that time> too, and still holds now"), or the
events that happened then under "happened in <that time>": answer the past from them, or
pass as_of to read that time whole.
Asked what memory believed then ("what did you think our host was on Tuesday?", "at
15:29?", "today?"), what it
believed at the start and the end of that time, and any value of the asked slot it
believed only in between, comes first, under "memory believed <that time>, read at its
start, its end, and the slot asked in between", marked [corrected] or [ended] where that
changed since.
When the question names a slot (by name, or by a value it held) that holds no value now,
its last value comes first under "no value now in the slot the question names; its last
one ended": say it ended, and do not take a row of another slot for it. A value it names
that ended while others hold ("is Bo still a maintainer?", "do we still use Heroku?"
when Render began months later, "did we ever use SQLite?") comes first under "ended, not
true now": say it ended, and when; one found wrong, under "found wrong, never true": say
it never held. A question asking what changed ("what changed this
week?", "anything new since Monday?"; the past 7 days when it names no time) gets the
facts that began or ended then first, under "changed <that time>", or a line saying none
did (of the slot it names, when it names one: "no fact memory holds of ledger · ci began or
ended ..."); one naming a thing or slot and no time ("what changed in the database?", or a
value it moved to or from: "when did we switch to uv?") gets its latest changes, under "the
latest changes (no time named)"; a list cut to the latest ten ends with a line counting the
rest ("… 2 more changes this week ..."): say there were more; one asking what memory
learned ("what did you learn today?") gets the facts told then, under "told to memory
<that time>". Each also gets the facts memory found wrong then, under "corrected <that
time>", each marked [corrected] and followed by what holds instead: memory's belief
changed, not the world; one asking what was corrected ("what did we correct today?",
"any corrections this week?") gets those alone, or a line saying none were. The rows
that share a word with it follow. With a past
as_of, values memory was told later with no start follow under "told later, with no
start stated": they may have held then, and memory does not know; say so. Each fact
reads as one line, `- subject · predicate: value (since <valid_at> | <valid_at> until
<invalid_at> | at <valid_at>, tier, why it is history, from <workspace>) id <start of
fact_id>` ("at": an event, which happened once; "known since" when nobody said when it
began: the time it was told); revise
and retract take that id, and timeline shows when memory believed each version. Tier "inferred" is a
guess, not the person's word.

scope "here" (default) reads this workspace. Use scope "wide" when the person asks
about another of their projects or repos ("how did we set up Kafka in the ingest
repo?") or about "anywhere" / "any of our services": it reads every project of this
space (and the spaces it reads from), never beyond. A fact from elsewhere says
`from <workspace>`: the project, repo or worktree it is from. An "empty here" answer says
when other projects or worktrees of this space hold matching facts, and rows none of which is about
the thing the question names (or none of which holds a word of it) say when they hold
facts about it: then the rows are no answer about it; ask again with scope "wide"."""

REVISE_DOC = """\
Retire a fact that is no longer the truth, optionally naming its replacement.
The reason decides which clock closes, and it changes every later answer:

- ended: it WAS true and the world changed (we moved off CircleCI; the freeze is
  over). Answers about the past still include it, up to `at` (default now).
- corrected: it was NEVER true (a typo, a misheard name, a wrong guess). It leaves
  every past answer too, and the replacement takes over its whole time window.
  Without a replacement, the value it had replaced is believed again (restored).

The test: if someone asked what was true last month, should this fact be in the
answer? yes -> ended; no -> corrected. When you cannot tell, ask the person; do
not guess.

Not idempotent: revising a fact again fails with FactAlreadyRetired (recall again
for the current fact_id); the one exception is correcting a fact that had ended,
when it turns out it was never true. To record a plain change of value going
forward, remember the new value instead."""

RETRACT_DOC = """\
Forget a fact: use it when the person asks you to forget something, or for a fact
that should never have been stored (not about their work, stored by mistake).
It stops being recalled and is kept only as history, which an operator can reopen.
If the fact was wrong, revise it as corrected; if it stopped being true, revise it
as ended: retract records neither, so prefer revise in those cases. A retract gives
nothing back: when the slot is left with no value, left_ended names the values the fact
had replaced, which stay ended; tell the person."""

TIMELINE_DOC = """\
List fact versions in time order on one clock: "world" orders by when things were
true (valid_at), "system" by when memory learned them (created_at). Use it for
every change of one slot ("when did we switch X"), more changes than recall's latest
10, or to find an old version's fact_id; subject
and predicate narrow it to one slot. It reads this session's workspace (and facts that
apply everywhere), as recall does. since is inclusive and until exclusive, both RFC
3339 with an offset or a date alone; limit caps the rows (the rest are counted in
`more`). Each version reads as a recall line, with `(recorded <created_at> until
<expired_at>)`: when memory believed it (a belief a later record replaced says its end
once, as `[believed until <expired_at>]`)."""

SEARCH_EPISODES_DOC = """\
Search the raw episodes facts came from (the person's own messages, tool events)
for quotes and context that short facts leave out, in this session's project (and what
was kept with no place). status "empty" means no episode matched: that is a measured
"no record", not an error."""
