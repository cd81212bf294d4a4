#!/bin/sh
# Claude Code: add memwarden's streamable-HTTP endpoint. The key is read from the
# environment now and kept in your own (local-scope) Claude Code configuration; to share
# the server with a team, commit claude-code.mcp.json as .mcp.json instead.
claude mcp add --transport http memwarden http://127.0.0.1:8420/mcp --header "Authorization: Bearer $MEMWARDEN_KEY"
