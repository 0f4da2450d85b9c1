"""The house-rules editor: every value of a ``RuleSet`` as fields a person fills in on a phone.

``RulesFields`` is a plain ``wtforms.Form`` so that it can sit inside another
form (the New Game page embeds it with ``FormField``) without a second CSRF
token. ``rule_fill`` fills it from a rule set, ``rule_values`` reads it back; the values
typed as short lists are read and written by ``rule_lists``. Nothing here
computes a score.
"""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired, FileSize
from wtforms import FieldList, Form, FormField, SelectChoice, SelectField, StringField, TextAreaField

from .. import scoring
from ..scoring import NOT_MELDED, OUTCOMES
from ..scoring.words import DEFAULT, Words
from . import lengths
from .fields import RevisionField, SignedNumberField, WholeNumberField
from .lengths import Fits

MAX_FILE_SIZE = 64 * 1024  # bytes: a house-rules file is about 1 KB

# Values that are usually penalties. A phone's numeric keypad has no minus
# key, so each gets a "loses / gains" choice beside a number that is never negative.
SIGNED = ("red_three", "black_three", "penalty")
LOSE, GAIN = "lose", "gain"
# Values that may depend on how the round ended: each has a "<name>_cases"
# group of optional numbers (blank: the same as the value itself).
CASES = (
    "red_three",
    "black_three",
    "red_three_melded",
    "red_three_book",
    "black_three_book",
    "red_threes_all",
)
CASE_KEYS = (*OUTCOMES, NOT_MELDED)

# Labels of the ranks that are not written as numbers.
_RANK_NAMES = {"joker": _l("Joker"), "A": _l("Ace"), "K": _l("King"), "Q": _l("Queen"), "J": _l("Jack")}


def _number(label, maximum=scoring.MAX_RULE_VALUE, **kwargs):
    return WholeNumberField(label, maximum=maximum, **kwargs)


def _sign(label):
    return SelectField(
        label, default=LOSE, choices=[SelectChoice(LOSE, _l("loses")), SelectChoice(GAIN, _l("gains"))]
    )


class CardValueFields(Form):
    """Points per card, one field per rank, named like the engine's ``card_values``."""


# "2" and "10" are not Python names, so these fields are added by name
for _rank in scoring.RANKS:
    setattr(CardValueFields, _rank, _number(_RANK_NAMES.get(_rank, _rank), maximum=scoring.MAX_CARD_VALUE))
del _rank


class BookFields(Form):
    value = _number(_l("Bonus each"))
    to_go_out = _number(_l("To go out"), maximum=99)
    called = StringField(
        _l("Called"), [Fits(lengths.WORD)], description=_l("Like natural; empty: its kind’s own name.")
    )


class ExtraBookFields(BookFields):
    kind = StringField(_l("Kind of book"), [Fits(lengths.WORD)], description=_l("Like sevens or wild."))


class CaseFields(Form):
    """The value in each case of a round's end, each optional (blank: the usual value).

    Typed on the full keyboard, which has a minus, since one case may count
    for a team and another against it (Canasta's red 3s)."""

    went_out = SignedNumberField(_l("If this team went out"))
    other_went_out = SignedNumberField(_l("If another team went out"))
    nobody_out = SignedNumberField(_l("If nobody went out"))
    not_melded = SignedNumberField(_l("If this team melded nothing"), description=_l("Whoever went out."))


def _cases():
    return FormField(CaseFields, _l("Depends on who went out"))


class RulesFields(Form):
    """Every value of a rule set. Read its fields by item (``fields["name"]``):
    on a ``FormField`` that embeds it, ``.name`` is the FormField's own name."""

    #: the words its labels, legends and hints say (``rule_words.speak`` sets them)
    words: Words = DEFAULT

    name = StringField(
        _l("Name of these rules"), [Fits(lengths.RULES_NAME)], description=_l("What your family calls them.")
    )
    card_values = FormField(CardValueFields, _l("Card values"))
    book_clean = FormField(BookFields, _l("Clean (red) books"))
    book_dirty = FormField(BookFields, _l("Dirty (black) books"))
    extra_books = FieldList(
        FormField(ExtraBookFields, _l("Another kind of book")), min_entries=3, max_entries=10
    )
    books_mode = SelectField(
        _l("Books needed to go out"),
        choices=[
            SelectChoice("none", _l("No set number")),
            SelectChoice("same", _l("Same each round")),
            SelectChoice("by_round", _l("By round")),
        ],
        # a choice's words stay short: a select shows no more than its width
        description=_l("Same each round: the counts above; by round: the table below."),
    )
    books_any_to_go_out = _number(
        _l("To go out: books in all"),
        maximum=99,
        description=_l("Of any kind, like Canasta's one canasta; empty if only the kinds above count."),
    )
    books_by_round = TextAreaField(
        _l("Books to go out, by round"),
        [Fits(lengths.BOOKS)],
        description=_l(
            "A round a line (or split by ;), like 1 clean + 1 dirty. "
            "The last round repeats; write none for a round with no books needed."
        ),
    )
    red_three_sign = _sign(_l("The team"))
    red_three = _number(_l("Points per red 3"))
    black_three_sign = _sign(_l("The team"))
    black_three = _number(_l("Points per black 3"))
    penalty_sign = _sign(_l("The team"))
    penalty = _number(_l("Points per penalty"), description=_l("0 if your house has no penalty."))
    red_three_melded = _number(
        _l("Red 3 laid down: points each"), description=_l("0 if your house does not score them.")
    )
    red_three_cases = _cases()
    black_three_cases = _cases()
    red_three_melded_cases = _cases()
    red_threes_all_count = _number(
        _l("All the red 3s: how many"),
        maximum=99,
        description=_l("A bonus for laying them all down (4 with two decks); 0 if your house has none."),
    )
    red_threes_all = _number(_l("Bonus for laying them all down"))
    red_threes_all_cases = _cases()
    not_melded_books = _number(
        _l("“Melded nothing” until a team has this many books"),
        maximum=99,
        description=_l(
            "For the cases “if this team melded nothing”: like Samba's 2, whose red 3s count "
            "against a side with fewer than two canastas; 0 or empty: until it melds anything."
        ),
    )
    red_three_book = _number(_l("Book of red 3s: bonus each"), description=_l("0 if your house has none."))
    red_three_book_cases = _cases()
    black_three_book = _number(
        _l("Book of black 3s: bonus each"), description=_l("0 if your house has none.")
    )
    black_three_book_cases = _cases()
    black_three_out = _number(
        _l("Black 3 melded going out: points each"), description=_l("0 if your house does not allow it.")
    )
    cut_22 = _number(
        _l("Cutting exactly 22 cards: points per player"),
        description=_l("0 if your house does not play the cut bonus."),
    )
    # the second packet (Buraco's morto, Burraco's pozzetto): the last pile a player holds
    packet_not_taken_sign = _sign(_l("The team"))
    packet_not_taken = _number(
        _l("Points for never taking the second packet"),
        description=_l("Like Buraco's morto: 100 against a team that never took it; 0 if unused."),
    )
    packet_unplayed = SelectField(
        _l("A second packet taken but not played"),
        default=scoring.values.PACKET_CARDS,
        choices=[
            SelectChoice(scoring.values.PACKET_CARDS, _l("Its cards count")),
            SelectChoice(scoring.values.PACKET_NOT_TAKEN, _l("As never taken")),
        ],
        description=_l("Burraco counts its cards; Buraco counts it as never taken."),
    )
    going_out = StringField(
        _l("Going out: points"),
        [Fits(lengths.NUMBERS)],
        description=_l("One number, or one per round like 100, 200, 300 (the last repeats)."),
    )
    going_out_concealed = _number(
        _l("Going out concealed: points more"),
        description=_l("On top of going out, for going out in one turn without having melded; 0 if unused."),
    )
    meld_mode = SelectField(
        _l("First meld minimum"),
        choices=[
            SelectChoice("none", _l("No points minimum")),
            SelectChoice("by_round", _l("By round")),
            SelectChoice("by_score", _l("By the team's score")),
        ],
    )
    meld_by_round = StringField(
        _l("Minimums by round"),
        [Fits(lengths.NUMBERS)],
        description=_l("Like 50, 90, 120, 150: one per round, the last repeats."),
    )
    meld_by_score = TextAreaField(
        _l("Minimums by the team's score"),
        [Fits(lengths.PAIRS)],
        description=_l(
            "A pair “score: minimum” a line (or split by commas), the scores rising, "
            "like 0: 50, 2500: 90. A team below the first score gets the first minimum."
        ),
    )
    first_meld_books = TextAreaField(
        _l("First meld must hold these books"),
        [Fits(lengths.BOOKS)],
        description=_l(
            "Like 1 clean + 1 dirty, or 1 book (of any kind); one round a line, the last repeats, "
            "none for a round without. Empty: no books needed."
        ),
    )
    deal_decks = StringField(
        _l("Decks"),
        [Fits(lengths.DECKS)],
        description=_l(
            "Like 5, 1 per player + 1, or by players: 2: 3, 4: 5 (from 2 players 3 decks, "
            "from 4 players 5). Empty if your house does not say."
        ),
    )
    deal_hand = _number(_l("Cards in a hand"), minimum=1, maximum=scoring.values.MAX_CARDS_DEALT)
    deal_knee = _number(
        _l("Cards in a knee"),
        maximum=scoring.values.MAX_CARDS_DEALT,
        default=0,
        description=_l("Dealt between the hand and the foot (Hand, Knee and Foot); 0 for none."),
    )
    deal_foot = _number(
        _l("Cards in a foot"),
        maximum=scoring.values.MAX_CARDS_DEALT,
        description=_l("0 for a game without a foot."),
    )
    deal_jokers = _number(_l("Jokers in a deck"), maximum=4, default=2)
    end_mode = SelectField(
        _l("The game ends"),
        choices=[
            SelectChoice("none", _l("When the table says")),
            SelectChoice("rounds", _l("After set rounds")),
            SelectChoice("score", _l("At a target score")),
        ],
    )
    end_rounds = _number(_l("Number of rounds"), minimum=1, maximum=scoring.MAX_ROUNDS)
    end_score = _number(
        _l("Target score"),
        minimum=1,
        description=_l("The game ends after the round in which a team reaches it."),
    )
    tie = SelectField(
        _l("A tie for the lead when the game ends"),
        default=scoring.values.TIE_DRAW,
        choices=[
            # short: a choice is read whole in its box on a 320 px phone
            SelectChoice(scoring.values.TIE_DRAW, _l("A draw")),
            SelectChoice(scoring.values.TIE_PLAY_ON, _l("One more round")),
        ],
        description=_l(
            "One more round until one team leads, as a casual Buraco or Burraco table plays a tie "
            "off; a tournament turn’s tie is a draw."
        ),
    )
    victory_points = SelectField(
        _l("Victory points"),
        default="",
        choices=[
            SelectChoice("", _l("No victory points")),
            SelectChoice(scoring.victory.FIBUR, _l("FIBUR’s table")),
        ],
        description=_l(
            "A tournament turn’s victory points from the points difference, beside the score: "
            "FIBUR’s tables, for a turn of 3 or 4 rounds."
        ),
    )
    # what the family calls things (scoring.words); empty: Hand and Foot's words
    words_game = StringField(
        _l("The game"), [Fits(lengths.WORD)], description=_l("Like Canasta; empty: Hand and Foot.")
    )
    words_book = StringField(
        _l("One book is called"), [Fits(lengths.WORD)], description=_l("Like canasta; empty: book.")
    )
    words_books = StringField(
        _l("Two or more"), [Fits(lengths.WORD)], description=_l("Like canastas; empty: books.")
    )
    words_piles = StringField(
        _l("The piles a player holds"),
        [Fits(lengths.PILES)],
        description=_l(
            "In the order they are played, split by commas: like hand, or hand, knee, foot; "
            "empty: hand, foot."
        ),
    )


class HouseRulesForm(RulesFields, FlaskForm):
    """The house-rules editor page: every value, a CSRF token, and the revision
    of the saved rules it edits (a change meanwhile is refused)."""

    revision = RevisionField()


class ImportForm(FlaskForm):
    # no accept=".json": some phones' file pickers then grey out a downloaded file
    file = FileField(
        _l("House-rules file"),
        description=_l("A .json file, at most 64 KB."),
        validators=[
            FileRequired(_l("Choose a house-rules file.")),
            FileSize(
                MAX_FILE_SIZE,
                message=_l(
                    "That file is too big for a house-rules file (at most %(size)s KB).",
                    size=MAX_FILE_SIZE // 1024,
                ),
            ),
        ],
    )
    name = StringField(
        _l("Save as"), [Fits(lengths.RULES_NAME)], description=_l("Leave empty to keep the name in the file.")
    )


class DeleteForm(FlaskForm):
    """The CSRF token and the revision: the page's button is the confirmation."""

    revision = RevisionField()
