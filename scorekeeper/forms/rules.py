"""The house-rules editor: every value of a ``RuleSet`` as fields a person fills in on a phone.

``RulesFields`` is a plain ``wtforms.Form`` so that it can sit inside another
form (the New Game page embeds it with ``FormField``) without a second CSRF
token. ``fields_from_rules`` fills it from a rule set; ``rules_from_fields``
reads it back and lets the engine judge, putting each message next to the
field it is about. Nothing here computes a score. The values typed as short
lists are read and written by ``rule_lists``.
"""

import re
from collections.abc import Mapping

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired, FileSize
from wtforms import FieldList, Form, FormField, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.form import BaseForm

from .. import scoring
from ..scoring import RuleSet
from .fields import RevisionField, WholeNumberField
from .rule_lists import (
    book_kind,
    format_books_by_round,
    format_numbers,
    format_score_steps,
    parse_books_by_round,
    parse_numbers,
    parse_score_steps,
)

MAX_FILE_SIZE = 64 * 1024  # bytes: a house-rules file is about 1 KB

# Values that are usually penalties. A phone's numeric keypad has no minus
# key, so each gets a "loses / gains" choice beside a number that is never negative.
SIGNED = ("red_three", "black_three", "penalty")
LOSE, GAIN = "lose", "gain"

# Labels of the ranks that are not written as numbers.
_RANK_NAMES = {"joker": "Joker", "A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}

# Where a list in an engine path ("going_out[2]") is shown as "Round 3";
# by_score entries are pairs, so "Pair 2, minimum" says which number.
_PAIR_PARTS = {"0": "score", "1": "minimum"}
# Engine paths shown by a field of another name (the rest keep the engine's name).
_FIELD_NAMES = {
    "meld_minimum": "meld_mode",
    "meld_minimum.by_round": "meld_by_round",
    "meld_minimum.by_score": "meld_by_score",
    "end": "end_mode",
    "end.rounds": "end_rounds",
    "end.score": "end_score",
}


def _number(label, maximum=scoring.MAX_RULE_VALUE, **kwargs):
    return WholeNumberField(label, maximum=maximum, **kwargs)


def _sign(label):
    return SelectField(
        label, default=LOSE, choices=[SelectChoice(LOSE, "loses"), SelectChoice(GAIN, "gains")]
    )


class CardValueFields(Form):
    """Points per card, one field per rank, named like the engine's ``card_values``."""


# "2" and "10" are not Python names, so these fields are added by name
for _rank in scoring.RANKS:
    setattr(CardValueFields, _rank, _number(_RANK_NAMES.get(_rank, _rank), maximum=scoring.MAX_CARD_VALUE))
del _rank


class BookFields(Form):
    value = _number("Bonus each")
    to_go_out = _number("To go out", maximum=99)


class ExtraBookFields(BookFields):
    kind = StringField("Kind of book", description="Like sevens or wild.")


class RulesFields(Form):
    """Every value of a rule set. Read its fields by item (``fields["name"]``):
    on a ``FormField`` that embeds it, ``.name`` is the FormField's own name."""

    name = StringField("Name of these rules", description="What your family calls them.")
    card_values = FormField(CardValueFields, "Card values")
    book_clean = FormField(BookFields, "Clean (red) books")
    book_dirty = FormField(BookFields, "Dirty (black) books")
    extra_books = FieldList(FormField(ExtraBookFields, "Another kind of book"), min_entries=3, max_entries=10)
    books_mode = SelectField(
        "Books needed to go out",
        choices=[
            SelectChoice("none", "No set number"),
            SelectChoice("same", "Same each round (above)"),
            SelectChoice("by_round", "By round (below)"),
        ],
    )
    books_by_round = TextAreaField(
        "Books to go out, by round",
        description="A round a line (or split by ;), like 1 clean + 1 dirty. "
        "The last round repeats; write none for a round with no books needed.",
    )
    red_three_sign = _sign("The team")
    red_three = _number("Points per red 3")
    black_three_sign = _sign("The team")
    black_three = _number("Points per black 3")
    penalty_sign = _sign("The team")
    penalty = _number("Points per penalty", description="0 if your house has no penalty.")
    red_three_melded = _number(
        "Red 3 laid down: points each", description="0 if your house does not score them."
    )
    cut_22 = _number(
        "Cutting exactly 22 cards: points per player",
        description="0 if your house does not play the cut bonus.",
    )
    going_out = StringField(
        "Going out: points", description="One number, or one per round like 100, 200, 300 (the last repeats)."
    )
    meld_mode = SelectField(
        "First meld minimum",
        choices=[
            SelectChoice("none", "No points minimum"),
            SelectChoice("by_round", "By round"),
            SelectChoice("by_score", "By the team's score"),
        ],
    )
    meld_by_round = StringField(
        "Minimums by round", description="Like 50, 90, 120, 150: one per round, the last repeats."
    )
    meld_by_score = TextAreaField(
        "Minimums by the team's score",
        description="A pair “score: minimum” a line (or split by commas), the scores rising, "
        "like 0: 50, 2500: 90. A team below the first score gets the first minimum.",
    )
    end_mode = SelectField(
        "The game ends",
        choices=[
            SelectChoice("none", "When the table decides"),
            SelectChoice("rounds", "After a number of rounds"),
            SelectChoice("score", "At a target score"),
        ],
    )
    end_rounds = _number("Number of rounds", minimum=1, maximum=scoring.MAX_ROUNDS)
    end_score = _number(
        "Target score", minimum=1, description="The game ends after the round in which a team reaches it."
    )


class HouseRulesForm(RulesFields, FlaskForm):
    """The house-rules editor page: every value, a CSRF token, and the revision
    of the saved rules it edits (a change meanwhile is refused)."""

    revision = RevisionField()


class ImportForm(FlaskForm):
    # no accept=".json": some phones' file pickers then grey out a downloaded file
    file = FileField(
        "House-rules file",
        description="A .json file, at most 64 KB.",
        validators=[
            FileRequired("Choose a house-rules file."),
            FileSize(
                MAX_FILE_SIZE,
                message=f"That file is too big for a house-rules file (at most {MAX_FILE_SIZE // 1024} KB).",
            ),
        ],
    )
    name = StringField("Save as", description="Leave empty to keep the name in the file.")


class DeleteForm(FlaskForm):
    """The CSRF token and the revision: the page's button is the confirmation."""

    revision = RevisionField()


# --- filling the fields ---------------------------------------------------------------


def fields_from_rules(rules: RuleSet) -> dict:
    """The data that fills a ``RulesFields`` with these rules (``RulesFields(data=...)``)."""
    meld = rules.meld_minimum or {}
    return {
        "name": rules.name,
        "card_values": dict(rules.card_values),
        **{name: abs(getattr(rules, name)) for name in SIGNED},
        **{f"{name}_sign": GAIN if getattr(rules, name) > 0 else LOSE for name in SIGNED},
        "red_three_melded": rules.red_three_melded,
        "cut_22": rules.cut_22,
        **_books_data(rules),
        "going_out": format_numbers(rules.going_out),
        "meld_mode": next(iter(meld), "none"),
        "meld_by_round": format_numbers(meld.get("by_round", ())),
        "meld_by_score": format_score_steps(meld.get("by_score", ())),
        "end_mode": next(iter(rules.end or {}), "none"),
        "end_rounds": rules.planned_rounds,
        "end_score": rules.target_score,
    }


def _books_data(rules):
    needed = rules.books_to_go_out
    mode = "none" if needed is None else "same" if isinstance(needed, Mapping) else "by_round"
    same = needed if mode == "same" else {}

    def book(kind):
        return {"value": rules.books[kind], "to_go_out": same.get(kind)}

    return {
        "book_clean": book("clean"),
        "book_dirty": book("dirty"),
        "extra_books": [
            {"kind": kind, **book(kind)} for kind in rules.books if kind not in ("clean", "dirty")
        ],
        "books_mode": mode,
        "books_by_round": format_books_by_round(needed) if mode == "by_round" else "",
    }


# --- reading them back ------------------------------------------------------------------


def rules_from_fields(fields) -> RuleSet | None:
    """The rule set the fields describe, or None with a message next to each wrong field.

    Call it after ``validate()``, which checks each number on its own: this
    refuses when that left messages, reads the values the chosen options use
    (a blank one is refused), parses the typed lists, and lets the engine
    judge the whole. Fields the chosen options do not use are ignored.

    :param fields: a ``RulesFields`` (or a form subclassing it), or a
        ``FormField`` that embeds one.
    """
    fields = _unwrapped(fields)
    rows = _book_rows(fields)
    data = {
        "name": _named(fields["name"]),
        "card_values": {f.short_name: _required(f) for f in fields["card_values"]},
        **{name: _signed(fields, name) for name in SIGNED},
        "red_three_melded": _required(fields["red_three_melded"]),
        "cut_22": _required(fields["cut_22"]),
        "books": _books(rows),
        "going_out": _going_out(fields["going_out"]),
        "meld_minimum": _meld_minimum(fields),
        "books_to_go_out": _books_to_go_out(fields, rows),
        "end": _end(fields),
    }
    if _has_errors(fields):
        return None
    try:
        return RuleSet(**data)
    except ValueError as error:
        show_error(fields, str(error))
        return None


def _named(field):
    # the engine would say so too, but only once every other value is right
    if not (field.data or "").strip():
        _refuse(field, "Give these rules a name.")
    return field.data


def _required(field):
    """The field's number; a blank one (in use) gets a message."""
    if field.data is None and not field.errors:
        _refuse(field, "Enter a number.")
    return field.data


def _signed(fields, name):
    points = _required(fields[name])
    return -points if points and fields[f"{name}_sign"].data == LOSE else points


def _book_rows(fields):
    """(kind, row) for the clean and dirty books and each extra row with anything typed in it."""
    rows = [("clean", fields["book_clean"]), ("dirty", fields["book_dirty"])]
    for row in fields["extra_books"]:
        if not all(_is_blank(f) for f in row):
            rows.append((book_kind(row["kind"].data), row))
    return rows


def _books(rows):
    books = {}
    for kind, row in rows:
        value = _required(row["value"])
        if not kind:
            _refuse(row["kind"], "Name the kind of book, like sevens.")
        elif kind in books:
            _refuse(row["kind"], f"“{kind}” books are already listed.")
        else:
            books[kind] = value
    return books


def _going_out(field):
    numbers = _parsed(field, parse_numbers)
    return numbers[0] if numbers and len(numbers) == 1 else numbers


def _meld_minimum(fields):
    mode = fields["meld_mode"].data
    if mode == "by_round":
        return {"by_round": _parsed(fields["meld_by_round"], parse_numbers)}
    if mode == "by_score":
        return {"by_score": _parsed(fields["meld_by_score"], parse_score_steps)}
    return None


def _books_to_go_out(fields, rows):
    mode = fields["books_mode"].data
    if mode == "by_round":
        return _parsed(fields["books_by_round"], parse_books_by_round)
    if mode != "same":
        return None
    counts = {kind: row["to_go_out"].data for kind, row in rows if not _is_blank(row["to_go_out"])}
    if not counts:
        _refuse(
            fields["book_clean"]["to_go_out"],
            "Enter the books needed to go out, or choose “No set number” below.",
        )
    return counts


def _end(fields):
    mode = fields["end_mode"].data
    return {mode: _required(fields[f"end_{mode}"])} if mode in ("rounds", "score") else None


def _parsed(field, parse):
    """What ``parse`` reads from a text field, or None with its message on the field."""
    try:
        return parse(field.data or "")
    except ValueError as error:
        _refuse(field, str(error))
        return None


# --- messages next to their fields ------------------------------------------------------


def show_error(fields, message):
    """Show an engine or storage message ("path: detail") next to the field its path names.

    ``meld_minimum.by_score[1]: scores must rise (0 comes after 0)`` goes
    under the by-score text as "Pair 2: scores must rise (0 comes after 0)."
    A path no field shows becomes a message for the whole form.
    """
    fields = _unwrapped(fields)
    path, _, detail = message.partition(": ")
    where = _position(path)
    text = f"{where}: {detail}" if where else detail
    text = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
    field = _field_at(fields, path)
    if field is None:
        fields.form_errors = [*fields.form_errors, text]
    else:
        _refuse(field, text)


def _field_at(fields, path):
    """The field that shows the value at an engine path, or None."""
    # without list positions: "books_to_go_out[1].sevens" -> "books_to_go_out"
    base = re.sub(r"\[.*", "", path)
    root, _, key = base.partition(".")
    try:
        if base in _FIELD_NAMES:
            return fields[_FIELD_NAMES[base]]
        if root == "books_to_go_out" and "[" in path:
            return fields["books_by_round"]
        if root == "card_values":
            return fields["card_values"][key]
        if root in ("books", "books_to_go_out"):
            row = dict(_book_rows(fields))[key]
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
    match = re.search(r"\[(\d+)\](?:\[(\d)\])?(?:\.(.+))?$", path)
    if not match:
        return ""
    entry = "Pair" if ".by_score" in path else "Round"
    parts = [f"{entry} {int(match[1]) + 1}", _PAIR_PARTS.get(match[2]), match[3]]
    return ", ".join(part for part in parts if part)


def fields_with_errors(fields):
    """Every field showing a message, in page order, for a summary at the top of a long form."""
    return [field for field in _leaves(_unwrapped(fields)) if field.errors]


def _refuse(field, message):
    field.errors = [*field.errors, message]


def _has_errors(form):
    return bool(form.form_errors) or any(field.errors for field in _leaves(form))


def _leaves(field):
    """The fields under a form, FormField or FieldList: the ones that carry messages."""
    if isinstance(field, (BaseForm, FormField, FieldList)):
        for sub in field:
            yield from _leaves(sub)
    else:
        yield field


def _unwrapped(fields):
    return fields.form if isinstance(fields, FormField) else fields


def _is_blank(field):
    text = field.raw_data[0] if field.raw_data else field.data
    return text is None or not str(text).strip()
