"""The adapters that plug vpnsite's domain core into the world: SQL storage, HTTP, the CLI."""
