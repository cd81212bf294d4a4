"""Sign-in with a Context key or the admin token, sign-out, and the Context chooser."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from memwarden.admin import contexts
from memwarden.admin.auth import authenticate
from memwarden.errors import Unauthorized
from memwarden.web.base import (
    PageRoute,
    Who,
    checked_form,
    new_token,
    redirect,
    render,
    sealer,
    services,
    signed_in,
    text_field,
)
from memwarden.web.session import COOKIE, PRE_COOKIE, SESSION_TTL_S, same_token

router = APIRouter(prefix="/ui", route_class=PageRoute, include_in_schema=False)


def _cookie(response: Response, name: str, value: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/ui",
        httponly=True,
        samesite="strict",
        secure=False,  # served over plain HTTP on 127.0.0.1 too; a TLS proxy adds Secure
    )


def _form(request: Request, status: int = 200, error: str | None = None) -> Response:
    """The sign-in form with a fresh double-submit token (cookie and hidden field)."""
    pre = new_token()
    response = render(request, "sign_in.html", status=status, pre=pre, error=error)
    _cookie(response, PRE_COOKIE, pre, 600)
    return response


@router.get("/sign-in")
async def sign_in_form(request: Request) -> Response:
    return _form(request)


@router.post("/sign-in")
async def sign_in(request: Request) -> Response:
    form = await request.form()
    pre = text_field(form, "pre")
    if not same_token(request.cookies.get(PRE_COOKIE, ""), pre):
        return _form(request, 403, "The sign-in form expired. Please try again.")
    token = (text_field(form, "credential") or "").strip()
    svc = services(request)
    admin = svc.settings.admin_token.get_secret_value() if svc.settings.admin_token else None
    try:
        await authenticate(svc.db, token or None, admin)
    except Unauthorized:
        return _form(request, 401, "That key was not accepted (unknown, expired or revoked).")
    sealed, _ = sealer(request).seal(token)
    response = redirect("/ui")
    _cookie(response, COOKIE, sealed, SESSION_TTL_S)
    response.delete_cookie(PRE_COOKIE, path="/ui")
    return response


@router.post("/sign-out")
async def sign_out(request: Request, who: Who = Depends(signed_in)) -> Response:
    await checked_form(request)
    response = redirect("/ui/sign-in")
    response.delete_cookie(COOKIE, path="/ui")
    return response


@router.get("")
async def home(who: Who = Depends(signed_in)) -> Response:
    caller, _ = who
    if caller.context_id is not None:
        return redirect(f"/ui/c/{caller.context_id}")
    return redirect("/ui/contexts")


@router.get("/contexts")
async def context_list(
    request: Request, cursor: str | None = None, who: Who = Depends(signed_in)
) -> Response:
    caller, _ = who
    page = await contexts.list_contexts(services(request).db, caller, cursor=cursor, limit=50)
    return render(request, "contexts.html", page=page)
