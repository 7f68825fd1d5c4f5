"""Classic Sudoku Explainer 1.2.1: its technique table and its rules for a step's score.

``SE_TABLE`` lists SE's techniques in its solve order with its ratings: SE tries a direct hidden
pair before a naked single, an X-Wing before a hidden pair, and rates its chains by their own
length and nesting (the chain finders put that rating on each step).  SE has no Skyscraper,
Kite, Empty Rectangle, finned fish or W-Wing: it finds them as forcing X-chains (6.6+) or forcing
chains (7.0+).  Levels keep the human solver's scale: a direct technique has the level of its
pattern (pointing: Medium, hidden subsets: Hard).

Every table's scores are on SE's scale, the human-style one included, so :func:`step_score`
(SE's refinements of a row's score: a hidden single in a row or column, the length of a chain)
scores the steps of every table; ``STEP_RULES`` holds those refinements by technique.
"""

from __future__ import annotations

from collections.abc import Callable

from xlsudoku.engine.steps import Level, Step, Technique
from xlsudoku.engine.techniques import EXTENDED_TECHNIQUES, TechniqueSpec
from xlsudoku.engine.techniques.chaining.dynamic import (
    PatternRule,
    dynamic_plus,
    find_dynamic_forcing_chains,
)
from xlsudoku.engine.techniques.chaining.forcing import find_se_forcing_chains
from xlsudoku.engine.techniques.chaining.implication import ExtraRule
from xlsudoku.engine.techniques.chaining.multiple import find_multiple_forcing_chains
from xlsudoku.engine.techniques.chaining.nested import NESTED_WORK, nested_kind
from xlsudoku.engine.techniques.chaining.nishio import find_nishio
from xlsudoku.engine.techniques.chaining.rating import ChainFinder
from xlsudoku.engine.techniques.chaining.search import chain_finder
from xlsudoku.engine.techniques.direct import (
    find_direct_hidden_pair,
    find_direct_hidden_triple,
    find_direct_pointing,
)
from xlsudoku.engine.techniques.exclusion import (
    find_aligned_pair_exclusion,
    find_aligned_triplet_exclusion,
)
from xlsudoku.engine.techniques.fish import find_x_wing
from xlsudoku.engine.techniques.intersections import find_claiming, find_pointing
from xlsudoku.engine.techniques.subsets import find_hidden_pair, find_naked_pair
from xlsudoku.engine.techniques.unique_loops import find_unique_loops
from xlsudoku.engine.techniques.uniqueness import find_bug

_L = Level
_T = Technique

# The registry's rows by technique (one row each): a profile shares them where scores agree.
_ROW = {spec.technique: spec for spec in EXTENDED_TECHNIQUES}

# Trial and error has no finder; SE rates puzzles that need it above its whole scale.
TRIAL_SCORE = 11.0

# SE rates a hidden single in a row or column above one in a box (the row's score).
LINE_SINGLE_SCORE = 1.5

# A rule refining a row's score for one step: ``rule(step, row_score, grid_size) -> score``.
StepRule = Callable[[Step, float, int], float]


# SE's dynamic forcing chains (+) and its nested chains apply these patterns, in this order, to
# the candidates an assumption leaves (the first that finds something gives all it finds); each
# rests on the candidates removed from its base (see chaining.dynamic.PatternRule).
SE_PATTERNS: tuple[ExtraRule, ...] = (
    PatternRule((find_pointing, find_claiming), base_houses=1),
    PatternRule((find_hidden_pair,), base_houses=1),
    PatternRule((find_naked_pair,), base_houses=0),
    PatternRule((find_x_wing,), base_houses=2),
)
find_dynamic_forcing_chains_plus = chain_finder(dynamic_plus(SE_PATTERNS))


def nested_finder(level: int, work: int | None) -> ChainFinder:
    """Return a finder of SE's nested forcing chains of *level*, bounded to *work* units a call.

    With *work* None the search is not bounded (tests; SE's own search takes minutes).

    >>> from xlsudoku.engine.grid import Grid
    >>> from xlsudoku.engine.board import Board
    >>> b = Board.from_grid(Grid.parse(
    ...     "2..1..456.6.7.4.23..426.7..4156.2.3.682.1.54......8261723.9...4946821375851.....2"))
    >>> next(nested_finder(2, NESTED_WORK)(b)).rating
    9.5
    """
    return chain_finder(nested_kind(level, SE_PATTERNS), work)


def chain_length_increment(length: int) -> float:
    """Return SE's difficulty added for a chain of *length* nodes.

    SE adds 0.1 each time the length passes a ceiling that grows by x3/2 and x4/3 in turn
    (4, 6, 8, 12, 16, 24, ...).

    >>> [chain_length_increment(n) for n in (4, 5, 7, 9, 13, 17)]
    [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    """
    added = 0
    ceiling = 4
    odd = False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added / 10


def _hidden_single(step: Step, score: float, size: int) -> float:
    """Return a hidden single's score: the row's score in a box, SE's line score in a line."""
    return score if step.houses and step.houses[0] >= 2 * size else LINE_SINGLE_SCORE


def _chain(candidates_per_cell: int) -> StepRule:
    """Return the rule adding SE's length increment to a chain of so many candidates a cell."""

    def rule(step: Step, score: float, size: int) -> float:
        return round(score + chain_length_increment(len(step.cells) * candidates_per_cell), 1)

    return rule


# The length of our chains counts the candidates on them: two per cell of an XY-chain.
STEP_RULES: dict[Technique, StepRule] = {
    _T.HIDDEN_SINGLE: _hidden_single,
    _T.X_CHAIN: _chain(1),
    _T.XY_CHAIN: _chain(2),
    _T.AIC: _chain(1),
    _T.FORCING_CHAIN: _chain(1),
}


def step_score(step: Step, spec: TechniqueSpec, size: int = 9) -> float:
    """Return the SE-scale score of *step* found by the technique of *spec*.

    A step that carries its own rating (SE's chains, SukakuExplainer's patterns) scores that;
    else the rule of its technique in ``STEP_RULES`` refines the row's score, if there is one.

    >>> from xlsudoku.engine.steps import Placement
    >>> from xlsudoku.engine.techniques import TECHNIQUES
    >>> spec = next(s for s in TECHNIQUES if s.technique is Technique.HIDDEN_SINGLE)
    >>> step = Step(Technique.HIDDEN_SINGLE, (Placement(0, 1),), (), (0,), (0,), (1,), "")
    >>> step_score(step, spec)
    1.5
    """
    if step.rating:
        return step.rating
    rule = STEP_RULES.get(step.technique)
    return spec.score if rule is None else rule(step, spec.score, size)


def _chain_row(
    technique: Technique,
    score: float,
    find: ChainFinder,
    early: bool = False,
    lead: float | None = None,
) -> TechniqueSpec:
    """Return a Diabolical row of one of SE's chain finders, which take a rating ceiling."""
    return TechniqueSpec(
        technique, Level.DIABOLICAL, score, find, find_within=find, early=early, lead=lead
    )


SE_TABLE: tuple[TechniqueSpec, ...] = (
    _ROW[_T.FULL_HOUSE],
    _ROW[_T.HIDDEN_SINGLE],
    TechniqueSpec(_T.DIRECT_POINTING, _L.MEDIUM, 1.7, find_direct_pointing),
    TechniqueSpec(_T.DIRECT_HIDDEN_PAIR, _L.HARD, 2.0, find_direct_hidden_pair),
    _ROW[_T.NAKED_SINGLE],
    TechniqueSpec(_T.DIRECT_HIDDEN_TRIPLE, _L.HARD, 2.5, find_direct_hidden_triple),
    _ROW[_T.POINTING],
    _ROW[_T.CLAIMING],
    _ROW[_T.NAKED_PAIR],
    _ROW[_T.X_WING],
    _ROW[_T.HIDDEN_PAIR],
    _ROW[_T.NAKED_TRIPLE],
    _ROW[_T.SWORDFISH],
    _ROW[_T.HIDDEN_TRIPLE],
    _ROW[_T.XY_WING],
    _ROW[_T.XYZ_WING],
    # SE's rectangles and longer loops, all types in one search, easiest first
    TechniqueSpec(_T.UNIQUE_LOOP, _L.VERY_HARD, 4.5, find_unique_loops),
    _ROW[_T.NAKED_QUAD],
    _ROW[_T.JELLYFISH],
    _ROW[_T.HIDDEN_QUAD],
    TechniqueSpec(_T.BUG_PLUS_1, _L.VERY_HARD, 5.6, find_bug),  # SE's BUG types 1 to 4
    TechniqueSpec(_T.ALIGNED_PAIR_EXCLUSION, _L.DIABOLICAL, 6.2, find_aligned_pair_exclusion),
    # SE's chain finders search for the easiest chain; each also takes a rating ceiling.  Under
    # a ceiling the rating path asks the multiple and dynamic chains first (early): they find a
    # chain within it sooner than the cycles and Nishio find none (asking the cycles early was
    # slower).  The dynamic chains lead from 9.0, where one of up to 26 potentials is within:
    # below it the multiple chains' search is cheaper, from it the dynamic one finds a chain
    # sooner than the multiple one finds none (leading from 8.5 was slower, 8.8 or 9.2 less
    # fast).
    _chain_row(_T.BIDIRECTIONAL_CYCLE, 6.5, find_se_forcing_chains),
    # SE asks its aligned triplet exclusion between its cycles and its Nishio chains
    TechniqueSpec(_T.ALIGNED_TRIPLET_EXCLUSION, _L.DIABOLICAL, 7.5, find_aligned_triplet_exclusion),
    _chain_row(_T.NISHIO_FORCING_CHAIN, 7.5, find_nishio),
    _chain_row(_T.MULTIPLE_FORCING_CHAINS, 8.0, find_multiple_forcing_chains, early=True),
    _chain_row(_T.DYNAMIC_FORCING_CHAINS, 8.5, find_dynamic_forcing_chains, early=True, lead=9.0),
    _chain_row(_T.DYNAMIC_FORCING_CHAINS_PLUS, 9.0, find_dynamic_forcing_chains_plus),
    _chain_row(_T.NESTED_FORCING_CHAINS, 9.5, nested_finder(2, NESTED_WORK)),
    _chain_row(_T.NESTED_FORCING_CHAINS, 10.0, nested_finder(3, NESTED_WORK)),
    _chain_row(_T.NESTED_FORCING_CHAINS, 10.5, nested_finder(4, NESTED_WORK)),
    _chain_row(_T.NESTED_FORCING_CHAINS, 11.0, nested_finder(5, NESTED_WORK)),
)
"""SE 1.2.1's techniques in its solve order (each chain row rates its steps by their length)."""
