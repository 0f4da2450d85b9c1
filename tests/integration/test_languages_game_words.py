"""A game's own words on the pages about it (issue 56): a Burraco game's records say burrachi,
and a household that plays Buraco does not read "Mão e Pé" in its pages' titles."""

import html
import re

from scorekeeper.scoring import TeamRound


def page(client, url, language):
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, url
    return html.unescape(response.get_data(as_text=True))


def test_a_burraco_games_records_say_burrachi(client, make_game):
    make_game(
        "burraco",
        [[TeamRound(books={"clean": 2, "dirty": 1}, melded_points=600, went_out=True), TeamRound()]],
        day="2026-04-02",
        end=True,
    )
    for url in ("/records", "/years/2026"):
        text = page(client, url, "it")
        assert 'Più burrachi in una smazzata: <span class="num">3</span> burrachi' in text, url
        records = text[text.index('<ul class="cards records">') :]
        assert "canaste" not in records[: records.index("</ul>")].lower(), url
    english = page(client, "/records", "en")
    assert 'Most burracos in a round: <span class="num">3</span> burracos' in english


def test_a_hand_and_foot_games_records_read_as_before(client, make_game):
    make_game("roth", [[TeamRound(books={"clean": 1}, melded_points=500), TeamRound()]], end=True)
    assert 'Most books in a round: <span class="num">1</span> book' in page(client, "/records", "en")
    assert "Mais canastras numa rodada" in page(client, "/records", "pt-BR")


def test_a_household_that_plays_buraco_reads_buraco_in_its_titles(client, make_game):
    make_game("buraco", [[TeamRound(books={"clean": 1}, melded_points=300, went_out=True), TeamRound()]])
    for url in ("/", "/history", "/records", "/players"):
        title = re.search(r"<title>(.*?)</title>", page(client, url, "pt-BR"), re.S)[1]
        assert title.endswith("· Buraco") and "Mão e Pé" not in title, (url, title)


def test_before_any_game_the_title_names_hand_and_foot(client):
    title = re.search(r"<title>(.*?)</title>", page(client, "/", "pt-BR"), re.S)[1]
    assert title == "Scorekeeper · Mão e Pé"
