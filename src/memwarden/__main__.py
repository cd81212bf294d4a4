"""`python -m memwarden` is the `memwarden` command."""

from memwarden.cli.main import app

app()
