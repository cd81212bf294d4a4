"""The scripted model server with a `/rerank` route, for the reranker's tests.

`/rerank` answers as the embedding servers do (Cohere, Jina, vLLM, TEI): a scripted
`Reply`'s `content` is sent as the JSON body, with its status, delay and trickle; errors,
raw bodies and the named faults (`scripted_model.fault`) work as for chat. Chat completions
still work on the same server, so a chat scorer can be scripted beside an API reranker.
Replies are keyed by the `X-Memwarden-Stage` header (`rerank`) or the model name.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from http.server import ThreadingHTTPServer
from typing import Any

from tests.support.scripted_model import Reply, ScriptedModelServer, _handler_for


def rerank_reply(
    scores: Sequence[float], *, tei: bool = False, usage: int | None = 42, **kwargs: Any
) -> Reply:
    """A `/rerank` answer scoring candidate i with scores[i], best first as servers send it."""
    ranked = sorted(range(len(scores)), key=lambda i: -scores[i])
    if tei:
        return Reply.json([{"index": i, "score": scores[i]} for i in ranked], **kwargs)
    body: dict[str, Any] = {
        "model": "scripted-reranker",
        "results": [{"index": i, "relevance_score": scores[i]} for i in ranked],
    }
    if usage is not None:
        body["usage"] = {"prompt_tokens": usage, "total_tokens": usage}
    return Reply.json(body, **kwargs)


class ScriptedRerankServer(ScriptedModelServer):
    """`with ScriptedRerankServer() as server:`; `base_url` ends in /v1 as for chat."""

    def start(self) -> ScriptedRerankServer:
        base = _handler_for(self)
        server = self

        class Handler(base):  # type: ignore[valid-type,misc]
            def do_POST(self) -> None:
                if not self.path.rstrip("/").endswith("/rerank"):
                    super().do_POST()
                    return
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"_unparsed": raw.decode("utf-8", "replace")}
                request = self._recorded(body if isinstance(body, dict) else {"_body": body})
                server._record(request)
                reply = server._next(request)
                if reply is None:
                    self._send_json(418, {"error": {"message": "no scripted rerank reply"}})
                    return
                if not server._sleep(reply.delay_s):
                    return
                text = reply.raw_body if reply.raw_body is not None else reply.content or ""
                self._send_raw(reply.status, text, reply.headers, reply.trickle_s)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self
