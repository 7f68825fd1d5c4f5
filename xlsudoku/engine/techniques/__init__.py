"""The technique registry: one row per technique gives its order, level, score and finder.

A finder is a pure function ``find(board) -> Iterator[Step]`` yielding every instance it sees,
in a deterministic order; the solve loop takes the first step of the first technique that
yields one.  Scores are on the Sudoku Explainer scale.

``TECHNIQUES`` is the human-style solver's table (hints, the generator's levels, the level of a
grade); ``EXTENDED_TECHNIQUES`` adds the costly searches SE 1.2.1 does not use.  The rating
profiles (``se``, ``sukaku``) and the HoDoKu imitation take their rows from here, in their own
order and with their own scores: see ``xlsudoku.engine.ratings``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from xlsudoku.engine.board import Board
from xlsudoku.engine.steps import Level, Step, Technique
from xlsudoku.engine.techniques.als import (
    find_als_aic,
    find_als_chain,
    find_als_xy_wing,
    find_als_xz,
    find_death_blossom,
    find_tuvwxyz_wing,
    find_uvwxyz_wing,
    find_vwxyz_wing,
    find_wxyz_wing,
)
from xlsudoku.engine.techniques.chaining.aic import (
    find_aic,
    find_grouped_aic,
    find_x_chain,
    find_xy_chain,
)
from xlsudoku.engine.techniques.chaining.human_forcing import find_forcing_chain
from xlsudoku.engine.techniques.coloring import find_multi_coloring, find_simple_coloring
from xlsudoku.engine.techniques.fish import (
    find_finned_jellyfish,
    find_finned_swordfish,
    find_finned_x_wing,
    find_jellyfish,
    find_swordfish,
    find_x_wing,
)
from xlsudoku.engine.techniques.franken_fish import (
    find_finned_franken_fish,
    find_finned_mutant_fish,
    find_franken_fish,
    find_mutant_fish,
)
from xlsudoku.engine.techniques.intersections import find_claiming, find_pointing
from xlsudoku.engine.techniques.single_digit import (
    find_empty_rectangle,
    find_skyscraper,
    find_two_string_kite,
)
from xlsudoku.engine.techniques.singles import (
    find_full_house,
    find_hidden_single,
    find_naked_single,
)
from xlsudoku.engine.techniques.subsets import (
    find_hidden_pair,
    find_hidden_quad,
    find_hidden_triple,
    find_naked_pair,
    find_naked_quad,
    find_naked_triple,
)
from xlsudoku.engine.techniques.sue_de_coq import find_sue_de_coq
from xlsudoku.engine.techniques.uniqueness import (
    find_avoidable_rectangle_1,
    find_avoidable_rectangle_2,
    find_bug_plus_1,
    find_hidden_rectangle,
    find_unique_rectangle_1,
    find_unique_rectangle_2,
    find_unique_rectangle_3,
    find_unique_rectangle_4,
    find_unique_rectangle_5,
    find_unique_rectangle_6,
)
from xlsudoku.engine.techniques.wings import find_w_wing, find_xy_wing, find_xyz_wing

Finder = Callable[[Board], Iterator[Step]]

# A finder given a rating ceiling: it may yield any step rated at most the ceiling rather than
# the easiest (a rating that has reached the ceiling cannot tell them apart).
CeilingFinder = Callable[[Board, float], Iterator[Step]]


@dataclass(frozen=True, slots=True)
class TechniqueSpec:
    """A technique's place in the solve order, its level, SE-scale score and finder.

    *find_within*, when set, is the same finder bounded by a rating ceiling; the rating path
    (``engine.grading.rating_path``) uses it once the rating so far reaches the row's *score*, and
    every other path (hints, steps, levels) uses *find*.  The rating path asks an *early* row
    (with *find_within*) first, before the Diabolical rows, once the rating so far reaches its
    score (``engine.logic.next_found``); the early rows in table order, but one whose *lead*
    the rating so far has reached before the others.
    """

    technique: Technique
    level: Level
    score: float
    find: Finder
    find_within: CeilingFinder | None = None
    early: bool = False
    lead: float | None = None


_ROWS: tuple[TechniqueSpec, ...] = (
    # -- basic techniques (singles, intersections, subsets, fish) --
    # Scores: Sudoku Explainer 1.2.1 ratings (a hidden single in a row or column rates 1.5,
    # see engine.ratings.se.step_score).  Several rows may share a technique (e.g. forcing chains
    # split by kind, each with its SE base score): a step is scored by the row that found it.
    TechniqueSpec(Technique.FULL_HOUSE, Level.EASY, 1.0, find_full_house),
    TechniqueSpec(Technique.HIDDEN_SINGLE, Level.EASY, 1.2, find_hidden_single),
    TechniqueSpec(Technique.NAKED_SINGLE, Level.EASY, 2.3, find_naked_single),
    TechniqueSpec(Technique.POINTING, Level.MEDIUM, 2.6, find_pointing),
    TechniqueSpec(Technique.CLAIMING, Level.MEDIUM, 2.8, find_claiming),
    TechniqueSpec(Technique.NAKED_PAIR, Level.HARD, 3.0, find_naked_pair),
    TechniqueSpec(Technique.HIDDEN_PAIR, Level.HARD, 3.4, find_hidden_pair),
    TechniqueSpec(Technique.NAKED_TRIPLE, Level.HARD, 3.6, find_naked_triple),
    TechniqueSpec(Technique.HIDDEN_TRIPLE, Level.HARD, 4.0, find_hidden_triple),
    TechniqueSpec(Technique.NAKED_QUAD, Level.HARD, 5.0, find_naked_quad),
    TechniqueSpec(Technique.HIDDEN_QUAD, Level.HARD, 5.4, find_hidden_quad),
    TechniqueSpec(Technique.X_WING, Level.HARD, 3.2, find_x_wing),
    TechniqueSpec(Technique.SWORDFISH, Level.VERY_HARD, 3.8, find_swordfish),
    TechniqueSpec(Technique.JELLYFISH, Level.VERY_HARD, 5.2, find_jellyfish),
    # SE has no finned fish; SukakuExplainer rates the same patterns as strong-link chains: a
    # finned or sashimi X-Wing is a (grouped) Skyscraper / 2-String Kite (4.0-4.3), a finned
    # Swordfish "3 strong links" (5.4-5.7), a finned Jellyfish "4 strong links" (5.9-6.1; 5.9
    # keeps it below the Diabolical chains).
    TechniqueSpec(Technique.FINNED_X_WING, Level.VERY_HARD, 4.0, find_finned_x_wing),
    TechniqueSpec(Technique.FINNED_SWORDFISH, Level.VERY_HARD, 5.4, find_finned_swordfish),
    TechniqueSpec(Technique.FINNED_JELLYFISH, Level.VERY_HARD, 5.9, find_finned_jellyfish),
    # -- advanced techniques (single-digit patterns, wings, uniqueness, colouring, chains) --
    # Scores: Sudoku Explainer where SE has the technique (XY-Wing 4.2, XYZ-Wing 4.4, Unique
    # Rectangle 4.5 (+0.1 per cell of a type 3 naked subset beyond the first: 4.6 for a pair),
    # BUG type 1 5.6); SukakuExplainer for the single-digit patterns: Skyscraper 4.0, 2-String
    # Kite 4.1, Empty Rectangle 4.3 (StrongLinksHint: 4.0 for two parallel links, +0.1 for a row
    # and a column, +0.3 grouped).  The rest were placed on the SE scale from the ratings of
    # sudoku_exchange_se_rated_sample.tsv (SukakuExplainer; the rank correlation with them
    # rose on two samples), keeping every Very hard technique below every Diabolical one:
    # SE has no W-Wing and finds colour traps and wraps as chains, and it rates the puzzles
    # that need them higher than SukakuExplainer's optional W-Wing rule (4.4); our X-/XY-chains
    # stand in for SukakuExplainer's 3+ strong links (5.4+) and WXYZ- to UVWXYZ-Wings
    # (5.5-6.6), our AIC for its forcing chains (7.0+), and our forcing chains, whose singles
    # make them dynamic, for its Nishio, cell/region and dynamic chains (7.5-9.0).
    # xlsudoku.engine.ratings.se.step_score adds SE's length increment to the chain scores.
    TechniqueSpec(Technique.SKYSCRAPER, Level.VERY_HARD, 4.0, find_skyscraper),
    TechniqueSpec(Technique.TWO_STRING_KITE, Level.VERY_HARD, 4.1, find_two_string_kite),
    TechniqueSpec(Technique.XY_WING, Level.VERY_HARD, 4.2, find_xy_wing),
    TechniqueSpec(Technique.EMPTY_RECTANGLE, Level.VERY_HARD, 4.3, find_empty_rectangle),
    TechniqueSpec(Technique.XYZ_WING, Level.VERY_HARD, 4.4, find_xyz_wing),
    TechniqueSpec(Technique.UNIQUE_RECTANGLE_1, Level.VERY_HARD, 4.5, find_unique_rectangle_1),
    TechniqueSpec(Technique.UNIQUE_RECTANGLE_2, Level.VERY_HARD, 4.5, find_unique_rectangle_2),
    TechniqueSpec(Technique.UNIQUE_RECTANGLE_4, Level.VERY_HARD, 4.5, find_unique_rectangle_4),
    TechniqueSpec(Technique.UNIQUE_RECTANGLE_3, Level.VERY_HARD, 4.6, find_unique_rectangle_3),
    TechniqueSpec(Technique.SIMPLE_COLORING, Level.VERY_HARD, 5.5, find_simple_coloring),
    TechniqueSpec(Technique.BUG_PLUS_1, Level.VERY_HARD, 5.6, find_bug_plus_1),
    TechniqueSpec(Technique.W_WING, Level.VERY_HARD, 5.9, find_w_wing),
    TechniqueSpec(Technique.X_CHAIN, Level.DIABOLICAL, 6.0, find_x_chain),
    TechniqueSpec(Technique.XY_CHAIN, Level.DIABOLICAL, 6.0, find_xy_chain),
    TechniqueSpec(Technique.AIC, Level.DIABOLICAL, 6.3, find_aic),
    TechniqueSpec(Technique.FORCING_CHAIN, Level.DIABOLICAL, 7.7, find_forcing_chain),
    # -- HoDoKu's rectangles and multi-colouring (SE 1.2.1 has none) --
    # Scores place them on SE's scale next to what they resemble: the rectangles beside SE's
    # Unique Rectangles (4.5-4.6), multi-colouring after simple colouring.
    TechniqueSpec(Technique.UNIQUE_RECTANGLE_5, Level.VERY_HARD, 4.5, find_unique_rectangle_5),
    TechniqueSpec(
        Technique.AVOIDABLE_RECTANGLE_1, Level.VERY_HARD, 4.5, find_avoidable_rectangle_1
    ),
    TechniqueSpec(
        Technique.AVOIDABLE_RECTANGLE_2, Level.VERY_HARD, 4.5, find_avoidable_rectangle_2
    ),
    TechniqueSpec(Technique.UNIQUE_RECTANGLE_6, Level.VERY_HARD, 4.6, find_unique_rectangle_6),
    TechniqueSpec(Technique.HIDDEN_RECTANGLE, Level.VERY_HARD, 4.6, find_hidden_rectangle),
    TechniqueSpec(Technique.MULTI_COLORING, Level.VERY_HARD, 5.7, find_multi_coloring),
)

# Costly searches SE 1.2.1 does not use (HoDoKu has them all but the big wings, which are
# SukakuExplainer's).  Scores place them on SE's scale: the WXYZ- to TUVWXYZ-Wings at
# SukakuExplainer's base ratings (5.5, 6.2, 6.6, 7.5), Sue de Coq, grouped and ALS chains, the
# ALS patterns and the franken and mutant fish between SE's AICs (6.3) and its forcing chains
# (7.0 and up) in HoDoKu's order.  Levels: Very hard below 6.0, Diabolical from 6.0 up, like
# the chains.  In the human-style table the big wings lowered the agreement with SE and the
# whole block made grading markedly slower (``xlsudoku bench techniques``), so they live in
# EXTENDED_TECHNIQUES only, which HoDoKu's order (``xlsudoku.bench.hodoku``), its regression
# library and the SukakuExplainer profile draw on.
_COSTLY_ROWS: tuple[TechniqueSpec, ...] = (
    TechniqueSpec(Technique.WXYZ_WING, Level.VERY_HARD, 5.5, find_wxyz_wing),
    TechniqueSpec(Technique.VWXYZ_WING, Level.DIABOLICAL, 6.2, find_vwxyz_wing),
    TechniqueSpec(Technique.SUE_DE_COQ, Level.DIABOLICAL, 6.4, find_sue_de_coq),
    TechniqueSpec(Technique.GROUPED_AIC, Level.DIABOLICAL, 6.5, find_grouped_aic),
    TechniqueSpec(Technique.UVWXYZ_WING, Level.DIABOLICAL, 6.6, find_uvwxyz_wing),
    TechniqueSpec(Technique.ALS_XZ, Level.DIABOLICAL, 6.6, find_als_xz),
    TechniqueSpec(Technique.ALS_XY_WING, Level.DIABOLICAL, 6.8, find_als_xy_wing),
    TechniqueSpec(Technique.ALS_CHAIN, Level.DIABOLICAL, 7.0, find_als_chain),
    TechniqueSpec(Technique.DEATH_BLOSSOM, Level.DIABOLICAL, 7.2, find_death_blossom),
    TechniqueSpec(Technique.ALS_AIC, Level.DIABOLICAL, 7.3, find_als_aic),
    TechniqueSpec(Technique.TUVWXYZ_WING, Level.DIABOLICAL, 7.5, find_tuvwxyz_wing),
    # fish searches grow fast with the size and the fins: Swordfish, or X-Wing with 2 fins
    TechniqueSpec(Technique.FRANKEN_FISH, Level.DIABOLICAL, 7.5, find_franken_fish),
    TechniqueSpec(
        Technique.FINNED_FRANKEN_FISH,
        Level.DIABOLICAL,
        7.6,
        partial(find_finned_franken_fish, max_size=2, max_fins=2),
    ),
    TechniqueSpec(
        Technique.MUTANT_FISH, Level.DIABOLICAL, 7.6, partial(find_mutant_fish, max_size=2)
    ),
    TechniqueSpec(
        Technique.FINNED_MUTANT_FISH,
        Level.DIABOLICAL,
        7.6,
        partial(find_finned_mutant_fish, max_size=2, max_fins=2),
    ),
)


# The same finders with wider bounds (HoDoKu's 5 fins, fish up to Jellyfish, ALS nodes up to 6
# cells), for its regression library (``bench.grading``): the table above bounds them for speed.
FULL_FINDERS: dict[Technique, Finder] = {
    Technique.FRANKEN_FISH: partial(find_franken_fish, max_size=4),
    Technique.FINNED_FRANKEN_FISH: partial(find_finned_franken_fish, max_size=4, max_fins=5),
    Technique.MUTANT_FISH: partial(find_mutant_fish, max_size=4),
    Technique.FINNED_MUTANT_FISH: partial(find_finned_mutant_fish, max_size=4, max_fins=5),
    Technique.ALS_AIC: partial(find_als_aic, als_size=6),
}

# Solve order: ascending score; ties keep table order.
TECHNIQUES: tuple[TechniqueSpec, ...] = tuple(sorted(_ROWS, key=lambda spec: spec.score))
# Every technique there is a finder for (one row each), in the same order.
EXTENDED_TECHNIQUES: tuple[TechniqueSpec, ...] = tuple(
    sorted(_ROWS + _COSTLY_ROWS, key=lambda spec: spec.score)
)
