"""Command-line interface (typer + rich): an operator's tool on the deployment's own data."""
