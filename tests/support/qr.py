"""A small QR code reader for tests: the module grid of an SVG as the page shows it, decoded.

The tests decode the QR codes the pages render (the invite on the table screen, the hand-off
link) the way a phone would: from the picture alone, not from the server's own idea of what
it encoded. Enough of ISO/IEC 18004 for clean, computer-drawn codes of versions 1 to 10
(links up to ~270 characters): format information (the nearest valid word), unmasking, the
zigzag read, de-interleaving of the blocks, and numeric, alphanumeric and byte segments.
There is no error correction: a drawn SVG has no damaged modules to correct.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

# per error-correction level (L, M, Q, H) and version (index 1..10): error correction
# codewords per block and number of blocks (ISO/IEC 18004, table 9)
ECC_PER_BLOCK = {
    "L": [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18],
    "M": [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26],
    "Q": [0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24],
    "H": [0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28],
}
BLOCKS = {
    "L": [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4],
    "M": [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5],
    "Q": [0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8],
    "H": [0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8],
}
LEVEL_OF_BITS = {1: "L", 0: "M", 3: "Q", 2: "H"}
ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
MASKS = [
    lambda r, c: (r + c) % 2 == 0,
    lambda r, c: r % 2 == 0,
    lambda r, c: c % 3 == 0,
    lambda r, c: (r + c) % 3 == 0,
    lambda r, c: (r // 2 + c // 3) % 2 == 0,
    lambda r, c: (r * c) % 2 + (r * c) % 3 == 0,
    lambda r, c: ((r * c) % 2 + (r * c) % 3) % 2 == 0,
    lambda r, c: ((r + c) % 2 + (r * c) % 3) % 2 == 0,
]

Grid = list[list[bool]]


class QrError(ValueError):
    pass


# ------------------------------------------------------------------------ SVG → grid

def grid_from_svg(svg_text: str) -> Grid:
    """The dark modules of a QR code drawn as SVG: filled ``rect`` elements one module wide,
    or paths of horizontal strokes (``M x y.5 h n m dx dy ...``, segno's way), within the
    ``viewBox``; the quiet zone is cut off."""
    root = ElementTree.fromstring(svg_text)
    box = [float(v) for v in root.attrib["viewBox"].replace(",", " ").split()]
    width, height = int(box[2]), int(box[3])
    dark = [[False] * width for _ in range(height)]
    for node in root.iter():
        tag = node.tag.rsplit("}", 1)[-1]
        if tag == "path" and node.attrib.get("stroke") not in (None, "none"):
            _paint_strokes(dark, node.attrib["d"])
        elif tag == "rect" and node.attrib.get("fill", "#000") in ("#000", "black", "#000000"):
            x, y = int(float(node.attrib["x"])), int(float(node.attrib["y"]))
            w, h = int(float(node.attrib["width"])), int(float(node.attrib["height"]))
            if w < width:  # not the background
                for r in range(y, y + h):
                    for c in range(x, x + w):
                        dark[r][c] = True
    rows = [r for r in range(height) if any(dark[r])]
    cols = [c for c in range(width) if any(dark[r][c] for r in range(height))]
    if not rows:
        raise QrError("no dark module")
    top, left = rows[0], cols[0]
    size = rows[-1] - top + 1
    if cols[-1] - left + 1 != size:
        raise QrError("not square")
    return [row[left:left + size] for row in dark[top:top + size]]


def _paint_strokes(dark: Grid, d: str) -> None:
    x = y = 0.0
    tokens = re.findall(r"[MmHhVv]|-?\d*\.?\d+", d)
    i = 0
    command = ""
    while i < len(tokens):
        if tokens[i] in "MmHhVv":
            command = tokens[i]
            i += 1
        if command in "Mm":
            dx, dy = float(tokens[i]), float(tokens[i + 1])
            i += 2
            x, y = (dx, dy) if command == "M" else (x + dx, y + dy)
        elif command in "Hh":
            end = float(tokens[i]) + (x if command == "h" else 0.0)
            i += 1
            row = int(y)  # a stroke one module wide centred on y = row + 0.5
            for c in range(int(round(min(x, end))), int(round(max(x, end)))):
                dark[row][c] = True
            x = end
        else:
            raise QrError(f"unexpected path command {command!r}")


# ------------------------------------------------------------------------ grid → text

def _format_word(level_bits: int, mask: int) -> int:
    data = level_bits << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    return ((data << 10) | (rem & 0x3FF)) ^ 0x5412


def _read_format(grid: Grid) -> tuple[str, int]:
    bits = 0
    positions = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)]
    positions += [(8, 14 - i) for i in range(9, 15)]
    for i, (r, c) in enumerate(positions):
        if grid[r][c]:
            bits |= 1 << i
    best = min((bin(bits ^ _format_word(lv, m)).count("1"), lv, m)
                for lv in range(4) for m in range(8))
    if best[0] > 3:
        raise QrError("unreadable format information")
    return LEVEL_OF_BITS[best[1]], best[2]


def _alignment_positions(version: int) -> list[int]:
    if version == 1:
        return []
    count = version // 7 + 2
    size = 17 + 4 * version
    step = -(-(version * 4 + 4) // (count * 2 - 2)) * 2
    positions = [6]
    pos = size - 7
    while len(positions) < count:
        positions.insert(1, pos)
        pos -= step
    return positions


def _function_modules(version: int) -> Grid:
    size = 17 + 4 * version
    used = [[False] * size for _ in range(size)]

    def mark(r0: int, c0: int, h: int, w: int) -> None:
        for r in range(max(0, r0), min(size, r0 + h)):
            for c in range(max(0, c0), min(size, c0 + w)):
                used[r][c] = True

    mark(0, 0, 9, 9)  # finders with separators and format information
    mark(0, size - 8, 9, 8)
    mark(size - 8, 0, 8, 9)
    mark(6, 0, 1, size)  # timing patterns
    mark(0, 6, size, 1)
    positions = _alignment_positions(version)
    last = len(positions) - 1
    for i, r in enumerate(positions):
        for j, c in enumerate(positions):
            if (i, j) not in ((0, 0), (0, last), (last, 0)):
                mark(r - 2, c - 2, 5, 5)
    if version >= 7:  # version information
        mark(0, size - 11, 6, 3)
        mark(size - 11, 0, 3, 6)
    return used


def _raw_codewords(version: int) -> int:
    bits = (16 * version + 128) * version + 64
    if version >= 2:
        count = version // 7 + 2
        bits -= (25 * count - 10) * count - 55
        if version >= 7:
            bits -= 36
    return bits // 8


def _data_codewords(grid: Grid, version: int, level: str, mask: int) -> list[int]:
    size = len(grid)
    used = _function_modules(version)
    bits: list[int] = []
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = ((right + 1) & 2) == 0
        for vert in range(size):
            r = size - 1 - vert if upward else vert
            for c in (right, right - 1):
                if not used[r][c]:
                    bits.append(int(grid[r][c] ^ MASKS[mask](r, c)))
        right -= 2
    raw = _raw_codewords(version)
    words = [int("".join(map(str, bits[i * 8:i * 8 + 8])), 2) for i in range(raw)]
    blocks = BLOCKS[level][version]
    ecc = ECC_PER_BLOCK[level][version]
    short_len = raw // blocks
    short_blocks = blocks - raw % blocks
    data: list[list[int]] = [[] for _ in range(blocks)]
    it = iter(words)
    for i in range(short_len - ecc + 1):
        for b in range(blocks):
            if i < short_len - ecc or b >= short_blocks:
                data[b].append(next(it))
    return [w for block in data for w in block]


def _segments(words: list[int], version: int) -> str:
    bits = "".join(f"{w:08b}" for w in words)
    pos = 0

    def take(n: int) -> int:
        nonlocal pos
        value = int(bits[pos:pos + n] or "0", 2)
        pos += n
        return value

    wide = version >= 10
    out: list[str] = []
    raw = bytearray()
    while pos + 4 <= len(bits):
        mode = take(4)
        if mode == 0:
            break
        if mode == 0b0100:
            for _ in range(take(16 if wide else 8)):
                raw.append(take(8))
            continue
        if raw:
            out.append(_text(raw))
            raw = bytearray()
        if mode == 0b0001:
            count = take(12 if wide else 10)
            digits = ""
            while count >= 3:
                digits += f"{take(10):03d}"
                count -= 3
            if count:
                digits += f"{take(7 if count == 2 else 4):0{count}d}"
            out.append(digits)
        elif mode == 0b0010:
            count = take(11 if wide else 9)
            text = ""
            while count >= 2:
                pair = take(11)
                text += ALPHANUMERIC[pair // 45] + ALPHANUMERIC[pair % 45]
                count -= 2
            if count:
                text += ALPHANUMERIC[take(6)]
            out.append(text)
        elif mode == 0b0111:  # ECI: the assignment number, then go on (UTF-8 assumed)
            take(8)
        else:
            raise QrError(f"unsupported mode {mode:04b}")
    if raw:
        out.append(_text(raw))
    return "".join(out)


def _text(raw: bytes) -> str:
    """Byte segments: UTF-8 when they are, else ISO 8859-1 (the standard's default)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def decode_grid(grid: Grid) -> str:
    size = len(grid)
    version = (size - 17) // 4
    if size != 17 + 4 * version or not 1 <= version <= 10:
        raise QrError(f"unsupported size {size}")
    level, mask = _read_format(grid)
    return _segments(_data_codewords(grid, version, level, mask), version)


def decode_svg(svg_text: str) -> str:
    """The text a QR code drawn as SVG holds."""
    return decode_grid(grid_from_svg(svg_text))
