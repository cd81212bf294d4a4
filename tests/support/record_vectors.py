"""The record-vector invariant (0005_record_vector.sql), checked straight in SQL.

memory_record.embedding is the memory_embedding row of the record's CURRENT revision, or
NULL when that revision has none; embedding_revision says which revision it is.
"""

from __future__ import annotations

from collections.abc import Callable

# Records breaking it: a current-revision vector not (exactly) on the row, or a vector or
# revision on the row that is not the current revision's.
OFFENDERS = """
SELECT r.id::text, r.revision, r.embedding_revision, e.revision AS current_vector_revision
FROM memory_record r
LEFT JOIN memory_embedding e
  ON e.context_id = r.context_id AND e.record_id = r.id AND e.revision = r.revision
WHERE CASE WHEN e.record_id IS NULL
           THEN r.embedding IS NOT NULL OR r.embedding_revision IS NOT NULL
           ELSE r.embedding IS DISTINCT FROM e.embedding
                OR r.embedding_revision IS DISTINCT FROM r.revision
      END
"""


def record_vector_offenders(sql: Callable[..., list[tuple]]) -> list[tuple]:
    return sql(OFFENDERS)


def record_vectors(sql: Callable[..., list[tuple]], record_id: str) -> tuple:
    """(revision, embedding_revision, has a vector on the row) of one record."""
    return sql(
        "SELECT revision, embedding_revision, embedding IS NOT NULL FROM memory_record"
        " WHERE id = %s",
        (record_id,),
    )[0]
