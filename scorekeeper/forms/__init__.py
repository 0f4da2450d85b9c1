"""Flask-WTF forms, one module per page family; whole-form rules in each form's ``validate``.

- ``fields``: the shared field types (``WholeNumberField``, ``RevisionField``)
- ``rounds``: the round form, built from the engine's ``ENTRY_FIELDS``
- ``games``: a new game (teams checked as a whole), the buttons that change a game
- ``rules``, ``rule_fill``, ``rule_values``, ``rule_lists``: the house-rules editor's
  fields, how they are filled from a rule set and read back, and its typed lists
- ``auth``: signing in and the passcode settings
- ``players``, ``history``, ``exchange``: renaming, the history filters, the import upload
"""
