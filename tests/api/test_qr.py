"""The server's QR codes (app/api/qr.py) hold exactly their link, and the tests' own reader
(tests/support/qr.py) reads every version and error-correction level it claims to, checked
against codes segno makes (so a test that decodes a page's QR code can be trusted)."""

from __future__ import annotations

import base64
import random
import string
from xml.etree import ElementTree

import pytest
import segno

from app.api.qr import qr_data_url, qr_svg
from tests.support.qr import decode_svg

ALPHABETS = {
    "byte": string.ascii_letters + string.digits + "/:?=_-.~",
    "alphanumeric": string.ascii_uppercase + string.digits + " $%*+-./:",
    "numeric": string.digits,
}


@pytest.mark.parametrize("version", range(1, 11))
@pytest.mark.parametrize("error", "lmqh")
def test_the_reader_reads_what_segno_writes(version: int, error: str) -> None:
    rng = random.Random(version * 10 + ord(error))
    read = 0
    for mode, alphabet in ALPHABETS.items():
        for _ in range(3):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
            try:
                code = segno.make(text, version=version, error=error, mode=mode,
                                  boost_error=False, micro=False)
            except segno.DataOverflowError:
                continue
            assert decode_svg(code.svg_inline(scale=1, border=4, omitsize=True)) == text
            read += 1
    assert read > 0


def test_the_server_draws_the_link_it_is_given() -> None:
    link = "https://games.example.org/join/AbC-123_xyz?room=1"
    svg = qr_svg(link, 'Invite "<b>"')
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" role="img" '
                          'aria-label="Invite &#34;&lt;b&gt;&#34;"')
    assert "viewBox" in svg and "width=" not in svg.split(">", 1)[0]
    assert decode_svg(svg) == link
    assert qr_data_url(link).startswith("data:image/svg+xml;base64,")


def test_the_code_is_an_svg_document_on_its_own() -> None:
    """Served as an image (invite-qr.svg, the hand-off's data: URL), the SVG is a document of
    its own: its root must be in the SVG namespace, or a browser shows a broken image."""
    link = "https://games.example.org/join/AbC-123"
    for text in (qr_svg(link), qr_svg(link, "Invite"),
                 base64.b64decode(qr_data_url(link).split(",", 1)[1]).decode()):
        root = ElementTree.fromstring(text)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert decode_svg(text) == link
