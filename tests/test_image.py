"""xlsudoku image: one grid as a PNG or SVG, drawn with the booklet's picture of a grid."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest

from xlsudoku.addin.drawing import grid_picture
from xlsudoku.cli import main
from xlsudoku.engine.formats import geometry_named
from xlsudoku.engine.generate import GenerateRequest, generate

pytest.importorskip("matplotlib")

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def _svg_digits(path: Path) -> list[str]:
    text = path.read_text()
    return re.findall(r"<text[^>]*>([^<]*)</text>", text)


def test_a_png_of_the_width_asked_for(tmp_path, capsys):
    out = tmp_path / "grid.png"
    assert main(["image", PUZZLE, "-o", str(out), "--size", "300"]) == 0
    assert _png_size(out) == (300, 300)
    assert "grid.png: 9x9, 300 pixels wide" in capsys.readouterr().out


def test_an_svg_holds_the_digits_as_text_and_the_title(tmp_path):
    out = tmp_path / "grid.svg"
    assert main(["image", PUZZLE, "-o", str(out), "--title", "Daily 7"]) == 0
    texts = _svg_digits(out)
    assert texts[-1] == "Daily 7"
    assert texts[:-1] == [ch for ch in PUZZLE if ch != "."]


def test_the_solution_shows_every_digit_the_givens_bold(tmp_path):
    out = tmp_path / "answer.svg"
    assert main(["image", PUZZLE, "-o", str(out), "--solution"]) == 0
    texts = _svg_digits(out)
    assert len(texts) == 81
    bold = re.findall(r"<text style=\"font-weight: 700[^>]*>([^<]*)</text>", out.read_text())
    assert bold == [ch for ch in PUZZLE if ch != "."]


def test_a_jigsaw_from_a_batch_file_by_record_number(tmp_path):
    geo = geometry_named("9x9-jigsaw:comb")
    results = [generate(GenerateRequest(geometry=geo, seed=s)) for s in (1, 2)]
    records = [{"puzzle": str(r.puzzle), "geometry": geo.name} for r in results]
    source = tmp_path / "set.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "second.svg"
    assert main(["image", str(source), "--id", "2", "-o", str(out)]) == 0
    assert _svg_digits(out) == [ch for ch in str(results[1].puzzle) if ch != "."]
    picture = grid_picture(results[1].puzzle)
    # thick lines follow the irregular boxes: more pieces than a classic grid's 8 + 4 sides
    assert sum(line.thick for line in picture.lines) > 12


def test_a_file_it_did_not_make_is_kept(tmp_path, capsys):
    out = tmp_path / "photo.png"
    out.write_bytes(b"not ours")
    assert main(["image", PUZZLE, "-o", str(out)]) == 3
    assert out.read_bytes() == b"not ours"
    assert "-o" in capsys.readouterr().err
    assert main(["image", PUZZLE, "-o", str(out), "--replace"]) == 0
    assert _png_size(out) == (600, 600)


@pytest.mark.parametrize(
    ("argv", "status", "words"),
    [
        (["12.3", "-o", "x.png"], 1, "PUZZLE"),
        ([PUZZLE, "-o", "x.gif"], 2, "-o"),
        ([PUZZLE, "-o", "x.png", "--size", "5"], 2, "--size"),
        ([PUZZLE, "-o", "x.png", "--geometry", "9x9-jigsaw:nope"], 2, "--geometry"),
    ],
)
def test_bad_input_is_one_message_and_no_file(tmp_path, monkeypatch, capsys, argv, status, words):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) if status == 2 and words != "-o" else _nothing():
        assert main(["image", *argv]) == status
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_missing_matplotlib_names_the_extra(tmp_path, monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["image", PUZZLE, "-o", str(tmp_path / "x.png")]) == 4
    assert "pip install 'xlsudoku[charts]'" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
