"""What an operator runs beside the service: the backup archive and the systemd units."""
