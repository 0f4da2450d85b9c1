"""The schema, as append-only sqlite-utils migrations.

Never edit a migration that has shipped: add the next one (m002_…).
"""

from sqlite_utils.migrations import Migrations

migrations = Migrations("scorekeeper")


@migrations()
def m001_house_rules(db):
    # A family's saved rule sets; `rules` is the house-rules JSON file as text.
    db["house_rules"].create(
        {"id": int, "name": str, "rules": str, "created_at": str, "updated_at": str},
        pk="id",
        not_null={"name", "rules", "created_at", "updated_at"},
    )
    # names are unique regardless of case ("Roth" and "roth" are one rule set)
    db.execute("CREATE UNIQUE INDEX idx_house_rules_name ON house_rules (name COLLATE NOCASE)")
