"""Printed score sheets: a game's, and blank ones for playing on paper."""

import html
import re

from flask import Blueprint, current_app, get_template_attribute, render_template, request, url_for

from .. import scoring
from ..names import MAX_NAME, clean_name, name_problem
from ..printing import ahead, blank_sheets, layout, readable, sheets
from ..printing.layout import sheet_lines
from ..scoring import MAX_TEAMS, MIN_TEAMS
from ..scoring.language import _
from ..services import game_model, rulesets
from ..storage.db import get_db
from . import found
from .share import share_url

bp = Blueprint("sheets", __name__)
# WeasyPrint warmed up, and sheets rendered after each change, in the background
bp.record_once(lambda state: ahead.init_app(state.app))


def _paper():
    return sheets.paper(request.args.get("paper"), current_app.config["PAPER"])


def _pdf_links(endpoint, **values):
    return [
        (_("PDF (%(paper)s)", paper=_(label)), url_for(endpoint, paper=key, **values))
        for key, label in sheets.PAPERS.items()
    ]


def _pdf_headers(filename):
    return {"Content-Type": "application/pdf", "Content-Disposition": f'inline; filename="{filename}"'}


def _pdf_response(html, filename):
    return sheets.pdf_from_html(html), _pdf_headers(filename)


def _game(game_id):
    # remembered: the save that changed it left its rounds and standings (game_model)
    return found(
        game_model.load_game(get_db(), game_id, remember=True), _("There is no game %(id)s.", id=game_id)
    )


@bp.get("/games/<id:game_id>/sheet")
def game(game_id):
    """The game's score sheet, as the PDF prints it (the browser can print it too)."""
    game = _game(game_id)
    return sheets.game_sheet_html(
        game,
        _paper(),
        pdf=False,
        pdf_links=_pdf_links("sheets.game_pdf", game_id=game.id),
        back_url=url_for("games.show", game_id=game.id),
    )


@bp.get("/games/<id:game_id>/sheet.pdf")
def game_pdf(game_id):
    """The game's score sheet as a PDF."""
    game, paper = _game(game_id), _paper()
    # as the background job printed it after the change (ahead.render_later)
    pdf = sheets.game_pdf(game, paper)
    return pdf, _pdf_headers(f"hand-and-foot-game-{game.id}-{paper}.pdf")


def _blank_sheet(key, pdf=False):
    entry = found(rulesets.get_rule_set(get_db(), key), _("There is no rule set “%(key)s”.", key=key))
    text = request.args.get("rounds", "0")
    rounds = min(int(text), 20) if text.isascii() and text.isdigit() and len(text) < 4 else 0
    names = [
        name
        for name in (clean_name(n) for n in request.args.getlist("team")[:MAX_TEAMS])
        if not name_problem(name, MAX_NAME)
    ]
    teams = [n for n in names if n] or ["", ""]
    text = request.args.get("teams", "")
    if text in {str(n) for n in range(MIN_TEAMS, MAX_TEAMS + 1)}:  # blank columns for more teams
        teams += [""] * (int(text) - len(teams))
    paper = _paper()
    links = _pdf_links("sheets.blank_pdf", key=key, team=names, rounds=rounds or None, teams=text or None)
    back = (url_for("rules.show", key=key), _("Back to the rules"))
    return paper, blank_html(entry.rules, teams, rounds, paper, pdf=pdf, pdf_links=links, back=back)


def blank_html(rules, teams, rounds, paper, *, pdf, pdf_links=(), back=(None, "")):
    """A blank sheet's HTML: the rule set's lines, a box per team and round (a game's own
    sheet to play on is ``game_blank_html``)."""
    tiers = scoring.value_tiers(rules)
    # how long the cheat-sheet strip is, so that the layout leaves it room (its tags taken out:
    # [^<>], so that a "<" never closed is not read again to the end from each "<")
    cheat = get_template_attribute("sheets/_sheet.html", "cheat_sheet")(rules, tiers)
    layout = blank_sheets.blank_layout(
        rules,
        teams,
        rounds,
        paper,
        cheat_chars=len(" ".join(re.sub(r"<[^<>]*>", " ", cheat).split())),
    )
    return render_template(
        "sheets/blank.html",
        pdf=pdf,
        rules=rules,
        teams=teams,
        layout=layout,
        label_class=blank_sheets.label_class(layout),
        round_head=blank_sheets.round_head,
        lines=sheet_lines(rules),
        tiers=tiers,
        deck=None,
        paper=paper,
        pdf_links=pdf_links,
        back_url=back[0],
        back_label=back[1],
    )


@bp.get("/games/<id:game_id>/blank")
def game_blank(game_id):
    """The game's sheet to play it on paper, printed to be read back: its teams and day
    filled in, and on each page a QR code that opens the page where the sheet is typed in."""
    game = _game(game_id)
    return game_blank_html(game, _paper(), pdf=False)


@bp.get("/games/<id:game_id>/blank.pdf")
def game_blank_pdf(game_id):
    """The game's sheet to play on, as a PDF."""
    game, paper = _game(game_id), _paper()
    return _pdf_response(game_blank_html(game, paper, pdf=True), f"hand-and-foot-sheet-{game.id}-{paper}.pdf")


@bp.get("/games/<id:game_id>/blank.svg")
def game_blank_svg(game_id):
    """A page of the game's sheet to play on as a picture (?paper=, ?page=): its screen page shows each."""
    game, paper = _game(game_id), _paper()
    text = request.args.get("page", "1")
    number = int(text) if text.isascii() and text.isdigit() and len(text) < 3 else 0
    geom = readable.game_geometry(game, paper)
    page = found(next((p for p in geom.pages if p.number == number), None), _("There is no such page."))
    sheet = readable.draw(
        game, geom, page, share_url(game.id, "paper.sheet", "game_id"), _cheat_text(game.rules)
    )
    svg = get_template_attribute("sheets/_readable.html", "drawing")(sheet, **_drawn())
    return svg, {"Content-Type": "image/svg+xml; charset=utf-8"}


def _cheat_text(rules):
    """The rules in short, as the blank sheet's cheat sheet says them, as plain text."""
    cheat = get_template_attribute("sheets/_sheet.html", "cheat_sheet")(rules, scoring.value_tiers(rules))
    return html.unescape(" ".join(re.sub(r"<[^<>]*>", " ", cheat).split()))


def _drawn():
    """What every page's drawing takes besides the page: the geometry's marks."""
    return {"marker": layout.MARKER_MM, "line_colour": layout.LINE_COLOUR, "line_mm": readable.BOX_LINE_MM}


def game_blank_html(game, paper, *, pdf):
    """A game's sheet to play on (printed to be read back: ``printing/readable.py``) as HTML."""
    geom = readable.game_geometry(game, paper)
    return render_template(
        "sheets/readable.html",
        pdf=pdf,
        game=game,
        paper=paper,
        pages=readable.pages(
            game, geom, share_url(game.id, "paper.sheet", "game_id"), _cheat_text(game.rules)
        ),
        **_drawn(),
        pdf_links=_pdf_links("sheets.game_blank_pdf", game_id=game.id),
        back_url=url_for("games.show", game_id=game.id),
        back_label=_("Back to the game"),
    )


@bp.get("/rules/<key>/blank")
def blank(key):
    """A blank score sheet for a rule set, to play on paper."""
    return _blank_sheet(key)[1]


@bp.get("/rules/<key>/blank.pdf")
def blank_pdf(key):
    """A blank score sheet as a PDF (?paper=a4|letter, ?rounds=, ?team= up to 4)."""
    paper, html = _blank_sheet(key, pdf=True)
    return _pdf_response(html, f"hand-and-foot-blank-{key}-{paper}.pdf")
