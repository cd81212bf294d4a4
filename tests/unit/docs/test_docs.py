"""Every setting, configuration field and CLI command is documented."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from memwarden.config import ContextConfig, ModelChoice
from memwarden.settings import Settings

ROOT = Path(__file__).resolve().parents[3]


def _leaves(model: type[BaseModel], prefix: str = "") -> list[str]:
    out: list[str] = []
    for name, info in model.model_fields.items():
        annotation = info.annotation
        inner = getattr(annotation, "__args__", (annotation,))
        nested = [a for a in inner if isinstance(a, type) and issubclass(a, BaseModel)]
        path = f"{prefix}{name}"
        if nested and nested[0] is not ModelChoice:  # a model choice is one value
            out.extend(_leaves(nested[0], f"{path}."))
        else:
            out.append(path)
    return out


def test_every_context_configuration_field_is_documented() -> None:
    doc = (ROOT / "docs" / "configuration.md").read_text()
    missing = [leaf for leaf in _leaves(ContextConfig) if f"`{leaf}`" not in doc]
    assert not missing, f"undocumented configuration fields: {missing}"


def test_every_deployment_setting_is_documented_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    missing = [
        f"MEMWARDEN_{name.upper()}"
        for name in Settings.model_fields
        if f"MEMWARDEN_{name.upper()}" not in readme
    ]
    assert not missing, f"undocumented settings: {missing}"


def test_every_cli_command_is_named_in_the_readme() -> None:
    from typer.main import get_command

    from memwarden.cli.main import app

    readme = (ROOT / "README.md").read_text()
    group = get_command(app)
    names = list(getattr(group, "commands", {}))
    missing = [n for n in names if n not in readme]
    assert not missing, f"CLI commands missing from the README: {missing}"
