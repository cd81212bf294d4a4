"""Originals in file storage under the data directory, until processed or deleted."""

from __future__ import annotations

import os
import uuid
from pathlib import Path


class FileStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def path_for(self, context_id: uuid.UUID, document_id: uuid.UUID) -> Path:
        return self.root / "documents" / str(context_id) / str(document_id)

    def save(self, context_id: uuid.UUID, document_id: uuid.UUID, data: bytes) -> Path:
        """Write then rename, so a crash never leaves a half-written original."""
        path = self.path_for(context_id, document_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".part")
        with tmp.open("wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        tmp.replace(path)
        return path

    def read(self, path: str) -> bytes:
        return self._inside(path).read_bytes()

    def delete(self, path: str | None) -> None:
        if path:
            self._inside(path).unlink(missing_ok=True)

    def _inside(self, path: str) -> Path:
        resolved = Path(path).resolve()
        if not resolved.is_relative_to(self.root.resolve()):
            raise ValueError("storage path outside the file store")
        return resolved
