"""Memory records under review: commands, revision-checked decisions, receipts, state, gate."""
