"""The technique registry: one table gives each technique's order, level, score and finder.

A finder is a pure function ``find(board) -> Iterator[Step]`` yielding every instance it sees,
in a deterministic order; the solve loop takes the first step of the first technique that
yields one.  Scores are on the Sudoku Explainer scale.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.board import Board
from engine.steps import Level, Step, Technique

Finder = Callable[[Board], Iterator[Step]]


@dataclass(frozen=True, slots=True)
class TechniqueSpec:
    """A technique's place in the solve order, its level, SE-scale score and finder."""

    technique: Technique
    level: Level
    score: float
    find: Finder


_TABLE: tuple[TechniqueSpec, ...] = (
    # -- basic techniques (singles, intersections, subsets, fish) --
    # -- advanced techniques (single-digit patterns, wings, uniqueness, colouring, chains) --
)

# Solve order: ascending score; ties keep table order.
TECHNIQUES: tuple[TechniqueSpec, ...] = tuple(sorted(_TABLE, key=lambda spec: spec.score))
