"""The answers of the import routes: `service.request_import` and `service.get_import`
return them (the export is a stream of lines: portability/lines.py)."""

from __future__ import annotations

from typing import Final

from pydantic import Field

from memwarden.answers import Answer, Timestamp

OUTCOMES: Final = ("imported", "held", "duplicate", "skipped", "refused")


class ImportStarted(Answer):
    importId: str = Field(description="Poll GET /imports/{import_id}.")
    status: str = Field(description="`queued`.")
    format: str = Field(description="memwarden, mem0 or texts (as read).")
    total: int = Field(description="Items the file holds.")


class ImportJob(Answer):
    importId: str
    format: str
    sourceDir: str = Field(description="The directory the items are pinned to.")
    status: str = Field(description="queued, running, done or failed.")
    total: int
    processed: int = Field(description="Items done so far (progress).")
    counts: dict[str, int] = Field(description="Items per outcome: " + ", ".join(OUTCOMES))
    error: str | None
    requestedBy: str
    createdAt: Timestamp
    startedAt: Timestamp | None
    finishedAt: Timestamp | None
