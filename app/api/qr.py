"""QR codes as SVG, drawn here on the server (segno): the invite link on the waiting table page
and on the table screen, the hand-off link of "continue on another device". No external
service ever sees a link.

The SVG has only a ``viewBox`` (no width or height), so the page sizes it with CSS: big
enough to scan from a sofa on the screen, smaller on a phone. Dark modules are one path of
horizontal strokes on a white square with a quiet zone of four modules, as scanners want.
"""

from __future__ import annotations

import base64

import segno
from markupsafe import Markup

QUIET_ZONE = 4
SVG_NS = "http://www.w3.org/2000/svg"


def qr_svg(text: str, label: str = "") -> str:
    """The SVG text of a QR code for ``text`` (error correction M, raised when it costs no
    size: a phone across a room reads a smudged or glaring code better)."""
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(scale=1, border=QUIET_ZONE, omitsize=True, svgclass="qr",
                          lineclass=None, dark="#000", light="#fff")
    # the SVG namespace: an inline <svg> in a page does without it, but the same text served
    # as an image (invite-qr.svg, the hand-off's data: URL) is an XML document of its own,
    # and without it Chromium shows the image as broken
    attributes = f'xmlns="{SVG_NS}" '
    if label:  # an accessible name: the page says what the code holds next to it, too
        attributes += f'role="img" aria-label="{Markup.escape(label)}" '
    return svg.replace("<svg ", "<svg " + attributes, 1)


def qr_markup(text: str, label: str = "") -> Markup:
    """The QR code to place inline in a template (segno's own output: no user text in it but
    the escaped label)."""
    return Markup(qr_svg(text, label))


def qr_data_url(text: str) -> str:
    """The QR code as a ``data:`` URL for an ``<img>`` (the page's CSP allows ``data:``
    images, never inline markup from a script)."""
    payload = base64.b64encode(qr_svg(text).encode()).decode()
    return f"data:image/svg+xml;base64,{payload}"
