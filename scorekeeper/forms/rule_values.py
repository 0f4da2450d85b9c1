"""Reading a rule set back from the house-rules editor.

``rules_from_fields`` reads the fields back and lets the engine judge,
putting each message next to the field it is about (``rule_errors.show_error``).
Filling the fields from a rule set is ``rule_fill`` (``fields_from_rules``,
importable from here too, where the views have always found it).
"""

import functools

from .. import scoring
from ..scoring import NOT_MELDED, OUTCOMES, RuleSet
from ..scoring.language import _, language
from ..scoring.words import DEFAULT, Words, check_words
from .rule_errors import (
    book_rows,
    fields_with_errors,
    has_errors,
    is_blank,
    refuse,
    show_error,
    unwrapped,
)
from .rule_fill import fields_from_rules
from .rule_lists import (
    parse_books_by_round,
    parse_decks,
    parse_numbers,
    parse_score_steps,
)
from .rule_words import kinds_written, usual_kinds_written
from .rules import CASE_KEYS, CASES, LOSE, SIGNED

__all__ = ["fields_from_rules", "fields_with_errors", "rules_from_fields", "show_error", "words_typed"]

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
    fields = unwrapped(fields)
    rows = book_rows(fields)
    words = _words(fields, rows)
    names = kinds_written(words, [kind for kind, _ in rows])
    said = words_typed(fields, DEFAULT)  # the messages say them too
    usual = {name: _signed(fields, name) for name in SIGNED}
    usual["red_three_melded"] = _required(fields["red_three_melded"])
    # the options added later: blank is 0, unused (a page from before them still saves)
    usual |= {name: _unused_if_blank(fields[name]) for name in CASES if name not in usual}
    values = {name: _with_cases(fields, name, usual[name]) for name in CASES}
    data = {
        "name": _named(fields["name"]),
        "card_values": {f.short_name: _required(f) for f in fields["card_values"]},
        **{name: values[name] for name in CASES if name != "red_threes_all"},
        "penalty": usual["penalty"],
        "red_threes_all": _red_threes_all(fields, values["red_threes_all"]),
        "not_melded_books": _unused_if_blank(fields["not_melded_books"]),
        "black_three_out": _unused_if_blank(fields["black_three_out"]),
        "cut_22": _required(fields["cut_22"]),
        "books": _books(rows, said),
        "packet_not_taken": _packet_not_taken(fields),
        "packet_unplayed": fields["packet_unplayed"].data or scoring.values.PACKET_CARDS,
        "going_out": _going_out(fields["going_out"]),
        "going_out_concealed": _unused_if_blank(fields["going_out_concealed"]),
        "meld_minimum": _meld_minimum(fields),
        "first_meld_books": _first_meld_books(fields["first_meld_books"], names, said, rows),
        "books_to_go_out": _books_to_go_out(fields, rows, names, said),
        "end": _end(fields),
        "tie": fields["tie"].data or scoring.values.TIE_DRAW,
        "victory_points": _victory_points(fields),
        "deal": _deal(fields),
    }
    if words:  # none typed: no words in the file, as before words existed
        data["words"] = words
    if has_errors(fields):
        return None
    try:
        return RuleSet(**data)
    except ValueError as error:
        show_error(fields, str(error))
        return None


def _named(field):
    # the engine would say so too, but only once every other value is right
    if field.errors:
        return None  # refused already (too long to read)
    if not (field.data or "").strip():
        refuse(field, _("Give these rules a name."))
    return field.data


def _required(field):
    """The field's number; a blank one (in use) gets a message."""
    if field.data is None and not field.errors:
        refuse(field, _("Enter a number."))
    return field.data


def _unused_if_blank(field):
    return 0 if field.data is None and not field.errors else field.data


def _signed(fields, name):
    points = _required(fields[name])
    return -points if points and fields[f"{name}_sign"].data == LOSE else points


def _packet_not_taken(fields):
    """Added later: blank is 0, unused (a page from before it still saves)."""
    points = _unused_if_blank(fields["packet_not_taken"])
    return -points if points and fields["packet_not_taken_sign"].data == LOSE else points


def _with_cases(fields, name, usual):
    """The value, or an object by outcome when a case is typed (blank cases take the usual value)."""
    cases = fields[f"{name}_cases"]
    given = {key: cases[key].data for key in CASE_KEYS if cases[key].data is not None}
    if not given or usual is None:
        return usual
    value = {key: given.get(key, usual) for key in OUTCOMES}
    return value | ({NOT_MELDED: given[NOT_MELDED]} if NOT_MELDED in given else {})


def _red_threes_all(fields, bonus):
    count = _unused_if_blank(fields["red_threes_all_count"])
    return {"count": count, "bonus": bonus} if count else None


def _first_meld_books(field, names, said, rows):
    if not (field.data or "").strip():
        return None
    rounds = _parsed(field, _books_parser(said, rows))
    rounds = _by_kind(field, rounds, names, said, rows, numbered=bool(rounds) and len(rounds) > 1)
    return rounds[0] if rounds and len(rounds) == 1 else rounds


def _not_scored(written, number, words, rows):
    """ "Round 2, sevens: not a kind of canasta these rules score (natural, mixed)." """
    scored = ", ".join(words.kinds.get(kind, kind) for kind, _row in rows if kind)
    if number:
        return _(
            "Round %(number)s, %(kind)s: not a kind of %(book)s these rules score (%(scored)s).",
            number=number,
            kind=written,
            book=words.book,
            scored=scored,
        )
    return _(
        "%(kind)s: not a kind of %(book)s these rules score (%(scored)s).",
        kind=written[:1].upper() + written[1:],
        book=words.book,
        scored=scored,
    )


def _books_parser(said, rows):
    """``parse_books_by_round`` whose messages say the rule set's words."""
    kinds = usual_kinds_written(said, [kind for kind, _ in rows])
    return functools.partial(parse_books_by_round, book=said.book, books=said.books, kinds=kinds)


def _by_kind(field, rounds, names, words, rows, *, numbered=True):
    """A list of books with the kinds written by their names (``kinds_written``)
    as the kinds they name: "1 natural" is 1 clean where clean books are natural.
    A kind the rules do not score is refused in their words ("natural, mixed"),
    saying which round's line names it when ``numbered``."""
    if not rounds:
        return rounds
    keyed = []
    for number, counts in enumerate(rounds, start=1):
        one, said = {}, {}
        for written, count in counts.items():
            kind = names.get(written, written)
            if kind not in names.values() and kind != scoring.ANY_BOOK:
                refuse(field, _not_scored(written, number if numbered else None, words, rows))
                return None
            if kind in one:
                first = said[kind].replace("_", " ")
                refuse(
                    field,
                    _(
                        "%(first)s and %(second)s are the same kind: give it once a round.",
                        first=first,
                        second=written.replace("_", " "),
                    ),
                )
                return None
            one[kind], said[kind] = count, written
        keyed.append(one)
    return keyed


def _deal(fields):
    decks = _parsed(fields["deal_decks"], parse_decks)
    knee = _unused_if_blank(fields["deal_knee"])
    given = [fields[name] for name in ("deal_hand", "deal_foot") if not is_blank(fields[name])]
    if decks is None and not given and not knee:
        return None  # the house does not say
    return {
        "decks": decks,
        "hand": _required(fields["deal_hand"]),
        "knee": knee,
        "foot": _required(fields["deal_foot"]),
        "jokers": 2 if is_blank(fields["deal_jokers"]) else fields["deal_jokers"].data,
    }


def _words(fields, rows):
    """The words typed (the engine checks them), only those given (and not refused already)."""
    words = {
        key: fields[f"words_{key}"].data.strip()
        for key in ("game", "book", "books")
        if not _unread(fields[f"words_{key}"])
    }
    kinds = {kind: row["called"].data.strip() for kind, row in rows if kind and not _unread(row["called"])}
    if kinds:
        words["kinds"] = kinds
    if not _unread(fields["words_piles"]):
        text = fields["words_piles"].data.replace(" and ", ",")
        words["piles"] = [pile.strip() for pile in text.split(",") if pile.strip()]
    return words


def _unread(field):
    """A word field left out: blank, or refused already (too long to read)."""
    return is_blank(field) or bool(field.errors)


def words_typed(fields, otherwise: Words) -> Words:
    """The words the fields hold (Hand and Foot's where empty), as the engine
    reads them; ``otherwise`` when they would be refused.

    The editor speaks them: a page filled from a rule set says its words, a
    refused page the words typed, unless those are the mistake.
    """
    fields = unwrapped(fields)
    rows = book_rows(fields)
    try:
        typed = check_words(_words(fields, rows), [kind for kind, _ in rows if kind])
        return Words.of(typed, language())  # a preset's in the reader's language
    except ValueError:
        return otherwise


def _books(rows, said):
    books = {}
    for kind, row in rows:
        value = _required(row["value"])
        if not kind:
            refuse(row["kind"], _("Name the kind of %(book)s, like sevens.", book=said.book))
        elif kind in books:
            refuse(row["kind"], _("“%(kind)s” %(books)s are already listed.", kind=kind, books=said.books))
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


def _books_to_go_out(fields, rows, names, said):
    mode = fields["books_mode"].data
    if mode == "by_round":
        field = fields["books_by_round"]
        return _by_kind(field, _parsed(field, _books_parser(said, rows)), names, said, rows)
    if mode != "same":
        return None
    counts = {kind: row["to_go_out"].data for kind, row in rows if not is_blank(row["to_go_out"])}
    if not is_blank(fields["books_any_to_go_out"]):
        counts[scoring.ANY_BOOK] = fields["books_any_to_go_out"].data
    if not counts:
        refuse(
            fields["book_clean"]["to_go_out"],
            _("Enter the %(books)s needed to go out, or choose “No set number” below.", books=said.books),
        )
    return counts


def _end(fields):
    mode = fields["end_mode"].data
    return {mode: _required(fields[f"end_{mode}"])} if mode in ("rounds", "score") else None


def _victory_points(fields):
    """FIBUR's victory points, for a turn of 3 or 4 rounds (said here in the reader's words,
    before the engine would say it in its own)."""
    field = fields["victory_points"]
    if not field.data:
        return None
    if fields["end_mode"].data != "rounds" or fields["end_rounds"].data not in scoring.FIBUR_TABLES:
        refuse(
            field,
            _("FIBUR’s tables are for a tournament turn of 3 or 4 rounds: end the game after 3 or 4 rounds."),
        )
    return field.data


def _parsed(field, parse):
    """What ``parse`` reads from a text field, or None with its message on the field
    (None too when the field was refused already: its text is not read, issue 53)."""
    if field.errors:
        return None
    try:
        return parse(field.data or "")
    except ValueError as error:
        refuse(field, str(error))
        return None
