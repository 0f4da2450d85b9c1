"""A colour for each player (issue 58, services/colours.py): the same colour read back
from the game page's chart, the year page, the evening's page, the result pictures' and
the yearbook's pixels; changed on the player's page, it follows everywhere; kept for players made
before colours were (m021), given the least used to a new player; carried by the
history's export (version 6) and kept by an import. (About 3 s: three pictures and the
yearbook drawn twice by WeasyPrint.)"""

import io
import json
import os
import re
import subprocess
import tempfile

import numpy
import pytest
from PIL import Image
from sqlite_utils import Database

from scorekeeper.exchange import importer
from scorekeeper.printing import yearbook
from scorekeeper.scoring import TeamRound
from scorekeeper.services import colours, players
from scorekeeper.services.schema import migrate
from scorekeeper.storage.db import connect, transaction
from scorekeeper.storage.migrations import migrations

from ..helpers import posted, text
from ..httpkit import migrated

RED, BLUE, GREEN, PINK = (213, 94, 0), (0, 114, 178), (0, 158, 115), (204, 121, 167)
DAY = "2026-03-05"


def rounds(*scores):
    return [[TeamRound(melded_points=m) for m in row] for row in scores]


def chart_colours(page):
    """{series label: (colour's key, the line's stroke)} of the page's one chart."""
    lines = re.findall(
        r'<g class="series" data-colour="([\w-]+)">\s*<polyline[^>]*stroke="(#[0-9a-f]{6})"', page
    )
    labels = re.findall(r'<span data-colour="([\w-]+)"><svg[^>]*>.*?</svg> ([^<]+?)</span>', page)
    assert [key for key, _ in lines] == [key for key, _ in labels], "the legend says the lines' colours"
    return {label.strip(): line for (_, label), line in zip(labels, lines)}


def swatch_before(page, name):
    """The colour's key of the swatch right before ``name`` in a table's row."""
    found = re.findall(
        r'data-colour="([\w-]+)">(?:(?!</svg>).)*</svg>\s*(?:<a [^>]*>)?' + re.escape(name) + "<", page
    )
    assert found, f"no swatch before {name}"
    assert len(set(found)) == 1
    return found[0]


def coloured_pixels(png, rgb, within=3):
    """How many of the picture's pixels are ``rgb`` (a swatch's inside)."""
    pixels = numpy.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)
    return int((abs(pixels - numpy.array(rgb)) <= within).all(axis=2).sum())


def yearbook_png(client, year):
    """The year's yearbook as the family prints it (drawn by the worker), its pages side by
    side as one picture (pdftoppm at 100 dpi: a swatch is some 60 pixels)."""
    url = f"/years/{year}/book.pdf"
    response = client.get(url)
    if response.status_code == 202:
        assert yearbook.wait(60)
        response = client.get(url)
    assert response.status_code == 200
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            ["pdftoppm", "-r", "100", "-png", "-", f"{folder}/page"], input=response.data, check=True
        )
        pages = [Image.open(os.path.join(folder, name)).convert("RGB") for name in sorted(os.listdir(folder))]
        whole = Image.new("RGB", (sum(p.width for p in pages), max(p.height for p in pages)), "white")
        x = 0
        for page in pages:
            whole.paste(page, (x, 0))
            x += page.width
    out = io.BytesIO()
    whole.save(out, "PNG")
    return out.getvalue()


def change_colour(client, player_id, key):
    page = client.get(f"/players/{player_id}")
    values = {**posted(page), "colour": key}
    return client.post(f"/players/{player_id}/colour", data=values)


@pytest.mark.long  # three pictures and the yearbook drawn twice by WeasyPrint: 3 to 4 s
def test_a_players_colour_is_the_same_everywhere_and_follows_a_change(app, client, db, make_game):
    game = make_game(
        "canasta", rounds((300, 120), (250, 90)), teams=(("", ["Ann"]), ("", ["Bo"])), day=DAY, end=True
    )
    ann, bo = (players.find_player(db, name).id for name in ("Ann", "Bo"))
    # the first two players made: the palette's first two colours
    assert {p: c.key for p, c in colours.player_colours(db).items()} == {ann: "red", bo: "blue"}

    def read_everywhere():
        chart = chart_colours(text(client.get(f"/games/{game.id}")))
        year = text(client.get("/years/2026"))
        evening = text(client.get(f"/evenings/{DAY}"))
        game_png = client.get(f"/games/{game.id}/picture.png").data
        year_png = client.get(f"/years/2026/players/{ann}/picture.png").data
        book_png = yearbook_png(client, 2026)
        return chart, swatch_before(year, "Ann"), swatch_before(evening, "Ann"), game_png, year_png, book_png

    chart, on_year, on_evening, game_png, year_png, book_png = read_everywhere()
    assert chart == {"Ann": ("red", "#d55e00"), "Bo": ("blue", "#0072b2")}
    assert on_year == on_evening == "red"
    assert coloured_pixels(game_png, RED) > 100 and coloured_pixels(game_png, BLUE) > 100
    assert coloured_pixels(year_png, RED) > 100 and coloured_pixels(year_png, BLUE) == 0
    assert coloured_pixels(book_png, RED) > 20 and coloured_pixels(book_png, BLUE) > 20
    player_page = text(client.get(f"/players/{ann}"))
    assert re.search(r'<input type="radio" name="colour" value="red" checked>', player_page)

    changed = change_colour(client, ann, "green")
    assert changed.status_code == 303 and changed.location.endswith(f"/players/{ann}#colour")
    assert "Ann’s colour: Green." in text(client.get(changed.location))

    chart, on_year, on_evening, game_png, year_png, book_png = read_everywhere()
    assert chart == {"Ann": ("green", "#009e73"), "Bo": ("blue", "#0072b2")}
    assert on_year == on_evening == "green"
    assert coloured_pixels(game_png, GREEN) > 100 and coloured_pixels(game_png, RED) == 0
    assert coloured_pixels(year_png, GREEN) > 100 and coloured_pixels(year_png, RED) == 0
    assert coloured_pixels(book_png, GREEN) > 20 and coloured_pixels(book_png, RED) == 0


def test_a_pair_takes_its_first_players_colour_unless_another_team_has_it(client, db, make_game):
    game = make_game("partnership", rounds((300, 120), (250, 90)), day=DAY, end=True)  # Ann & Bo, Cy & Di
    assert chart_colours(text(client.get(f"/games/{game.id}"))) == {
        "Ann & Bo": ("red", "#d55e00"),
        "Cy & Di": ("green", "#009e73"),
    }
    assert change_colour(client, players.find_player(db, "Cy").id, "red").status_code == 303
    # Cy is red as Ann: the second pair is drawn in the chart's first colour no team has
    assert chart_colours(text(client.get(f"/games/{game.id}"))) == {
        "Ann & Bo": ("red", "#d55e00"),
        "Cy & Di": ("blue", "#0072b2"),
    }
    evening = text(client.get(f"/evenings/{DAY}"))
    assert [swatch_before(evening, name) for name in ("Ann", "Bo", "Cy", "Di")] == [
        "red",
        "blue",
        "red",
        "pink",
    ]


def test_a_colour_not_of_the_palette_is_refused_by_its_field(client, db, make_game):
    make_game("canasta", teams=(("", ["Ann"]), ("", ["Bo"])))
    ann = players.find_player(db, "Ann").id
    for chosen, message in (("purple", "Choose one of the colours."), ("", "Choose one of the colours.")):
        refused = change_colour(client, ann, chosen)
        page = text(refused)
        assert refused.status_code == 422
        assert re.search(r'<p class="error" id="colour-error">' + re.escape(message) + "</p>", page)
        assert 'aria-describedby="colour-error"' in page
    assert colours.player_colours(db, [ann])[ann].key == "red"  # nothing written
    assert client.post(f"/players/{ann}/colour", data={"colour": "blue"}).status_code == 400  # no CSRF token
    assert (
        client.post(
            "/players/999/colour", data={**posted(client.get(f"/players/{ann}")), "colour": "blue"}
        ).status_code
        == 404
    )


def test_players_made_before_colours_get_them_in_the_order_they_were_made(tmp_path):
    path = tmp_path / "old.db"
    db = Database(path)
    migrations.apply(db, stop_before="m021_player_colours")
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida"]
    for name in names:
        db["players"].insert({"name": name, "key": name.lower(), "created_at": "2025-01-01", "revision": 0})
    db.close()
    assert migrate(path) == ["m021_player_colours"]
    kept = {row["name"]: row["colour"] for row in Database(path).query("SELECT name, colour FROM players")}
    assert kept == {
        "Ann": "red",
        "Bo": "blue",
        "Cy": "green",
        "Di": "pink",
        "Ed": "orange",
        "Flo": "light-blue",
        "Gus": "black",
        "Hal": "red",
        "Ida": "blue",
    }
    assert migrate(path) == []


def test_a_new_player_gets_the_least_used_colour(client, db, make_game):
    make_game("partnership")  # Ann red, Bo blue, Cy green, Di pink
    assert change_colour(client, players.find_player(db, "Bo").id, "red").status_code == 303
    make_game("partnership", teams=(("", ["Ed", "Flo"]), ("", ["Gus", "Hal"])))
    kept = {p.name: colours.player_colours(db, [p.id])[p.id].key for p in players.list_players(db)}
    # Ed takes blue, which Bo left (the palette's first that no one has), then the three no one had
    assert kept == {
        "Ann": "red",
        "Bo": "red",
        "Cy": "green",
        "Di": "pink",
        "Ed": "blue",
        "Flo": "orange",
        "Gus": "light-blue",
        "Hal": "black",
    }
    # asked for more ids than SQL variables are spent on (colours.MANY): the players there are
    many = colours.player_colours(db, range(1, 2 * colours.MANY))
    assert {pid: c.key for pid, c in many.items()} == {
        players.find_player(db, name).id: key for name, key in kept.items()
    }


def test_the_colours_are_named_in_the_readers_language(client, db, make_game):
    make_game("canasta", teams=(("", ["Ann"]), ("", ["Bo"])))
    ann = players.find_player(db, "Ann").id
    for language, words in {
        "en": ["Red", "Blue", "Green", "Pink", "Orange", "Light blue", "Black"],
        "pt-BR": ["Vermelho", "Azul", "Verde", "Rosa", "Laranja", "Azul-claro", "Preto"],
        "es": ["Rojo", "Azul", "Verde", "Rosa", "Naranja", "Celeste", "Negro"],
        "it": ["Rosso", "Blu", "Verde", "Rosa", "Arancione", "Azzurro", "Nero"],
    }.items():
        page = text(client.get(f"/players/{ann}", headers={"Accept-Language": language}))
        named = re.findall(
            r'name="colour" value="[\w-]+"[^>]*> <svg[^>]*>.*?</svg> <span>([^<]+)</span>', page
        )
        assert named == words, language


# --- the history's export carries the colours (version 6) --------------------------------


def other_database(tmp_path):
    return connect(str(migrated(tmp_path / "other.db")))


def test_the_export_carries_each_players_colour_and_an_import_keeps_it(client, db, make_game, tmp_path):
    make_game("partnership", rounds((300, 120)), day=DAY, end=True)  # Ann red, Bo blue, Cy green, Di pink
    assert change_colour(client, players.find_player(db, "Di").id, "black").status_code == 303
    exported = client.get("/export.json").get_json()
    assert exported["version"] == 6
    assert exported["colours"] == [
        {"player": "Ann", "colour": "red"},
        {"player": "Bo", "colour": "blue"},
        {"player": "Cy", "colour": "green"},
        {"player": "Di", "colour": "black"},
    ]
    other = other_database(tmp_path)
    try:
        with transaction(other):  # a player already there keeps their own colour
            players.player_id(other, "Cy", colour=lambda: "orange")
        importer.import_history(other, exported)
        kept = {p.name: colours.player_colours(other, [p.id])[p.id].key for p in players.list_players(other)}
        assert kept == {"Ann": "red", "Bo": "blue", "Cy": "orange", "Di": "black"}
    finally:
        other.close()


def test_a_file_from_before_colours_gives_new_players_the_least_used(client, db, make_game, tmp_path):
    make_game("partnership", rounds((300, 120)), day=DAY, end=True)
    exported = client.get("/export.json").get_json()
    older = {**{k: v for k, v in exported.items() if k != "colours"}, "version": 5}
    other = other_database(tmp_path)
    try:
        with transaction(other):
            players.player_id(other, "Zed")  # red: the first colour given here
        importer.import_history(other, older)
        kept = {p.name: colours.player_colours(other, [p.id])[p.id].key for p in players.list_players(other)}
        assert kept == {"Ann": "blue", "Bo": "green", "Cy": "pink", "Di": "orange", "Zed": "red"}
    finally:
        other.close()


def test_a_colour_not_of_the_palette_is_refused_with_its_place(client, db, make_game, tmp_path):
    make_game("partnership", rounds((300, 120)), day=DAY, end=True)
    exported = client.get("/export.json").get_json()
    exported["colours"][1]["colour"] = "purple"
    other = other_database(tmp_path)
    try:
        with pytest.raises(ValueError) as refused:
            importer.import_history(other, exported)
        assert str(refused.value) == (
            "colours[1].colour: must be one of red, blue, green, pink, orange, light-blue, black,"
            ' not "purple"'
        )
        with pytest.raises(ValueError) as refused:
            importer.import_file(other, json.dumps(exported).encode())
        assert str(refused.value).startswith("colours[1].colour: must be one of red, blue")
        exported["colours"][1] = {"player": "ann", "colour": "blue"}  # Ann again, in another case
        with pytest.raises(ValueError) as refused:
            importer.import_history(other, exported)
        assert str(refused.value) == "colours[1].player: “ann” is given a colour twice"
        assert players.list_players(other) == []  # nothing written
    finally:
        other.close()
