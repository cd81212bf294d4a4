"""memwarden's Python client: `Memwarden`, `AsyncMemwarden`, and the admin clients.

from memwarden_client import Memwarden

with Memwarden("http://127.0.0.1:8420", key, context_id=context) as mw:
    mw.remember("I prefer green tea.", scope="user/alice")
    print(mw.query("what does alice drink?", scope="user/alice").hits)
"""

from memwarden_client import models
from memwarden_client._core import RetryEvent, RetryPolicy
from memwarden_client.admin import AsyncMemwardenAdmin, MemwardenAdmin
from memwarden_client.client import AsyncMemwarden, Memwarden
from memwarden_client.errors import (
    AuthenticationError,
    Conflict,
    ConnectionFailed,
    InvalidRequest,
    JudgeRefused,
    MemwardenError,
    NotFound,
    PayloadTooLarge,
    PermissionDenied,
    RateLimited,
    ServerError,
    Unavailable,
)
from memwarden_client.streaming import ChatEvent

__version__ = "0.1.0"

__all__ = [
    "AsyncMemwarden",
    "AsyncMemwardenAdmin",
    "AuthenticationError",
    "ChatEvent",
    "Conflict",
    "ConnectionFailed",
    "InvalidRequest",
    "JudgeRefused",
    "Memwarden",
    "MemwardenAdmin",
    "MemwardenError",
    "NotFound",
    "PayloadTooLarge",
    "PermissionDenied",
    "RateLimited",
    "RetryEvent",
    "RetryPolicy",
    "ServerError",
    "Unavailable",
    "__version__",
    "models",
]
