"""`memwarden mcp`: serve the MCP tools over stdio for a local agent."""

from __future__ import annotations

from memwarden.cli.runner import fail, interrupt_on_sigterm


def mcp_stdio() -> None:
    """Serve MCP over stdin/stdout with the deployment's database and MEMWARDEN_API_KEY."""
    from memwarden.mcp.stdio import run_stdio
    from memwarden.store.embedded import EmbeddedServerError

    interrupt_on_sigterm()
    try:
        run_stdio()
    except EmbeddedServerError as exc:
        fail(str(exc), 3)
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # one line, never a traceback
        fail(f"{type(exc).__name__}: {exc}", 1)
