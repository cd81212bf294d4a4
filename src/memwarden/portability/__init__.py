"""Export and import of a Context's memories (issue 25, docs/portability.md)."""
