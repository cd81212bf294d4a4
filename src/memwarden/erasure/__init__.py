"""Erasure: the irreversible forget of issue 25 (docs/erasure.md)."""
