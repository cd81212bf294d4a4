"""Administration use cases: Contexts, keys and grants, configuration, authentication."""
