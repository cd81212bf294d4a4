"""Request limits, one definition for every interface (HTTP middleware, MCP tools, the
request models and so the OpenAPI document).

64 KiB is the standard body limit (spec 3: "Requests use the standard 64 KiB body limit");
only the routes that carry content to remember take more: /facts, /facts/batch and
document uploads. Their bodies are bounded in bytes here, their text in characters below:
the characters are what the work costs (docs/reliability.md#the-largest-request).
"""

from __future__ import annotations

KiB = 1024
MiB = 1024 * KiB
DEFAULT_BODY_LIMIT = 64 * KiB
FACTS_BODY_LIMIT = 2 * MiB
BATCH_BODY_LIMIT = 8 * MiB
DOCUMENT_BODY_LIMIT = 25 * MiB
# An import file (POST /imports): a larger export goes in several imports (the CLI splits).
IMPORT_BODY_LIMIT = 32 * MiB
# The /mcp transport admits the largest tool call (remember = /facts); each tool then holds
# its arguments to its HTTP route's limit (`mcp/server.py`).
MCP_TRANSPORT_LIMIT = FACTS_BODY_LIMIT

# The longest turn text (/facts, each /facts/batch item, MCP remember): what the ingest judge
# sees whole (8 windows of 16,000 characters, spec 1). A turn's cost is linear in its length,
# mostly local embedding of its ~1,000-character chunks (measured: benchmarks/
# bench_largest_request.py); a 2 MiB turn cost minutes of CPU and a gigabyte of memory, and
# past this length the judge could only follow on_error and extraction drops text anyway.
MAX_TURN_CHARS = 128_000
# All the items of one /facts/batch together: two of the longest turns.
MAX_BATCH_CHARS = 256_000
# The byte limits above leave room for the longest text however it is escaped (an astral
# character is one character and up to 12 bytes of JSON, `\ud83d\ude00`): checked in
# tests/unit/api/test_openapi_limits.py.
