"""memwarden from Python in a few lines: remember, recall, errors, pages, documents, streaming.

    MEMWARDEN_URL=http://127.0.0.1:8420 MEMWARDEN_KEY=mwk_... \
        python clients/python/examples/quickstart.py
"""

from __future__ import annotations

import os

from memwarden_client import InvalidRequest, Memwarden, models

url, key = os.environ["MEMWARDEN_URL"], os.environ["MEMWARDEN_KEY"]

with Memwarden(url, key) as mw:
    # Remember a turn, then recall it.
    written = mw.remember("I am Alice. I work at Acme and I drink green tea.", scope="user/alice")
    print("held:", written.held, "chunk only:", written.extraction.chunk_only)
    for hit in mw.query("What does Alice drink?", scope="user/alice", limit=3).hits:
        print("recalled:", hit.kind, hit.text)

    # Errors are exceptions with the server's code and the field it names.
    try:
        mw.query("What?", limit=500)
    except InvalidRequest as error:
        print("refused:", error.status, error.code, error.field)

    # Lists are iterators that follow next_cursor, page after page.
    print("changes:", sum(1 for _ in mw.changes(limit=2)))

    # A document: upload with progress, then wait for the worker.
    doc = mw.documents.upload(
        b"I love jazz. My sister is called Maria.",
        filename="notes.txt",
        scope="user/alice",
        progress=lambda sent, total: print(f"uploaded {sent}/{total} bytes"),
    )
    print("document:", mw.documents.wait(doc.id, timeout=60).status)

    # Chat, streamed as typed events.
    for event in mw.chat_stream("What do I drink?", scope="user/alice", remember=False):
        if isinstance(event, models.ChatStreamToken):
            print("token:", event.text)
        elif isinstance(event, models.ChatStreamDone):
            print("done:", event.model)
