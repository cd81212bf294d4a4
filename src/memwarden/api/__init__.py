"""HTTP interface: parse, authenticate, call one use case, render."""
