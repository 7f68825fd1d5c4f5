"""xlsudoku batch on a real Dask cluster: a scheduler and workers on 127.0.0.1, same output."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="Dask distributed is not installed (cluster extra)")

XLSUDOKU = [sys.executable, "-m", "xlsudoku"]


def _dask_command() -> list[str]:
    script = Path(sys.executable).with_name("dask")
    return [str(script)] if script.exists() else [sys.executable, "-m", "dask"]


def _start(args: list[str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [*_dask_command(), *args],
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A ``dask scheduler`` and a ``dask worker`` (2 single-thread processes), loopback only."""
    where = tmp_path_factory.mktemp("dask")
    file = where / "scheduler.json"
    scheduler = _start(
        [
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(file),
        ],
        where / "scheduler.log",
    )
    worker = None
    try:
        deadline = time.monotonic() + 60
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert file.exists(), (where / "scheduler.log").read_text()
        worker = _start(
            [
                "worker",
                "--scheduler-file",
                str(file),
                "--nworkers",
                "2",
                "--nthreads",
                "1",
                "--host",
                "127.0.0.1",
                "--no-dashboard",
                "--memory-limit",
                "0",
            ],
            where / "worker.log",
        )
        yield file
    finally:
        if worker is not None:
            _stop(worker)
        _stop(scheduler)


def _batch(tmp_path: Path, *args: str) -> bytes:
    done = subprocess.run(
        [*XLSUDOKU, "batch", "--quiet", "--seed", "21", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return (tmp_path / args[args.index("-o") + 1]).read_bytes()


def test_scheduler_address_gives_the_single_process_output(cluster, tmp_path):
    import json

    address = json.loads(cluster.read_text())["address"]
    assert address.startswith("tcp://127.0.0.1:")
    alone = _batch(tmp_path, "-n", "24", "-j", "1", "-o", "one.jsonl")
    assert _batch(tmp_path, "-n", "24", "--scheduler", address, "-o", "dask.jsonl") == alone
    # resume on the cluster: the first 10 from a scheduler file, the rest from the address
    _batch(tmp_path, "-n", "10", "--scheduler", str(cluster), "-o", "part.jsonl")
    more = _batch(tmp_path, "-n", "24", "--scheduler", address, "-o", "part.jsonl", "--resume")
    assert more == alone


def test_local_cluster_gives_the_single_process_output(tmp_path):
    alone = _batch(tmp_path, "-n", "12", "-j", "1", "--format", "csv", "-o", "one.out")
    local = _batch(
        tmp_path,
        "-n",
        "12",
        "-j",
        "2",
        "--scheduler",
        "local",
        "--format",
        "csv",
        "-o",
        "local.out",
    )
    assert local == alone


def test_unreachable_scheduler_is_a_clear_error(tmp_path):
    done = subprocess.run(
        [*XLSUDOKU, "batch", "-n", "2", "--scheduler", "tcp://127.0.0.1:9", "-o", "x.jsonl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 4 and "cannot use the Dask scheduler" in done.stderr
    assert not (tmp_path / "x.jsonl").exists()  # nothing was made, so no file is left
