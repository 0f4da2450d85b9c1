import html
import json
from collections.abc import Mapping

import pytest

from scorekeeper.scoring import RULESETS, RuleSet
from scorekeeper.services import rulesets

from ..helpers import text


def test_home_links_to_the_rules(client):
    page = text(client.get("/"))
    assert 'href="/rules"' in page


def test_rules_lists_every_preset(client):
    response = client.get("/rules")
    assert response.status_code == 200
    page = text(response)
    for key, rules in RULESETS.items():
        assert f'href="/rules/{key}"' in page
        assert rules.name in page


@pytest.mark.parametrize("key", RULESETS)
def test_each_cheat_sheet_shows_its_numbers(client, key):
    rules = RULESETS[key]
    page = text(client.get(f"/rules/{key}"))
    assert f"<h1>{rules.name}</h1>" in page
    assert f'href="/rules/{key}.json"' in page
    assert "Jokers" in page
    # 2s and aces one tier where they are worth the same (not in Buraco and Burraco)
    assert ("2s and Aces" in page) == (rules.card_values["2"] == rules.card_values["A"])
    # a value that depends on who went out shows each of its cases
    for value in rules.red_three.values() if isinstance(rules.red_three, Mapping) else [rules.red_three]:
        assert (f"{value:+,}" if value else "0").replace("-", "\u2212") in page


def test_roth_cheat_sheet(client):
    page = text(client.get("/rules/roth"))
    assert '<th scope="row">10–K</th><td>10 each</td>' in page
    assert '<th scope="row">4–9</th><td>5 each</td>' in page
    assert "<td>below 2,500</td>\n      <td>50</td>" in page
    assert "<td>7,500 or more</td>\n      <td>150</td>" in page
    assert "House penalty</th><td>\u2212100 each" in page
    assert "Cutting exactly 22 cards</th><td>+100 per player" in page
    assert "5 clean + 4 dirty books" in page
    assert "reaches 10,000" in page
    assert "Round by round" not in page  # nothing changes by round under Roth


def test_friends_family_cheat_sheet_has_the_round_schedule(client):
    page = text(client.get("/rules/friends-family"))
    assert "Round by round" in page
    for number, minimum in enumerate([50, 90, 120, 150], start=1):
        assert f"<td>{number}</td>\n      <td>{minimum}</td>" in page
    assert "After 4 rounds" in page
    assert "22 cards" not in page and "House penalty" not in page


def test_partnership_has_no_points_minimum_and_no_set_end(client):
    page = text(client.get("/rules/partnership"))
    assert "No points minimum" in page
    assert "When the table decides" in page


def test_a_progressive_house_rule_set_shows_its_rounds(client, db):
    data = {
        **RULESETS["tablet"].to_dict(),
        "name": "Progressive <b>house</b>",
        "going_out": [100, 200, 300],
        "end": None,
        "books": {"clean": 500, "dirty": 300, "sevens": 1500},
        "books_to_go_out": [{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 2, "sevens": 1}],
    }
    key = rulesets.save_house_rules(db, RuleSet.from_dict(data))
    raw = client.get(f"/rules/{key}").get_data(as_text=True)
    assert "Progressive &lt;b&gt;house&lt;/b&gt;" in raw  # names are escaped
    page = html.unescape(raw)
    assert "Books of 7s</th><td>+1,500 per book" in page  # a book's value says its word (issue 56)
    assert (
        "<td>3</td>\n      <td>100</td>\n      <td>+300</td>\n      "
        "<td>2 clean + 2 dirty + 1 sevens books</td>" in page
    )
    assert "Later rounds are like the last row" in page
    assert "house rules" in text(client.get("/rules"))


@pytest.mark.parametrize("key", RULESETS)
def test_download_is_a_house_rules_file(client, key):
    response = client.get(f"/rules/{key}.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == f'attachment; filename="{key}.json"'
    assert RuleSet.from_dict(json.loads(response.data)) == RULESETS[key]


def test_unknown_rule_sets_are_a_friendly_404(client):
    for url in ("/rules/nope", "/rules/nope.json", "/rules/house-7", "/rules/house-0.json"):
        response = client.get(url)
        assert response.status_code == 404
        assert "Back to the start" in text(response)
