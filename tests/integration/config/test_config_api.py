"""GET|PATCH /api/v1/contexts/{id}/config through real HTTP."""

from __future__ import annotations

import httpx
import psycopg


def _cid(admin: httpx.Client) -> str:
    return admin.post("/api/v1/contexts", json={"name": "cfg"}).json()["id"]


def test_a_new_context_reads_the_default_configuration(admin: httpx.Client) -> None:
    cfg = admin.get(f"/api/v1/contexts/{_cid(admin)}/config").json()
    assert cfg["judge"]["enabled"] is False and cfg["judge"]["retention_days"] == 30
    assert cfg["pii_redaction_enabled"] is False


def test_a_partial_update_merges_objects_and_keeps_omitted_fields(admin: httpx.Client) -> None:
    cid = _cid(admin)
    first = admin.patch(f"/api/v1/contexts/{cid}/config", json={"judge": {"on_warn": "hold"}})
    assert first.status_code == 200
    second = admin.patch(f"/api/v1/contexts/{cid}/config", json={"judge": {"enabled": True}})
    judge = second.json()["judge"]
    assert judge["enabled"] is True and judge["on_warn"] == "hold"
    assert admin.get(f"/api/v1/contexts/{cid}/config").json()["judge"] == judge


def test_an_unknown_field_is_400_with_its_path(admin: httpx.Client) -> None:
    resp = admin.patch(f"/api/v1/contexts/{_cid(admin)}/config", json={"judge": {"enabeld": True}})
    assert resp.status_code == 400
    assert resp.json()["error"]["field"] == "judge.enabeld"


def test_an_out_of_range_number_is_400_and_changes_nothing(admin: httpx.Client) -> None:
    cid = _cid(admin)
    resp = admin.patch(
        f"/api/v1/contexts/{cid}/config",
        json={"judge": {"enabled": True, "retention_days": 99999}},
    )
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "judge.retention_days"
    assert admin.get(f"/api/v1/contexts/{cid}/config").json()["judge"]["enabled"] is False


def test_an_addendum_over_4000_characters_is_400(admin: httpx.Client) -> None:
    cid = _cid(admin)
    ok = admin.patch(
        f"/api/v1/contexts/{cid}/config", json={"prompt_addendums": {"judge": "a" * 4000}}
    )
    assert ok.status_code == 200
    resp = admin.patch(
        f"/api/v1/contexts/{cid}/config", json={"prompt_addendums": {"judge": "a" * 4001}}
    )
    assert resp.status_code == 400
    assert resp.json()["error"]["field"] == "prompt_addendums.judge"


def test_a_patch_that_is_not_an_object_is_400(admin: httpx.Client) -> None:
    resp = admin.patch(f"/api/v1/contexts/{_cid(admin)}/config", json=[1, 2])
    assert resp.status_code == 400


def test_an_unreadable_stored_configuration_is_reported_not_replaced(
    admin: httpx.Client, db_url: str
) -> None:
    cid = _cid(admin)
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(
            'UPDATE context SET config = \'{"judge": {"on_error": 7}}\' WHERE id = %s', (cid,)
        )
    resp = admin.get(f"/api/v1/contexts/{cid}/config")
    assert resp.status_code == 503
    assert resp.json()["error"]["code"] == "config_unreadable"
    repaired = admin.patch(f"/api/v1/contexts/{cid}/config", json={"judge": {"on_error": "allow"}})
    assert repaired.status_code == 200
    assert repaired.json()["judge"]["on_error"] == "allow"
