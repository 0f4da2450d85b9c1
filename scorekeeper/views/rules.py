from flask import Blueprint, abort, render_template

from .. import rulesets, scoring
from ..db import get_db

bp = Blueprint("rules", __name__, url_prefix="/rules")


def _entry_or_404(key):
    entry = rulesets.get_rule_set(get_db(), key)
    if entry is None:
        abort(404, description=f"There is no rule set “{key}”.")
    return entry


@bp.get("")
def index():
    """List every rule set."""
    return render_template("rules/index.html", entries=rulesets.list_rule_sets(get_db()))


@bp.get("/<key>")
def show(key):
    """Show one rule set as a cheat sheet."""
    entry = _entry_or_404(key)
    rules = entry.rules
    return render_template(
        "rules/show.html",
        entry=entry,
        rules=rules,
        tiers=scoring.value_tiers(rules),
        schedule=_round_rules(rules),
    )


@bp.get("/<key>.json")
def download(key):
    """Download a rule set as a house-rules file."""
    entry = _entry_or_404(key)
    return entry.rules.to_json(), {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": f'attachment; filename="{key}.json"',
    }


def _round_rules(rules):
    """The per-round schedule: a row per round for each rule that varies by round.

    Returns (columns, rows); rows run to the planned last round, or until
    every per-round list has reached its last value, which then repeats. The
    engine answers for each round; the view only lays the answers out.
    """
    columns = []
    lengths = []
    if rules.meld_minimum and "by_round" in rules.meld_minimum:
        columns.append("meld_minimum")
        lengths.append(len(rules.meld_minimum["by_round"]))
    if isinstance(rules.going_out, tuple):
        columns.append("going_out")
        lengths.append(len(rules.going_out))
    if isinstance(rules.books_to_go_out, tuple):
        columns.append("books_to_go_out")
        lengths.append(len(rules.books_to_go_out))
    if not columns:
        return [], []
    rows = [
        {
            "round": number,
            "meld_minimum": scoring.meld_minimum(rules, number, 0),
            "going_out": scoring.going_out_bonus(rules, number),
            "books_to_go_out": scoring.books_to_go_out(rules, number),
        }
        for number in range(1, (rules.planned_rounds or max(lengths)) + 1)
    ]
    return columns, rows
