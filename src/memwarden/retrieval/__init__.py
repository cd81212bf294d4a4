"""Retrieval: hybrid search over memory records (and, later, query/profile/state)."""
