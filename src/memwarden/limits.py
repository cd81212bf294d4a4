"""Request body limits, one definition for every interface (HTTP middleware, MCP tools).

64 KiB is the standard limit (spec 3: "Requests use the standard 64 KiB body limit"); only
the routes that carry content to remember take more: /facts (a 200,000-character turn),
/facts/batch and document uploads.
"""

from __future__ import annotations

KiB = 1024
MiB = 1024 * KiB
DEFAULT_BODY_LIMIT = 64 * KiB
FACTS_BODY_LIMIT = 2 * MiB
BATCH_BODY_LIMIT = 8 * MiB
DOCUMENT_BODY_LIMIT = 25 * MiB
# The /mcp transport admits the largest tool call (remember = /facts); each tool then holds
# its arguments to its HTTP route's limit (`mcp/server.py`).
MCP_TRANSPORT_LIMIT = FACTS_BODY_LIMIT
