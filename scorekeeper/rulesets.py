"""Rule sets: the five written presets and the family's saved house rules.

Presets are keyed by name ("roth"); saved house rules by "house-<id>", so a
key never changes when a family renames its rules.
"""

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
    match = _HOUSE_KEY.fullmatch(key)
    if not match:
        return None
    for row in db.query("SELECT rules FROM house_rules WHERE id = ?", [int(match[1])]):
        return Entry(key, RuleSet.from_json(row["rules"]), False)
    return None


def save_house_rules(db, rules):
    """Save new house rules in one transaction; return their key.

    :raises ValueError: the name is taken (by a preset or saved rules, any case).
    """
    taken = ValueError(f"name: there is already a rule set called “{rules.name}”")
    if any(rules.name.casefold() == preset.name.casefold() for preset in RULESETS.values()):
        raise taken
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    try:
        with db.atomic():
            table = db["house_rules"].insert(
                {"name": rules.name, "rules": rules.to_json(), "created_at": now, "updated_at": now})
    except sqlite3.IntegrityError:
        raise taken from None
    return f"house-{table.last_pk}"
