"""The CSV files the club writes (standings, sheets), pure Python: text that a spreadsheet
opens without running anything in it.

A spreadsheet takes a cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return for a formula, which can fetch an address or run a command when the file is opened.
As OWASP advises ("CSV Injection"), such a cell of text is written with a single quote
before it: the spreadsheet shows it as text, the quote hidden. Numbers the app writes as
numbers (``int``, ``float``, ``Decimal``) are written as they are, a negative one included:
a spreadsheet reads ``-3`` as the number, never as a formula (docs/decisions.md). Every
cell of text is also written between double quotes (OWASP's advice too), so that a carriage
return or a quote in it stays inside the cell.
"""

import csv
import io
from collections.abc import Iterable
from decimal import Decimal

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value) -> str | int | float | Decimal:
    """The value as the file writes it: a number as itself; anything else as text, quoted
    when a spreadsheet would take it for a formula."""
    if value is None:
        return ""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return value
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def csv_text(rows: Iterable[Iterable]) -> str:
    """The rows (the header first) as CSV text, one line a row, every cell through ``cell``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return out.getvalue()
