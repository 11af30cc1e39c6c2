"""The CSV files the club writes: no cell of text is a formula when a spreadsheet opens it,
and the numbers stay numbers."""

import csv
import io
from decimal import Decimal

from core.spreadsheets import csv_text


def cells(*row) -> list[str]:
    return next(csv.reader(io.StringIO(csv_text([row]))))


def test_only_text_a_spreadsheet_would_take_for_a_formula_gets_a_quote_before_it():
    assert cells("=1+1", "+1", "-1", "@A1", "\tx", "\rx") == [
        "'=1+1",
        "'+1",
        "'-1",
        "'@A1",
        "'\tx",
        "'\rx",
    ]
    # numbers the app writes stay numbers, a negative one too; other text stays as it is
    assert cells(-3, -4.5, Decimal("-1.50"), 0, "Анна", "a=b", None, True) == [
        "-3",
        "-4.5",
        "-1.50",
        "0",
        "Анна",
        "a=b",
        "",
        "True",
    ]


def test_a_quoted_cell_and_a_new_line_in_a_cell_still_read_back_as_one_cell():
    assert cells('=HYPERLINK("http://evil.example/","x")', "a\nb") == [
        '\'=HYPERLINK("http://evil.example/","x")',
        "a\nb",
    ]
