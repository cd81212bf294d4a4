"""The OpenAI Agents SDK with memwarden: a session that remembers every turn, and the
remember/recall function tools.

    pip install 'memwarden-client[openai-agents]'
    MEMWARDEN_URL=http://127.0.0.1:8420 MEMWARDEN_KEY=mwk_... \
    OPENAI_BASE_URL=... OPENAI_API_KEY=... AGENT_MODEL=gpt-4.1-mini \
        python clients/python/examples/openai_agents_quickstart.py

Any OpenAI-compatible endpoint serves as the model (OPENAI_BASE_URL and OPENAI_API_KEY,
read by the openai package).
"""

from __future__ import annotations

import asyncio
import os

from agents import Agent, OpenAIChatCompletionsModel, RunConfig, Runner
from memwarden_client import AsyncMemwarden
from memwarden_client.integrations.openai_agents import (
    MemwardenSession,
    memwarden_function_tools,
)
from openai import AsyncOpenAI


async def main() -> None:
    model = OpenAIChatCompletionsModel(
        model=os.environ.get("AGENT_MODEL", "gpt-4.1-mini"), openai_client=AsyncOpenAI()
    )
    async with AsyncMemwarden(
        os.environ["MEMWARDEN_URL"],
        os.environ["MEMWARDEN_KEY"],
    ) as mw:
        agent = Agent(
            name="assistant",
            instructions="You remember what matters about the user and use it.",
            model=model,
            tools=memwarden_function_tools(mw, scope="user/alice"),
        )
        session = MemwardenSession("alice-chat", mw, scope="user/alice")
        # Tracing off: traces would go to OpenAI's platform.
        config = RunConfig(tracing_disabled=True)
        first = await Runner.run(
            agent, "I'm allergic to peanuts.", session=session, run_config=config
        )
        print("agent:", first.final_output)
        second = await Runner.run(agent, "What should I avoid?", session=session, run_config=config)
        print("agent:", second.final_output)
        print("turns written:", len(session.writes), "in session", session.memwarden_session_id)
        hits = await mw.query("peanuts allergy", scope="user/alice", limit=3)
        print("memwarden recalls:", hits.hits[0].text if hits.hits else None)


asyncio.run(main())
