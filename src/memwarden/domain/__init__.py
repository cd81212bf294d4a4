"""Pure types and rules: standard library only, no I/O."""
