"""Display names: what a name may hold, and the one function that cleans it.

Used wherever a name comes in: the API's bodies, the name form, an imported match file.
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 32
# a body far longer than any name is refused before any work is done on it
NAME_INPUT_MAX = 256


class BadName(ValueError):
    """A display name that cannot be used; ``key`` names the translated message."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def clean_name(raw: str) -> str:
    """A display name as shown to others: NFC, no control or invisible characters, runs of
    spaces made one, trimmed, 1 to 32 characters. Raises ``BadName`` with a clear message."""
    if len(raw) > NAME_INPUT_MAX:
        raise BadName("name.error.too_long", f"a name has at most {NAME_MAX} characters")
    text = unicodedata.normalize("NFC", raw)
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        raise BadName("name.error.control",
                         "a name cannot hold control characters (tabs, line breaks...)")
    text = " ".join(text.split())  # every kind of space becomes one plain space
    if not text:
        raise BadName("name.error.empty", "a name needs at least one visible character")
    if any(not ch.isprintable() for ch in text):
        raise BadName("name.error.invisible",
                         "a name cannot hold invisible or formatting characters")
    if len(text) > NAME_MAX:
        raise BadName("name.error.too_long", f"a name has at most {NAME_MAX} characters")
    return text


def clean_chat_text(text: str) -> str:
    """Chat text as the server takes it, live or imported: not blank, no control characters
    (line breaks and tabs aside) and no lone surrogates, which a database cannot store (a NUL
    made PostgreSQL refuse the line after it had been accepted)."""
    if not text.strip():
        raise ValueError("empty text")
    if any(unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\n\t" for ch in text):
        raise ValueError("control characters in the text")
    return text
