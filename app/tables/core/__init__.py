"""The table's own rules as a functional core (ARCHITECTURE.md, "The table: a functional
core and a thin shell"): no asyncio, no repository, no sockets; ``now`` is passed in.

- ``state.py``: ``TableState``, ``TableStatus`` and the records it holds
- ``commands.py``, ``effects.py``: what comes in, and what the shell must do, as data
- ``decide.py``: ``decide(table, command, now) -> (table, effects)`` and its handlers
- ``seating.py``, ``play.py``, ``bots.py``, ``room.py`` (connections and chat),
  ``presence.py``, ``votes.py``, ``ending.py``, ``clocks.py``, ``buckets.py``
- ``views.py``: the summary and each seat's state message
- ``wakeups.py``: the times the table wants to be woken at, and what each wake-up does
"""
