"""The table's life in Chromium: a spectator through the spectator link (public cards only, or
every card when the host of a cooperative game allows it; the seat list shows who watches,
the chat says whether spectators may talk), names and chat with markup shown as text, system
lines and the automatic move in the log in both languages, the clock's countdown in the
banner, the abandon vote, resigning and the rematch invitation, and the replay page stepping
through a finished game of every game by buttons, keys, slider and action list."""

from __future__ import annotations

import random

import pytest

from app.api.deps import sign
from app.games import ENGINES
from tests.browser.comfort import run
from tests.support.client import ApiClient, connect_and_start, play_to_end, seat_players

pytestmark = pytest.mark.browser

SECRET = "test-secret"  # tests/support/server.py starts every server with it


def as_player(browser, base: str, player: ApiClient | None, lang: str = "en"):
    """A page whose identity cookie is ``player``'s (no cookie: an anonymous visitor)."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    cookies = [{"name": "lang", "value": lang, "url": base}]
    if player is not None:
        cookies.append({"name": "ludoteca_player", "value": sign(player.token, SECRET),
                        "url": base})
    context.add_cookies(cookies)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("dialog", lambda dialog: (problems.append(dialog.message), dialog.dismiss()))
    page.problems = problems  # type: ignore[attr-defined]
    return page


def started_table(base: str, game: str, seats: int, options: dict | None = None):
    players, table, _ = seat_players(base, game, seats, options)
    assert players[0].start(table["id"]).status_code == 200
    return players, table


def test_a_spectator_sees_public_cards_or_every_card_when_the_host_allows(
        shared_server, browser) -> None:
    base = shared_server.url
    for see_all in (False, True):
        players, table = started_table(base, "hanabi", 2, {"spectators_see_all": see_all})
        host = as_player(browser, base, players[0])
        host.goto(f"{base}/tables/{table['id']}")
        host.wait_for_selector("#watch-url")
        watch = host.locator("#watch-url").input_value()
        assert "/watch/" in watch
        spectator = as_player(browser, base, None)  # no name needed to watch
        spectator.goto(watch)
        spectator.wait_for_selector("#game .hand")
        faces = spectator.locator("#game .hand svg.hcard:not(.back)").count()
        backs = spectator.locator("#game .hand svg.hcard.back").count()
        if see_all:
            assert faces == 10 and backs == 0
            spectator.wait_for_selector("text=every card in view")
        else:
            assert faces == 0 and backs == 10
        # the players' own hand is never shown to them, whatever the option
        assert host.locator("#game .hand.mine svg.hcard:not(.back)").count() == 0
        host.wait_for_selector("#life-watchers:has-text('Watching (1)')")
        note = spectator.locator("#chat-note").inner_text()
        assert "choose a name" in note.lower()
        assert spectator.locator("#chat-input").is_disabled()
        assert spectator.problems == [] and host.problems == []  # type: ignore[attr-defined]
        spectator.context.close()
        host.context.close()


def test_markup_in_names_and_chat_is_text_and_system_lines_are_translated(
        shared_server, browser) -> None:
    base = shared_server.url
    evil = ApiClient(base, "<img src=x onerror=alert(1)>")
    table = evil.create_table("ikebana", 2, {"spectator_chat": True})
    guest = ApiClient(base, "Beto")
    assert guest.join(table["id"]).status_code == 200
    page = as_player(browser, base, evil, lang="es")
    page.goto(f"{base}/tables/{table['id']}")
    page.wait_for_selector("#chat li")
    page.fill("#chat-input", "<b id=injected>negrita</b>")
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector("#chat li:has-text('<b id=injected>negrita</b>')")
    assert page.locator("#injected, img[src='x']").count() == 0
    chat = page.locator("#chat").inner_text()
    assert "Beto se sentó a la mesa." in chat
    assert "<img src=x onerror=alert(1)>:" in chat
    assert page.locator(".chat-note").inner_text() == \
        "Los espectadores pueden chatear en esta mesa."
    watcher = as_player(browser, base, ApiClient(base, "<i>Vera</i>"))
    watcher.goto(f"{base}/tables/{table['id']}")
    watcher.wait_for_selector("text=As a spectator, you may chat.")
    watcher.fill("#chat-input", "hola & <adiós>")
    watcher.click("#chat-form button[type=submit]")
    page.wait_for_selector("#chat li.chat-spectator:has-text('<i>Vera</i> (espectador): "
                           "hola & <adiós>')")
    assert page.locator("i").count() == 0 and page.problems == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("clock", [{"clock": "turn", "turn_seconds": 3},
                                   {"clock": "chess", "bank_seconds": 10,
                                    "increment_seconds": 0}])
def test_the_clock_counts_down_in_the_banner_and_the_automatic_move_is_in_the_log(
        shared_server, browser, clock: dict) -> None:
    base = shared_server.url
    players, table = started_table(base, "ikebana", 2, clock)
    for player, lang, line in ((players[0], "en", "ran out of time: automatic move"),
                               (players[1], "es", "Se acabó el tiempo de")):
        page = as_player(browser, base, player, lang)
        page.goto(f"{base}/tables/{table['id']}")
        page.wait_for_selector("#banner #life-clock .life-time")
        first = page.locator("#life-clock .life-time").first.inner_text()
        assert first.endswith(" s")
        if clock["clock"] == "chess":  # the bank of the seat not on the move
            assert page.locator("#seats .life-bank").count() == 1
        page.wait_for_selector(f"#log li:has-text('{line}')", timeout=20_000)
        assert page.locator(f"#chat li.chat-system:has-text('{line[:12]}')").count() >= 1
        page.context.close()


def test_abandon_vote_then_resign_and_rematch(shared_server, browser) -> None:
    base = shared_server.url
    players, table = started_table(base, "hanabi", 3, {"absent_grace_seconds": 0})
    ana = as_player(browser, base, players[0])
    beto = as_player(browser, base, players[1], lang="es")
    for page in (ana, beto):
        page.goto(f"{base}/tables/{table['id']}")
    # P2 never came: the others may end the game as abandoned
    ana.wait_for_selector(".life-away")
    ana.click("#propose-abandon")
    beto.wait_for_selector("#vote-yes")
    beto.click("#vote-yes")
    ana.wait_for_selector("text=The game was ended as abandoned (a vote): no winner.")
    assert ana.locator("#replay-link").count() == 1

    players2, table2 = started_table(base, "hanabi", 2)
    ana.goto(f"{base}/tables/{table2['id']}")
    beto2 = as_player(browser, base, players2[1], lang="es")
    ana2 = as_player(browser, base, players2[0])
    ana2.goto(f"{base}/tables/{table2['id']}")
    beto2.goto(f"{base}/tables/{table2['id']}")
    ana2.click("#resign")
    ana2.click("#resign-yes")
    ana2.wait_for_selector("text=resigned: the game ended as a loss for everyone")
    ana2.click("#rematch")
    ana2.wait_for_url(lambda url: "/tables/" in url and table2["id"] not in url)
    beto2.wait_for_selector("text=¡Os invitan a la revancha!")
    beto2.click("#rematch")
    beto2.wait_for_url(ana2.url)
    ana2.wait_for_selector("#start-button:not([disabled])")
    for page in (ana, beto, ana2, beto2):
        assert page.problems == []  # type: ignore[attr-defined]


def _finished(base: str, ws: str, game: str) -> dict:
    async def play() -> dict:
        players, table, _ = seat_players(base, game, ENGINES[game].min_players)
        clients = await connect_and_start(ws, players, table)
        await play_to_end(clients, random.Random(3))
        for c in clients:
            await c.close()
        return table

    return run(play())


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_replay_page_steps_through_a_finished_game(shared_server, browser, game: str) -> None:
    base = shared_server.url
    table = _finished(base, shared_server.ws_url, game)
    for lang, step_text in (("en", "Step {n} of"), ("es", "Paso {n} de")):
        page = as_player(browser, base, None, lang)
        page.goto(f"{base}/matches/{table['id']}")

        def at(n: int, page=page, step_text=step_text) -> None:  # noqa: ANN001
            page.wait_for_selector(f"#replay-step:has-text('{step_text.format(n=n)}')")
            page.wait_for_function("() => document.querySelector('#game').children.length")

        at(0)
        total = int(page.locator("#replay-slider").get_attribute("max"))
        assert total > 3
        page.click("#replay-next")
        at(1)
        page.keyboard.press("ArrowRight")
        at(2)
        page.keyboard.press("ArrowLeft")
        at(1)
        page.locator("#replay-slider").fill(str(total // 2))
        at(total // 2)
        page.click("#replay-actions button[data-step='3']")
        at(3)
        assert page.locator("#replay-actions button[aria-current='step']").inner_text() \
            .startswith("3.")
        for point in ("0", "all", "spectator"):
            page.select_option("#replay-seat", point)
            at(3)
        page.locator("#replay-next").focus()  # the keys are the page's, not the select's
        page.keyboard.press("End")
        at(total)
        page.wait_for_selector("#replay-actions button[aria-current='step']")
        assert page.locator("#replay-result").inner_text()
        assert page.problems == []  # type: ignore[attr-defined]
        page.context.close()


def test_a_step_chosen_while_another_point_of_view_loads_is_kept(shared_server, browser) -> None:
    """Choosing a seat's point of view reloads the replay; a step chosen while it loads (End,
    here) is where the page stays, and an answer for a point of view chosen before the last
    one never replaces the newer one's. The new replay's answers are held back by the test
    until the step has been chosen (under load the suite met this by chance)."""
    base = shared_server.url
    table = _finished(base, shared_server.ws_url, "hanabi")
    held: list = []
    page = as_player(browser, base, None)
    page.route("**/replay?seat=0", lambda route: held.append(route))
    page.route("**/replay?seat=all", lambda route: held.append(route))
    page.goto(f"{base}/matches/{table['id']}?step=3")
    page.wait_for_selector("#replay-step:has-text('Step 3 of')")
    total = int(page.locator("#replay-slider").get_attribute("max"))
    page.select_option("#replay-seat", "0")
    page.select_option("#replay-seat", "all")
    while len(held) < 2:  # both requests made and held
        page.wait_for_timeout(20)
    page.locator("#replay-next").focus()
    page.keyboard.press("End")
    page.wait_for_selector(f"#replay-step:has-text('Step {total} of')")
    newest, older = held[1], held[0]
    with page.expect_response("**/replay?seat=all"):
        newest.continue_()
    page.wait_for_timeout(300)  # the page renders the answer (and its step's view)
    assert page.locator("#replay-step").inner_text().startswith(f"Step {total} of")
    # the seat-0 answer arrives last, for a choice already replaced; it is cut to its first
    # four steps here, so that the list of actions shows whether it was taken
    answer = older.fetch()
    body = answer.json()
    body["steps"] = body["steps"][:4]
    with page.expect_response("**/replay?seat=0"):
        older.fulfill(response=answer, json=body)
    page.wait_for_timeout(300)
    assert page.locator("#replay-step").inner_text().startswith(f"Step {total} of")
    assert page.locator("#replay-seat").input_value() == "all"
    # the list of actions is the last choice's: the deal and every step, not four
    shown = page.locator("#replay-actions button").all_inner_texts()
    assert len(shown) == total + 1
    assert page.problems == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_chat_comes_back_after_a_restart_once(shared_server, browser) -> None:
    base = shared_server.url
    players, table = started_table(base, "hanabi", 2)
    page = as_player(browser, base, players[0])
    sockets: list = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(f"{base}/tables/{table['id']}")
    page.wait_for_selector("#conn-status.ok")  # a line typed before that is not sent
    page.fill("#chat-input", "before the restart")
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector("#chat li:has-text('before the restart')")
    shared_server.restart(kill=True)
    # the page's socket reconnects by itself; the replayed lines are not shown twice
    for _ in range(300):
        if len(sockets) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(sockets) >= 2, "the page did not reconnect"
    page.wait_for_selector("#conn-status.ok", timeout=30_000)
    page.wait_for_timeout(500)  # the replayed lines have arrived
    assert page.locator("#chat li:has-text('before the restart')").count() == 1
    page.reload()
    page.wait_for_selector("#chat li:has-text('before the restart')")
    assert page.locator("#chat li:has-text('The game begins.')").count() == 1
    assert page.problems == []  # type: ignore[attr-defined]


def test_replay_history_and_spectator_pages_pass_axe(shared_server, browser) -> None:
    from tests.support.axe import axe_source, axe_violations

    axe_source()  # install (or find) axe-core first
    base = shared_server.url
    table = _finished(base, shared_server.ws_url, "hanabi")
    players, live = started_table(base, "ikebana", 2, {"clock": "chess"})
    problems: list[str] = []
    for lang in ("es", "en"):
        for width in (390, 1280):
            page = as_player(browser, base, players[0], lang)
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"{base}/matches/{table['id']}")
            page.wait_for_selector("#replay-actions button")
            page.keyboard.press("End")
            page.wait_for_selector("#replay-actions button[aria-current='step']")
            problems += [f"replay {lang} {width}: {v}" for v in axe_violations(page)]
            page.goto(f"{base}/players/{players[0].id}")
            problems += [f"history {lang} {width}: {v}" for v in axe_violations(page)]
            page.goto(f"{base}/tables/{live['id']}")
            page.wait_for_selector("#life-clock")
            problems += [f"table {lang} {width}: {v}" for v in axe_violations(page)]
            page.context.close()
    assert not problems, problems
