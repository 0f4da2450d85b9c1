"""The values a family types as short lists in the house-rules editor.

- going out: ``100`` or one per round, ``100, 200, 300``;
- meld minimum by round: ``50, 90, 120, 150``;
- meld minimum by score: ``0: 50, 2500: 90`` (or one pair a line);
- books to go out by round: ``1 clean + 1 dirty; 2 clean + 2 dirty`` (or one
  round a line; ``none`` for a round that needs none); ``1 book`` (or
  ``1 any``) is a book of any kind; the first meld's books are written so too;
- decks for the deal: ``5``, ``1 per player + 1``, or by players ``2: 3, 4: 5``.

Commas separate numbers, so a comma between digits ("1,000" or "50,90") is
refused rather than guessed at: "120,150" could be one number or two. Each
``parse_`` function raises ``ValueError`` with a message for the person;
each ``format_`` function writes what its ``parse_`` reads.
"""

import re

from ..scoring.language import _, language

ANY = "any"
# what a family may write for "books of any kind"
_ANY_WORDS = {
    "any",
    "book",
    "books",
    "canasta",
    "canastas",
    "canastra",
    "canastras",
    # "of any kind" in the languages the pages speak, as their hints write it
    "qualquer",
    "cualquiera",
    "qualsiasi",
    "any_kind",
    "book_of_any_kind",
    "books_of_any_kind",
}
# a round that needs no books, as each language's hint writes it
_NONE_WORDS = {"none", "nenhuma", "nenhum", "ninguna", "ninguno", "nessuna", "nessuno"}
# "1 per player + 1" as each language's hint writes it
_DECKS_PER_PLAYER = re.compile(
    r"(\d+)\s*(?:decks?\s*)?(?:per\s+player|por\s+jogador|por\s+jugador|per\s+giocatore)(?:\s*\+\s*(\d+))?",
    re.IGNORECASE,
)
# what the editor writes back in each language: a round that needs no books, decks per player
TYPED = {
    "en": ("none", "per player"),
    "pt_BR": ("nenhuma", "por jogador"),
    "es": ("ninguna", "por jugador"),
    "it": ("nessuna", "per giocatore"),
}


def typed(code):
    """("none", "per player") as the rules editor writes them back in the language ``code``."""
    return TYPED.get(code) or TYPED.get(code.split("_")[0]) or TYPED["en"]


#: a run of digits with commas in it ("1,000", "50,90"), from its first digit on
_DIGITS_AND_COMMAS = re.compile(r"(?<!\d)\d+(?:,\d+)+")
# "2.500": thousands as Portuguese, Spanish and Italian group them
_DIGITS_AND_POINTS = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{3})+(?![\d.])")


def book_kind(text):
    """ "Wild cards" -> "wild_cards": the engine names kinds in lower case with _."""
    return "_".join((text or "").lower().split())


def parse_numbers(text):
    """ "50, 90, 120" (or split by spaces, ; or new lines) -> [50, 90, 120]."""
    _refuse_thousands_commas(text)
    items = [item for item in re.split(r"[\s,;]+", text) if item]
    if not items:
        raise ValueError(_("Enter a number, or one per round like 50, 90, 120."))
    return [_whole(item) for item in items]


def parse_score_steps(text):
    """ "0: 50, 2500: 90" (or a pair a line) -> [[0, 50], [2500, 90]]."""
    _refuse_thousands_commas(text)
    steps = []
    for item in filter(str.strip, re.split(r"[\n,;]+", text)):
        score, colon, minimum = item.partition(":")
        if not colon:
            raise ValueError(
                _("“%(item)s”: write a score and its minimum, like 2500: 90.", item=item.strip())
            )
        steps.append([_whole(score.strip()), _whole(minimum.strip())])
    if not steps:
        raise ValueError(_("Enter at least one pair, like 0: 50."))
    return steps


def parse_books_by_round(text, *, book="book", books="books", kinds=("clean", "dirty")):
    """ "1 clean + 1 dirty; 2 clean" (or a round a line) -> [{"clean": 1, "dirty": 1}, {"clean": 2}].

    The messages say what the rule set calls a book (``book``, ``books``) and
    give its two usual kinds as the list may name them (``kinds``: "natural",
    "mixed" where Canasta's words call them so).
    """
    clean, dirty = kinds
    rounds = [_book_counts(line, book, clean) for line in filter(str.strip, re.split(r"[\n;]+", text))]
    if not rounds:
        raise ValueError(
            _(
                "Enter the %(books)s for round 1, like 1 %(clean)s + 1 %(dirty)s.",
                books=books,
                clean=clean,
                dirty=dirty,
            )
        )
    return rounds


def _book_counts(line, book, clean):
    if line.strip().lower() in _NONE_WORDS:
        return {}
    counts = {}
    for part in re.split(r"[+,]", line):
        # "2 clean", "2 clean books", "1 wild cards": split at spaces, not matched (a pattern
        # that found the kind between "2" and "books" backtracked over every space of it)
        count, *words = part.split() or [""]
        if len(words) > 1 and words[-1].casefold() in ("book", "books"):
            words.pop()
        if not (count.isdecimal() and words):
            raise ValueError(
                _(
                    "“%(part)s”: write a number and a kind of %(book)s, like 2 %(clean)s.",
                    part=part.strip(),
                    book=book,
                    clean=clean,
                )
            )
        kind = book_kind(" ".join(words))
        kind = ANY if kind in _ANY_WORDS else kind
        if kind in counts:
            raise ValueError(_("“%(line)s”: %(kind)s is given twice.", line=line.strip(), kind=kind))
        counts[kind] = int(count)
    return counts


def parse_decks(text):
    """ "5" -> 5; "1 per player + 1" -> {"per_player": 1, "extra": 1};
    "2: 3, 4: 5" (from 2 players 3 decks, from 4 players 5) -> [[2, 3], [4, 5]]; "" -> None."""
    text = text.strip()
    if not text:
        return None
    if re.fullmatch(r"\d+", text):
        return int(text)
    match = _DECKS_PER_PLAYER.fullmatch(text)
    if match:
        return {"per_player": int(match[1]), "extra": int(match[2] or 0)}
    if ":" in text:
        return parse_score_steps(text)
    raise ValueError(
        _(
            "“%(text)s”: write a number of decks (5), 1 per player + 1, or by players like 2: 3, 4: 5.",
            text=text,
        )
    )


def format_decks(decks):
    if decks is None:
        return ""
    if isinstance(decks, int):
        return str(decks)
    if isinstance(decks, dict) or hasattr(decks, "keys"):
        each = f"{decks['per_player']} {typed(language())[1]}"
        return f"{each} + {decks['extra']}" if decks["extra"] else each
    return ", ".join(f"{players}: {count}" for players, count in decks)


def _whole(text):
    if not re.fullmatch(r"[-\u2212]?\d+", text):
        raise ValueError(_("“%(text)s” is not a whole number.", text=text))
    return int(text.replace("\u2212", "-"))


def _refuse_thousands_commas(text):
    # from the first digit of a run only: tried at each digit, the run was read again from
    # each (work that grew with the square of a run of digits)
    match = _DIGITS_AND_POINTS.search(text)
    if match:
        raise ValueError(_("“%(text)s”: write thousands without a point (2500).", text=match[0]))
    match = _DIGITS_AND_COMMAS.search(text)
    if match:
        raise ValueError(
            _(
                "“%(text)s”: write thousands without a comma (2500), "
                "and put a space after a comma between numbers (50, 90).",
                text=match[0],
            )
        )


def format_numbers(numbers):
    """100 -> "100"; (50, 90) -> "50, 90": how ``parse_numbers`` reads them."""
    return str(numbers) if isinstance(numbers, int) else ", ".join(map(str, numbers))


def format_score_steps(steps):
    return "\n".join(f"{score}: {minimum}" for score, minimum in steps)


def format_books_by_round(rounds):
    return "\n".join(
        " + ".join(f"{count} {kind}" for kind, count in counts.items()) or typed(language())[0]
        for counts in rounds
    )
