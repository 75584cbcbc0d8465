"""Alembic migrations of the game records, applied automatically on start."""
