"""LangChain with memwarden: remember/recall tools, a retriever and a chat history that
writes its turns through /facts.

    pip install 'memwarden-client[langchain]'
    MEMWARDEN_URL=http://127.0.0.1:8420 MEMWARDEN_KEY=mwk_... \
        python clients/python/examples/langchain_quickstart.py
"""

from __future__ import annotations

import os

from langchain_core.messages import AIMessage, HumanMessage
from memwarden_client import Memwarden
from memwarden_client.integrations.langchain import (
    MemwardenChatMessageHistory,
    MemwardenRetriever,
    memwarden_tools,
)

mw = Memwarden(
    os.environ["MEMWARDEN_URL"],
    os.environ["MEMWARDEN_KEY"],
)
with mw:
    # Tools for an agent: bind them to your chat model (model.bind_tools(tools)).
    remember, recall = memwarden_tools(mw, scope="user/alice")
    print("remember:", remember.invoke({"text": "I am Alice. I work at Acme."}))
    print("recall:", recall.invoke({"query": "where does Alice work"}).splitlines()[0])

    # A retriever for RAG chains: hits as Documents.
    retriever = MemwardenRetriever(client=mw, scope="user/alice", limit=3)
    for doc in retriever.invoke("Acme"):
        print("document:", doc.metadata["kind"], doc.page_content)

    # A chat history: each turn written through /facts, all in one memwarden session.
    history = MemwardenChatMessageHistory(mw, scope="user/alice")
    history.add_messages([HumanMessage("My dog is called Rex."), AIMessage("Hello Rex!")])
    print("history:", len(history.messages), "messages in session", history.session_id)
    print("held:", [write.held for write in history.writes])
