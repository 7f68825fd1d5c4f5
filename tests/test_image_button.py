"""IMAGE on the Print sheet: the Generator's puzzle as the booklet's picture.

Headless (``xlsudoku workbook image BOOK``) it is a PNG beside the workbook, never drawn over a
file IMAGE did not write; through xlwings' remote engine (Lite, Server) no file can be written
for the user, so the picture goes into the sheet (an ``addPicture`` action both clients take).
"""

import asyncio
import base64
import shutil

import openpyxl
import pytest
import remote_book
import xlwings as xw
import xlwings.server
from sheets import TEMPLATE
from test_xl import LITE_CLIENT_ACTIONS, SERVER_CLIENT_ACTIONS

from xlsudoku.addin import actions, drawing, headless, layout, xl
from xlsudoku.addin.cellio import OpenpyxlIO
from xlsudoku.cli import main

pytest.importorskip("matplotlib")

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def book(tmp_path):
    path = tmp_path / "mine.xlsm"
    shutil.copy2(TEMPLATE, path)
    assert headless.run("start", path, inputs={layout.SEED: 7}).outcome.ok
    return path


def status(path):
    ref = layout.NAMES[layout.PRINT_STATUS]
    return openpyxl.load_workbook(path)[ref.sheet][ref.address].value


def test_image_writes_a_png_beside_the_workbook_and_replaces_only_its_own(book, capsys):
    picture = book.with_name("mine-puzzle.png")
    assert main(["workbook", "image", str(book)]) == 0
    assert picture.read_bytes().startswith(PNG) and drawing.made_by_image(picture)
    assert status(book) == (
        "IMAGE: wrote mine-puzzle.png beside the workbook (9x9, 600 pixels wide, as xlsudoku "
        "image draws it)."
    )
    first = picture.read_bytes()
    assert main(["workbook", "image", str(book)]) == 0  # its own picture: drawn again
    assert picture.read_bytes().startswith(PNG) and len(picture.read_bytes()) == len(first)
    picture.write_bytes(b"someone's photo")
    assert main(["workbook", "image", str(book)]) != 0
    assert picture.read_bytes() == b"someone's photo"  # never drawn over
    assert status(book).startswith(f"{picture} is there and IMAGE did not write it")
    capsys.readouterr()


def test_image_of_an_empty_grid_names_the_grid(tmp_path):
    path = tmp_path / "empty.xlsm"
    shutil.copy2(TEMPLATE, path)
    outcome = headless.run("image", path).outcome
    assert not outcome.ok
    assert (
        outcome.status
        == "The puzzle grid (Generator!F4:U19) is empty: press START first, then IMAGE"
    )
    assert not path.with_name("empty-puzzle.png").exists()


def test_image_without_a_place_to_draw_says_how_to_get_one():
    io = OpenpyxlIO(openpyxl.load_workbook(TEMPLATE, keep_vba=True))
    assert actions.start(io).ok
    outcome = actions.image(io)
    assert not outcome.ok and "xlsudoku workbook image BOOK" in outcome.status


def test_image_through_the_remote_engine_inserts_a_picture(book):
    wb = openpyxl.load_workbook(book, keep_vba=True)
    remote = remote_book.book(wb)
    asyncio.run(
        xlwings.server.custom_scripts_call(xl, "image", typehint_to_value={xw.Book: remote})
    )
    sent = remote.json()["actions"]
    funcs = {action["func"] for action in sent}
    assert funcs <= SERVER_CLIENT_ACTIONS and funcs <= LITE_CLIENT_ACTIONS
    (added,) = [action for action in sent if action["func"] == "addPicture"]
    assert base64.b64decode(added["args"][0]).startswith(PNG)
    anchor = wb[layout.PRINT][layout.PICTURE_ANCHOR.address]
    assert added["args"][1:3] == [anchor.column - 1, anchor.row - 1]
    (named,) = [action for action in sent if action["func"] == "setPictureName"]
    assert named["args"] == [layout.PICTURE_NAME] or layout.PICTURE_NAME in named["args"]
    texts = remote_book.writes(sent)
    ref = layout.NAMES[layout.PRINT_STATUS]
    assert texts[(ref.sheet, ref.address)].startswith("IMAGE: the picture is on this sheet at S3")
