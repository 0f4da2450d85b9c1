"""Rule sets: the cheat sheets, and the family's own house rules."""

import dataclasses

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from .. import scoring
from ..forms.rule_values import (
    fields_from_rules,
    fields_with_errors,
    rules_from_fields,
    show_error,
    words_typed,
)
from ..forms.rule_words import speak
from ..forms.rules import DeleteForm, HouseRulesForm, ImportForm
from ..scoring.language import _
from ..services import Conflict, NotFound, rulesets
from ..storage.db import get_db
from ..web import language
from . import found, posted_or_filled

bp = Blueprint("rules", __name__, url_prefix="/rules")

# A refused form is shown again with this status, so tests and tools can tell
# it from a first visit; browsers show the page all the same.
REFUSED = 422


def _entry_or_404(key):
    return found(rulesets.get_rule_set(get_db(), key), _("There is no rule set “%(key)s”.", key=key))


def _house_rules_or_404(key):
    entry = _entry_or_404(key)
    if entry.preset:
        abort(
            404,
            description=_(
                "“%(name)s” is a written rule set: only house rules can be changed or deleted.",
                name=entry.rules.name,
            ),
        )
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
        deals=_deals(rules),
        max_teams=scoring.MAX_TEAMS,
        variants=_variants(entry.key),
    )


# the tables the rules page shows the deck for
_TABLES = (2, 3, 4, 6)


def _deals(rules):
    """(players, the engine's deck) for a few tables, when the rules say how many decks."""
    decks = [(players, scoring.deck(rules, players)) for players in _TABLES]
    return [(players, cards) for players, cards in decks if cards is not None]


def _variants(key):
    """The variants of the preset this rule set is (or is a variant of), with their keys."""
    preset = scoring.variant_of(key)
    return scoring.VARIANTS.get(preset, ())


@bp.get("/<key>.json")
@language.english
def download(key):
    """Download a rule set as a house-rules file."""
    entry = _entry_or_404(key)
    return entry.rules.to_json(), {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": f'attachment; filename="{key}.json"',
    }


@bp.route("/new", methods=["GET", "POST"])
def new():
    """Make house rules, starting from a preset or saved rule set (?from=<key>)."""
    start = _entry_or_404(request.args.get("from", next(iter(scoring.RULESETS))))
    form = HouseRulesForm(data=fields_from_rules(start.rules) | {"name": ""})
    rules = _submitted_rules(form)
    key = _stored(form, lambda db: rulesets.save_house_rules(db, rules)) if rules else None
    if key:
        flash(_("Saved your house rules “%(name)s”.", name=rules.name), "success")
        return redirect(url_for("rules.show", key=key), 303)
    return _editor(form, start.rules, start=start, entries=rulesets.list_rule_sets(get_db()))


@bp.route("/<key>/edit", methods=["GET", "POST"])
def edit(key):
    """Change saved house rules; a preset leads to a copy of it instead."""
    entry = _entry_or_404(key)
    if entry.preset:
        flash(_("Written rule sets stay as they are written: change a copy of them here."), "info")
        return redirect(url_for("rules.new", **{"from": key}))
    form = HouseRulesForm(data=fields_from_rules(entry.rules) | {"revision": entry.revision})
    rules = _submitted_rules(form)
    if rules is None:
        return _editor(form, entry.rules, entry=entry)
    try:
        rulesets.update_house_rules(get_db(), key, form.revision.data, rules)
    except Conflict as conflict:
        # keep what was typed, say why it was not saved; saving again now
        # (against the rules as they are) is a choice made knowingly
        form.revision.data = entry.revision
        show_error(form, str(conflict))
        return _editor(form, entry.rules, entry=entry)
    except NotFound:
        abort(404, description=_("These house rules were deleted on another phone."))
    except ValueError as error:
        show_error(form, str(error))
        return _editor(form, entry.rules, entry=entry)
    flash(_("Saved your changes to “%(name)s”.", name=rules.name), "success")
    return redirect(url_for("rules.show", key=key), 303)


@bp.route("/<key>/delete", methods=["GET", "POST"])
def delete(key):
    """Ask before deleting saved house rules, then delete them."""
    entry = _house_rules_or_404(key)
    form = posted_or_filled(DeleteForm, revision=entry.revision)
    if form.validate_on_submit():
        try:
            rulesets.delete_house_rules(get_db(), key, form.revision.data)
        except (Conflict, NotFound) as refused:
            flash(_("Nothing was deleted: %(reason)s", reason=refused), "error")
            return redirect(url_for("rules.show", key=key), 303)
        flash(_("Deleted “%(name)s”.", name=entry.rules.name), "success")
        return redirect(url_for("rules.index"), 303)
    return render_template("rules/delete.html", entry=entry, form=form)


@bp.route("/import", methods=["GET", "POST"])
def import_file():
    """Save a house-rules file uploaded from the phone."""
    form = ImportForm()
    rules = _uploaded_rules(form) if form.validate_on_submit() else None
    key = _stored(form, lambda db: rulesets.save_house_rules(db, rules)) if rules else None
    if key:
        flash(_("Imported “%(name)s”.", name=rules.name), "success")
        return redirect(url_for("rules.show", key=key), 303)
    return render_template("rules/import.html", form=form), REFUSED if form.is_submitted() else 200


def _submitted_rules(form):
    """The rule set a submitted editor holds, or None (the messages are on the form)."""
    if not form.is_submitted():
        return None
    form.validate()  # each field on its own; rules_from_fields refuses if that left messages
    return rules_from_fields(form)


def _uploaded_rules(form):
    """The rule set in the uploaded file, renamed if asked, or None with a message."""
    try:
        rules = scoring.RuleSet.from_json(form.file.data.read())
    except ValueError as error:
        form.file.errors.append(str(error))  # as the engine says it: it names the field
        return None
    if not (form.name.data or "").strip():
        return rules
    try:
        return dataclasses.replace(rules, name=form.name.data)
    except ValueError as error:
        show_error(form, str(error))
        return None


def _stored(form, store):
    """``store(db)``'s result, or None when it refuses (a taken name) with the message on the form."""
    try:
        return store(get_db())
    except ValueError as error:
        show_error(form, str(error))
        return None


def _editor(form, rules, **context):
    """The editor page, in the words of the rules typed (of ``rules``, which it
    started from, when those words are refused)."""
    status = REFUSED if form.is_submitted() else 200
    words = words_typed(form, rules.say)
    speak(form, words)
    return render_template(
        "rules/editor.html", form=form, words=words, problems=fields_with_errors(form), **context
    ), status


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
    if isinstance(rules.first_meld_books, tuple):
        columns.append("first_meld_books")
        lengths.append(len(rules.first_meld_books))
    if not columns:
        return [], []
    rows = [
        {
            "round": number,
            "meld_minimum": scoring.meld_minimum(rules, number, 0),
            "going_out": scoring.going_out_bonus(rules, number),
            "books_to_go_out": scoring.books_to_go_out(rules, number),
            "first_meld_books": scoring.first_meld_books(rules, number),
        }
        for number in range(1, (rules.planned_rounds or max(lengths)) + 1)
    ]
    return columns, rows
