"""Run a benchmark with its processes held to a quarter of one core: a stand-in for a Raspberry Pi 4's CPU.

Run: python benchmarks/quarter_core.py [--share 0.25] [--period-ms 10] benchmarks/ui.py [its options].

The benchmark and every process it starts (the app, the bare Kivy app) run
in a CPU cgroup of their own whose quota is ``--share`` of one core: under
cgroup v1 ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us``, under v2
``cpu.max``; where neither can be written and systemd runs, ``systemd-run
--scope -p CPUQuota=``. The period is short (10 ms, where the kernel's and
systemd's default is 100 ms) so a frame is slowed evenly, as on a slower
core, not run at full speed and then held for most of a period. The display
(Xvfb, started here when there is none) stays outside the quota: on a Pi the
GPU and the kernel's display driver show the frame. The cgroup is removed
when the benchmark ends, however it ends; when none can be made the script
says why and runs nothing.

What the stand-in is worth is in docs/PERFORMANCE.md ("A Pi's CPU, stood in for").
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from ui import with_display  # noqa: E402  (the same display as the benchmarks start)

CGROUP_NAME = f"spicy-quarter-core-{os.getpid()}"


class CannotConfine(Exception):
    """Why no CPU quota can be set here, in words for the person running the script."""


@dataclass
class Quota:
    """A cgroup made for the run, with a CPU quota; its processes leave it before it is removed."""

    path: Path
    how: str
    """Which interface set it, for the figures' header."""

    def join(self) -> None:
        """Called in the child between fork and exec: the benchmark starts inside the quota."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def throttled(self) -> str:
        """What the quota held back, from the cgroup's own count (``cpu.stat``)."""
        stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines() if " " in line)
        if "nr_throttled" not in stat:
            return "no throttling count"
        held = int(stat.get("throttled_usec", int(stat.get("throttled_time", 0)) // 1000)) / 1e6
        return f"held back in {stat['nr_throttled']} of {stat['nr_periods']} periods, {held:.1f} s in all"

    def remove(self) -> None:
        """Ends what the benchmark left running in the cgroup (its own processes), then removes it."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            left = [int(pid) for pid in (self.path / "cgroup.procs").read_text().split()]
            for pid in left:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + 5
            while left and time.monotonic() < deadline and (self.path / "cgroup.procs").read_text().strip():
                time.sleep(0.05)
        try:
            self.path.rmdir()
        except OSError as exc:
            sys.exit(f"quarter_core: could not remove the cgroup {self.path} ({exc.strerror}): remove it with "
                     f"rmdir once no process is left in it")


def _mounts() -> list[tuple[Path, str, set[str]]]:
    """Each cgroup mount: its mount point, its type and its options (v1's controllers are options)."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        kind = fields[fields.index("-") + 1]
        if kind in ("cgroup", "cgroup2"):
            found.append((Path(fields[4]), kind, set(fields[-1].split(","))))
    return found


def _own_cgroup(controller: str) -> str:
    """This process's cgroup in the hierarchy of ``controller`` ("" for v2's unified one)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path.lstrip("/")
    return ""


def cgroup_quota(share: float, period_us: int) -> Quota:
    """A new cgroup under this process's own, with ``share`` of one core each ``period_us``."""
    if os.geteuid() != 0:
        raise CannotConfine("writing a cgroup needs root here (the tests and benchmarks run as root on this "
                            "project's machines); run it with sudo")
    quota_us = max(1000, round(share * period_us))
    for mount, kind, options in _mounts():
        if kind == "cgroup" and "cpu" in options:
            return _made(mount / _own_cgroup("cpu") / CGROUP_NAME,
                         {"cpu.cfs_period_us": str(period_us), "cpu.cfs_quota_us": str(quota_us)},
                         f"cgroup v1, cpu.cfs_quota_us {quota_us} of cpu.cfs_period_us {period_us}")
    for mount, kind, _options in _mounts():
        parent = mount / _own_cgroup("")
        if kind == "cgroup2" and "cpu" in (parent / "cgroup.controllers").read_text().split():
            if "cpu" not in (parent / "cgroup.subtree_control").read_text().split():
                (parent / "cgroup.subtree_control").write_text("+cpu")
            return _made(parent / CGROUP_NAME, {"cpu.max": f"{quota_us} {period_us}"},
                         f"cgroup v2, cpu.max {quota_us} {period_us}")
    raise CannotConfine("no cgroup here has the cpu controller (no cgroup v1 'cpu' mount, and cgroup v2's "
                        "cgroup.controllers has no 'cpu')")


def _made(path: Path, settings: dict[str, str], how: str) -> Quota:
    """The cgroup at ``path`` with these files written; none left behind when one cannot be."""
    path.mkdir()
    try:
        for name, value in settings.items():
            (path / name).write_text(value)
    except OSError:
        path.rmdir()
        raise
    return Quota(path, how)


def systemd_command(share: float, period_us: int) -> list[str]:
    """``systemd-run`` in front of the command, where systemd runs (a transient scope with the quota)."""
    if not Path("/run/systemd/system").is_dir() or shutil.which("systemd-run") is None:
        raise CannotConfine("systemd is not running here")
    user = [] if os.geteuid() == 0 else ["--user"]
    return ["systemd-run", *user, "--scope", "--quiet", "-p", f"CPUQuota={share * 100:g}%",
            "-p", f"CPUQuotaPeriodSec={period_us // 1000}ms", "--"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--share", type=float, default=0.25, help="of one core (default 0.25)")
    parser.add_argument("--period-ms", type=int, default=10, help="the quota's period (default 10 ms)")
    parser.add_argument("benchmark", help="the benchmark script, e.g. benchmarks/ui.py")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="the benchmark's own options")
    args = parser.parse_args()
    period_us = args.period_ms * 1000
    command = [sys.executable, args.benchmark, *args.options]
    quota = None
    try:
        quota = cgroup_quota(args.share, period_us)
        how = quota.how
    except (CannotConfine, OSError) as exc:
        why = str(exc) if isinstance(exc, CannotConfine) else f"the cgroup could not be made: {exc}"
        try:
            command = [*systemd_command(args.share, period_us), *command]
        except CannotConfine as no_systemd:
            sys.exit(f"quarter_core: cannot hold the benchmark to {args.share:g} of a core: {why}; and {no_systemd}. "
                     "Nothing was run.")
        how = f"systemd-run --scope, CPUQuota={args.share * 100:g}% ({why})"
    label = f"{args.share * 100:g}% of one core ({how})"
    print(f"confined to {label}", flush=True)
    try:
        with_display()  # before the environment is copied: the benchmark draws on it
        env = {**os.environ, "SPICY_BENCH_CONFINED": label}
        process = subprocess.Popen(command, env=env, preexec_fn=quota.join if quota else None)
        signal.signal(signal.SIGTERM, lambda _sig, _frame: process.terminate())  # ended here: the benchmark too
        try:
            code = process.wait()
        except KeyboardInterrupt:  # the terminal sent it to the benchmark too
            code = process.wait()
        if quota is not None:
            print(f"the quota {quota.throttled()}", flush=True)
    finally:
        if quota is not None:
            quota.remove()
    sys.exit(code)


if __name__ == "__main__":
    main()
