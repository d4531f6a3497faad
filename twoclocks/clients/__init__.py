"""Client-specific knowledge beyond install: what each coding agent needs checked."""
