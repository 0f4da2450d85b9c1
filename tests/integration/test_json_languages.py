"""The JSON twins and the exports say the same in every language (each view is wrapped in
``web.language.english``): a phone reading Portuguese, or one that chose Italian at the foot
of a page, downloads the very bytes an English phone does."""

import re

import pytest

from scorekeeper.scoring import TeamRound

from ..helpers import at_home

EXPORTED_AT = re.compile(rb'"exported_at": ?"[^"]*"')


@pytest.fixture
def twins(make_game, db):
    """The addresses of every JSON twin and export, over a little history: totals past a
    thousand (written "1.234" in Portuguese), an evening, a year, a player's record."""
    teams = (("Reds", ["Ann", "Bo"]), ("", ["Cy", "Di"]))
    rounds = [
        [TeamRound(melded_points=1250, books={"clean": 2}), TeamRound(melded_points=900, books={"dirty": 1})],
        [TeamRound(melded_points=1400, books={"clean": 1}), TeamRound(melded_points=350, penalties=3)],
    ]
    game = make_game("tablet", rounds, teams, day="2026-01-05", end=True)
    make_game("tablet", rounds[:1], teams, day="2026-01-05")
    ann = db.execute("SELECT id FROM players WHERE name = 'Ann'").fetchone()[0]
    return [
        "/records.json",
        "/years/2026.json",
        "/players.json",
        f"/players/{ann}.json",
        "/evenings/2026-01-05.json",
        f"/games/{game.id}.json",
        f"/games/{game.id}/export.json",
        f"/games/{game.id}/export.csv",
        "/export.json",
        "/export.csv",
        "/rules/tablet.json",
    ]


def body(client, url, **headers):
    response = client.get(url, headers=headers)
    assert response.status_code == 200, (url, response.status_code)
    return EXPORTED_AT.sub(b'"exported_at": ""', response.get_data())  # the moment it was asked


def test_every_json_twin_and_export_is_the_same_in_every_language(app, client, twins):
    english = {url: body(client, url, **{"Accept-Language": "en"}) for url in twins}
    for url in twins:
        assert body(client, url, **{"Accept-Language": "pt-BR,pt;q=0.9"}) == english[url], url
    # a phone that chose its language at the foot of a page
    phone = at_home(app.test_client(), app)
    assert phone.get("/language/it").status_code == 303
    for url in twins:
        assert body(phone, url) == english[url], url
    # the pages themselves do follow the language: the test would catch a twin that did not
    page = phone.get("/records").get_data(as_text=True)
    assert 'lang="it"' in page
