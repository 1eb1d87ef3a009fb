"""Database tables. Migrations in ``migrations/`` must follow every change here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from app.db.types import UTCDateTime


class Base(DeclarativeBase):
    pass


class Player(Base):
    """A guest identity: a display name and the hash of its bearer token."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # a server-side bot seated by a host (its token is never handed out)
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class GameTable(Base):
    """A table: waiting for players, playing, finished (then it is a match) or deleted."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    seat_count: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(16), index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    # the finished table this one is a rematch of (its players are invited to this one)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    # bumped by every process that takes the table over; an owner's writes carry the epoch it
    # took the table with, so a stale owner's writes are refused (app/tables/cluster.py)
    owner_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # a branch (a game played on from a moment of a finished match): the position its game
    # starts from (the engine's dump, what no seat knew dealt anew) instead of the set-up,
    # and the match and step it was taken from; its result is kept apart from the players'
    # history of real games
    position: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True),
                                                            nullable=True)
    branch_of: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    branch_step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # how long nobody had been at the table when its server stopped (written at a graceful
    # stop, read and cleared when the table is brought back): a restart does not give a
    # table nobody comes to a fresh hour (app/tables/registry.py, the janitor)
    idle_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)

    seats: Mapped[list[TableSeat]] = relationship(
        back_populates="table", order_by="TableSeat.seat", cascade="all, delete-orphan"
    )


class TableSeat(Base):
    __tablename__ = "table_seats"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)

    table: Mapped[GameTable] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined")


class ActionRecord(Base):
    """One accepted action; ``seq`` is the table version it produced."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(16), default="player")  # player | timeout
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ChatLine(Base):
    """One line of a table's chat: a player's or spectator's message, or a system line
    (``code`` and ``params``, translated by the client: joins, leaves, timed-out moves...)."""

    __tablename__ = "chat_lines"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, ... per table
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(64), default="")
    kind: Mapped[str] = mapped_column(String(16))  # player | spectator | system
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    code: Mapped[str | None] = mapped_column(String(32), nullable=True)
    params: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class DeviceHandoff(Base):
    """A "continue on another device" link, good once and for a few minutes
    (``app/api/handoff.py``). The row is keyed by a hash of the link's secret part and holds
    the player's token sealed with a key derived from that part, so the database alone can
    neither open the link nor recover the token."""

    __tablename__ = "device_handoffs"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), index=True)
    sealed: Mapped[str] = mapped_column(String(256))
    next_path: Mapped[str] = mapped_column(String(256), default="/")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
