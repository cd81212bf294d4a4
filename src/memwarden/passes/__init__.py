"""Background passes: consolidation, elaboration, rollup and gist (docs/passes.md)."""
