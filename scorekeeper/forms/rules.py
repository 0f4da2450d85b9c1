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
from .fields import RevisionField, SignedNumberField, WholeNumberField

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
_RANK_NAMES = {"joker": "Joker", "A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}


def _number(label, maximum=scoring.MAX_RULE_VALUE, **kwargs):
    return WholeNumberField(label, maximum=maximum, **kwargs)


def _sign(label):
    return SelectField(
        label, default=LOSE, choices=[SelectChoice(LOSE, "loses"), SelectChoice(GAIN, "gains")]
    )


class CardValueFields(Form):
    """Points per card, one field per rank, named like the engine's ``card_values``."""


# "2" and "10" are not Python names, so these fields are added by name
for _rank in scoring.RANKS:
    setattr(CardValueFields, _rank, _number(_RANK_NAMES.get(_rank, _rank), maximum=scoring.MAX_CARD_VALUE))
del _rank


class BookFields(Form):
    value = _number("Bonus each")
    to_go_out = _number("To go out", maximum=99)
    called = StringField("Called", description="Like natural; empty: its kind’s own name.")


class ExtraBookFields(BookFields):
    kind = StringField("Kind of book", description="Like sevens or wild.")


class CaseFields(Form):
    """The value in each case of a round's end, each optional (blank: the usual value).

    Typed on the full keyboard, which has a minus, since one case may count
    for a team and another against it (Canasta's red 3s)."""

    went_out = SignedNumberField("If this team went out")
    other_went_out = SignedNumberField("If another team went out")
    nobody_out = SignedNumberField("If nobody went out")
    not_melded = SignedNumberField("If this team melded nothing", description="Whoever went out.")


def _cases():
    return FormField(CaseFields, "Depends on who went out")


class RulesFields(Form):
    """Every value of a rule set. Read its fields by item (``fields["name"]``):
    on a ``FormField`` that embeds it, ``.name`` is the FormField's own name."""

    #: the words its labels, legends and hints say (``rule_words.speak`` sets them)
    words: Words = DEFAULT

    name = StringField("Name of these rules", description="What your family calls them.")
    card_values = FormField(CardValueFields, "Card values")
    book_clean = FormField(BookFields, "Clean (red) books")
    book_dirty = FormField(BookFields, "Dirty (black) books")
    extra_books = FieldList(FormField(ExtraBookFields, "Another kind of book"), min_entries=3, max_entries=10)
    books_mode = SelectField(
        "Books needed to go out",
        choices=[
            SelectChoice("none", "No set number"),
            SelectChoice("same", "Same each round"),
            SelectChoice("by_round", "By round"),
        ],
        # a choice's words stay short: a select shows no more than its width
        description="Same each round: the counts above; by round: the table below.",
    )
    books_any_to_go_out = _number(
        "To go out: books in all",
        maximum=99,
        description="Of any kind, like Canasta's one canasta; empty if only the kinds above count.",
    )
    books_by_round = TextAreaField(
        "Books to go out, by round",
        description="A round a line (or split by ;), like 1 clean + 1 dirty. "
        "The last round repeats; write none for a round with no books needed.",
    )
    red_three_sign = _sign("The team")
    red_three = _number("Points per red 3")
    black_three_sign = _sign("The team")
    black_three = _number("Points per black 3")
    penalty_sign = _sign("The team")
    penalty = _number("Points per penalty", description="0 if your house has no penalty.")
    red_three_melded = _number(
        "Red 3 laid down: points each", description="0 if your house does not score them."
    )
    red_three_cases = _cases()
    black_three_cases = _cases()
    red_three_melded_cases = _cases()
    red_threes_all_count = _number(
        "All the red 3s: how many",
        maximum=99,
        description="A bonus for laying them all down (4 with two decks); 0 if your house has none.",
    )
    red_threes_all = _number("Bonus for laying them all down")
    red_threes_all_cases = _cases()
    not_melded_books = _number(
        "“Melded nothing” until a team has this many books",
        maximum=99,
        description="For the cases “if this team melded nothing”: like Samba's 2, whose red 3s count "
        "against a side with fewer than two canastas; 0 or empty: until it melds anything.",
    )
    red_three_book = _number("Book of red 3s: bonus each", description="0 if your house has none.")
    red_three_book_cases = _cases()
    black_three_book = _number("Book of black 3s: bonus each", description="0 if your house has none.")
    black_three_book_cases = _cases()
    black_three_out = _number(
        "Black 3 melded going out: points each", description="0 if your house does not allow it."
    )
    cut_22 = _number(
        "Cutting exactly 22 cards: points per player",
        description="0 if your house does not play the cut bonus.",
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
            SelectChoice(scoring.values.PACKET_CARDS, _l("Its cards count as points left")),
            SelectChoice(scoring.values.PACKET_NOT_TAKEN, _l("It counts as not taken")),
        ],
        description=_l("Burraco counts its cards; Buraco counts it as never taken."),
    )
    going_out = StringField(
        "Going out: points", description="One number, or one per round like 100, 200, 300 (the last repeats)."
    )
    going_out_concealed = _number(
        "Going out concealed: points more",
        description="On top of going out, for going out in one turn without having melded; 0 if unused.",
    )
    meld_mode = SelectField(
        "First meld minimum",
        choices=[
            SelectChoice("none", "No points minimum"),
            SelectChoice("by_round", "By round"),
            SelectChoice("by_score", "By the team's score"),
        ],
    )
    meld_by_round = StringField(
        "Minimums by round", description="Like 50, 90, 120, 150: one per round, the last repeats."
    )
    meld_by_score = TextAreaField(
        "Minimums by the team's score",
        description="A pair “score: minimum” a line (or split by commas), the scores rising, "
        "like 0: 50, 2500: 90. A team below the first score gets the first minimum.",
    )
    first_meld_books = TextAreaField(
        "First meld must hold these books",
        description="Like 1 clean + 1 dirty, or 1 book (of any kind); one round a line, the last repeats, "
        "none for a round without. Empty: no books needed.",
    )
    deal_decks = StringField(
        "Decks",
        description="Like 5, 1 per player + 1, or by players: 2: 3, 4: 5 (from 2 players 3 decks, "
        "from 4 players 5). Empty if your house does not say.",
    )
    deal_hand = _number("Cards in a hand", minimum=1, maximum=scoring.values.MAX_CARDS_DEALT)
    deal_knee = _number(
        "Cards in a knee",
        maximum=scoring.values.MAX_CARDS_DEALT,
        default=0,
        description="Dealt between the hand and the foot (Hand, Knee and Foot); 0 for none.",
    )
    deal_foot = _number(
        "Cards in a foot", maximum=scoring.values.MAX_CARDS_DEALT, description="0 for a game without a foot."
    )
    deal_jokers = _number("Jokers in a deck", maximum=4, default=2)
    end_mode = SelectField(
        "The game ends",
        choices=[
            SelectChoice("none", "When the table says"),
            SelectChoice("rounds", "After set rounds"),
            SelectChoice("score", "At a target score"),
        ],
    )
    end_rounds = _number("Number of rounds", minimum=1, maximum=scoring.MAX_ROUNDS)
    end_score = _number(
        "Target score", minimum=1, description="The game ends after the round in which a team reaches it."
    )
    # what the family calls things (scoring.words); empty: Hand and Foot's words
    words_game = StringField("The game", description="Like Canasta; empty: Hand and Foot.")
    words_book = StringField("One book is called", description="Like canasta; empty: book.")
    words_books = StringField("Two or more", description="Like canastas; empty: books.")
    words_piles = StringField(
        "The piles a player holds",
        description="In the order they are played, split by commas: like hand, or hand, knee, foot; "
        "empty: hand, foot.",
    )


class HouseRulesForm(RulesFields, FlaskForm):
    """The house-rules editor page: every value, a CSRF token, and the revision
    of the saved rules it edits (a change meanwhile is refused)."""

    revision = RevisionField()


class ImportForm(FlaskForm):
    # no accept=".json": some phones' file pickers then grey out a downloaded file
    file = FileField(
        "House-rules file",
        description="A .json file, at most 64 KB.",
        validators=[
            FileRequired("Choose a house-rules file."),
            FileSize(
                MAX_FILE_SIZE,
                message=f"That file is too big for a house-rules file (at most {MAX_FILE_SIZE // 1024} KB).",
            ),
        ],
    )
    name = StringField("Save as", description="Leave empty to keep the name in the file.")


class DeleteForm(FlaskForm):
    """The CSRF token and the revision: the page's button is the confirmation."""

    revision = RevisionField()
