"""English says "an 8", "an 11": Allegra's log and prompts said "Bot 2 turns up a 8" and
"took a 11" (its cards run from -1 to 11, and its English strings say a card as "a
{value}"). The pages' t() in static/js/i18n.js puts "an" before a number said with a vowel
sound, in English only. Checked through the page's own module, for chosen numbers and over
the whole English catalogue with every parameter an 8 or an 11."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def page_in(browser, base: str, lang: str):
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    page = context.new_page()
    page.goto(base + "/rules/allegra")
    return page


def test_an_before_a_number_said_with_a_vowel(worker_server, browser) -> None:
    page = page_in(browser, worker_server.url, "en")
    said = page.evaluate("""async () => {
      const { t } = await import('/static/js/i18n.js');
      const line = (value) => t('allegra.log.revealed', { player: 'Ana', value, owner: 'Beto' });
      return [-1, 0, 1, 7, 8, 11, 18, 80, 110, 800, 1800].map(line); }""")
    articles = [line.split(" turns up ")[1].split(" ")[0] for line in said]
    assert articles == ["a", "a", "a", "a", "an", "an", "an", "an", "a", "an", "a"]
    assert said[4] == "Ana turns up an 8 (Beto’s card)"
    # every English string, each parameter an 8 or an 11: never "a 8", "a 11"
    wrong = page.evaluate("""async () => {
      const { t } = await import('/static/js/i18n.js');
      const out = [];
      for (const [key, text] of Object.entries(window.I18N)) {
        const names = [...text.matchAll(/\\{(\\w+)\\}/g)].map((m) => m[1]);
        for (const number of [8, 11]) {
          const params = Object.fromEntries(names.map((name) => [name, number]));
          const line = t(key, params);
          if (/\\b[Aa] (8|11)\\b/.test(line)) out.push(`${key}: ${line}`);
        }
      }
      return out; }""")
    assert not wrong, wrong
    page.context.close()


def test_spanish_is_left_as_it_is(worker_server, browser) -> None:
    page = page_in(browser, worker_server.url, "es")
    said = page.evaluate("""async () => {
      const { t } = await import('/static/js/i18n.js');
      return t('allegra.log.revealed', { player: 'Ana', value: 8, owner: 'Beto' }); }""")
    assert said == "Ana gira un 8 (de Beto)"
    page.context.close()
