"""A document the input gate warns about is processed, and leaves one uncertainty with the
reason codes (never the content) in the document's scope, visible in /state."""

from __future__ import annotations

import io

from tests.integration.documents.conftest import wait_for
from tests.support.scripted_model import Reply

TEXT = b"My name is Alice Chen. I work at Acme. I live in Berlin."


def test_a_warned_document_stores_one_uncertainty_with_the_codes(
    live, make_context, admin, scripted
) -> None:
    ctx = make_context()
    body = {"judge": {"enabled": True, "rows": False}}
    assert admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json=body).status_code == 200
    scripted.respond_with("judge", Reply.json({"verdict": "warn", "reasons": ["personal_data"]}))
    with live.client(ctx["key"]) as client:
        resp = client.post(
            f"/api/v1/{ctx['id']}/documents",
            files={"file": ("a.txt", io.BytesIO(TEXT), "text/plain")},
            data={"scope": "org/acme", "visibility": "private"},
        )
        assert resp.status_code == 202, resp.text
        doc_id = resp.json()["id"]
        assert wait_for(client, ctx["id"], doc_id)["status"] == "processed"
        state = client.get(f"/api/v1/{ctx['id']}/state").json()
    (note,) = [u for u in state["uncertainties"] if "judgeReasons" in u["content"]]
    assert note["content"]["judgeReasons"] == ["personal_data"]
    assert note["source"] == {"kind": "document", "ref": doc_id}
    assert note["scope"] == {"path": "org/acme", "visibility": "private"}
    assert "Alice" not in str(note) and "Berlin" not in str(note)
