"""The engine's words go through its translation hook (issue 47): checks, entry fields and
breakdowns in the reader's language, worded again for each language, and English inside
``language.english`` (what is kept, such as the change log)."""

import gettext

import pytest

from scorekeeper.scoring import RULESETS, TeamRound, check_round, entry_fields, language, score_team_round


class Marked(gettext.NullTranslations):
    """A pseudo-language: every message marked, so what was translated shows."""

    def gettext(self, message):
        return "«" + message + "»"

    def ngettext(self, singular, plural, n):
        return "«" + (singular if n == 1 else plural) + "»"


@pytest.fixture
def marked():
    """The engine's hook set as the app sets it (``language.use``), to a pseudo-language;
    put back after."""
    before = language.use(Marked, lambda: "xx", lambda n: f"<{n}>")
    yield
    language.use(*before)


def test_a_checks_message_is_said_in_the_readers_language(marked):
    rules = RULESETS["roth"]
    short = TeamRound(books={"clean": 5, "dirty": 3}, melded_points=2000, went_out=True)
    [warning] = check_round(rules, [short, TeamRound()], 2, team_names=["Us", "Them"])
    assert warning.message.startswith("«Us went out with ")
    assert "«%(" not in warning.message and "%(" not in warning.message
    # the names of the fields stay what the code reads
    assert warning.field == "went_out"


def test_entry_fields_are_worded_again_for_each_language(marked):
    rules = RULESETS["roth"]
    said = {f.name: f for f in entry_fields(rules)}
    assert said["melded_points"].label == "«Points melded»"
    # the piles joined in the reader's language too ("mão e pé"), with its "in" ("na mão e no pé")
    assert said["unplayed_points"].label == "«Points left «in «hand and foot»»»"
    assert (language.language(), language.number(1234)) == ("xx", "<1234>")
    with language.english():
        assert language.language() == "en"
        english = {f.name: f for f in entry_fields(rules)}
        assert english["melded_points"].label == "Points melded"
        assert language.number(1234) == "1,234"
    assert {f.name: f for f in entry_fields(rules)}["melded_points"].label == "«Points melded»"


def test_a_breakdown_is_worded_in_the_readers_language(marked):
    rules = RULESETS["roth"]
    score = score_team_round(rules, TeamRound(paper_score=120), 1)
    assert [line.label for line in score.breakdown] == ["«Score on the paper sheet»"]


def test_a_refused_house_rules_value_keeps_its_path_first(marked):
    data = RULESETS["roth"].to_dict() | {"going_out": "lots"}
    with pytest.raises(ValueError) as refused:
        type(RULESETS["roth"]).from_dict(data)
    assert str(refused.value).startswith("«going_out: must be a whole number or a list of them")


def test_the_hook_gives_back_what_it_replaced():
    before = language.use(Marked, lambda: "xx")
    try:
        assert (language.language(), language.number(-1234)) == ("xx", "\u22121,234")
    finally:
        replaced = language.use(*before)
    assert replaced[0] is Marked and replaced[1]() == "xx"
    assert language.language() == before[1]()
