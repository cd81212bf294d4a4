"""LangGraph with memwarden as its long-term store: a graph that remembers in one thread
what another thread recalls, and memwarden's remember/recall tools in a ToolNode.

    pip install 'memwarden-client[langgraph,langchain]'
    MEMWARDEN_URL=http://127.0.0.1:8420 MEMWARDEN_KEY=mwk_... \
        python clients/python/examples/langgraph_quickstart.py
"""

from __future__ import annotations

import operator
import os
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.store.base import BaseStore
from memwarden_client import Memwarden
from memwarden_client.integrations.langchain import memwarden_tools
from memwarden_client.integrations.langgraph import MemwardenStore


class State(TypedDict, total=False):
    user_id: str
    said: str
    answers: Annotated[list[str], operator.add]


def memory_node(state: State, *, store: BaseStore) -> dict[str, Any]:
    # LangGraph's convention: one namespace per user, here the scope project/<user>/memories.
    namespace = (state["user_id"], "memories")
    if state["said"].startswith("remember "):
        fact = state["said"].removeprefix("remember ")
        store.put(namespace, fact.lower().replace(" ", "-"), {"fact": fact})
        return {"answers": [f"stored: {fact}"]}
    hits = store.search(namespace, query=state["said"], limit=3)
    return {"answers": [hit.value["fact"] for hit in hits] or ["nothing yet"]}


mw = Memwarden(
    os.environ["MEMWARDEN_URL"],
    os.environ["MEMWARDEN_KEY"],
)
with mw:
    builder = StateGraph(State)
    builder.add_node("memory", memory_node)
    builder.add_edge(START, "memory")
    builder.add_edge("memory", END)
    graph = builder.compile(checkpointer=InMemorySaver(), store=MemwardenStore(mw))

    one: RunnableConfig = {"configurable": {"thread_id": "monday"}}
    two: RunnableConfig = {"configurable": {"thread_id": "tuesday"}}
    graph.invoke({"user_id": "alice", "said": "remember Alice is vegetarian"}, one)
    out = graph.invoke({"user_id": "alice", "said": "is she vegetarian?"}, two)
    print("recalled in another thread:", out["answers"][-1])

    # memwarden's tools as LangGraph runs them: a ToolNode executing a model's tool calls
    # (in an agent, the model asks for these; here they are written out).
    tools = StateGraph(MessagesState)
    tools.add_node("tools", ToolNode(memwarden_tools(mw, scope="user/alice")))
    tools.add_edge(START, "tools")
    tools.add_edge("tools", END)
    tool_graph = tools.compile()
    for name, args in [("remember", {"text": "I live in Lisbon."}), ("recall", {"query": "live"})]:
        ask = AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": name}])
        reply = tool_graph.invoke({"messages": [ask]})["messages"][-1]
        print(f"tool {reply.name}:", reply.content.splitlines()[0])
