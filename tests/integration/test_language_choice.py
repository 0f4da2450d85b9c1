"""Which language a page is in (web/language.py): the phone's own choice, else the
household's, else the phone's Accept-Language, else English; and numbers and dates as
that language writes them."""

import re

import pytest

from scorekeeper.scoring import TeamRound
from scorekeeper.services import ratings
from scorekeeper.web import formatting, language

from ..helpers import DEEP, csrf_token, on_the_clock

ASKED = {
    "pt-BR,pt;q=0.9,en;q=0.5": "pt-BR",
    "pt": "pt-BR",
    "es-AR,es;q=0.8": "es",
    "it-IT": "it",
    "de": "en",
    # the phone's order, not an exact match it ranks lower
    "es-MX,en;q=0.5": "es",
    "it-CH,de-CH;q=0.9,en;q=0.5": "it",
    "pt-PT,en;q=0.5": "pt-BR",
    "en-US,pt-BR;q=0.9": "en",
    "de-DE,fr;q=0.9,it;q=0.8": "it",
    "*": "en",
    ";;;q=x,": "en",
}


def lang_of(response):
    html = response.get_data(as_text=True)
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize("asked", ASKED)
def test_a_phone_reads_its_own_language(client, asked):
    assert lang_of(client.get("/", headers={"Accept-Language": asked})) == ASKED[asked]


def test_a_phone_that_chose_reads_its_choice_whatever_it_asks(client):
    response = client.get("/language/it?next=/rules")
    assert (response.status_code, response.headers["Location"]) == (303, "/rules")
    assert lang_of(client.get("/", headers={"Accept-Language": "pt-BR"})) == "it"
    # and back to the household's (here: each phone's own)
    client.get("/language/household")
    assert lang_of(client.get("/", headers={"Accept-Language": "pt-BR"})) == "pt-BR"


@pytest.mark.parametrize("where", ["https://evil.example/", "//evil.example/", "javascript:alert(1)"])
def test_the_language_link_goes_back_only_within_the_app(client, where):
    response = client.get("/language/es", query_string={"next": where})
    assert (response.status_code, response.headers["Location"]) == (303, "/")


def test_a_language_we_do_not_speak_is_no_page(client):
    assert client.get("/language/de").status_code == 404
    assert lang_of(client.get("/", headers={"Accept-Language": "pt"})) == "pt-BR"


# a phone asking for each language the app speaks but English proves the household's choice
# wins (make test-deep asks with every value of ASKED)
HOUSEHOLD_ASKED = list(ASKED) if DEEP else ["pt-BR,pt;q=0.9,en;q=0.5", "es-AR,es;q=0.8", "it-IT"]


@pytest.mark.deep
@pytest.mark.parametrize("asked", HOUSEHOLD_ASKED)
def test_with_the_household_on_english_every_phone_reads_english(app, client, asked):
    token = csrf_token(client, "/settings")
    response = client.post("/settings/language", data={"csrf_token": token, "language": "en"})
    assert response.status_code == 303
    assert language.household_language(app.instance_path) == "en"
    assert lang_of(client.get("/", headers={"Accept-Language": asked})) == "en"
    assert lang_of(client.get("/players", headers={"Accept-Language": asked})) == "en"


def test_the_household_language_is_the_default_and_a_phone_may_still_choose(app, client):
    token = csrf_token(client, "/settings")
    client.post("/settings/language", data={"csrf_token": token, "language": "es"})
    assert lang_of(client.get("/", headers={"Accept-Language": "it"})) == "es"
    client.get("/language/pt_BR")
    assert lang_of(client.get("/")) == "pt-BR"
    # what the computer prints by itself reads the household's
    with app.app_context():
        assert language.code() == "es"


def test_a_language_not_offered_is_refused_in_settings(app, client):
    token = csrf_token(client, "/settings")
    response = client.post("/settings/language", data={"csrf_token": token, "language": "xx"})
    assert response.status_code == 303
    assert language.household_language(app.instance_path) == language.EACH_PHONE


def test_numbers_and_dates_as_each_language_writes_them(app):
    expected = {
        "en": ("12,345", "−1,234", "2026-11-22", "Sunday 22 November 2026", "November 2026"),
        "pt_BR": (
            "12.345",
            "−1.234",
            "22 de nov. de 2026",
            "domingo, 22 de novembro de 2026",
            "novembro de 2026",
        ),
        "es": ("12.345", "−1234", "22 nov 2026", "domingo, 22 de noviembre de 2026", "noviembre de 2026"),
        "it": ("12.345", "−1.234", "22 nov 2026", "domenica 22 novembre 2026", "novembre 2026"),
    }
    stamp = on_the_clock("2026-11-22")  # noon on the household's clock: the 22nd in every zone
    for code, (big, negative, day, night, month) in expected.items():
        with app.test_request_context("/", headers={"Accept-Language": code.replace("_", "-")}):
            assert formatting.number(12345) == big
            assert formatting.number(-1234) == negative
            assert formatting.day(stamp).replace("\u00a0", " ") == day
            assert formatting.night("2026-11-22") == night
            assert formatting.month("2026-11") == month
            # a 24-hour clock beside the language's date
            assert re.fullmatch(r".*\b\d\d:\d\d", formatting.when(stamp)), code
            assert formatting.when(stamp).replace("\u00a0", " ").startswith(day), code


def test_a_game_page_in_portuguese_groups_its_thousands_with_points(client, make_game):
    game = make_game("roth", [[TeamRound(melded_points=1235), TeamRound(melded_points=50)]])
    page = client.get(f"/games/{game.id}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    english = client.get(f"/games/{game.id}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "1.235" in page and "1,235" not in page
    assert "1,235" in english


def test_a_phone_that_switches_language_is_not_told_its_page_is_unchanged(client, make_game):
    """The follow page and an evening's answer 304 while nothing changed: not across a
    change of language (the ETag carries it)."""
    game = make_game("roth", [[TeamRound(melded_points=150), TeamRound(melded_points=60)]])
    token = client.get(f"/games/{game.id}").get_data(as_text=True).split("/s/", 1)[1].split('"', 1)[0]
    first = client.get(f"/s/{token}")
    etag = first.headers["ETag"]
    assert client.get(f"/s/{token}", headers={"If-None-Match": etag}).status_code == 304
    client.get("/language/pt_BR")
    again = client.get(f"/s/{token}", headers={"If-None-Match": etag})
    assert again.status_code == 200 and lang_of(again) == "pt-BR"


# (rating, skill ± uncertainty, win rate) on Ann's page: Ann and Bo won two of three games
# against Cy and Di. Portuguese, Spanish and Italian write a decimal comma; Spanish spaces
# its percent sign (a no-break space): a rating or a percent written in English fails.
RATED = {
    "en": ("2.9", "26.6", "7.9", "67%"),
    "pt-BR": ("2,9", "26,6", "7,9", "67%"),
    "es": ("2,9", "26,6", "7,9", "67\u00a0%"),
    "it": ("2,9", "26,6", "7,9", "67%"),
}


def test_a_rating_and_a_win_rate_as_each_language_writes_them(client, db, make_game):
    won = [TeamRound(melded_points=500), TeamRound(melded_points=100)]
    lost = [TeamRound(melded_points=100), TeamRound(melded_points=500)]
    for day, rounds in (("2026-03-01", won), ("2026-03-02", lost), ("2026-03-03", won)):
        make_game("roth", [rounds], day=day, end=True)
    ratings.catch_up(db)
    (ann,) = db.execute("SELECT id FROM players WHERE name = 'Ann'").fetchone()
    for asked, (rating, mu, sigma, rate) in RATED.items():
        page = client.get(f"/players/{ann}", headers={"Accept-Language": asked}).get_data(as_text=True)
        grid = page.split('class="stat-grid"', 1)[1].split("</dl>", 1)[0]
        shown = re.findall(r"<dd>([^<]*)</dd>", grid)
        assert (shown[0], shown[3]) == (rating, rate), asked
        assert f"{mu} ± {sigma}" in page, asked
