"""Background work on procrastinate, sharing memwarden's PostgreSQL."""
