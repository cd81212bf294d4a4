"""The reviewer tool `export_subject` (issue 25): one subject's data, as the export's lines,
in the calling key's own Context, bounded so it fits in one MCP answer.

The same rules as GET /export with `subject` (portability/service.py): a key exports its
own subject's data with memory_read; another subject's needs grant:manage over the whole
Context. An answer holds at most `MAX_LINES` lines and `MAX_BYTES` bytes of them; past
either it stops at a whole line and says `truncated`, and the whole export is GET
/api/v1/{context_id}/export?subject=... (or `memwarden export --subject`), which streams
any size.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from memwarden.domain.scope import MAX_PATH_CHARS
from memwarden.mcp.auth import Runtime
from memwarden.portability import export
from memwarden.portability.service import ExportRequest, audit_export, export_filter

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
MAX_LINES: Final = 500
MAX_BYTES: Final = 512 * 1024


def register(server: MCPServer[Any], rt: Runtime) -> None:
    @server.tool(annotations=READ)
    async def export_subject(
        ctx: Context,
        subject: Annotated[str, Field(min_length=1, max_length=200)],
        scope: Annotated[str | None, Field(max_length=MAX_PATH_CHARS)] = None,
    ) -> dict[str, Any]:
        """One subject's data (what it wrote, owns, or what is about it) as export lines:
        records with every revision, review state and receipts. At most 500 lines or
        512 KiB; `truncated` true means more exists: use GET /export?subject=... for all.
        Another subject than the key's own needs grant:manage over the whole Context."""
        svc, who, context_id = await rt.begin_own(ctx)
        request = ExportRequest(subject=subject, scopes=(scope,) if scope else ())
        f = export_filter(who, context_id, request)
        await audit_export(svc, who, context_id)
        lines: list[dict[str, Any]] = []
        size, truncated = 0, False
        stream = export.stream(svc, f, request)
        try:
            async for line in stream:
                value = json.loads(line)
                if value["kind"] == "end":
                    break
                if len(lines) >= MAX_LINES or size + len(line) > MAX_BYTES:
                    truncated = True
                    break
                lines.append(value)
                size += len(line)
        finally:
            await stream.aclose()
        return {"lines": lines, "truncated": truncated}
