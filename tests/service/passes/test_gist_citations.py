"""A document's gist is how recall and chat cite it: hits drawn from a document carry the
gist beside the source reference, and chat's prompt quotes a document chunk by its gist
when the gist is the shorter."""

from __future__ import annotations

from memwarden.chat.prompting import chat_user
from tests.service.passes.helpers import run_pass
from tests.service.passes.test_rollup_and_gist import _upload
from tests.service.usecases import chat, query


def _gisted(svc, ctx, sql) -> str:
    from memwarden.documents.processing import process_document

    svc.run(_upload(svc, ctx))
    (doc_id,) = sql("SELECT id FROM document")[0]
    svc.run(process_document(svc.services, ctx.id, doc_id))
    assert run_pass(svc, ctx, "gist")["status"] == "done"
    (gist,) = sql("SELECT gist FROM document")[0]
    assert gist
    return str(gist)


def test_query_hits_from_a_document_cite_it_by_its_gist(svc, ctx, sql) -> None:
    gist = _gisted(svc, ctx, sql)
    hits = query(svc, ctx, "Acme data pipelines hospitals", limit=20)
    from_document = [h for h in hits if h["source"]["kind"] == "document"]
    assert any(h["kind"] == "chunk" for h in from_document)
    assert from_document and all(h["source"]["gist"] == gist for h in from_document)
    assert all("gist" not in h["source"] for h in hits if h["source"]["kind"] != "document")


def test_chat_cites_the_memories_it_drew_from_a_document_with_the_documents_gist(
    svc, ctx, sql
) -> None:
    gist = _gisted(svc, ctx, sql)
    out = chat(svc, ctx, "Where does Alice work?", remember=False)
    cited = [m for m in out["memories"] if "gist" in m]
    assert cited and all(m["gist"] == gist for m in cited)


def test_chat_context_quotes_a_document_chunk_by_its_gist_when_that_is_shorter() -> None:
    long_text = "Acme builds data pipelines for hospitals. " * 20
    chunk = {"id": "c", "kind": "chunk", "text": long_text, "gist": "Acme builds pipelines."}
    user = chat_user([chunk], "Who is Acme?")
    assert "[document gist] Acme builds pipelines." in user and long_text.strip() not in user
    short = {"id": "c", "kind": "chunk", "text": "Acme.", "gist": "Acme builds pipelines."}
    assert "[chunk] Acme." in chat_user([short], "Who is Acme?")
