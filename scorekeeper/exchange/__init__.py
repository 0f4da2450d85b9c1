"""Export and import: the family's history is theirs to keep.

- ``jsonfile`` writes the *inputs* of every game (rules, teams, rounds as
  entered) in one versioned JSON format (docs/export-format.md), the
  lossless format: export → import → export gives the same file.
- ``csvfile`` writes a spreadsheet of one row per team per round whose scores
  are the engine's, with formula-like cells neutralised.
- ``importer`` reads the JSON back: the whole file is checked first (the
  engine judges every rule set and round) and refused whole with the place
  of the first problem, or written in one transaction, merged by game uid.
"""

FORMAT = "scorekeeper-history"
VERSION = 1
