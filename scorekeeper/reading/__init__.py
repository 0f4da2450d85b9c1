"""A photo of the printed sheet read back, offline (issue 55): NumPy, Pillow and zxing-cpp,
no Flask, no SQLite. docs/READER.md says how the parts meet, which libraries were chosen
and why, where the digits come from and under what licence, and what it cannot read.

- ``find(data) -> Found``: the photo decoded, its QR code read, its corner markers found,
  the page flattened (``page``); raises ``NotAnImage``, ``NoSheet``, ``NoCode``;
- ``read(found, geom, hand=None) -> {(round, team, line name): BoxReading}`` (``boxes``);
- ``check(rules, geom, readings, before=None) -> Checked`` (``sums``): the rules' checks,
  the sheet's sums against the engine's, one-digit repairs;
- ``Hand``: the family's handwriting, learnt from the boxes they confirm (``hand``);
- ``digits``: one handwritten digit read with the model shipped beside it.
"""

from .boxes import BoxReading, read
from .hand import Hand
from .page import DPI, Found, NoCode, NoSheet, NotAnImage, find
from .sums import Checked, Column, check

__all__ = [
    "DPI",
    "BoxReading",
    "Checked",
    "Column",
    "Found",
    "Hand",
    "NoCode",
    "NoSheet",
    "NotAnImage",
    "check",
    "find",
    "read",
]
