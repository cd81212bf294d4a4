"""/health: anyone may ask whether the service is up, but it must not make the service call
its model provider on every request, nor tell strangers its versions or provider host."""

from __future__ import annotations

import httpx

from memwarden.settings import Settings
from tests.conftest import ADMIN_TOKEN
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models


def _serve(settings: Settings, scripted: ScriptedModelServer) -> LiveServer:
    configured = settings.model_copy(
        update=scripted_models(scripted, model_judge="openai:judge-model")
    )
    return LiveServer(configured).start()


def test_anonymous_health_calls_share_one_provider_check(
    settings: Settings, scripted: ScriptedModelServer
) -> None:
    server = _serve(settings, scripted)
    try:
        with server.client() as client:
            statuses = [client.get("/health").status_code for _ in range(10)]
    finally:
        server.stop()
    assert set(statuses) <= {200, 503}
    assert scripted.model_listings <= 1


def test_anonymous_health_answers_states_only(
    settings: Settings, scripted: ScriptedModelServer
) -> None:
    server = _serve(settings, scripted)
    try:
        with server.client() as client:
            resp = client.get("/health")
    finally:
        server.stop()
    body = resp.json()
    assert set(body) == {"status", "database", "worker", "models"}
    assert body["status"] in ("ok", "degraded", "down")
    for component in ("database", "worker", "models"):
        assert set(body[component]) == {"status"}, component
    text = resp.text
    assert "127.0.0.1" not in text and "version" not in text


def test_admin_health_answers_full_detail(
    settings: Settings, scripted: ScriptedModelServer
) -> None:
    server = _serve(settings, scripted)
    try:
        with server.client(ADMIN_TOKEN) as client:
            body = client.get("/health").json()
    finally:
        server.stop()
    assert "version" in body and "inactive_settings" in body
    assert "version" in body["database"] and "pgvector" in body["database"]
    assert "in_process" in body["worker"]
    assert "127.0.0.1" in str(body["models"]["stages"])


def test_a_wrong_token_gets_the_anonymous_answer(anon: httpx.Client) -> None:
    body = anon.get("/health", headers={"Authorization": "Bearer not-the-admin"}).json()
    assert set(body) == {"status", "database", "worker", "models"}
