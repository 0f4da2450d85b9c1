"""Filling the house-rules editor from a rule set.

``fields_from_rules`` gives the data that fills a ``RulesFields``: each value
as its field shows it (a by-outcome value as its usual number and the cases
that differ, lists as the text they are typed as). Reading them back is
``rule_values``.
"""

from collections.abc import Mapping

from .. import scoring
from ..scoring import NOT_MELDED, OUTCOMES, RuleSet
from .rule_lists import format_books_by_round, format_decks, format_numbers, format_score_steps
from .rule_words import kind_names
from .rules import CASE_KEYS, CASES, GAIN, LOSE, SIGNED


def fields_from_rules(rules: RuleSet) -> dict:
    """The data that fills a ``RulesFields`` with these rules (``RulesFields(data=...)``)."""
    meld = rules.meld_minimum or {}
    every = rules.red_threes_all or {"count": 0, "bonus": 0}
    values = {name: getattr(rules, name) for name in CASES if name != "red_threes_all"}
    values["red_threes_all"] = every["bonus"]
    usual = {name: _usual(value, signed=name in SIGNED) for name, value in values.items()}
    deal = rules.deal or {}
    return {
        "name": rules.name,
        "card_values": dict(rules.card_values),
        **{name: abs(usual.get(name, getattr(rules, name))) for name in SIGNED},
        **{f"{name}_sign": GAIN if usual.get(name, getattr(rules, name)) > 0 else LOSE for name in SIGNED},
        **{name: usual[name] for name in CASES if name not in SIGNED},
        **{f"{name}_cases": _case_data(values[name], usual[name]) for name in CASES},
        "red_threes_all_count": every["count"],
        "not_melded_books": rules.not_melded_books,
        "black_three_out": rules.black_three_out,
        "cut_22": rules.cut_22,
        **_books_data(rules),
        "packet_not_taken": abs(rules.packet_not_taken),
        "packet_not_taken_sign": GAIN if rules.packet_not_taken > 0 else LOSE,
        "packet_unplayed": rules.packet_unplayed,
        "going_out": format_numbers(rules.going_out),
        "going_out_concealed": rules.going_out_concealed,
        "first_meld_books": _format_first_meld(rules),
        "deal_decks": format_decks(deal.get("decks")),
        "deal_hand": deal.get("hand"),
        "deal_knee": deal.get("knee", 0),
        "deal_foot": deal.get("foot"),
        "deal_jokers": deal.get("jokers", 2),
        "meld_mode": next(iter(meld), "none"),
        "meld_by_round": format_numbers(meld.get("by_round", ())),
        "meld_by_score": format_score_steps(meld.get("by_score", ())),
        "end_mode": next(iter(rules.end or {}), "none"),
        "end_rounds": rules.planned_rounds,
        "end_score": rules.target_score,
        "tie": rules.tie,
        "victory_points": rules.victory_points or "",
        **_words_data(rules),
    }


def _words_data(rules):
    words = rules.words or {}
    return {
        "words_game": words.get("game", ""),
        "words_book": words.get("book", ""),
        "words_books": words.get("books", ""),
        "words_piles": ", ".join(words.get("piles", ())),
    }


def _named(rounds, rules):
    """The lists of books with each kind written by its name where it has one."""
    called = (rules.words or {}).get("kinds", {})
    names = {kind: called[kind] for kind in kind_names(called, rules.books).values()}
    return [{names.get(kind, kind): count for kind, count in counts.items()} for counts in rounds]


def _usual(value, *, signed):
    """The value a by-outcome value mostly takes (the field beside its cases);
    an unsigned field shows the most common value that is not negative."""
    if not isinstance(value, Mapping):
        return value
    cases = [value[key] for key in OUTCOMES]
    fitting = [v for v in cases if signed or v >= 0] or [0]
    return max(fitting, key=fitting.count)


def _case_data(value, usual):
    """The cases that differ from the usual value (the rest stay blank)."""
    if not isinstance(value, Mapping):
        return {}
    return {
        key: value[key] for key in CASE_KEYS if key in value and (key == NOT_MELDED or value[key] != usual)
    }


def _format_first_meld(rules):
    needed = rules.first_meld_books
    if needed is None:
        return ""
    return format_books_by_round(_named([needed] if isinstance(needed, Mapping) else needed, rules))


def _books_data(rules):
    needed = rules.books_to_go_out
    mode = "none" if needed is None else "same" if isinstance(needed, Mapping) else "by_round"
    same = needed if mode == "same" else {}

    called = (rules.words or {}).get("kinds", {})

    def book(kind):
        return {"value": rules.books[kind], "to_go_out": same.get(kind), "called": called.get(kind, "")}

    return {
        "book_clean": book("clean"),
        "book_dirty": book("dirty"),
        "extra_books": [
            {"kind": kind, **book(kind)} for kind in rules.books if kind not in ("clean", "dirty")
        ],
        "books_any_to_go_out": same.get(scoring.ANY_BOOK),
        "books_mode": mode,
        "books_by_round": format_books_by_round(_named(needed, rules)) if mode == "by_round" else "",
    }
