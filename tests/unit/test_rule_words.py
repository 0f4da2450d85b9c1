"""The house-rules editor's fields in a rule set's words (forms/rule_words.py), without a page:
Hand and Foot's words give back every declared text, others change only what names a book or a pile."""

from wtforms import FieldList, FormField
from wtforms.form import BaseForm

from scorekeeper.forms.rule_words import kind_names, kinds_written, speak
from scorekeeper.forms.rules import RulesFields
from scorekeeper.scoring import RULESETS
from scorekeeper.scoring.words import DEFAULT, Words


def _texts(form):
    """{field id: (label, description)} for every field and group of the form."""
    texts = {}

    def walk(field):
        texts[field.id] = (field.label.text, field.description)
        if isinstance(field, (FormField, FieldList)):
            for sub in field:
                walk(sub)

    for field in form:
        walk(field)
    assert isinstance(form, BaseForm) and len(texts) > 100
    return texts


def test_hand_and_foots_words_leave_every_text_as_declared():
    declared = _texts(RulesFields())
    form = RulesFields()
    speak(form, DEFAULT)
    assert _texts(form) == declared
    assert form.words is DEFAULT and RulesFields.words is DEFAULT


def test_canastas_words_change_only_what_names_a_book_or_a_pile():
    declared = _texts(RulesFields())
    form = RulesFields()
    speak(form, RULESETS["canasta"].say)
    said = _texts(form)
    changed = {key for key in said if said[key] != declared[key]}
    assert changed == {
        "book_clean",
        "book_dirty",
        "books_mode",
        "books_any_to_go_out",
        "books_by_round",
        "not_melded_books",
        "red_three_book",
        "black_three_book",
        "first_meld_books",
        "deal_knee",
        "deal_foot",
        *(f"extra_books-{i}" for i in range(3)),
        *(f"extra_books-{i}-kind" for i in range(3)),
    }
    del said["extra_books"]  # the list's own label ("Extra Books", from its name) is never shown
    for key in [key for key in said if key.startswith("words_")]:
        del said[key]  # the words' own fields explain Hand and Foot's, the defaults
    for label, description in said.values():
        assert "book" not in label.lower() and "foot" not in label.lower(), label
        assert "book" not in description.lower() and "foot" not in description.lower(), description
    assert RulesFields().words is DEFAULT  # another request's fields are not spoken to


def test_the_piles_name_the_deals_fields():
    form = RulesFields()
    speak(form, Words(piles=("hand", "knee", "foot")))
    assert form["deal_hand"].label.text == "Cards in a hand"
    assert form["deal_knee"].label.text == "Cards in a knee"
    assert form["deal_knee"].description == "Dealt between the hand and the foot; 0 for none."
    assert form["deal_foot"].label.text == "Cards in a foot"
    speak(form, Words(piles=("stack",)))
    assert [form[f].label.text for f in ("deal_hand", "deal_knee", "deal_foot")] == [
        "Cards in a stack",
        "Cards in a middle pile",
        "Cards in a last pile",
    ]


def test_a_kind_is_written_by_its_name_only_where_that_is_one_kinds_and_no_kinds_own():
    kinds = ["clean", "dirty", "wild"]
    assert kind_names({"clean": "natural", "dirty": "mixed"}, kinds) == {"natural": "clean", "mixed": "dirty"}
    assert kind_names({"clean": "pure", "dirty": "pure"}, kinds) == {}  # whose would it be?
    assert kind_names({"clean": "wild"}, kinds) == {}  # the wild kind's own
    assert kind_names({"clean": "canasta"}, kinds) == {}  # a canasta of any kind
    assert kind_names({"wild": "wild cards"}, kinds) == {"wild_cards": "wild"}
    written = kinds_written({"book": "canasta", "books": "canastas", "kinds": {"clean": "natural"}}, kinds)
    assert written["natural_canastas"] == written["natural"] == written["clean_canasta"] == "clean"
