"""Rule sets: the five written presets and the family's saved house rules.

Presets are keyed by name ("roth"); saved house rules by "house-<id>", so a
key never changes when a family renames its rules.
"""

import contextlib
import datetime
import re
import sqlite3
from dataclasses import dataclass

from .scoring import RULESETS, RuleSet

_HOUSE_KEY = re.compile(r"house-([1-9][0-9]{0,9})")


@dataclass(frozen=True)
class Entry:
    key: str
    rules: RuleSet
    preset: bool


def list_rule_sets(db):
    """Every rule set: the presets first, then house rules by name."""
    entries = [Entry(key, rules, True) for key, rules in RULESETS.items()]
    rows = db.query("SELECT id, rules FROM house_rules ORDER BY name COLLATE NOCASE")
    entries += [Entry(f"house-{row['id']}", RuleSet.from_json(row["rules"]), False)
                for row in rows]
    return entries


def get_rule_set(db, key):
    """The rule set with this key, or None."""
    if key in RULESETS:
        return Entry(key, RULESETS[key], True)
    row_id = _house_id(key)
    if row_id is None:
        return None
    for row in db.query("SELECT rules FROM house_rules WHERE id = ?", [row_id]):
        return Entry(key, RuleSet.from_json(row["rules"]), False)
    return None


def save_house_rules(db, rules):
    """Save new house rules in one transaction; return their key.

    :raises ValueError: the name is taken (by a preset or saved rules, any case).
    """
    now = _now()
    with _name_must_be_free(rules), db.atomic():
        table = db["house_rules"].insert(
            {"name": rules.name, "rules": rules.to_json(), "created_at": now, "updated_at": now})
    return f"house-{table.last_pk}"


def update_house_rules(db, key, rules):
    """Replace saved house rules in one transaction; return their key.

    Games keep their own copy of their rules, so this never changes a game.

    :raises ValueError: the name is taken (by a preset or other saved rules, any case).
    :raises LookupError: there are no saved house rules with this key.
    """
    with _name_must_be_free(rules), db.atomic():
        db["house_rules"].update(
            _existing_id(db, key), {"name": rules.name, "rules": rules.to_json(), "updated_at": _now()})
    return key


def delete_house_rules(db, key):
    """Delete saved house rules in one transaction (games keep their own copy).

    :raises LookupError: there are no saved house rules with this key.
    """
    with db.atomic():
        db["house_rules"].delete(_existing_id(db, key))


def _house_id(key):
    """The house_rules row id in a key like "house-7", or None."""
    match = _HOUSE_KEY.fullmatch(key)
    return int(match[1]) if match else None


def _existing_id(db, key):
    row_id = _house_id(key)
    if row_id is None or not db["house_rules"].count_where("id = ?", [row_id]):
        raise LookupError(f"no saved house rules “{key}”")
    return row_id


@contextlib.contextmanager
def _name_must_be_free(rules):
    """Refuse a preset's name at once, and a saved one's when the unique index does."""
    taken = ValueError(f"name: there is already a rule set called “{rules.name}”")
    if any(rules.name.casefold() == preset.name.casefold() for preset in RULESETS.values()):
        raise taken
    try:
        yield
    except sqlite3.IntegrityError:
        raise taken from None


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
