"""Rule sets: the five written presets and the family's saved house rules.

Presets are keyed by name ("roth"); saved house rules by "house-<id>", so a
key never changes when a family renames its rules. Names are unique by their
key (``names.name_key``), presets' names included.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from ..names import name_key
from ..scoring import RULESETS, RuleSet
from ..scoring.language import _
from ..scoring.words import DEFAULT as DEFAULT_WORDS
from ..storage.db import transaction
from . import Conflict, NotFound
from .game_model import rules_of

_HOUSE_KEY = re.compile(r"house-([1-9][0-9]{0,17})")


@dataclass(frozen=True)
class Entry:
    key: str
    rules: RuleSet
    preset: bool
    revision: int = 0


def list_rule_sets(db):
    """Every rule set: the presets first, then house rules by name."""
    entries = [Entry(key, rules, True) for key, rules in RULESETS.items()]
    entries += [
        Entry(f"house-{row_id}", RuleSet.from_json(text), False, revision)
        for row_id, text, revision in db.execute(
            "SELECT id, rules, revision FROM house_rules ORDER BY key, id"
        )
    ]
    return entries


def get_rule_set(db, key):
    """The rule set with this key, or None."""
    if key in RULESETS:
        return Entry(key, RULESETS[key], True)
    row_id = house_id(key)
    if row_id is None:
        return None
    row = db.execute("SELECT rules, revision FROM house_rules WHERE id = ?", [row_id]).fetchone()
    return Entry(key, RuleSet.from_json(row[0]), False, row[1]) if row else None


def house_id(key):
    """The house_rules row id in a key like "house-7", or None."""
    match = _HOUSE_KEY.fullmatch(key or "")
    return int(match[1]) if match and int(match[1]) < 2**63 else None


def _now():
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _name_must_be_free(db, rules, row_id=None):
    key = name_key(rules.name)
    taken = (
        any(key == name_key(preset.name) for preset in RULESETS.values())
        or db.execute("SELECT 1 FROM house_rules WHERE key = ? AND id IS NOT ?", [key, row_id]).fetchone()
    )
    if taken:
        raise ValueError(
            _(
                "%(where)s: there is already a rule set called “%(name)s”",
                where="name",
                name=rules.name,
            )
        )


def insert_house_rules(db, rules):
    """Save new house rules inside the caller's transaction; return their key."""
    _name_must_be_free(db, rules)
    stamp = _now()
    row_id = db.execute(
        """INSERT INTO house_rules (name, key, rules, created_at, updated_at, revision)
           VALUES (?, ?, ?, ?, ?, 0)""",
        [rules.name, name_key(rules.name), rules.to_json(), stamp, stamp],
    ).lastrowid
    return f"house-{row_id}"


def find_house_rules(db, name):
    """(key, RuleSet) of the saved house rules with this name, or None."""
    row = db.execute("SELECT id, rules FROM house_rules WHERE key = ?", [name_key(name)]).fetchone()
    return (f"house-{row[0]}", RuleSet.from_json(row[1])) if row else None


def save_house_rules(db, rules):
    """Save new house rules in one transaction; return their key.

    :raises ValueError: the name is taken (by a preset or saved rules, any case).
    """
    with transaction(db):
        return insert_house_rules(db, rules)


def _existing(db, key, revision):
    row_id = house_id(key)
    row = (
        db.execute("SELECT rules, revision FROM house_rules WHERE id = ?", [row_id]).fetchone()
        if row_id
        else None
    )
    if row is None:
        raise NotFound(_("no saved house rules “%(key)s”", key=key))
    if revision != row[1]:
        raise Conflict(
            _(
                "These house rules were changed on another phone since you opened this "
                "page, so nothing was saved. Here they are as they are now."
            )
        )
    return row_id, RuleSet.from_json(row[0])


def update_house_rules(db, key, revision, rules):
    """Replace saved house rules if they are still what the phone saw; return their key.

    Games keep their own copy of their rules, so this never changes a game.
    Saving the rules unchanged writes nothing.

    :raises ValueError: the name is taken (by a preset or other saved rules, any case).
    :raises NotFound: there are no saved house rules with this key.
    :raises Conflict: they were changed meanwhile.
    """
    with transaction(db):
        row_id, saved = _existing(db, key, revision)
        if saved == rules:
            return key
        _name_must_be_free(db, rules, row_id)
        db.execute(
            """UPDATE house_rules SET name = ?, key = ?, rules = ?, updated_at = ?,
                      revision = revision + 1 WHERE id = ?""",
            [rules.name, name_key(rules.name), rules.to_json(), _now(), row_id],
        )
    return key


def delete_house_rules(db, key, revision):
    """Delete saved house rules if they are still what the phone saw (games keep their own copy)."""
    with transaction(db):
        row_id, _ = _existing(db, key, revision)
        db.execute("DELETE FROM house_rules WHERE id = ?", [row_id])


def rules_words(db, rules_name):
    """The words of the rules named so (its latest game's), in the reader's language."""
    row = db.execute(
        "SELECT rules FROM games WHERE rules_name = ? ORDER BY id DESC LIMIT 1", [rules_name]
    ).fetchone()
    return rules_of(row[0]).say if row else DEFAULT_WORDS


def latest_key(db):
    """The rule set of the household's latest game (None before any): a new game starts
    from it, so that a Buraco household's "New game" is Buraco."""
    row = db.execute(
        "SELECT rules_key FROM games WHERE deleted_at IS NULL AND importing IS NULL ORDER BY id DESC LIMIT 1"
    ).fetchone()
    return row[0] if row else None


def household_game(db):
    """The game the household plays, in the reader's words: its latest game's (None before any,
    and for Hand and Foot's words where the reader's language has none of its own: the catalog's)."""
    row = db.execute(
        "SELECT rules FROM games WHERE deleted_at IS NULL AND importing IS NULL ORDER BY id DESC LIMIT 1"
    ).fetchone()
    game = rules_of(row[0]).say.game if row else None
    return None if game == DEFAULT_WORDS.game else game
