"""Mail: an SMTP adapter, an outbox folder of .eml files, the queue that retries, and the texts."""
