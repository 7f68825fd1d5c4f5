"""Steps of the human-style solver as plain, frozen data."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from xlsudoku.engine.grid import Cell, Digit, House


class Level(enum.IntEnum):
    """Difficulty levels, from the techniques a person needs (see ``xlsudoku.engine.grading``)."""

    EASY = 1  # singles only
    MEDIUM = 2  # + locked candidates
    HARD = 3  # + subsets, X-Wing
    VERY_HARD = 4  # fish, wings, single-digit patterns, uniqueness
    DIABOLICAL = 5  # chains
    BEYOND = 6  # trial and error: beyond technique

    @property
    def label(self) -> str:
        """Return the name shown to people, e.g. ``Very hard``.

        >>> Level.VERY_HARD.label
        'Very hard'
        """
        return (
            "Beyond technique" if self is Level.BEYOND else self.name.replace("_", " ").capitalize()
        )


class Technique(enum.Enum):
    """Every technique the human-style solver knows; values are the names shown to people."""

    FULL_HOUSE = "Full House"
    HIDDEN_SINGLE = "Hidden Single"
    NAKED_SINGLE = "Naked Single"
    POINTING = "Pointing"
    CLAIMING = "Claiming"
    NAKED_PAIR = "Naked Pair"
    NAKED_TRIPLE = "Naked Triple"
    NAKED_QUAD = "Naked Quad"
    HIDDEN_PAIR = "Hidden Pair"
    HIDDEN_TRIPLE = "Hidden Triple"
    HIDDEN_QUAD = "Hidden Quad"
    X_WING = "X-Wing"
    SWORDFISH = "Swordfish"
    JELLYFISH = "Jellyfish"
    FINNED_X_WING = "Finned X-Wing"
    FINNED_SWORDFISH = "Finned Swordfish"
    FINNED_JELLYFISH = "Finned Jellyfish"
    SKYSCRAPER = "Skyscraper"
    TWO_STRING_KITE = "2-String Kite"
    EMPTY_RECTANGLE = "Empty Rectangle"
    XY_WING = "XY-Wing"
    XYZ_WING = "XYZ-Wing"
    W_WING = "W-Wing"
    UNIQUE_RECTANGLE_1 = "Unique Rectangle Type 1"
    UNIQUE_RECTANGLE_2 = "Unique Rectangle Type 2"
    UNIQUE_RECTANGLE_3 = "Unique Rectangle Type 3"
    UNIQUE_RECTANGLE_4 = "Unique Rectangle Type 4"
    UNIQUE_LOOP = "Unique Loop"
    BUG_PLUS_1 = "BUG+1"
    BUG_TYPE_2 = "BUG Type 2"
    BUG_TYPE_3 = "BUG Type 3"
    BUG_TYPE_4 = "BUG Type 4"
    SIMPLE_COLORING = "Simple Coloring"
    X_CHAIN = "X-Chain"
    XY_CHAIN = "XY-Chain"
    AIC = "Alternating Inference Chain"
    FORCING_CHAIN = "Forcing Chain"
    DIRECT_POINTING = "Direct Pointing"
    DIRECT_HIDDEN_PAIR = "Direct Hidden Pair"
    DIRECT_HIDDEN_TRIPLE = "Direct Hidden Triple"
    ALIGNED_PAIR_EXCLUSION = "Aligned Pair Exclusion"
    ALIGNED_TRIPLET_EXCLUSION = "Aligned Triplet Exclusion"
    BIDIRECTIONAL_CYCLE = "Bidirectional Cycle"
    FORCING_X_CHAIN = "Forcing X-Chain"
    NISHIO_FORCING_CHAIN = "Nishio Forcing Chain"
    MULTIPLE_FORCING_CHAINS = "Multiple Forcing Chains"
    DYNAMIC_FORCING_CHAINS = "Dynamic Forcing Chains"
    DYNAMIC_FORCING_CHAINS_PLUS = "Dynamic Forcing Chains (+)"
    NESTED_FORCING_CHAINS = "Nested Forcing Chains"
    # -- the extended families (wings, ALS, Sue de Coq, grouped and ALS chains,
    # more uniqueness, multi-colouring, franken and mutant fish) --
    WXYZ_WING = "WXYZ-Wing"
    VWXYZ_WING = "VWXYZ-Wing"
    UVWXYZ_WING = "UVWXYZ-Wing"
    TUVWXYZ_WING = "TUVWXYZ-Wing"
    UNIQUE_RECTANGLE_5 = "Unique Rectangle Type 5"
    UNIQUE_RECTANGLE_6 = "Unique Rectangle Type 6"
    HIDDEN_RECTANGLE = "Hidden Rectangle"
    AVOIDABLE_RECTANGLE_1 = "Avoidable Rectangle Type 1"
    AVOIDABLE_RECTANGLE_2 = "Avoidable Rectangle Type 2"
    MULTI_COLORING = "Multi-Coloring"
    SUE_DE_COQ = "Sue de Coq"
    ALS_XZ = "ALS-XZ"
    ALS_XY_WING = "ALS-XY-Wing"
    ALS_CHAIN = "ALS Chain"
    DEATH_BLOSSOM = "Death Blossom"
    GROUPED_AIC = "Grouped AIC"
    ALS_AIC = "AIC with ALS nodes"
    FRANKEN_FISH = "Franken Fish"
    FINNED_FRANKEN_FISH = "Finned Franken Fish"
    MUTANT_FISH = "Mutant Fish"
    FINNED_MUTANT_FISH = "Finned Mutant Fish"
    TRIAL_AND_ERROR = "Trial and Error"

    @classmethod
    def parse(cls, text: str) -> Technique:
        """Return the technique named *text*, ignoring case, spaces, '-' and '_'.

        >>> Technique.parse("x-wing"), Technique.parse("NAKED_PAIR")
        (<Technique.X_WING: 'X-Wing'>, <Technique.NAKED_PAIR: 'Naked Pair'>)
        """
        key = "".join(ch for ch in text.lower() if ch.isalnum())
        for t in cls:
            if key in (
                "".join(ch for ch in t.value.lower() if ch.isalnum()),
                t.name.lower().replace("_", ""),
            ):
                return t
        raise ValueError(f"unknown technique {text!r}")


@dataclass(frozen=True, slots=True)
class Placement:
    """Put *digit* in *cell*."""

    cell: Cell
    digit: Digit


@dataclass(frozen=True, slots=True)
class Elimination:
    """Remove candidate *digit* from *cell*."""

    cell: Cell
    digit: Digit


@dataclass(frozen=True, slots=True)
class Step:
    """One deduction: what it places and eliminates, what it looks at, and why.

    *cells*, *houses* and *digits* are the pattern a person must see (for hints and colouring);
    *explanation* is a sentence with 1-based names such as ``r4c7`` and ``box 6``.  *rating* is
    the step's own Sudoku Explainer rating when its finder computes one (SE's chains: the kind's
    base plus the length increment of the chain's size); 0.0 means the table's score.

    >>> s = Step(Technique.NAKED_SINGLE, (Placement(0, 5),), (), (0,), (), (5,), "r1c1 is 5")
    >>> s.technique.value
    'Naked Single'
    >>> Step(Technique.NAKED_SINGLE, (), (), (), (), (), "nothing")
    Traceback (most recent call last):
    ...
    ValueError: a step must place or eliminate at least one candidate
    """

    technique: Technique
    placements: tuple[Placement, ...]
    eliminations: tuple[Elimination, ...]
    cells: tuple[Cell, ...]
    houses: tuple[House, ...]
    digits: tuple[Digit, ...]
    explanation: str
    rating: float = 0.0

    def __post_init__(self) -> None:
        if not self.placements and not self.eliminations:
            raise ValueError("a step must place or eliminate at least one candidate")
