"""Printed score sheets: real PDFs from WeasyPrint, read back and compared with the engine."""

import dataclasses
import io
import pathlib
import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader

from scorekeeper.printing import ahead, blank_sheets, sheets
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import games, players, rulesets
from scorekeeper.web import formatting

from ..helpers import DEEP, PICTURES
from ..unit.test_scoring import GAMES

OUTPUT = pathlib.Path(__file__).resolve().parents[2] / "test-output" / "sheets"
SIZES = {"letter": (612, 792), "a4": (595, 842)}


def pdf(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/pdf" and response.data.startswith(b"%PDF")
    return response.data


def read(data):
    reader = PdfReader(io.BytesIO(data))
    return reader, "\n".join(page_texts(reader))


def page_texts(reader):
    """Each page's text, read by poppler's pdftotext (pypdf's reading took half a second a
    page; poppler's, a few milliseconds)."""
    reader.stream.seek(0)
    done = subprocess.run(
        ["pdftotext", "-raw", "-enc", "UTF-8", "fd://0", "-"],
        input=reader.stream.read(),
        capture_output=True,
        check=True,
    )
    return done.stdout.decode().split("\f")[: len(reader.pages)]


def pages_of(data):
    """The PDF's pages, its text not read (pypdf takes about half a second a page for that)."""
    return PdfReader(io.BytesIO(data)).pages


def keep_png(data, name):
    """With `make pictures`, the pages as PNG images under test-output/sheets/, to look at
    as a person would."""
    if not PICTURES:
        return
    if not shutil.which("pdftoppm"):
        pytest.fail("pdftoppm missing: `make pictures` installs poppler-utils (scripts/system-packages)")
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / f"{name}.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-png", "-r", "60", OUTPUT / f"{name}.pdf", OUTPUT / name], check=True)


@pytest.mark.parametrize("key", GAMES)
def test_every_round_score_and_total_is_the_engines(make_game, client, db, key):
    rounds = [[a, b] for a, _, b, _ in GAMES[key]["rounds"]]
    game = make_game(key, rounds)
    if key == "partnership":
        game = games.end_game(db, game.id, game.revision)  # no end in its rules: the table ends it
    data = pdf(client, f"/games/{game.id}/sheet.pdf")
    _, text = read(data)
    s = game.standings
    printed = re.findall(r"Round ([+−]?[\d,]+)\s+Total (−?[\d,]+)", text)
    expected = [
        (formatting.points(score.total), formatting.number(total))
        for scores, totals in zip(s.round_scores, s.running_totals)
        for score, total in zip(scores, totals)
    ]
    assert printed == expected
    final = re.search(r"Final\s+(−?[\d,]+)\s+(−?[\d,]+)", text)
    assert [final[1], final[2]] == [formatting.number(t) for t in s.totals]
    winners = [game.teams[w].name for w in s.winners]
    if len(winners) == 1:
        assert f"Winner: {winners[0]} with {formatting.number(max(s.totals))}" in text
    else:
        assert f"A tie at {formatting.number(max(s.totals))}" in text
    assert game.rules.name in text and "Page 1 of 1" in text
    for minimum in {m for row in s.meld_minimums for m in row if m is not None}:
        assert f"Meld minimum {minimum}" in text
    keep_png(data, f"game-{key}")


def test_an_unfinished_game_says_so(make_game, client, db):
    game = make_game("tablet", [[TeamRound(melded_points=100), TeamRound(melded_points=50)]])
    _, text = read(pdf(client, f"/games/{game.id}/sheet.pdf"))
    assert "In progress: 1 round played." in text


def _busy_round(number, teams=4):
    """Every line of the breakdown used, for every team: the tallest round there is."""
    return [
        TeamRound(
            books={"clean": 2, "dirty": 1},
            melded_points=600,
            unplayed_points=35,
            red_threes=1,
            black_threes=2,
            red_threes_melded=0,
            cuts=1,
            penalties=1,
            went_out=i == number % teams,
        )
        for i in range(teams)
    ]


FOUR_TEAMS = (("", ["Ann"]), ("", ["Bo"]), ("", ["Cy"]), ("", ["Di"]))


@pytest.mark.parametrize("rounds, pages", [(5, 1), (6, 1), (7, 2), (12, 2), (13, 3)])
def test_six_rounds_of_four_teams_fit_a_page(make_game, client, db, rounds, pages):
    # the partnership rules never end a game by themselves, so it can run to 13 rounds
    game = make_game("partnership", [_busy_round(n) for n in range(rounds)], teams=FOUR_TEAMS)
    for paper in ("letter", "a4"):
        texts = page_texts(PdfReader(io.BytesIO(pdf(client, f"/games/{game.id}/sheet.pdf?paper={paper}"))))
        text = "\n".join(texts)
        assert len(texts) == pages, paper
        assert f"Page {pages} of {pages}" in text
        # the header repeats on every page
        assert text.count("Hand and Foot score sheet") == pages
        assert [t.count("Ann") for t in texts] == [1] * pages
    if rounds == 12:
        keep_png(pdf(client, f"/games/{game.id}/sheet.pdf"), "game-12-rounds")


@pytest.mark.parametrize("paper", SIZES)
def test_paper_sizes(make_game, client, db, paper):
    game = make_game("roth", [[TeamRound(melded_points=100), TeamRound()]])
    pages = pages_of(pdf(client, f"/games/{game.id}/sheet.pdf?paper={paper}"))
    box = pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == SIZES[paper]


def test_the_default_paper_is_a_setting(make_game, app, client, db):
    game = make_game("roth", [])
    assert round(float(pages_of(pdf(client, f"/games/{game.id}/sheet.pdf"))[0].mediabox.width)) == 612
    app.config["PAPER"] = "a4"
    for url in (f"/games/{game.id}/sheet.pdf", f"/games/{game.id}/sheet.pdf?paper=tabloid"):
        assert round(float(pages_of(pdf(client, url))[0].mediabox.width)) == 595


def test_names_with_html_accents_and_emoji_print_as_typed(make_game, client, db):
    game = make_game(
        "roth",
        [[TeamRound(melded_points=100), TeamRound(melded_points=50)]],
        teams=(("<b>Zoë & Çé</b> 🃏", ["Zoë"]), ("", ["Ümit <i>", "Sø 😀"])),
    )
    data = pdf(client, f"/games/{game.id}/sheet.pdf")
    _, text = read(data)
    assert "<b>Zoë & Çé</b> 🃏" in text
    assert "Ümit <i> & Sø 😀" in text
    html = client.get(f"/games/{game.id}/sheet").get_data(as_text=True)
    assert "&lt;b&gt;Zoë &amp; Çé&lt;/b&gt;" in html and "<b>Zoë" not in html
    keep_png(data, "game-names")


def test_an_unchanged_game_reprints_from_the_cache_and_an_edit_prints_fresh(make_game, client, db):
    game = make_game("tablet", [[TeamRound(melded_points=100), TeamRound(melded_points=50)]])
    url = f"/games/{game.id}/sheet.pdf"
    first = pdf(client, url)
    before = sheets.cache_info()
    assert pdf(client, url) == first
    assert sheets.cache_info() == {**before, "hits": before["hits"] + 1}  # not rendered again
    games.update_round(
        db,
        game.id,
        game.revision,
        game.rounds[0].id,
        [TeamRound(melded_points=150), TeamRound(melded_points=50)],
    )
    fresh = pdf(client, url)
    assert sheets.cache_info()["renders"] == before["renders"] + 1
    assert "Total 150" in read(fresh)[1] and "Total 100" in read(first)[1]
    # a renamed player is a changed sheet too
    players.rename_player(db, players.find_player(db, "Ann").id, 0, "Annie")
    assert "Annie" in read(pdf(client, url))[1]


def test_the_html_sheet_prints_from_the_browser_too(make_game, client, db):
    game = make_game("roth", [[TeamRound(melded_points=100), TeamRound(melded_points=50)]])
    page = client.get(f"/games/{game.id}/sheet").get_data(as_text=True)
    assert f'href="/games/{game.id}/sheet.pdf?paper=letter"' in page
    assert f'href="/games/{game.id}/sheet.pdf?paper=a4"' in page
    with client.get("/static/sheet.css") as response:
        css = response.get_data(as_text=True)
    assert "@media print" in css and "counter(pages)" in css
    game_page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert f'href="/games/{game.id}/sheet.pdf"' in game_page and "Print / share PDF" in game_page
    assert client.get("/games/999/sheet.pdf").status_code == 404


# --- blank sheets -------------------------------------------------------------------


@pytest.mark.parametrize("key", RULESETS)
def test_a_blank_sheet_for_every_rule_set(client, key):
    rules = RULESETS[key]
    data = pdf(client, f"/rules/{key}/blank.pdf")
    reader, text = read(data)
    rounds = rules.planned_rounds or max(
        int(n) for n in re.findall(r"Round (\d+)", text)
    )  # an open-ended game: as many as fit, at least six
    assert rounds >= blank_sheets.BLANK_ROUNDS or rules.planned_rounds
    assert f"Round {rounds}" in text and f"Round {rounds + 1}" not in text
    assert rules.name in text and "Round score" in text
    if rules.meld_minimum and "by_round" in rules.meld_minimum:
        for minimum in rules.meld_minimum["by_round"]:
            assert f"meld {minimum}" in text
    if rules.meld_minimum and "by_score" in rules.meld_minimum:
        (_, first), (second, _) = rules.meld_minimum["by_score"][:2]  # Roth: 50 below 2,500
        assert f"Meld minimum by the team's score before the round: {first} below {second:,}" in text
    for kind, value in rules.books.items():
        assert f"{rules.book_label(kind)} × {value:,}" in text
    assert f"Page {len(reader.pages)} of {len(reader.pages)}" in text
    keep_png(data, f"blank-{key}")


# A house that plays every option there is: the most rows a round can have.
EVERY_OPTION = dataclasses.replace(
    RULESETS["canasta"],
    name="Every option",
    books={"clean": 500, "dirty": 300, "sevens": 1500, "wild": 2500},
    red_three_book=1000,
    black_three_book=500,
    cut_22=100,
    penalty=-100,
    first_meld_books=[{"clean": 1}, {"clean": 1, "dirty": 1}],
    books_to_go_out=[{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 2, "sevens": 1}],
    end={"rounds": 4},
    words=None,
)


def _pages(client, key, teams, paper):
    data = pdf(client, f"/rules/{key}/blank.pdf?paper={paper}&teams={teams}")
    return data, len(pages_of(data))


PRESETS = [*RULESETS, "every-option"]


def laid_out_at(key):
    """The (paper, teams) a preset's blank sheet is laid out at. In `make test-deep`, in
    `make pictures` (which keeps each preset's Letter pages to look at) and for the house of
    every option (the most rows a round can have: the tightest fit), both papers at 2 to 6
    teams; in `make test` each other preset at 2 to 6 teams, the paper taken in turn (Letter
    at even counts in one preset, at odd ones in the next), so that every preset is laid out
    on both papers and each paper at each count by half the presets."""
    papers = list(sheets.PAPERS)
    if DEEP or PICTURES or key == "every-option":
        return [(paper, teams) for paper in papers for teams in range(2, 7)]
    return [(papers[(PRESETS.index(key) + teams) % 2], teams) for teams in range(2, 7)]


@pytest.mark.long  # 1 to 3 s a preset: five sheets each (ten for every option)
@pytest.mark.deep  # make test-deep lays every preset out on both papers
@pytest.mark.parametrize("key", PRESETS)
def test_a_blank_sheet_fits_a_page_for_up_to_four_teams(client, db, key):
    """2–4 teams on one page, Letter and A4; 5 or 6 teams on at most two (issue 23)."""
    layouts = laid_out_at(key)
    if key == "every-option":
        key = rulesets.save_house_rules(db, EVERY_OPTION)
    for paper, teams in layouts:
        data, pages = _pages(client, key, teams, paper)
        assert pages <= (1 if teams <= 4 else 2), (key, paper, teams, pages)
        if paper == "letter" and teams in (2, 4, 6):
            keep_png(data, f"blank-{key}-{teams}-teams")


# ... and the same house with no set end: about twenty rows a round, as many rounds as fit
MANY_ROWS = dataclasses.replace(EVERY_OPTION, name="Many rows, no set end", end=None)


@pytest.mark.long  # five sheets by WeasyPrint, up to two pages each: 4 to 9 s a paper
@pytest.mark.parametrize("paper", list(sheets.PAPERS))
def test_a_house_of_many_rows_and_no_set_end_fits_a_page(client, db, paper):
    """One page for 2–4 teams on Letter and A4, six rounds at least; 5 or 6 teams on two
    pages at most (issue 23). The rows: every line, the meld minimum, round score, total.
    (A test a paper, so that two processes share them: as one it was the suite's longest.)"""
    assert len(blank_sheets.blank_lines(MANY_ROWS)) + 3 >= 20
    key = rulesets.save_house_rules(db, MANY_ROWS)
    for teams in range(2, 7):
        data, pages = _pages(client, key, teams, paper)
        text = read(data)[1]
        rounds = max(int(n) for n in re.findall(r"Round (\d+)", text))
        assert pages <= (1 if teams <= 4 else 2), (paper, teams, pages)
        assert rounds >= blank_sheets.BLANK_ROUNDS, (paper, teams, rounds)
        assert f"Page {pages} of {pages}" in text and "Total" in text
        if teams in (3, 4, 6):
            keep_png(data, f"blank-many-rows-{paper}-{teams}-teams")


def test_a_blank_sheet_heads_each_round_with_what_it_asks(client, db):
    key = rulesets.save_house_rules(db, EVERY_OPTION)
    flowing = " ".join(read(pdf(client, f"/rules/{key}/blank.pdf?teams=3"))[1].split())
    assert "Round 1 · first meld 1 clean book · out with 1 clean + 1 dirty books" in flowing
    assert (
        "Round 4 · first meld 1 clean + 1 dirty books · out with 2 clean + 2 dirty + 1 sevens books"
        in flowing
    )
    for label in (
        "Books of 7s × 1,500",
        "Wild-card books × 2,500",
        "Books of red 3s × 1,000",
        "Penalties × −100",
    ):
        assert label in flowing, label
    assert "Round score" in flowing and "Total" in flowing and "Every option." in flowing


@pytest.mark.long  # every rule set's layout at 2 to 4 teams on both papers: 1.5 s
def test_the_blank_sheets_boxes_are_for_a_pen(client):
    """Boxes at least 6 mm tall and 10 mm wide (five digits; 12 mm where the page has room),
    text at least 8 pt: read from the layout the sheet is drawn from and the stylesheet that
    draws it."""
    css = (pathlib.Path(sheets.css_path())).read_text()
    assert re.search(r"td\.box \{ height: 6\.1mm;", css)
    assert blank_sheets.MIN_CELL_MM >= 10 and blank_sheets.CELL_MM >= 12 and blank_sheets.ROW_MM >= 6
    for label in range(blank_sheets.LABEL_MIN_MM, blank_sheets.LABEL_MAX_MM + 1, 2):
        assert f".label-{label} .label-col {{ width: {label}mm; }}" in css
    for landscape, page in ((False, "@page {"), (True, "@page letter-landscape")):
        sides, ends = blank_sheets.MARGINS_MM[landscape]
        rule = css[css.index(page) :]
        top, side, bottom = re.search(r"margin: (\d+)mm (\d+)mm (\d+)mm;", rule).groups()
        assert (2 * int(side), int(top) + int(bottom)) == (sides, ends)
    for rules in [*RULESETS.values(), dataclasses.replace(EVERY_OPTION, end=None)]:
        for teams in (2, 3, 4):
            for paper, (width, height) in blank_sheets.PAPER_MM.items():
                layout = blank_sheets.blank_layout(rules, [""] * teams, 0, paper)
                margins = blank_sheets.MARGINS_MM[layout.landscape]
                across = (height if layout.landscape else width) - margins[0]
                across -= layout.label_mm + blank_sheets.LABEL_PAD_MM
                widest = max(len(band) for page in layout.pages for band in page)
                box = across / (widest * teams)
                assert box >= layout.cell_mm >= blank_sheets.MIN_CELL_MM, (rules.name, teams, paper)
                if teams < 4 and rules.name != "Every option":  # a preset's 2 or 3 teams: 12 mm
                    assert layout.cell_mm == blank_sheets.CELL_MM, (rules.name, teams, paper)
    blank_rules = css[css.index("/* blank sheets") :]
    assert not re.findall(r"font-size: ([0-7](\.\d+)?)pt", blank_rules)


def test_a_blank_sheet_with_team_names_and_rounds(client):
    _, text = read(pdf(client, "/rules/roth/blank.pdf?team=Us+%F0%9F%83%8F&team=Them&rounds=3&paper=a4"))
    assert "Us 🃏" in text and "Them" in text
    assert "Round 3" in text and "Round 4" not in text
    for bad in ("rounds=lots", "rounds=-4", "paper=folio"):
        assert client.get(f"/rules/roth/blank.pdf?{bad}").status_code == 200
    assert client.get("/rules/nope/blank.pdf").status_code == 404
    page = client.get("/rules/roth/blank").get_data(as_text=True)
    assert 'href="/rules/roth/blank.pdf?paper=a4"' in page


def test_every_rule_set_offers_its_blank_sheet(client):
    page = client.get("/rules/roth").get_data(as_text=True)
    assert 'href="/rules/roth/blank.pdf"' in page and "Print / share PDF" in page
    assert 'action="/rules/roth/blank.pdf"' in page and 'name="team"' in page
    assert '<select id="teams" name="teams"><option value="2">2</option>' in page
    # four blank columns a round, without names
    flowing = " ".join(read(pdf(client, "/rules/tablet/blank.pdf?teams=4&team=&team="))[1].split())
    assert "Round 5" in flowing and "Team" in flowing
    html = client.get("/rules/tablet/blank?teams=4").get_data(as_text=True)
    assert html.count('class="team-head') == 4 * 5  # a column per team under each of 5 rounds
    for bad in ("teams=7", "teams=1", "teams=x"):
        assert client.get(f"/rules/roth/blank.pdf?{bad}").status_code == 200


# --- the extremes of a table: six teams, two players alone -------------------------------------

SIX_TEAMS = tuple(
    (name, players)
    for name, players in (
        ("", ["Ann", "Bo"]),
        ("", ["Cy", "Di"]),
        ("", ["Eve", "Fay"]),
        ("", ["Gus", "Hal"]),
        ("", ["Ivy", "Jo"]),
        ("The Long-Named Cousins", ["Kit", "Lou"]),
    )
)


def _printed_rounds(text):
    return re.findall(r"Round\s+([+−]?[\d,]+)\s+Total\s+(−?[\d,]+)", text)


def _engine_rounds(game):
    s = game.standings
    return [
        (formatting.points(score.total), formatting.number(total))
        for scores, totals in zip(s.round_scores, s.running_totals)
        for score, total in zip(scores, totals)
    ]


@pytest.mark.parametrize("paper", SIZES)
def test_six_teams_print_on_one_page(make_game, client, paper):
    # six busy rounds, every line used by every team
    game = make_game("partnership", [_busy_round(n, teams=6) for n in range(6)], teams=SIX_TEAMS, end=True)
    data = pdf(client, f"/games/{game.id}/sheet.pdf?paper={paper}")
    keep_png(data, f"game-six-teams-{paper}")
    reader, text = read(data)
    assert len(reader.pages) == 1 and "Page 1 of 1" in text
    assert _printed_rounds(text) == _engine_rounds(game)
    flowing = re.sub(r"-\s+", "-", " ".join(text.split()))  # a long name wraps in its column
    for team in game.teams:
        assert team.name in flowing
    final = re.search(r"Final" + r"\s+(−?[\d,]+)" * 6, text)
    assert [final[i] for i in range(1, 7)] == [formatting.number(t) for t in game.standings.totals]


def test_two_players_alone_at_canasta_print(make_game, client):
    rounds = [
        [
            TeamRound(
                books={"clean": 1},
                melded_points=215,
                red_threes_melded=3,
                went_out=True,
                went_out_concealed=True,
            ),
            TeamRound(unplayed_points=85, red_threes_melded=1, black_threes=1),
        ],
        [
            TeamRound(books={"dirty": 1}, melded_points=180, unplayed_points=25),
            TeamRound(
                books={"clean": 1, "dirty": 1},
                melded_points=420,
                red_threes_melded=4,
                black_threes_out=3,
                went_out=True,
            ),
        ],
    ]
    game = make_game("canasta", rounds, teams=(("", ["Ann"]), ("", ["Cy"])))
    data = pdf(client, f"/games/{game.id}/sheet.pdf")
    _, text = read(data)
    assert _printed_rounds(text) == _engine_rounds(game)
    # the lines a Canasta round can have, and the cheat sheet's Canasta values
    for line in ("Went out concealed ×1", "All 4 red 3s laid down ×1", "Black 3s melded going out ×3"):
        assert line in text, line
    # Cy melded nothing: his red 3 counts against him (the sheet sets labels and
    # points in two columns, so the line and its points are read apart)
    assert "Red 3s laid down ×1" in text and "−100" in text
    flowing = " ".join(text.split())
    assert "red 3 laid down +100; −100 for a team that melded nothing" in flowing
    assert "all 4 +400 more; −400 for a team that melded nothing" in flowing
    assert "Canasta (classic)" in text and "In progress: 2 rounds played." in text
    keep_png(data, "game-two-alone-canasta")


def test_a_blank_sheet_for_six_teams(client):
    names = "&".join(f"team=Team+{n}" for n in range(1, 7))
    data = pdf(client, f"/rules/tablet/blank.pdf?{names}")
    text = read(data)[1]
    for n in range(1, 7):
        assert f"Team {n}" in text
    keep_png(data, "blank-six-teams")


# --- in the background --------------------------------------------------------------


@pytest.fixture
def background_app(instance_path, tmp_path):
    """The app with SHEETS_IN_BACKGROUND on (off under TESTING), CSRF off for posting."""
    from scorekeeper import create_app
    from scorekeeper.services.schema import migrate

    database = tmp_path / "background.db"
    migrate(database)
    app = create_app(
        {"TESTING": True, "DATABASE": str(database), "WTF_CSRF_ENABLED": False, "SHEETS_IN_BACKGROUND": True}
    )
    ahead.wait_for_background()  # the warm-up
    yield app
    ahead.wait_for_background()


def test_a_saved_round_is_printed_in_the_background_so_print_is_instant(background_app):
    from scorekeeper.storage.db import connect

    from .test_games import enter

    client = background_app.test_client()
    db = connect(background_app.config["DATABASE"])
    try:
        game = games.create_game(db, RULESETS["tablet"], "tablet", [("", ["Ann"]), ("", ["Bo"])])
    finally:
        db.close()
    for number, melded in ((1, 100), (2, 250)):
        enter(client, game.id, {"melded_points": melded}, {"melded_points": 50})
        ahead.wait_for_background()
        before = sheets.cache_info()
        data = pdf(client, f"/games/{game.id}/sheet.pdf")
        # "Print" takes the sheet the background rendered: a hit, no render
        assert sheets.cache_info() == {**before, "hits": before["hits"] + 1}
        assert f"Total {100 if number == 1 else 350}" in read(data)[1]


def test_the_background_skips_a_sheet_changed_again_since(background_app):
    from scorekeeper.storage.db import connect

    db = connect(background_app.config["DATABASE"])
    try:
        game = games.create_game(db, RULESETS["roth"], "roth", [("", ["Ann"]), ("", ["Bo"])])
        first = games.add_round(db, game.id, game.revision, 1, [TeamRound(melded_points=50), TeamRound()])
        second = games.update_round(
            db, game.id, first.revision, first.rounds[0].id, [TeamRound(melded_points=90), TeamRound()]
        )
    finally:
        db.close()
    before = sheets.cache_info()
    ahead.render_later(background_app, second)
    ahead.render_later(background_app, first)  # older than what is queued: skipped
    ahead.wait_for_background()
    assert sheets.cache_info()["renders"] == before["renders"] + 1


def test_the_background_waits_while_a_request_is_answered(background_app):
    """A sheet printed in the background never competes with a page a phone waits for:
    it starts once the app has answered no request for SHEETS_BACKGROUND_DELAY."""
    from scorekeeper.storage.db import connect

    db = connect(background_app.config["DATABASE"])
    try:
        game = games.create_game(db, RULESETS["roth"], "roth", [("", ["Ann"]), ("", ["Bo"])])
        game = games.add_round(db, game.id, game.revision, 1, [TeamRound(melded_points=50), TeamRound()])
    finally:
        db.close()
    background_app.config["SHEETS_BACKGROUND_DELAY"] = 0.05
    before = sheets.cache_info()
    ahead.held_back.clear()
    with background_app.test_request_context(f"/games/{game.id}"):
        background_app.preprocess_request()  # a request being answered
        ahead.render_later(background_app, game)
        assert ahead.held_back.wait(10), "the worker never saw the request"  # its own word
        # and it still holds back a whole quiet period later (a worker that said so once and
        # went on printing would not say it again)
        ahead.held_back.clear()
        assert ahead.held_back.wait(10), "the worker stopped waiting while the request was answered"
        assert sheets.cache_info() == before
        background_app.do_teardown_request()  # answered
    ahead.wait_for_background()
    printed = sheets.cache_info()  # rendered, or the same sheet found in the cache
    assert printed["renders"] + printed["hits"] == before["renders"] + before["hits"] + 1


def test_without_the_background_nothing_is_queued(make_game, app, client, db):
    assert app.config["SHEETS_IN_BACKGROUND"] is False  # TESTING turns it off
    game = make_game("tablet", [[TeamRound(melded_points=100), TeamRound()]])
    before = sheets.cache_info()
    ahead.render_later(app, game)
    ahead.wait_for_background()
    assert sheets.cache_info() == before


def test_six_teams_fit_a_page_with_every_count(make_game, client, db):
    """Up to six teams a game (house rules may allow them): six rounds still fit a
    page, and every line keeps its count."""
    teams = tuple(("", [name]) for name in ("Ann", "Bo", "Cy", "Di", "Eve", "Flo"))
    game = make_game("partnership", [_busy_round(n, teams=6) for n in range(6)], teams=teams)
    reader, text = read(pdf(client, f"/games/{game.id}/sheet.pdf"))
    assert len(reader.pages) == 1
    assert text.count("Clean (red) books ×2") == 36 and text.count("Black 3s caught ×2") == 36
    printed = re.findall(r"Round ([+−]?[\d,]+)\s+Total\s+(−?[\d,]+)", text)
    assert len(printed) == 36
    keep_png(pdf(client, f"/games/{game.id}/sheet.pdf"), "game-six-teams")


@pytest.mark.parametrize(
    ("accept", "said", "wrong"),
    [
        ("pt-BR", "Página 1 de 1", "Page 1 of 1"),
        ("es", "Página 1 de 1", "Page 1 of 1"),
        ("it", "Pagina 1 di 1", "Page 1 of 1"),
        ("en", "Page 1 of 1", "Página"),
    ],
)
def test_a_printed_sheets_page_numbers_in_the_readers_language(make_game, client, accept, said, wrong):
    """The foot of a played game's sheet numbers its pages in the reader's language (it said
    "Page 1 of 1" on every sheet: a reading of the Portuguese, Spanish and Italian sheets
    found it, issue 56)."""
    game = make_game("friends-family", [_busy_round(n, teams=2) for n in range(2)])
    response = client.get(f"/games/{game.id}/sheet.pdf", headers={"Accept-Language": accept})
    assert response.status_code == 200
    _reader, text = read(response.data)
    assert said in text and wrong not in text
