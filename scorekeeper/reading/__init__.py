"""A photo of the printed sheet read back, offline (issue 55): pure NumPy, no Flask, no
SQLite. So far one piece: ``digits`` reads one handwritten digit from the image of its box
with a small model shipped beside it (``digits.npz``, made by ``scripts/train_digits.py``).
docs/READER.md says which libraries were chosen and why, where the digits come from and
under what licence, and what is left to build."""
