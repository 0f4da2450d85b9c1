"""The house-rules editor's messages, each next to the field it is about: an engine or
storage message ("path: detail") placed by its path (``show_error``), the fields that
carry one (``fields_with_errors``), and the small readings of the fields that the
reading back (``rule_values``) shares with them."""

import re

from wtforms import FieldList, FormField
from wtforms.form import BaseForm

from ..scoring.language import N_, _
from .rule_lists import book_kind
from .rules import CASE_KEYS, CASES

# Where a list in an engine path ("going_out[2]") is shown as "Round 3";
# by_score entries are pairs, so "Pair 2, minimum" says which number.
# Translators: "Pair 2, score", "Pair 2, minimum", "Pair 1, players", "Pair 1, decks": which
# number of a typed pair a message is about
_PAIR_PARTS = {"0": N_("score"), "1": N_("minimum")}
_DECK_PARTS = {"0": N_("players"), "1": N_("decks")}
# Engine paths shown by a field of another name (the rest keep the engine's name).
_FIELD_NAMES = {
    "meld_minimum": "meld_mode",
    "meld_minimum.by_round": "meld_by_round",
    "meld_minimum.by_score": "meld_by_score",
    "end": "end_mode",
    "end.rounds": "end_rounds",
    "end.score": "end_score",
    "red_threes_all": "red_threes_all_count",
    "red_threes_all.count": "red_threes_all_count",
    "red_threes_all.bonus": "red_threes_all",
    "deal": "deal_decks",
    "deal.decks": "deal_decks",
    "deal.decks.per_player": "deal_decks",
    "deal.decks.extra": "deal_decks",
    "deal.hand": "deal_hand",
    "deal.knee": "deal_knee",
    "deal.foot": "deal_foot",
    "deal.jokers": "deal_jokers",
    "words": "words_game",
    "words.game": "words_game",
    "words.book": "words_book",
    "words.books": "words_books",
    "words.kinds": "book_clean",
    "words.piles": "words_piles",
}


# "meld_minimum.by_score[1]: …": where an engine or storage message is about
_PATH = re.compile(r"(?P<path>[a-z_][a-z0-9_]*(?:\[\d+\]|\.(?:(?!: )[^.\[\]])+)*): (?P<detail>.+)", re.S)


def show_error(fields, message):
    """Show an engine or storage message ("path: detail") next to the field its path names.

    ``meld_minimum.by_score[1]: scores must rise (0 comes after 0)`` goes
    under the by-score text as "Pair 2: scores must rise (0 comes after 0)."
    A message about no path ("These house rules were changed on another
    phone…"), or about a path no field shows, is a message for the whole form,
    whole.
    """
    fields = unwrapped(fields)
    match = _PATH.fullmatch(message)
    path, detail = (match["path"], match["detail"]) if match else ("", message)
    where = _position(path)
    text = f"{where}: {detail}" if where else detail
    text = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
    field = _field_at(fields, path) if path else None
    if field is None:
        fields.form_errors = [*fields.form_errors, text]
    else:
        refuse(field, text)


def _field_at(fields, path):
    """The field that shows the value at an engine path, or None."""
    # without list positions: "books_to_go_out[1].sevens" -> "books_to_go_out"
    base = re.sub(r"\[.*", "", path)
    root, _dot, key = base.partition(".")
    case = base.rpartition(".")[2]
    try:
        if root in CASES and case in CASE_KEYS:
            return fields[f"{root}_cases"][case]
        if base in _FIELD_NAMES:
            return fields[_FIELD_NAMES[base]]
        if root == "books_to_go_out" and "[" in path:
            return fields["books_by_round"]
        if root == "card_values":
            return fields["card_values"][key]
        if base.startswith("words.kinds."):
            return dict(book_rows(fields))[base.removeprefix("words.kinds.")]["called"]
        if root in ("books", "books_to_go_out"):
            row = dict(book_rows(fields))[key]
            if root == "books_to_go_out":
                return row["to_go_out"]
            # the form's bounds on a bonus are the engine's, so the engine can
            # only be refusing an extra kind's name
            return row["kind"] if "kind" in row.form else row["value"]
        return fields[root]
    except KeyError:
        return None


def _position(path):
    """Which entry of a typed list a path is about: "Round 3", "Pair 2, minimum", "Round 2, sevens"."""
    # to the end of the text (re.S, \Z): a "." that stopped at a line's end tried each
    # position before it again for every "[1]." (work that grew with the square of the path)
    match = re.search(r"\[(\d+)\](?:\[(\d)\])?(?:\.(.+))?\Z", path, re.S)
    if not match:
        # the first meld's books typed on one line: which kind
        return path.partition(".")[2] if path.startswith("first_meld_books.") else ""
    pairs = ".by_score" in path or ".decks" in path
    number = int(match[1]) + 1
    entry = _("Pair %(number)s", number=number) if pairs else _("Round %(number)s", number=number)
    part = (_DECK_PARTS if ".decks" in path else _PAIR_PARTS).get(match[2])
    parts = [entry, part and _(part), match[3]]
    return ", ".join(part for part in parts if part)


def fields_with_errors(fields):
    """Every field showing a message, in page order, for a summary at the top of a long form."""
    return [field for field in _leaves(unwrapped(fields)) if field.errors]


def refuse(field, message):
    field.errors = [*field.errors, message]


def has_errors(form):
    return bool(form.form_errors) or any(field.errors for field in _leaves(form))


def _leaves(field):
    """The fields under a form, FormField or FieldList: the ones that carry messages."""
    if isinstance(field, (BaseForm, FormField, FieldList)):
        for sub in field:
            yield from _leaves(sub)
    else:
        yield field


def unwrapped(fields):
    return fields.form if isinstance(fields, FormField) else fields


def is_blank(field):
    text = field.raw_data[0] if field.raw_data else field.data
    return text is None or not str(text).strip()


def book_rows(fields):
    """(kind, row) for the clean and dirty books and each extra row with anything typed in it."""
    rows = [("clean", fields["book_clean"]), ("dirty", fields["book_dirty"])]
    for row in fields["extra_books"]:
        if not all(is_blank(f) for f in row):
            rows.append((book_kind(row["kind"].data), row))
    return rows
