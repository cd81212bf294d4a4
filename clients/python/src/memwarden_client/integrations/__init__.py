"""Framework adapters, one module per framework, each needing its extra
(`pip install 'memwarden-client[langgraph]'` and so on); importing this package alone
imports no framework. Guides: docs/clients/<framework>.md."""
