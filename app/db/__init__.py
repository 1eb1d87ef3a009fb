"""Persistence: SQLAlchemy 2 async models, engine/session factory and the repository."""
