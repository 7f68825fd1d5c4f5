"""Puzzle production at scale: batches on every core or a Dask cluster, and printable booklets.

A room of its own beside :mod:`xlsudoku.engine` (the domain, which never imports this) and
:mod:`xlsudoku.addin` (the workbook):

- :mod:`.spec` — what a batch makes: the request of item *i* and its seed (base seed + *i*);
- :mod:`.records` — one item made: generate, grade, the record's fields and their codec;
- :mod:`.executors` — where the items run: this process, local processes, a Dask cluster;
- :mod:`.store` — the output file: lock, append and fsync, resume after a kill;
- :mod:`.batch` — the loop: items in order, deduplication, the stop rule;
- :mod:`.inputs`, :mod:`.workbook_input` — puzzles from batch files, puzzle files, workbooks;
- :mod:`.booklet` — print-ready PDF booklets with an answer key;
- :mod:`.cli` — the ``batch`` and ``booklet`` commands; :mod:`.bench` — their benchmark.
"""
