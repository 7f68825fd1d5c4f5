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
from engine.techniques.singles import find_full_house, find_hidden_single, find_naked_single

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
    # Scores: Sudoku Explainer 1.2.1 ratings (a hidden single in a row or column rates 1.5,
    # see engine.grading.step_score).
    TechniqueSpec(Technique.FULL_HOUSE, Level.EASY, 1.0, find_full_house),
    TechniqueSpec(Technique.HIDDEN_SINGLE, Level.EASY, 1.2, find_hidden_single),
    TechniqueSpec(Technique.NAKED_SINGLE, Level.EASY, 2.3, find_naked_single),
    # -- advanced techniques (single-digit patterns, wings, uniqueness, colouring, chains) --
)

# Solve order: ascending score; ties keep table order.
TECHNIQUES: tuple[TechniqueSpec, ...] = tuple(sorted(_TABLE, key=lambda spec: spec.score))
