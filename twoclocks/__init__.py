"""twoclocks: bi-temporal memory for coding agents."""
