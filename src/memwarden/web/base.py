"""What every dashboard page shares: templates, security headers, the signed-in caller,
CSRF checks, one HTML rendering of the use cases' errors, and the router and `View` of a
Context's pages."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import structlog
from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel, ValidationError
from starlette.datastructures import FormData

from memwarden.admin.access import require_context
from memwarden.admin.auth import authenticate
from memwarden.admission import body_bytes, context_bytes_busy
from memwarden.domain.grants import Caller
from memwarden.errors import AppError, Forbidden, InvalidInput, Unauthorized
from memwarden.services import Services
from memwarden.web.session import COOKIE, Session, SessionSealer, same_token

M = TypeVar("M", bound=BaseModel)
Who = tuple[Caller, Session]
log = structlog.get_logger(__name__)

HERE = Path(__file__).parent
TEMPLATES = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)

# No inline script or style anywhere: one stylesheet and one script (the upload form's
# progress), both under /ui/static.
CSP = (
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; "
    "img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class SignInRequired(Exception):
    """No valid session: the page answers with a redirect to the sign-in form."""


def services(request: Request) -> Services:
    return request.app.state.services


def sealer(request: Request) -> SessionSealer:
    return request.app.state.ui_sealer


def session_of(request: Request) -> Session | None:
    return sealer(request).open(request.cookies.get(COOKIE))


async def signed_in(request: Request) -> AsyncIterator[Who]:
    """The caller behind the session's credential, authenticated like an API request.

    A form's body is counted against the Context's byte budget while the page runs (the
    page reads it after this), as api/body_budget.py counts an API request's body: past
    the budget the page is a 429 `context_bytes_busy`, the body unread."""
    session = session_of(request)
    if session is None:
        raise SignInRequired
    svc = services(request)
    admin = svc.settings.admin_token.get_secret_value() if svc.settings.admin_token else None
    try:
        caller = await authenticate(svc.db, session.token, admin)
    except Unauthorized:
        raise SignInRequired from None
    request.state.ui_session = session
    request.state.ui_caller = caller
    admission, context_id = svc.admission, caller.context_id
    size = body_bytes(request.scope) if admission.context_max_bytes_in_flight else 0
    if context_id is None or size <= 0:
        yield caller, session
        return
    if not admission.enter_bytes(context_id, size):
        raise context_bytes_busy(admission.context_max_bytes_in_flight)
    try:
        yield caller, session
    finally:
        admission.leave_bytes(context_id, size)


async def checked_form(request: Request) -> FormData:
    """The POSTed form, once its CSRF token matched the session's; 403 otherwise."""
    form = await request.form()
    session: Session | None = getattr(request.state, "ui_session", None)
    token = form.get("csrf")
    if session is None or not same_token(session.csrf, token if isinstance(token, str) else None):
        raise Forbidden("the form's security token is missing or wrong", code="csrf_failed")
    return form


def render(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
    session: Session | None = getattr(request.state, "ui_session", None)
    caller: Caller | None = getattr(request.state, "ui_caller", None)
    values.setdefault("context_id", None)
    html = TEMPLATES.get_template(name).render(
        request=request,
        csrf=session.csrf if session else None,
        caller=caller,
        **values,
    )
    return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303, headers=SECURITY_HEADERS)


def error_page(request: Request, exc: AppError) -> HTMLResponse:
    return render(
        request,
        "error.html",
        status=exc.status,
        status_code=exc.status,
        code=exc.code,
        message=exc.message,
        field=exc.field,
    )


class PageRoute(APIRoute):
    """A dashboard route: use-case errors become an HTML page with the same status, and a
    missing session becomes a redirect to the sign-in form."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            try:
                return await handler(request)
            except SignInRequired:
                return redirect("/ui/sign-in")
            except AppError as exc:
                log.info("ui_refused", status=exc.status, code=exc.code)
                return error_page(request, exc)
            finally:
                await request.close()  # a parsed form's uploaded files, refused or not

        return handle


def context_router() -> APIRouter:
    """The router of a Context's pages, under /ui/c/{context_id}: PageRoute's HTML errors
    and sign-in redirect, and none of them in the OpenAPI document."""
    return APIRouter(prefix="/ui/c/{context_id}", route_class=PageRoute, include_in_schema=False)


@dataclass(frozen=True, slots=True)
class ContextView:
    """One request for a Context's page: the signed-in caller, the Context of the address,
    and pages rendered and redirects made within that Context."""

    request: Request
    caller: Caller
    context_id: uuid.UUID

    @property
    def services(self) -> Services:
        return services(self.request)

    def render(self, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        return render(self.request, name, status, context_id=self.context_id, **values)

    def redirect(self, path: str) -> RedirectResponse:
        """303 to `path` under this Context's pages (`""` for its overview)."""
        return redirect(f"/ui/c/{self.context_id}{path}")


async def context_view(
    request: Request, context_id: uuid.UUID, who: Who = Depends(signed_in)
) -> ContextView:
    """Another tenant's Context is refused here, before any page runs, as the API refuses
    it (403 whether or not it exists): a page whose panels tolerate a refused grant would
    otherwise answer 200 with an empty page."""
    require_context(who[0], context_id)
    return ContextView(request, who[0], context_id)


View = Annotated[ContextView, Depends(context_view)]
"""A Context page's parameter: signed in first (else the sign-in redirect), then the id
(a key of another Context: 403)."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


def parse_uuid(value: str | None) -> uuid.UUID | None:
    try:
        return uuid.UUID(value) if value else None
    except ValueError:
        return None


def validated(model: type[M], data: dict[str, Any]) -> M:
    """The request model the HTTP route uses, so a form is held to the same contract; its
    first error names the field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        raise InvalidInput(str(first["msg"]), field=field) from None


def text_field(form: FormData, name: str) -> str | None:
    value = form.get(name)
    return value if isinstance(value, str) else None
