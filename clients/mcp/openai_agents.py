"""memwarden's MCP tools in an OpenAI Agents SDK agent, over streamable HTTP with a bearer key.

    pip install openai-agents
    MEMWARDEN_URL=http://127.0.0.1:8420 MEMWARDEN_KEY=mwk_... OPENAI_API_KEY=... \\
        python openai_agents.py
"""

from __future__ import annotations

import asyncio
import os

from agents import Agent, Runner
from agents.mcp import MCPServerStreamableHttp


def memwarden_server(url: str, key: str) -> MCPServerStreamableHttp:
    """memwarden's endpoint as an Agents SDK MCP server; the key goes with every request."""
    return MCPServerStreamableHttp(
        name="memwarden",
        params={
            "url": f"{url.rstrip('/')}/mcp",
            "headers": {"Authorization": f"Bearer {key}"},
            "timeout": 30,
        },
        # A write is judged and extracted before it answers: allow it more than the 5 s default.
        client_session_timeout_seconds=60,
        cache_tools_list=True,
    )


async def main() -> None:
    url = os.environ.get("MEMWARDEN_URL", "http://127.0.0.1:8420")
    async with memwarden_server(url, os.environ["MEMWARDEN_KEY"]) as memory:
        agent = Agent(
            name="assistant",
            instructions=(
                "Use `recall` before answering questions about the user, and `remember` for "
                "anything they tell you about themselves. A refused write comes back as an "
                "error with reason codes: tell the user it was not stored."
            ),
            mcp_servers=[memory],
        )
        result = await Runner.run(agent, "I'm Dana and I prefer green tea. What do I drink?")
        print(result.final_output)


if __name__ == "__main__":
    asyncio.run(main())
