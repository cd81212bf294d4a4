"""Chat over memory (/chat and its stream) and reflection (/reflect)."""
