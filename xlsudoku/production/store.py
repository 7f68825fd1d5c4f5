"""A batch's output file: locked, appended and fsynced as puzzles are done, resumable.

- **Format**: JSON lines (``.jsonl``) or CSV with a header (``.csv``): one record per line, in
  item order.  A record never holds a newline, so a line is complete exactly when it ends
  with one.
- **Appending**: each group of records is written, flushed and fsynced before the next is
  taken, so a killed run (``kill -9``, power cut) keeps every record it wrote whole.
- **Resume**: :meth:`BatchFile.open` with ``resume`` reads every complete line back, drops a
  torn last line (cut from the file), and tells the next item; a line that is whole but not a
  record stops it with the line's number (nothing is thrown away silently).
- **State**: items that gave no record after the last record (duplicates, targets not
  reached) would be tried again on resume; ``PATH.state`` records the next item and the
  batch's spec, written atomically (temporary file, fsync, rename) when it moves past them.
- **Lock**: ``PATH.lock`` (:mod:`filelock`) keeps two batches from writing one file.
- **Puzzles file** (optional): the puzzles alone in one of the engine's formats, rebuilt from
  the records on resume and appended with them.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from xlsudoku.engine.formats import (
    INFO_FORMATS,
    PuzzleFormat,
    decode_text,
    format_grid,
    json_value,
)
from xlsudoku.engine.grid import Grid, ParseError
from xlsudoku.production.records import (
    Record,
    csv_header,
    from_csv_line,
    from_json_line,
    to_csv_line,
    to_json_line,
)
from xlsudoku.production.spec import geometry_named
from xlsudoku.xlsm.files import replace_file

FORMATS = ("jsonl", "csv")
MAX_BATCH_BYTES = 256 * 1024 * 1024
"""The largest batch file --resume reads back (over half a million 9x9 records)."""
MAX_STATE_BYTES = 1024 * 1024
"""The largest state file (``PATH.state``) read back."""
_SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv"}


class StoreError(RuntimeError):
    """The output cannot be used: it exists without --resume, is locked, or a line is bad."""


def format_of(path: str, given: str | None) -> str:
    """Return the record format: *given*, else from the file's extension.

    Raises:
        ValueError: the name has no record format's extension (a command-line mistake).

    >>> format_of("out.CSV", None), format_of("out.txt", "jsonl")
    ('csv', 'jsonl')
    """
    if given is not None:
        return given
    found = _SUFFIXES.get(Path(path).suffix.lower())
    if found is None:
        raise ValueError(f"{path}: name a .jsonl or .csv file, or give --format jsonl|csv")
    return found


@dataclass
class Kept:
    """What a resumed file already holds.

    Attributes:
        records: The complete records, in order.
        next_index: The first item not tried yet.
        spec: The spec the state file recorded, or None.
        torn: Bytes cut from a torn last line.
    """

    records: list[Record] = field(default_factory=list)
    next_index: int = 0
    spec: dict[str, Any] | None = None
    torn: int = 0


def _fsync_write(handle: IO[bytes], data: bytes) -> None:
    handle.write(data)
    handle.flush()
    os.fsync(handle.fileno())


def _atomic_write(path: Path, data: bytes) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temp, "wb") as handle:
        _fsync_write(handle, data)
    replace_file(temp, path)  # waits while another program holds it open


class PuzzleFile:
    """The puzzles alone, in one of the engine's formats, kept in step with the records."""

    def __init__(self, path: str, fmt: PuzzleFormat) -> None:
        self.path = Path(path)
        self.fmt = fmt
        self._handle: IO[bytes] | None = None
        self._any = False

    def _text(self, records: list[Record]) -> str:
        parts = []
        one_line = self.fmt in (PuzzleFormat.LINE, PuzzleFormat.SDM)
        for record in records:
            grid = Grid.parse(str(record["puzzle"]), geometry_named(str(record["geometry"])))
            info = {"comment": f"seed {record['seed']}", "level": str(record["level"])}
            text = format_grid(grid, self.fmt, info if self.fmt in INFO_FORMATS else None)
            parts.append(text + "\n" if one_line or not self._any else "\n" + text + "\n")
            self._any = True
        return "".join(parts)

    def open(self, records: list[Record]) -> None:
        """Rewrite the file from *records* (atomically) and keep it open for appending."""
        self._any = False
        _atomic_write(self.path, self._text(records).encode("utf-8"))
        self._handle = open(self.path, "ab")

    def append(self, records: list[Record]) -> None:
        """Append the puzzles of *records*."""
        if self._handle is not None and records:
            _fsync_write(self._handle, self._text(records).encode("utf-8"))

    def close(self) -> None:
        """Close the file."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None


class BatchFile:
    """The records of a batch on a file (or standard output), appended as they are made.

    Use :meth:`open`, then :meth:`append` for each group of records, then :meth:`close`.
    """

    def __init__(self, path: str | None, fmt: str, puzzles: PuzzleFile | None = None) -> None:
        self.path = None if path is None else Path(path)
        self.fmt = fmt
        self.puzzles = puzzles
        self._handle: IO[bytes] | None = None
        self._lock: Any = None
        self._spec: dict[str, Any] | None = None
        self._last_index = -1
        self._noted = 0
        self._created = False
        self._wrote = False

    @property
    def state_path(self) -> Path:
        """Return ``PATH.state``."""
        assert self.path is not None
        return self.path.with_name(self.path.name + ".state")

    def open(self, resume: bool) -> Kept:
        """Lock the file and return what it holds (with *resume*), ready to append.

        Raises:
            StoreError: The file is locked by another batch, has records but *resume* is
                off, or holds a whole line that is not a record.
        """
        if self.path is None:
            if resume:
                raise StoreError("--resume needs --output FILE")
            if self.fmt == "csv":
                sys.stdout.write(csv_header() + "\n")
                sys.stdout.flush()
            if self.puzzles is not None:
                self.puzzles.open([])
            return Kept()
        self._acquire_lock()
        try:
            kept = self._read(resume)
        except BaseException:
            self._release_lock()
            raise
        self._created = not self.path.exists()
        self._handle = open(self.path, "ab")
        if self.fmt == "csv" and self.path.stat().st_size == 0:
            _fsync_write(self._handle, (csv_header() + "\n").encode("utf-8"))
        if self.puzzles is not None:
            self.puzzles.open(kept.records)
        self._last_index = kept.records[-1]["index"] if kept.records else -1  # type: ignore[assignment]
        self._noted = kept.next_index
        return kept

    def _acquire_lock(self) -> None:
        from filelock import FileLock, Timeout

        assert self.path is not None
        lock = FileLock(str(self.path) + ".lock")
        try:
            lock.acquire(timeout=0)
        except Timeout:
            raise StoreError(
                f"{self.path} is being written by another batch (lock {lock.lock_file})"
            ) from None
        self._lock = lock

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _read(self, resume: bool) -> Kept:
        assert self.path is not None
        empty = not self.path.exists() or self.path.stat().st_size == 0
        if not resume:
            if not empty:
                raise StoreError(
                    f"{self.path} already exists: add --resume to continue it, or choose "
                    "another file"
                )
            with contextlib.suppress(FileNotFoundError):
                self.state_path.unlink()  # left by an earlier batch of the same name
            return Kept()
        data = b"" if empty else self._bounded(self.path, MAX_BATCH_BYTES)
        whole = data[: data.rfind(b"\n") + 1]
        kept = Kept(torn=len(data) - len(whole))
        try:
            text = decode_text(whole, str(self.path))
        except ParseError as error:
            raise StoreError(str(error)) from None
        if kept.torn:
            os.truncate(self.path, len(whole))
        kept.records = list(self._records(text))
        if kept.records:
            kept.next_index = int(str(kept.records[-1]["index"])) + 1
        if self.state_path.exists():
            kept.spec, next_index = self._state()
            kept.next_index = max(kept.next_index, next_index)
        return kept

    @staticmethod
    def _bounded(path: Path, limit: int) -> bytes:
        """Return the bytes of *path*, refusing a special file or one over *limit* bytes."""
        from xlsudoku.xlsm.errors import WorkbookError
        from xlsudoku.xlsm.files import read_bytes

        try:
            return read_bytes(path, limit, "a batch file to resume")
        except WorkbookError as error:
            raise StoreError(str(error)) from None

    def _state(self) -> tuple[dict[str, Any] | None, int]:
        """Return the spec and the next item the state file records."""
        data = self._bounded(self.state_path, MAX_STATE_BYTES)
        try:
            state = json_value(decode_text(data, str(self.state_path)))[0]
            if not isinstance(state, dict):
                raise ParseError("not a JSON object")
            spec, next_index = state.get("spec"), state.get("next_index")
            if not isinstance(next_index, int) or not (
                spec is None or (isinstance(spec, dict) and isinstance(spec.get("seed"), int))
            ):
                raise ParseError("no spec with a seed, or no next_index number")
        except ParseError as error:
            raise StoreError(
                f"{self.state_path}: not a batch state file ({error}); remove it to resume from "
                "the last record"
            ) from None
        return spec, next_index

    def _records(self, text: str) -> Iterator[Record]:
        lines = text.splitlines()
        header: list[str] = []
        if self.fmt == "csv" and lines:
            header = lines[0].split(",")
            if lines[0] != csv_header():
                raise StoreError(f"{self.path}: line 1 is not the batch CSV header")
        for number, line in enumerate(lines[1:] if header else lines, start=2 if header else 1):
            try:
                record = from_csv_line(line, header) if header else from_json_line(line)
                if not isinstance(record.get("index"), int) or not record.get("puzzle"):
                    raise ValueError("no index or puzzle")
            except ValueError as error:
                raise StoreError(
                    f"{self.path}: line {number} is not a batch record ({error})"
                ) from None
            yield record

    def set_spec(self, spec: dict[str, Any]) -> None:
        """Give the spec that the state file keeps."""
        self._spec = spec

    def append(self, records: list[Record], next_index: int) -> None:
        """Append *records* (in item order) and fsync; *next_index* is the next item to try."""
        text = "".join(
            (to_csv_line(r) if self.fmt == "csv" else to_json_line(r)) + "\n" for r in records
        )
        if self._handle is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        elif text:
            _fsync_write(self._handle, text.encode("utf-8"))
            self._wrote = True
        if self.puzzles is not None:
            self.puzzles.append(records)
        if records:
            self._last_index = int(str(records[-1]["index"]))
        if self.path is not None and next_index > self._last_index + 1:
            self._note(next_index)

    def _note(self, next_index: int) -> None:
        if next_index != self._noted:
            state = {"next_index": next_index, "spec": self._spec}
            _atomic_write(self.state_path, json.dumps(state).encode("utf-8"))
            self._noted = next_index

    def discard(self) -> None:
        """Close, and remove the output when this run created it and wrote nothing.

        A file with a state file beside it is kept: the state says which seeds were tried.
        """
        created = self._created and not self._wrote
        self.close()
        if created and self.path is not None and not self.state_path.exists():
            self.path.unlink(missing_ok=True)

    def close(self) -> None:
        """Close the files and release the lock."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        if self.puzzles is not None:
            self.puzzles.close()
        self._release_lock()
