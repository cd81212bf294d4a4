"""pydantic-ai with memwarden's remember and recall tools.

    pip install 'memwarden-client[pydantic-ai]'
    MEMWARDEN_URL=http://127.0.0.1:8420 MEMWARDEN_KEY=mwk_... \
    OPENAI_BASE_URL=... OPENAI_API_KEY=... AGENT_MODEL=gpt-4.1-mini \
        python clients/python/examples/pydantic_ai_quickstart.py
"""

from __future__ import annotations

import asyncio
import os

from memwarden_client import AsyncMemwarden
from memwarden_client.integrations.pydantic_ai import memwarden_tools
from pydantic_ai import Agent
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider


async def main() -> None:
    provider = OpenAIProvider(
        base_url=os.environ.get("OPENAI_BASE_URL"), api_key=os.environ["OPENAI_API_KEY"]
    )
    model = OpenAIChatModel(os.environ.get("AGENT_MODEL", "gpt-4.1-mini"), provider=provider)
    async with AsyncMemwarden(
        os.environ["MEMWARDEN_URL"],
        os.environ["MEMWARDEN_KEY"],
    ) as mw:
        agent = Agent(
            model,
            instructions="Remember what matters about the user; recall before answering.",
            tools=memwarden_tools(mw, scope="user/alice"),
        )
        first = await agent.run("I drive a green Volvo.")
        print("agent:", first.output)
        second = await agent.run("What car do I drive?")
        print("agent:", second.output)


asyncio.run(main())
