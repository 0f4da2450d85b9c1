"""The values a family types as short lists in the house-rules editor.

- going out: ``100`` or one per round, ``100, 200, 300``;
- meld minimum by round: ``50, 90, 120, 150``;
- meld minimum by score: ``0: 50, 2500: 90`` (or one pair a line);
- books to go out by round: ``1 clean + 1 dirty; 2 clean + 2 dirty`` (or one
  round a line; ``none`` for a round that needs none).

Commas separate numbers, so a comma between digits ("1,000" or "50,90") is
refused rather than guessed at: "120,150" could be one number or two. Each
``parse_`` function raises ``ValueError`` with a message for the person;
each ``format_`` function writes what its ``parse_`` reads.
"""

import re


def book_kind(text):
    """ "Wild cards" -> "wild_cards": the engine names kinds in lower case with _."""
    return "_".join((text or "").lower().split())


def parse_numbers(text):
    """ "50, 90, 120" (or split by spaces, ; or new lines) -> [50, 90, 120]."""
    _refuse_thousands_commas(text)
    items = [item for item in re.split(r"[\s,;]+", text) if item]
    if not items:
        raise ValueError("Enter a number, or one per round like 50, 90, 120.")
    return [_whole(item) for item in items]


def parse_score_steps(text):
    """ "0: 50, 2500: 90" (or a pair a line) -> [[0, 50], [2500, 90]]."""
    _refuse_thousands_commas(text)
    steps = []
    for item in filter(str.strip, re.split(r"[\n,;]+", text)):
        score, colon, minimum = item.partition(":")
        if not colon:
            raise ValueError(f"“{item.strip()}”: write a score and its minimum, like 2500: 90.")
        steps.append([_whole(score.strip()), _whole(minimum.strip())])
    if not steps:
        raise ValueError("Enter at least one pair, like 0: 50.")
    return steps


def parse_books_by_round(text):
    """ "1 clean + 1 dirty; 2 clean" (or a round a line) -> [{"clean": 1, "dirty": 1}, {"clean": 2}]."""
    rounds = [_book_counts(line) for line in filter(str.strip, re.split(r"[\n;]+", text))]
    if not rounds:
        raise ValueError("Enter the books for round 1, like 1 clean + 1 dirty.")
    return rounds


def _book_counts(line):
    if line.strip().lower() == "none":
        return {}
    counts = {}
    for part in re.split(r"[+,]", line):
        # "2 clean", "2 clean books", "1 wild cards"
        match = re.fullmatch(r"(\d+)\s+(.+?)(?:\s+books?)?", part.strip(), re.IGNORECASE)
        if not match:
            raise ValueError(f"“{part.strip()}”: write a number and a kind of book, like 2 clean.")
        kind = book_kind(match[2])
        if kind in counts:
            raise ValueError(f"“{line.strip()}”: {kind} is given twice.")
        counts[kind] = int(match[1])
    return counts


def _whole(text):
    if not re.fullmatch(r"[-\u2212]?\d+", text):
        raise ValueError(f"“{text}” is not a whole number.")
    return int(text.replace("\u2212", "-"))


def _refuse_thousands_commas(text):
    match = re.search(r"\d+(?:,\d+)+", text)
    if match:
        raise ValueError(
            f"“{match[0]}”: write thousands without a comma (2500), "
            "and put a space after a comma between numbers (50, 90)."
        )


def format_numbers(numbers):
    """100 -> "100"; (50, 90) -> "50, 90": how ``parse_numbers`` reads them."""
    return str(numbers) if isinstance(numbers, int) else ", ".join(map(str, numbers))


def format_score_steps(steps):
    return "\n".join(f"{score}: {minimum}" for score, minimum in steps)


def format_books_by_round(rounds):
    return "\n".join(
        " + ".join(f"{count} {kind}" for kind, count in counts.items()) or "none" for counts in rounds
    )
