"""Counts of one read as one, in Spanish and English: "Celia: 1 points" (Block and Guess'
scores), "Your hand: 1 cards" (Alebrijes near a round's end), "Final round! 1 turns left"
(every Hanabi game's last turn), "1 puntos de 25" (Hanabi's final line); and no count says
"2 rostro(s)" (Ajolocracia). The pages' t() now takes a key's "_one" form when its count
``n`` is 1; every catalogue string with a count of things has that form. Checked in the
page, through static/js/i18n.js, over the whole catalogue of each language (the table
screen's strings too), in the server's translate() (a player's history page says "1
punto"), and in Hanabi's own final heading."""

from __future__ import annotations

import pytest

from app.i18n import translate

pytestmark = pytest.mark.browser

# a count of one followed by a plural noun, in either language
PLURAL_AFTER_ONE = (r"(^|[^\d.,-])1 (points|cards|turns|rounds|seconds|votes|players|"
                    r"puntos|cartas|turnos|rondas|segundos|votos|jugadores|personas)\b")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_count_of_one_reads_as_one(worker_server, browser, lang: str) -> None:
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": lang, "url": worker_server.url}])
    page = context.new_page()
    page.goto(worker_server.url + "/rules/hanabi")
    wrong = page.evaluate("""async (pattern) => {
      const { t } = await import('/static/js/i18n.js');
      const plural = new RegExp(pattern);
      const out = [];
      for (const key of Object.keys(window.I18N)) {
        if (!window.I18N[key].includes('{n}')) continue;
        // the other placeholders filled with words, so that only the count is a number
        const text = t(key, new Proxy({ n: 1 }, {
          has: () => true, get: (target, name) => (name in target ? target[name] : 'X') }));
        if (plural.test(text)) out.push(`${key}: ${text}`);
        // nor a word with both numbers at once: "2 carta(s)"
        const both = /[a-záéíóúñ][(](s|es)[)]/i;
        if (both.test(window.I18N[key])) out.push(`${key}: ${window.I18N[key]}`);
      }
      return out; }""", PLURAL_AFTER_ONE)
    assert not wrong, "\n".join(wrong)
    context.close()


def test_the_server_reads_a_count_of_one_as_one() -> None:
    assert translate("es", "history.score", n=1) == "1 punto"
    assert translate("en", "history.score", n=1) == "1 point"
    assert translate("es", "history.score", n=2) == "2 puntos"
    assert translate("en", "history.score", n=0) == "0 points"


@pytest.mark.parametrize(("lang", "one", "zero"), [
    ("es", "1 punto de 25", "0 puntos de 25"),
    ("en", "1 point out of 25", "0 points out of 25")])
def test_hanabis_final_line_reads_a_score_of_one_as_one(worker_server, browser, lang: str,
                                                         one: str, zero: str) -> None:
    """The end-of-game heading Hanabi's client draws (finalBanner), from a view whose score
    is 1, then 0: the score is the count that picks the catalogue's '_one' form."""
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": lang, "url": worker_server.url}])
    page = context.new_page()
    page.goto(worker_server.url + "/rules/hanabi")
    headings = page.evaluate("""async () => {
      const { t, el } = await import('/static/js/i18n.js');
      const { finalBanner } = await import('/static/js/games/hanabi.js');
      return [1, 0].map((score) => finalBanner({ t, el }, {
        score, max_score: 25, verdict: 'horrible', over: 'deck_out',
      }).querySelector('h2').textContent);
    }""")
    assert headings == [one, zero]
    context.close()


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("es", "Ana: 1 punto en la ronda 2", "Beto: 2 puntos en la ronda 2"),
    ("en", "Ana: 1 point in round 2", "Beto: 2 points in round 2")])
def test_ajolocracias_round_scores_read_a_point_of_one_as_one(worker_server, browser,
                                                               lang: str, one: str,
                                                               two: str) -> None:
    """The log lines Ajolocracia's client writes for a round's scores (eventLines): a seat
    that scored 1 reads '1 punto', not '1 puntos'."""
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": lang, "url": worker_server.url}])
    page = context.new_page()
    page.goto(worker_server.url + "/rules/ajolocracia")
    lines = page.evaluate("""async () => {
      const { t, el } = await import('/static/js/i18n.js');
      const { eventLines } = await import('/static/js/games/ajolocracia.js');
      const names = ['Ana', 'Beto'];
      return eventLines({ t, el, seatName: (s) => names[s] },
                        { type: 'round_scored', round: 2, scores: [{ total: 1 }, { total: 2 }] });
    }""")
    assert lines[1:] == [one, two]
    context.close()
