"""/health names every deployment setting that is set but does nothing yet."""

from __future__ import annotations

import httpx
import pytest

from memwarden.settings import INACTIVE_SETTINGS, Settings
from tests.conftest import ADMIN_TOKEN
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer


def test_health_lists_no_inactive_settings_when_none_is_set(admin: httpx.Client) -> None:
    # Settings are the operator's detail (issue 15, finding 4): asked with the admin token.
    assert admin.get("/health").json()["inactive_settings"] == []


def test_health_names_a_set_setting_that_is_not_yet_active(
    settings: Settings, scripted: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hygiene (issue 11) made the adjudication model active, which left no inactive
    # deployment setting; a stand-in entry keeps /health's report tested.
    monkeypatch.setitem(INACTIVE_SETTINGS, "model_chat", "a feature that is not built yet")
    configured = settings.model_copy(
        update={
            "openai_base_url": scripted.base_url,
            "model_chat": "openai:talk",
            "model_adjudication": "openai:pairs",
            "model_hygiene": "openai:cheap",
        }
    )
    server = LiveServer(configured).start()
    try:
        with server.client(ADMIN_TOKEN) as client:
            body = client.get("/health").json()
    finally:
        server.stop()
    assert [item["setting"] for item in body["inactive_settings"]] == ["MEMWARDEN_MODEL_CHAT"]
    assert "not built yet" in body["inactive_settings"][0]["reason"]
