"""Storage on SQLite (the embedded default) or PostgreSQL, through peewee."""
