"""The reviewer dashboard at /ui: server-rendered pages over the same use cases as HTTP,
MCP and the CLI (docs/dashboard.md)."""

from memwarden.web.mount import mount_dashboard

__all__ = ["mount_dashboard"]
