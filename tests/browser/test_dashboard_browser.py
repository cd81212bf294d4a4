"""The dashboard in a real browser: what a reviewer does, end to end, with a screenshot
of every page under test-output/screenshots/."""

from __future__ import annotations

import re

from tests.conftest import ADMIN_TOKEN
from tests.support.replies import verdict

FACTS = "I'm Alice. I work at Acme."


def write(live, ctx, text=FACTS):
    with live.client(ctx["key"]) as api:
        return api.post(f"/api/v1/{ctx['id']}/facts", json={"text": text})


def search(dashboard, ctx, words):
    dashboard.open(f"/ui/c/{ctx['id']}/memories")
    dashboard.page.get_by_label("Search", exact=True).fill(words)
    # count() does not wait: on a loaded machine it could still read the page before.
    with dashboard.page.expect_navigation():
        dashboard.page.get_by_role("button", name="Search").click()
    return dashboard.page.locator("tr.hit")


def test_signing_in_and_out(dashboard, judged):
    ctx = judged()
    dashboard.open("/ui/sign-in")
    dashboard.shot("sign-in")
    dashboard.sign_in(ctx["key"])
    dashboard.page.get_by_role("heading", name=re.compile("overview")).wait_for()
    dashboard.page.get_by_role("button", name="Sign out").click()
    dashboard.page.get_by_role("heading", name="Sign in").wait_for()
    dashboard.open(f"/ui/c/{ctx['id']}")
    assert dashboard.page.url.endswith("/ui/sign-in")


def test_a_wrong_key_is_refused_at_sign_in(dashboard):
    dashboard.sign_in("mwk_not-a-key")
    assert dashboard.page.get_by_role("alert").inner_text().startswith("That key was not accepted")


def test_a_held_write_approved_in_the_browser_is_then_found_in_memory_search(
    dashboard, judged, live, scripted
):
    ctx = judged(on_warn="hold")
    scripted.script("judge", verdict("warn", "sensitive_inference"))
    assert write(live, ctx).status_code == 201
    dashboard.sign_in(ctx["key"])
    assert search(dashboard, ctx, "Acme").count() == 0  # held: not served
    dashboard.open(f"/ui/c/{ctx['id']}/judgements")
    dashboard.page.get_by_label("Held").select_option("yes")
    dashboard.page.get_by_role("button", name="Filter").click()
    dashboard.shot("judgements")
    dashboard.page.get_by_role("link", name=re.compile("^Details")).first.click()
    dashboard.shot("judgement-held")
    dashboard.page.get_by_role("button", name="Approve held item").click()
    outcome = dashboard.page.get_by_role("status").inner_text()
    assert "approved" in outcome and re.search(r"[1-9]\d* facts", outcome), outcome
    dashboard.shot("judgement-approved")
    hits = search(dashboard, ctx, "Acme")
    assert hits.count() >= 1
    dashboard.shot("memories")


def test_a_fail_overridden_with_replay_writes_the_retained_input(dashboard, judged, live, scripted):
    ctx = judged(retain_inputs=True)
    scripted.script("judge", verdict("fail", "policy"))
    assert write(live, ctx).status_code == 422
    dashboard.sign_in(ctx["key"])
    dashboard.open(f"/ui/c/{ctx['id']}/judgements?verdict=fail")
    dashboard.page.get_by_role("link", name=re.compile("^Details")).first.click()
    dashboard.page.get_by_role("radio", name="pass").check()
    dashboard.page.get_by_role("checkbox", name=re.compile("Replay")).check()
    dashboard.page.get_by_role("button", name="Record override").click()
    outcome = dashboard.page.get_by_role("status")
    assert outcome.locator(".replay").inner_text() == "ingested"
    dashboard.shot("judgement-overridden")
    assert search(dashboard, ctx, "Acme").count() >= 1


def test_a_dry_run_shows_the_verdict_change_matrix(dashboard, judged, live, scripted):
    ctx = judged()
    scripted.script("judge", verdict("fail", "policy"))
    assert write(live, ctx).status_code == 422
    dashboard.sign_in(ctx["key"])
    dashboard.open(f"/ui/c/{ctx['id']}/dry-run")
    dashboard.page.get_by_label(re.compile("^Candidate addendum")).fill(
        "Company names are not personal data."
    )
    dashboard.page.get_by_label("Entries with the judge's verdict").select_option("fail")
    dashboard.page.get_by_role("button", name="Run dry run").click()  # the judge now passes
    matrix = dashboard.page.locator("table.matrix")
    assert matrix.locator("thead th").all_inner_texts()[1:] == ["pass"]
    row = matrix.locator("tbody tr").first
    assert row.locator("th").inner_text() == "fail" and row.locator("td").inner_text() == "1"
    assert dashboard.page.locator(".changed").inner_text() == "1"
    dashboard.shot("dry-run")


def test_a_rejecting_review_decision_makes_a_memory_leave_search(dashboard, judged, live):
    ctx = judged()
    assert write(live, ctx).status_code == 201
    dashboard.sign_in(ctx["key"])
    hits = search(dashboard, ctx, "Acme")
    before = hits.count()
    assert before >= 1
    # The first record hit: with /query's weighted fusion a turn's chunk (no page) can rank
    # above the records extracted from it.
    record = hits.filter(has=dashboard.page.locator("a")).first
    text = record.locator("a").inner_text()
    record.locator("a").click()
    dashboard.shot("record")
    dashboard.page.get_by_role("radio", name=re.compile("reject")).check()
    dashboard.page.get_by_label("Evidence reference").fill("ticket-4711")
    dashboard.page.get_by_role("button", name="Record decision").click()
    assert "rejected" in dashboard.page.get_by_role("status").first.inner_text()
    dashboard.shot("record-rejected")
    after = search(dashboard, ctx, "Acme")
    assert text not in after.all_inner_texts()
    assert after.count() == before - 1


def test_an_addendum_over_4000_characters_is_refused_with_the_field_named(dashboard, judged, admin):
    ctx = judged()
    dashboard.sign_in(ctx["key"])
    dashboard.open(f"/ui/c/{ctx['id']}/settings")
    dashboard.shot("settings")
    box = dashboard.page.get_by_label("judge addendum")
    box.fill("x" * 4001)
    assert len(box.input_value()) == 4000  # the form itself stops at the limit
    # A client that ignores the form's limit is refused by the server, naming the field.
    box.evaluate("el => el.removeAttribute('maxlength')")
    box.fill("x" * 4001)
    dashboard.page.get_by_role("button", name="Save settings").click()
    dashboard.page.get_by_role("heading", name=re.compile("Not accepted")).wait_for()
    assert dashboard.page.locator("code.field").inner_text() == "prompt_addendums.judge"
    dashboard.shot("settings-refused")
    assert (
        admin.get(f"/api/v1/contexts/{ctx['id']}/config").json()["prompt_addendums"]["judge"]
        is None
    )


def test_a_key_without_grant_manage_is_refused_the_judgements_page(dashboard, judged, make_key):
    ctx = judged()
    reader = make_key(ctx["id"], ["memory_read", "memory_write"])
    dashboard.sign_in(reader)
    response = dashboard.open(f"/ui/c/{ctx['id']}/judgements")
    assert response.status == 403
    dashboard.page.get_by_role("heading", name=re.compile("Not allowed")).wait_for()
    dashboard.shot("judgements-refused")


def test_a_forged_post_is_refused_and_changes_nothing(dashboard, judged, admin):
    ctx = judged()
    dashboard.sign_in(ctx["key"])
    dashboard.open(f"/ui/c/{ctx['id']}/settings")
    revoke = dashboard.page.locator("form[action$='/revoke']").first
    revoke.locator("input[name=csrf]").evaluate("el => el.value = 'forged'")
    revoke.get_by_role("button").click()
    dashboard.page.get_by_role("heading", name=re.compile("Not allowed")).wait_for()
    dashboard.shot("csrf-refused")
    keys = admin.get(f"/api/v1/contexts/{ctx['id']}/keys").json()["keys"]
    assert all(k["revoked_at"] is None for k in keys)


def test_a_document_uploaded_in_the_browser_is_listed_with_its_status(dashboard, judged, tmp_path):
    ctx = judged()
    notes = tmp_path / "notes.txt"
    notes.write_text("Alice works at Acme.\n" * 2000)
    dashboard.sign_in(ctx["key"])
    dashboard.open(f"/ui/c/{ctx['id']}/documents")
    errors: list[str] = []
    sent: list[str] = []
    dashboard.page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    dashboard.page.on(
        "request", lambda r: sent.append(r.resource_type) if r.method == "POST" else None
    )
    dashboard.page.get_by_label(re.compile("^File")).set_input_files(str(notes))
    dashboard.page.get_by_role("button", name="Upload").click()
    dashboard.page.get_by_role("cell", name="notes.txt", exact=True).wait_for()
    assert dashboard.page.url.endswith("/documents")
    assert not errors  # the script ran under the CSP without a violation
    assert sent == ["xhr"]  # sent by the progress script, not the plain form
    dashboard.shot("documents-uploaded")


def test_every_page_renders_and_is_captured(dashboard, judged, live):
    ctx = judged()
    assert write(live, ctx).status_code == 201
    dashboard.sign_in(ctx["key"])
    for name, path in {
        "overview": "",
        "documents": "/documents",
        "audit": "/audit",
        "hygiene": "/hygiene",
    }.items():
        assert dashboard.open(f"/ui/c/{ctx['id']}{path}").status == 200, name
        dashboard.shot(name)
    dashboard.page.get_by_role("button", name="Sign out").click()
    dashboard.sign_in(ADMIN_TOKEN)
    dashboard.page.get_by_role("heading", name="Contexts").wait_for()
    dashboard.shot("contexts")


def test_every_action_is_reachable_with_the_keyboard(dashboard, judged):
    ctx = judged()
    dashboard.open("/ui/sign-in")
    dashboard.page.keyboard.press("Tab")  # the skip link
    dashboard.page.keyboard.press("Tab")
    dashboard.page.keyboard.type(ctx["key"])
    dashboard.page.keyboard.press("Enter")
    dashboard.page.get_by_role("heading", name=re.compile("overview")).wait_for()
