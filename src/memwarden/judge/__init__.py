"""The ingest judge: input and row gates, review log, overrides, holds, dry runs."""
