"""Puzzle generation: request and validation, uniqueness oracle, strategies, the generator.

- :mod:`.request` — :class:`GenerateRequest`, its :class:`Budget`, :class:`GenerateResult`,
  validation (the only place parity and reachability are decided);
- :mod:`.clock` — the run's limit and cancel hook, and the work the searches count;
- :mod:`.oracle` — uniqueness against a known solution; :mod:`.unavoidable` — unavoidable sets;
- :mod:`.strategy` — the one signature of :mod:`.descent`, :mod:`.deep` (with the low-clue
  search of :mod:`.low_givens`) and :mod:`.graded`;
- :mod:`.generator` — :func:`generate`: picks the strategy and reports;
  :func:`result_analysis`: the one analysis of a generated puzzle.
"""

from xlsudoku.engine.generate.descent import minimal_puzzle
from xlsudoku.engine.generate.generator import generate, result_analysis
from xlsudoku.engine.generate.request import (
    DEFAULT_GIVENS,
    KNOWN_FLOOR,
    Budget,
    BudgetKind,
    GenerateError,
    GenerateRequest,
    GenerateResult,
    default_givens,
    default_pattern,
    validate_request,
)

__all__ = [
    "DEFAULT_GIVENS",
    "KNOWN_FLOOR",
    "Budget",
    "BudgetKind",
    "GenerateError",
    "GenerateRequest",
    "GenerateResult",
    "default_givens",
    "default_pattern",
    "generate",
    "minimal_puzzle",
    "result_analysis",
    "validate_request",
]
