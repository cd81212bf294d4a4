"""Time-ordered UUIDs (version 7) so ids sort by creation, as cursors need."""

from __future__ import annotations

import os
import threading
import time
import uuid

_lock = threading.Lock()
_last_ms = 0
_seq = 0


def new_id() -> uuid.UUID:
    """UUIDv7 (RFC 9562) with a 12-bit counter keeping ids monotonic within a millisecond."""
    global _last_ms, _seq
    with _lock:
        ms = time.time_ns() // 1_000_000
        if ms <= _last_ms:
            ms = _last_ms
            _seq = (_seq + 1) & 0xFFF
            if _seq == 0:
                ms += 1
        else:
            _seq = int.from_bytes(os.urandom(2), "big") & 0x3FF
        _last_ms = ms
        seq = _seq
    rand = int.from_bytes(os.urandom(8), "big") & ((1 << 62) - 1)
    value = (ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= seq << 64
    value |= 0b10 << 62
    value |= rand
    return uuid.UUID(int=value)
