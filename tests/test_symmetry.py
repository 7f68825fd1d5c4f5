"""Symmetry orbit tables: partitions of the cells, closed under the symmetry's maps."""

from __future__ import annotations

import random

import pytest
from symmetry_maps import symmetry_maps

from xlsudoku.engine.grid import Grid, geometry_for_size
from xlsudoku.engine.symmetry import Symmetry, is_symmetric, orbit_index, orbits

GEOMETRIES = [geometry_for_size(n) for n in (4, 6, 9, 12, 16)] + [geometry_for_size(9, True)]


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: g.name)
@pytest.mark.parametrize("symmetry", list(Symmetry), ids=lambda s: s.value)
def test_orbits_partition_and_are_closed(geo, symmetry):
    n = geo.size
    table = orbits(symmetry, geo)
    cells = [c for orbit in table for c in orbit]
    assert sorted(cells) == list(range(geo.cell_count))  # a partition
    assert all(list(o) == sorted(o) for o in table)
    assert [o[0] for o in table] == sorted(o[0] for o in table)
    index = orbit_index(symmetry, geo)
    for i, orbit in enumerate(table):
        for cell in orbit:
            assert index[cell] == i
    for f in symmetry_maps(symmetry, n):
        image = [f(c // n, c % n) for c in range(geo.cell_count)]
        assert sorted(r * n + c for r, c in image) == list(range(geo.cell_count))  # permutation
        for c, (r2, c2) in enumerate(image):
            assert index[r2 * n + c2] == index[c]  # each orbit maps onto itself


@pytest.mark.parametrize(
    ("symmetry", "count"),
    [
        (Symmetry.NONE, 81),
        (Symmetry.ROTATE_180, 41),
        (Symmetry.ROTATE_90, 21),
        (Symmetry.HORIZONTAL, 45),
        (Symmetry.VERTICAL, 45),
        (Symmetry.DIAGONAL, 45),
        (Symmetry.ANTIDIAGONAL, 45),
        (Symmetry.DIHEDRAL, 15),
    ],
)
def test_orbit_counts_9x9(symmetry, count):
    # Burnside: the number of orbits is the average number of cells each group element fixes.
    assert len(orbits(symmetry, geometry_for_size(9))) == count


@pytest.mark.parametrize("symmetry", list(Symmetry), ids=lambda s: s.value)
def test_is_symmetric_on_random_orbit_patterns(symmetry):
    geo = geometry_for_size(9)
    rng = random.Random(symmetry.value)
    for _ in range(20):
        keep = [o for o in orbits(symmetry, geo) if rng.random() < 0.4]
        cells = [0] * 81
        for orbit in keep:
            for c in orbit:
                cells[c] = 1
        grid = Grid(tuple(cells))
        assert is_symmetric(grid, symmetry)
        if symmetry is not Symmetry.NONE:
            big = max(orbits(symmetry, geo), key=len)
            cells[big[0]] = 1 - cells[big[0]]
            assert not is_symmetric(Grid(tuple(cells)), symmetry)


def test_parse_names_and_aliases():
    assert Symmetry.parse("Rotate 180") is Symmetry.ROTATE_180
    assert Symmetry.parse("mirror-h") is Symmetry.HORIZONTAL
    assert Symmetry.parse("ANTIDIAGONAL") is Symmetry.ANTIDIAGONAL
    with pytest.raises(ValueError, match="unknown symmetry 'spiral'"):
        Symmetry.parse("spiral")
