"""Webhooks: subscriptions to a Context's events, delivered signed from the job queue."""
