"""LlamaIndex with memwarden as a long-term memory block of `Memory`.

    pip install 'memwarden-client[llamaindex]'
    MEMWARDEN_URL=http://127.0.0.1:8420 MEMWARDEN_KEY=mwk_... \
        python clients/python/examples/llamaindex_quickstart.py
"""

from __future__ import annotations

import asyncio
import os

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.memory import Memory
from memwarden_client import AsyncMemwarden
from memwarden_client.integrations.llamaindex import MemwardenMemoryBlock
from sqlalchemy.ext.asyncio import create_async_engine

CONVERSATION = [
    ("user", "I keep bees in my garden."),
    ("assistant", "Bees are wonderful to keep."),
    ("user", "The weather today is grey and rainy."),
    ("assistant", "Rain is good for the flowers."),
    ("user", "Thanks for the chat."),
    ("assistant", "Any time."),
]


async def main() -> None:
    async with AsyncMemwarden(
        os.environ["MEMWARDEN_URL"],
        os.environ["MEMWARDEN_KEY"],
    ) as mw:
        block = MemwardenMemoryBlock(client=mw, scope="user/alice")
        # The short-term history lives in any SQLAlchemy database (here SQLite in memory);
        # a small token share, so the oldest messages flush to memwarden quickly.
        engine = create_async_engine("sqlite+aiosqlite:///:memory:")
        memory = Memory.from_defaults(
            session_id="alice-chat",
            async_engine=engine,
            token_limit=40,
            token_flush_size=10,
            memory_blocks=[block],
        )
        for role, text in CONVERSATION:
            await memory.aput(ChatMessage(role=role, content=text))
        print("written to memwarden:", len(block.writes), "messages")
        messages = await memory.aget("Tell me about my bees")
        print("system message:", " ".join(str(messages[0].content).split()))
        await engine.dispose()


asyncio.run(main())
