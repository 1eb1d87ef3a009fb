"""The order the suite hands its files to the workers (tests/conftest.py)."""

from __future__ import annotations

from typing import Any

from tests.conftest import slow_files_first


class Item:
    def __init__(self, nodeid: str, slow: bool = False) -> None:
        self.nodeid = nodeid
        self.slow = slow

    def get_closest_marker(self, name: str) -> Any:
        return object() if name == "slow" and self.slow else None


def test_files_with_a_slow_test_go_first_and_each_file_stays_together() -> None:
    items = [Item("tests/api/test_a.py::t1"), Item("tests/browser/test_b.py::t1"),
             Item("tests/browser/test_b.py::t2"), Item("tests/deploy/test_c.py::fast"),
             Item("tests/deploy/test_c.py::build", slow=True), Item("tests/games/test_d.py::t"),
             Item("tests/reliability/test_e.py::soak", slow=True)]
    ordered = [item.nodeid for item in slow_files_first(items)]  # type: ignore[arg-type]
    assert ordered == ["tests/deploy/test_c.py::fast", "tests/deploy/test_c.py::build",
                       "tests/reliability/test_e.py::soak", "tests/api/test_a.py::t1",
                       "tests/browser/test_b.py::t1", "tests/browser/test_b.py::t2",
                       "tests/games/test_d.py::t"]
