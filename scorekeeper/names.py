"""One rule for a name a person types: players, teams and house rules.

A name is stored in Unicode NFC with its spaces collapsed (every kind of
Unicode space and line separator counts), and compared by its *key*: NFKC,
case-folded, without invisible format characters, so "Émile" and "émile",
"Straße" and "STRASSE", or "Ann" and "A\\u200bnn" are one name. The database
keeps the key in a column with a unique index, so it enforces the same rule
the app applies. Pure Python: the engine uses it for rule-set names.
"""

import unicodedata

MAX_NAME = 40

# Characters a name may hold but that show nothing by themselves: format
# characters (zero-width joiners, direction marks), combining marks, spaces.
_INVISIBLE = {"Cf", "Mn", "Me", "Zs", "Zl", "Zp"}


def clean_name(text):
    """The name as stored: NFC, trimmed, runs of spaces made one space."""
    if not isinstance(text, str):
        return ""
    return " ".join(unicodedata.normalize("NFC", text).split())


def _english(message, **values):
    return message % values if values else message


def name_problem(name, maximum=MAX_NAME, _=_english):
    """Why ``name`` (already cleaned) cannot be a name, or None.

    :param _: says the words in the reader's language (``scoring.language._``; this module
        imports nothing of ours, so the caller hands it over); English without it.
    """
    if not name:
        return _("Type a name.")
    if len(name) > maximum:
        return _("At most %(maximum)s characters.", maximum=maximum)
    for char in name:
        category = unicodedata.category(char)
        if category == "Cc":
            return _("A name can’t hold control characters.")
        if category == "Cs":  # half of a character: only a broken keyboard or file sends one
            return _("A name can’t hold that character.")
    if all(unicodedata.category(char) in _INVISIBLE for char in name):
        return _("A name needs a letter, digit or sign you can see.")
    return None


def name_key(name):
    """What two names must share to be the same name (see the module's docstring)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(char for char in folded if unicodedata.category(char) != "Cf")
