"""The ``vpnsite`` command."""
