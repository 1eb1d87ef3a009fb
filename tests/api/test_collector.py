"""The garbage collector as the server tunes it (``app.metrics.tune_collector``): a growing
heap, as a busy server's (tables' histories, finished games kept a while), never meets a
collection that examines a million objects at once (the loop's worst stall: 526-616 ms in a
2-minute soak of 150 tables before), and a full collection stays as rare as ever.

Run in a fresh interpreter: the tuning freezes the process's objects and sets its
thresholds, which the test process must keep as they are."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys
from app.metrics import GC_THRESHOLDS, tune_collector
thresholds = json.loads(sys.argv[1])
if thresholds is None:
    tune_collector()
else:
    gc.collect(); gc.freeze(); gc.set_threshold(*thresholds)
examined = {1: [], 2: []}
def watch(phase, info):
    generation = info["generation"]
    if phase == "start" and generation:
        examined[generation].append(sum(len(gc.get_objects(g)) for g in range(generation + 1)))
gc.callbacks.append(watch)
kept = [{"entry": [i]} for i in range(1_500_000)]  # 3 million tracked objects that live on
gc.callbacks.remove(watch)
print(json.dumps({"middle": examined[1], "full": examined[2], "set": gc.get_threshold()}))
"""


def _grow(thresholds: tuple[int, int, int] | None) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(thresholds)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout)


def test_a_middle_collection_examines_tens_of_thousands_of_objects_not_a_million() -> None:
    from app.metrics import GC_THRESHOLDS

    seen = _grow(None)
    assert tuple(seen["set"]) == GC_THRESHOLDS
    assert len(seen["middle"]) >= 20  # the heap grew by 3 million: middle collections ran
    assert max(seen["middle"]) <= 110_000
    assert seen["full"] == []  # and not one full collection
    young, middle, old = GC_THRESHOLDS
    # a full collection waits for as many net allocations as it did before (50,000 x 20 x 100)
    assert young * middle * old >= 10**8 * 0.99


def test_the_thresholds_it_replaced_examined_a_million_at_once() -> None:
    """What the test above guards against: the former (50,000, 20, 100)."""
    seen = _grow((50_000, 20, 100))
    assert max(seen["middle"]) > 900_000
