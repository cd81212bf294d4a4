"""One module per area; each exposes `router`."""
