"""The MCP interface: the same service functions as HTTP, as tools for agents and reviewers."""
