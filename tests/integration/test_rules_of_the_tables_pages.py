"""The rules as Buraco and Burraco tables play them, on the pages (issue 56): the rules page
lists 3s among the cards and no "red 3 / black 3 caught" rows, the round form asks Buraco's
points left in hand, and a game with no meld minimum does not say "Meld minimum: none"."""

import html

from scorekeeper.scoring import TeamRound

from ..helpers import text


def page(client, url, language="en"):
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, url
    return html.unescape(response.get_data(as_text=True))


def test_the_rules_pages_count_3s_as_cards(client):
    for key in ("buraco", "burraco"):
        said = text(client.get(f"/rules/{key}"))
        assert '<th scope="row">3–7</th><td>5 each</td>' in said, key
        assert "Red 3 caught" not in said and "Black 3 caught" not in said, key
    # Hand and Foot's 3s are still scored apart
    assert "Red 3 caught in hand or foot" in text(client.get("/rules/roth"))


def test_buracos_round_form_asks_the_points_left_in_hand(client, make_game):
    game = make_game("buraco")
    form = page(client, f"/games/{game.id}/rounds/new")
    assert "Points left in hand<" in form and "hand and morto" not in form
    assert "Pontos na mão<" in page(client, f"/games/{game.id}/rounds/new", "pt-BR")
    burraco = make_game("burraco")
    assert "Punti rimasti in mano e nel pozzetto" in page(client, f"/games/{burraco.id}/rounds/new", "it")
    roth = make_game("roth")
    assert "Pontos na mão e no pé" in page(client, f"/games/{roth.id}/rounds/new", "pt-BR")
    assert "Puntos que quedan en la mano y en el pie" in page(client, f"/games/{roth.id}/rounds/new", "es")


def test_a_game_without_a_meld_minimum_does_not_say_none(client, make_game):
    out = TeamRound(books={"clean": 1}, melded_points=300, went_out=True)
    game = make_game("buraco", [[out, TeamRound()]])
    for url in (f"/games/{game.id}", f"/games/{game.id}/rounds/new"):
        said = text(client.get(url))
        assert "Meld minimum" not in said, url
    for language in ("pt-BR", "es", "it"):
        said = page(client, f"/games/{game.id}/rounds/new", language)
        none = {"pt-BR": "nenhum</strong>", "es": "ninguno</strong>", "it": "nessuno</strong>"}[language]
        assert none not in said
    # a game that has one still says it
    roth = make_game("roth")
    assert "Meld minimum this round: <strong>50</strong>" in text(client.get(f"/games/{roth.id}/rounds/new"))
