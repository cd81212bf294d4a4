"""`python -m memwarden.mcp`: MCP over stdio with MEMWARDEN_API_KEY (see docs/mcp.md)."""

from memwarden.mcp.stdio import run_stdio

if __name__ == "__main__":
    run_stdio()
