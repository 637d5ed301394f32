"""Running keyed Ray tasks: results streamed back as they finish, a task lost with its node
(worker crash, node death, lost object) submitted again, a key's result taken once, the rest
cancelled when the caller says stop."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Hashable, Iterable, List, Tuple

import ray
from ray.exceptions import RayError, RayTaskError

from .errors import ClusterError

#: What the caller's ``on_result`` returns: keys now ready to submit, and whether to stop.
Next = Tuple[Iterable[Hashable], bool]


@dataclass
class RunReport:
    """What happened: each key's result, the keys retried (with why), those cancelled."""

    results: Dict[Hashable, Any] = field(default_factory=dict)
    retried: Dict[Hashable, List[str]] = field(default_factory=dict)
    cancelled: List[Hashable] = field(default_factory=list)
    seconds: float = 0.0

    def retry_lines(self) -> List[str]:
        """One line per retried key: the key and the failures before its result."""
        return [
            f"{key}: {len(why)} {'retry' if len(why) == 1 else 'retries'} ({'; '.join(why)})"
            for key, why in self.retried.items()
        ]


def run_tasks(
    submit: Callable[[Hashable], "ray.ObjectRef"],
    first: Iterable[Hashable],
    on_result: Callable[[Hashable, Any], Next],
    attempts: int = 3,
    stall_timeout: float = 3600.0,
) -> RunReport:
    """Submits ``first``, then whatever ``on_result`` makes ready, until nothing runs. A task
    that fails because Ray lost it is submitted again, at most ``attempts`` times in all; one
    whose binary failed (a RayTaskError) stops the run with a ClusterError. ``stall_timeout``:
    the longest wait without any task finishing."""
    report = RunReport()
    start = time.monotonic()
    running: Dict["ray.ObjectRef", Hashable] = {}
    tries: Dict[Hashable, int] = {}

    def launch(key: Hashable) -> None:
        if key in report.results or key in running.values():
            return
        tries[key] = tries.get(key, 0) + 1
        running[submit(key)] = key

    for key in first:
        launch(key)
    stop = False
    while running and not stop:
        done, _ = ray.wait(list(running), num_returns=1, timeout=stall_timeout)
        if not done:
            raise ClusterError(f"no task finished in {stall_timeout:.0f} s ({len(running)} running)")
        ref = done[0]
        key = running.pop(ref)
        try:
            result = ray.get(ref)
        except RayTaskError as e:
            cause = e.cause if getattr(e, "cause", None) is not None else e
            raise ClusterError(f"task {key} failed: {cause}") from None
        except RayError as e:
            why = f"{type(e).__name__}"
            report.retried.setdefault(key, []).append(why)
            if tries[key] >= attempts:
                raise ClusterError(f"task {key} lost {attempts} times (last: {why})") from None
            launch(key)
            continue
        if key in report.results:
            continue  # a duplicate result is never counted twice
        report.results[key] = result
        more, stop = on_result(key, result)
        if not stop:
            for k in more:
                launch(k)
    for ref, key in running.items():
        ray.cancel(ref, force=True)
        report.cancelled.append(key)
    report.seconds = time.monotonic() - start
    return report
