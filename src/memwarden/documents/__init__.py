"""Documents: upload, parse, redact, chunk, embed and extract on a worker."""
