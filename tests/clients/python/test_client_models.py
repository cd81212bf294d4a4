"""The client's models are generated from the server's OpenAPI document and kept equal to
what a running server publishes; the client is versioned with the server."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType

import httpx
import memwarden_client

from tests.support.live import LiveServer

ROOT = Path(__file__).resolve().parents[3]
CLIENT = ROOT / "clients" / "python"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_models", CLIENT / "scripts" / "generate_models.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_models_are_what_the_running_servers_openapi_generates(
    live: LiveServer,
) -> None:
    generator = _generator()
    spec = httpx.get(f"{live.url}/openapi.json", timeout=30).json()
    committed = (CLIENT / "src" / "memwarden_client" / "models.py").read_text(encoding="utf-8")
    assert generator.render(spec) == committed, (
        "clients/python/src/memwarden_client/models.py is out of date with /openapi.json: "
        f"run `{generator.COMMAND}` and commit the result"
    )


def test_the_generated_models_read_camel_case_answers_into_snake_case_fields() -> None:
    answer = memwarden_client.models.FactsResponse.model_validate(
        {
            "sessionId": "s",
            "turnId": "t",
            "held": True,
            "extraction": {"turnId": "t", "chunkOnly": True},
            "supersedeCandidates": [],
        }
    )
    assert (answer.session_id, answer.held, answer.extraction.chunk_only) == ("s", True, True)
    assert answer.supersede_candidates == []


def test_the_client_is_versioned_with_the_server() -> None:
    server = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    client = tomllib.loads((CLIENT / "pyproject.toml").read_text(encoding="utf-8"))
    assert client["project"]["version"] == server["project"]["version"]
    assert memwarden_client.__version__ == server["project"]["version"]
    assert sorted(client["project"]["dependencies"]) == ["httpx>=0.27,<1", "pydantic>=2.7,<3"]


CALL = re.compile(r'Call\(\s*"(GET|POST|PATCH|PUT|DELETE)",\s*f?"([^"]+)"')
NOT_CLIENT_ROUTES = {
    ("GET", "/metrics"),  # Prometheus text for a scraper, not a client verb
    ("GET", "/api/v1/{context_id}/query"),  # POST /query's twin: the client sends the body form
}


def _shape(path: str) -> str:
    path = path.replace("{API}", "/api/v1").replace("{c.cid()}", "{context_id}")
    return re.sub(r"\{[^}]*\}", "{}", path)


def test_every_route_of_the_openapi_document_has_a_client_call() -> None:
    from memwarden.api.app import create_app

    spec = create_app().openapi()
    routes = {
        (method.upper(), _shape(path))
        for path, operations in spec["paths"].items()
        for method in operations
    } - {(m, _shape(p)) for m, p in NOT_CLIENT_ROUTES}
    source = (CLIENT / "src" / "memwarden_client" / "_calls.py").read_text(encoding="utf-8")
    covered = {(method, _shape(path)) for method, path in CALL.findall(source)}
    assert len(covered) > 40
    missing = sorted(routes - covered)
    assert not missing, f"routes without a memwarden_client call (add one to _calls.py): {missing}"
