"""Run a module (the server: ``-m app.cli serve ...``) with a CPU profiler a signal turns on.

    python -m bench.profserve OUT.prof -m app.cli serve --port 8000

SIGUSR1 starts profiling (cProfile with ``time.process_time`` as its clock, so time spent
waiting or throttled by a CPU quota is not counted), SIGUSR2 stops it and writes OUT.prof.
bench.scale ``--profile`` uses it to profile only the measured window, not start-up or the
seating.
"""

from __future__ import annotations

import cProfile
import runpy
import signal
import sys
import time
from typing import Any


def main() -> None:
    usage = "usage: python -m bench.profserve OUT.prof -m MODULE [ARGS...]"
    argv = sys.argv[1:]
    if argv[:1] in (["-h"], ["--help"]):
        print(f"{usage}\n\n{__doc__}")
        return
    if len(argv) < 3 or argv[1] != "-m":
        raise SystemExit(usage)
    out, _, module, *rest = argv
    profile = cProfile.Profile(time.process_time)

    def start(_signum: int, _frame: Any) -> None:
        profile.enable()

    def stop(_signum: int, _frame: Any) -> None:
        profile.disable()
        profile.dump_stats(out)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.argv = [module, *rest]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
