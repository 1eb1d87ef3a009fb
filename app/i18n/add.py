"""Add or update keys in both catalogues at once, safely when several people do it together.

Usage: ``python3 -m app.i18n.add strings.json`` where the file holds
``{"es": {"key": "texto", ...}, "en": {"key": "text", ...}}`` with the same keys in both.
New keys are appended after the existing ones (so related keys stay together), existing
keys are updated in place. The catalogues are rewritten under an exclusive file lock, so two
contributors adding strings at the same moment never lose each other's keys.
"""

from __future__ import annotations

import fcntl
import json
import re
import sys
from pathlib import Path

from app.i18n import HERE, LANGUAGES


def add(strings: dict[str, dict[str, str]]) -> int:
    """Merge ``strings`` (per language) into the catalogues; return how many keys changed."""
    keysets = {lang: set(strings.get(lang, {})) for lang in LANGUAGES}
    first = keysets[LANGUAGES[0]]
    if any(keys != first for keys in keysets.values()):
        raise SystemExit("every language must get the same keys")
    changed = 0
    with open(HERE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for lang in LANGUAGES:
            path = HERE / f"{lang}.json"
            catalogue = json.loads(path.read_text(encoding="utf-8"))
            for key, text in strings[lang].items():
                if catalogue.get(key) != text:
                    catalogue[key] = text
                    changed += 1
            path.write_text(dumps(catalogue), encoding="utf-8")
    return changed


# characters a reader cannot see (a soft hyphen, a no-break space...): kept as \u escapes
# so that a catalogue's diff shows them, as the catalogues were written by hand
INVISIBLE = re.compile(r"[^\S ]|[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]")


def dumps(catalogue: dict[str, str]) -> str:
    """A catalogue as its file holds it: two-space indents, letters as themselves,
    invisible characters escaped."""
    text = json.dumps(catalogue, ensure_ascii=False, indent=2) + "\n"
    return INVISIBLE.sub(lambda m: m.group() if m.group() == "\n" else f"\\u{ord(m.group()):04x}",
                         text)


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        raise SystemExit(__doc__)
    strings = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    print(f"{add(strings)} catalogue entries added or changed")


if __name__ == "__main__":
    main(sys.argv[1:])
