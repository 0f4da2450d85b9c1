"""How long each kind of typed text may be, declared once for every form (issue 53).

A value longer than its kind's limit is refused with a message next to its field, the
typed text kept and nothing written, **before anything reads it further**: ``Fits`` stops
the field's other checks (``StopValidation``), the form-wide checks and the house rules'
reading skip a field already refused, and a number's or a day's field measures its text
before reading it. The limit is also the input's ``maxlength`` (WTForms writes it from
the validator's flag), so a phone stops typing there. 1 MB posted to a field is refused
at once; the longest text each field takes is read in linear time
(``bench/worst_input.py`` times a second phone meanwhile).

Each limit follows what the value means, with room for what a person types around it
(spaces made one, a decomposed accent), and holds what the app itself writes into the
field: a rule set at the engine's bounds fills the editor within them.
"""

from wtforms.validators import StopValidation

from ..names import MAX_NAME
from ..scoring import MAX_NAME_LENGTH, MAX_PLAYERS, MAX_ROUNDS
from ..scoring.language import _
from ..scoring.words import MAX_PILES, MAX_WORD_LENGTH
from ..web import passcode
from ..web.formatting import number

#: a number: "−1,000,000" with spaces around it; a day (2026-11-25) or a time (19:30) too
NUMBER = 20
#: a player's or a team's name: 40 characters once its spaces are made one
NAME = 2 * MAX_NAME
#: a rule set's name: 80 characters once its spaces are made one
RULES_NAME = 2 * MAX_NAME_LENGTH
#: a word of the rules (a game, a book, a kind of book: canasta, natural, wild cards)
WORD = 2 * MAX_WORD_LENGTH
#: the piles a player holds, split by commas: hand, knee, foot
PILES = MAX_PILES * WORD
#: a number a round ("100, 200, 300"): "−1000000, " is 10 characters
NUMBERS = MAX_ROUNDS * 12
#: a "score: minimum" pair a round: "−1000000: 1000000" and its line's end is 19
PAIRS = MAX_ROUNDS * 20
#: decks: 5, "1 per player + 1", or a "players: decks" pair for each count of players
DECKS = MAX_PLAYERS * NUMBER
#: a round a line of books, like "1 clean + 1 dirty + 2 sevens" (a few kinds a round)
BOOKS = MAX_ROUNDS * 200
#: a passcode (``passcode.problem`` refuses a longer one to be set)
PASSCODE = passcode.MAX_LENGTH
#: the household code: six digits, spaces or dashes between them
CODE = 20


def too_long(text, maximum):
    return text is not None and len(text) > maximum


def said(maximum):
    """What a field says when its text is longer than ``maximum``."""
    return _("At most %(maximum)s characters.", maximum=number(maximum))


class Fits:
    """A field's text of at most ``maximum`` characters, checked first: a longer one is refused
    and the field's other checks do not run. Sets the input's ``maxlength``.

    :param message: what to say instead (a callable given the maximum), where the field said
        so already in other words (a passcode's "Use at most 128 characters.").
    """

    def __init__(self, maximum, message=said):
        self.maximum, self.message = maximum, message
        self.field_flags = {"maxlength": maximum}

    def __call__(self, form, field):
        if too_long(field.data, self.maximum):
            raise StopValidation(self.message(self.maximum))


def passcode_said(maximum):
    return _("Use at most %(count)s characters.", count=maximum)
