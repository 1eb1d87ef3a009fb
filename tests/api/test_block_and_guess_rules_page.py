"""The Block and Guess rules page says what the table does with an answer. It said answers
"are revealed when everyone has answered" (es: "se desvelan"), but each answer is public as
soon as it is given (every seat's view and the log show it, "judged when everyone has
answered"); what waits for everyone is the judging: right or wrong, the object and the
points. The page now says so, in both languages."""

from __future__ import annotations

import httpx

from app.games import ENGINES
from app.i18n import translate

ENGINE = ENGINES["block-and-guess"]


def first_answer() -> tuple[dict, dict]:
    """A 4-player game played with the first legal action to its first guess phase, where the
    first guesser to move answers: (that build in the other team's guesser's view, the view)."""
    state = ENGINE.setup(4, {"first_seat": 0}, 3)
    while ENGINE.view(state, None)["phase"] != "guess":
        seat = min(ENGINE.to_act(state))
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    seat = min(ENGINE.to_act(state))
    guess = next(a for a in ENGINE.legal_actions(state, seat) if a["type"] == "guess")
    state, _ = ENGINE.apply(state, seat, guess)
    view = ENGINE.view(state, None)
    others = [s for b in view["builds"] if b["builder"] != guess["build"] for s in b["guessers"]]
    seen = ENGINE.view(state, others[0])
    return next(b for b in seen["builds"] if b["builder"] == guess["build"]), guess


def test_an_answer_is_shown_at_once_and_judged_later_as_the_page_says(shared_server) -> None:
    build, guess = first_answer()
    assert build["guess"] == guess["object"] and build["result"] is None
    assert build["target"] is None  # the object itself waits for everyone
    for lang, hidden in (("es", "se desvelan cuando"), ("en", "revealed when everyone")):
        page = httpx.get(f"{shared_server.url}/rules/block-and-guess",
                         headers={"Accept-Language": lang}, timeout=10)
        assert page.status_code == 200
        text = translate(lang, "block-and-guess.rules.guess1")
        assert text in page.text, lang
        assert hidden not in text, (lang, text)
        assert ("se ve en cuanto" if lang == "es" else "shown as soon as") in text, (lang, text)
