"""The score chart (static/js/ui/chart.js) in Chromium: a game scored in whole points is never
labelled in halves. Block and Guess ended 2-0 with a scale of 0, 0.5, 1, 1.5, 2 (the grid's
step was a quarter of the range, whatever the points); now a chart of whole points steps by
1 at least, and one with fractions still gets its fine scale."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# the labels of the vertical scale (anchored at their end, left of the axis) of a chart of
# these rounds, drawn on one of the site's pages
LABELS = """async (rounds) => {
  const { scoreChart } = await import('/static/js/ui/chart.js');
  const { el, t } = await import('/static/js/i18n.js');
  const figure = scoreChart({ el, t }, { title: 'x', names: ['a', 'b'], rounds });
  return [...figure.querySelectorAll('svg.score-chart-svg text[text-anchor="end"]')]
    .map((n) => n.textContent);
}"""


def test_whole_points_are_labelled_in_whole_steps(shared_server, browser) -> None:
    page = browser.new_page()
    page.goto(shared_server.url + "/")
    assert page.evaluate(LABELS, [[0, 1], [0, 1]]) == ["0", "1", "2"]
    assert page.evaluate(LABELS, [[1, 0]]) == ["0", "1"]
    assert page.evaluate(LABELS, [[0, 40], [10, 0]]) == ["0", "10", "20", "30", "40"]
    assert page.evaluate(LABELS, [[0.5, 0], [0.5, 0.25]]) == ["0", "0.5", "1"]
    page.close()
