"""Request models of the hygiene use cases, shared by the HTTP routes, the MCP tools and
the CLI, so a limit is written once."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from memwarden.text import StorableText

QueueStatus = Literal["pending", "resolved", "dismissed"]
Resolution = Literal["keep_both", "keep_a", "keep_b"]


class ScanBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rejudge: StrictBool = False  # JSON true or false only: "yes" or 1 is a 400


class ResolveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    resolution: Resolution


class ChallengeBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: StorableText = Field(min_length=1, max_length=2000)
