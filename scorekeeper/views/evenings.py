"""Evenings: several tables at once. Start one (who is here, the tables proposed
from the ratings, then every table's game in one tap), follow it, seat its next game."""

import datetime
import json
import re

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from wtforms import SelectChoice

from ..forms.evenings import EveningForm, ShareForm
from ..names import name_key
from ..printing import pictures, sheets
from ..scoring.language import _, ngettext
from ..services import Conflict, colours, evening_tables, game_model, players, rulesets, seating
from ..services.evening_tables import MODES
from ..storage.db import get_db
from ..web import language
from .share import etag_of, followed, gone, picture_answer, qr_svg, share_url
from .sheets import game_blank_html

bp = Blueprint("evenings", __name__)

REFUSED = 422
NIGHT = re.compile(r"\d{4}-\d{2}-\d{2}")


def night_or_404(night):
    if NIGHT.fullmatch(night):
        try:
            datetime.date.fromisoformat(night)
            return night
        except ValueError:
            pass
    abort(404, description=_("There is no such evening: an evening's address is its date, like 2026-12-24."))


def evening_or_404(night):
    found = evening_tables.load_evening(get_db(), night_or_404(night))
    if found is None:
        abort(404, description=_("Nothing was played on the evening of %(night)s.", night=night))
    return found


@bp.route("/evenings/new", methods=["GET", "POST"])
def new():
    """Who is here, the rule set and how tables are made; then the proposal; then every table starts."""
    return _seating(None)


@bp.route("/evenings/<night>/next", methods=["GET", "POST"])
def next_game(night):
    """The evening's next game: the tables proposed (partners changed, or progressive moves)."""
    return _seating(evening_or_404(night))


def _seating(evening):
    db = get_db()
    entries = rulesets.list_rule_sets(db)
    by_key = {e.key: e for e in entries}
    form = EveningForm() if request.method == "POST" else EveningForm(formdata=None)
    known = [p.name for p in players.list_players(db)]
    form.present.choices = [SelectChoice(name, name) for name in known]
    form.rules_key.choices = [SelectChoice(e.key, e.rules.title) for e in entries]
    if request.method == "GET":
        if evening is not None:
            form.present.data = [
                p.name for t in evening.current for team in t.game.teams for p in team.players
            ]
            form.rules_key.data = evening.rules_key if evening.rules_key in by_key else entries[0].key
            form.mode.data = evening.mode or "rotate"
            form.team_size.data = (
                str(len(evening.current[0].game.teams[0].players)) if evening.current else "2"
            )
            layout = [[len(team.players) for team in t.game.teams] for t in evening.current]
            people = sum(map(sum, layout))
            # the tables as they are when the usual rule makes them (any count: 9 is a table
            # of six and one of three), so that the next game starts as proposed
            form.tables.data = None if _usual(people) == layout else len(evening.current) or None
            form.seen.data = str(len(evening.sittings))
            proposal, moves, notes = evening_tables.next_seating(db, evening)
            return _page(form, evening, proposal, moves, notes=notes)
        form.rules_key.data = (
            request.args.get("rules") if request.args.get("rules") in by_key else entries[0].key
        )
        return _page(form, evening)
    names = form.names()
    _swap_choices(form, names)
    if not form.validate():
        return _page(form, evening, status=REFUSED)
    action = request.form.get("action", "propose")
    shown = form.shown_seats()
    chances = evening_tables.chances_for(db, names)
    if action == "start" and shown is not None:
        entry = by_key[form.rules_key.data]
        seen = evening.night if evening else evening_tables.tonight()
        mode = evening.mode if evening and evening.mode else form.mode.data
        try:
            night, sitting = evening_tables.start_sitting(db, seen, entry, mode, shown, form.seen_number())
        except Conflict as refusal:
            flash(str(refusal), "error")  # what is under way is tonight's
            return redirect(url_for("evenings.show", night=evening_tables.tonight()), 303)
        flash(
            ngettext(
                "Game %(sitting)s of the evening started at %(num)s table. Good luck!",
                "Game %(sitting)s of the evening started at %(num)s tables. Good luck!",
                len(shown),
                sitting=sitting,
            ),
            "success",
        )
        return redirect(url_for("evenings.show", night=night), 303)
    if action == "swap" and shown is not None:
        a, b = form.swap_a.data, form.swap_b.data
        if a in names and b in names and a != b:
            shown = seating.swap(shown, a, b)
        avoid = evening.partners_among(names) if evening else set()
        return _page(form, evening, seating.proposal(shown, chances, avoid))
    # the tables shown start (or take a swap) as shown, even where the fields alone would
    # refuse them (an odd count seated by the usual rule); anything else is laid out afresh
    try:
        layout = form.layout()
    except seating.SeatingError as problem:
        form.present.errors = [str(problem)]
        return _page(form, evening, status=REFUSED)
    if action == "start":
        flash(_("The people here changed since the tables were proposed: here are new tables."), "info")
    if action == "lock":
        a, b = form.swap_a.data, form.swap_b.data
        if a in names and b in names and a != b:
            pairs = [p for p in form.locked_pairs() if not {a, b} & set(p)] + [(a, b)]
            form.locked.data = json.dumps(pairs)
    if action == "another":
        form.seed.data = str(form.seed_number() + 1)
    kept = {}
    if shown is not None and len(shown) == len(layout):
        for index in form.keep.data:
            if index.isdigit() and int(index) < len(shown):
                kept[int(index)] = shown[int(index)]
    try:
        proposal, moves, notes = _propose(db, form, evening, names, layout, chances, kept)
    except seating.SeatingError as problem:
        form.present.errors = [str(problem)]
        return _page(form, evening, status=REFUSED)
    return _page(form, evening, proposal, moves, notes=notes)


def _propose(db, form, evening, names, layout, chances, kept):
    """(the proposal, the progressive moves or None, notes): the progressive moves when
    every table has finished and the same people are here, else a fair proposal."""
    if evening is not None and evening.mode == "progressive" and evening.sitting_done and not kept:
        proposal, moves, notes = evening_tables.next_seating(db, evening)
        if sorted(map(name_key, names)) == sorted(
            name_key(p) for t in proposal.tables for tm in t for p in tm
        ):
            return proposal, moves, notes
    together = [pair for pair in form.locked_pairs() if set(pair) <= set(names)]
    kept = {t: [list(team) for team in teams] for t, teams in kept.items()}
    layout_kept = all(len(kept[t]) == len(layout[t]) for t in kept if t < len(layout))
    proposal = seating.arrange(
        names,
        layout,
        chances,
        together=together,
        avoid=evening.partners_among(names) if evening else set(),
        kept=kept if layout_kept else None,
        seed=form.seed_number(),
    )
    return proposal, None, []


def _swap_choices(form, names):
    choices = [SelectChoice(name, name) for name in names]
    form.swap_a.choices = form.swap_b.choices = choices


def _usual(people):
    """The usual rule's tables for ``people`` (seating.TABLE_RULE), or None where it has none."""
    try:
        return seating.plan(people)
    except seating.SeatingError:
        return None


def _page(form, evening, proposal=None, moves=None, status=200, notes=()):
    names = form.names()
    tonight = evening_tables.tonight()
    _swap_choices(form, names)
    if proposal is not None:
        form.seats.data = json.dumps([[list(team) for team in table] for table in proposal.tables])
        form.keep.choices = [
            SelectChoice(str(i), _("Table %(number)s", number=i + 1)) for i in range(len(proposal.tables))
        ]
    return render_template(
        "evenings/new.html",
        form=form,
        evening=evening,
        proposal=proposal,
        moves=moves,
        people=len(names),
        notes=notes,
        table_rule=seating.TABLE_RULE,
        progressive_rule=seating.PROGRESSIVE_RULE,
        modes=MODES,
        # an earlier evening's next game is a game of tonight (``start_sitting``): said so
        starts_on=tonight if evening is not None and evening.night != tonight else None,
    ), status


@bp.get("/evenings/<night>")
def show(night):
    """The evening: every table live, the night's standings, its best, the next game."""
    return _evening_page(evening_or_404(night))


@bp.get("/e/<shared>", endpoint="follow")
def follow(shared):
    """A shared evening, read-only: its tables (each opened under this same link), its
    standings; nothing else of the app (no game of the night outside its tables), and no
    passcode asked."""
    evening = evening_tables.load_shared_evening(get_db(), shared)
    return gone() if evening is None else _evening_page(evening, shared=True)


@bp.get("/e/<shared>/games/<id:game_id>", endpoint="follow_table")
def follow_table(shared, game_id):
    """A table of a shared evening, read-only, under the evening's own link: nothing but
    its tables' games opens from it, and stopping the evening's link stops these too."""
    db = get_db()
    revision = evening_tables.shared_table_revision(db, shared, game_id)
    if revision is None:
        return gone()
    return followed(f"{shared}/{game_id}", revision, lambda: game_model.load_game(db, game_id))


def _evening_page(evening, shared=False):
    named = colours.of_players(get_db(), evening.games)
    # tonight's page and the same night's the next day say different words; a player's
    # colour changed on their page changes the swatches
    drawn = ",".join(f"{name}={c.key}" for name, c in sorted(named.items()))
    etag = etag_of(evening.night, evening.version, int(shared), int(evening.tonight), drawn)
    if request.if_none_match.contains(etag):
        return "", 304
    token = evening.share_token
    page = render_template(
        "evenings/show.html",
        evening=evening,
        colours=named,
        shared=shared,
        share_url=share_url(token, "evenings.follow", "shared") if token and not shared else None,
        picture_url=(
            share_url(token, "evenings.follow_picture", "shared")
            if shared and token
            else url_for("evenings.picture", night=evening.night)
        ),
        pictured=any(game.finished for game in evening.games),
        share_form=ShareForm(),
        papers=sheets.PAPERS,
        ranking_rule=evening.ranking_rule,
        modes=MODES,
        etag=etag,
        poll_seconds=current_app.config["FOLLOW_POLL_SECONDS"],
    )
    return page, 200, {"ETag": f'"{etag}"', "Cache-Control": "no-cache"}


def _picture(evening):
    """An evening's picture (``printing.pictures``), with its ETag: a 304 when the phone has it."""
    if not any(game.finished for game in evening.games):
        abort(404, description=_("An evening has a picture once one of its games has ended."))
    return picture_answer(pictures.evening_picture(evening))


@bp.get("/evenings/<night>/picture.png")
def picture(night):
    """The evening as a picture for the family chat (behind the passcode)."""
    return _picture(evening_or_404(night))


@bp.get("/e/<shared>/picture.png", endpoint="follow_picture")
def follow_picture(shared):
    """A shared evening's picture, through its link alone (a chat's link preview)."""
    evening = evening_tables.load_shared_evening(get_db(), shared)
    return gone() if evening is None else _picture(evening)


@bp.get("/evenings/<night>/evening.pdf")
def evening_pdf(night):
    """The evening printed: every table's sheet, then the standings (?paper=letter or a4)."""
    evening = evening_or_404(night)
    paper = sheets.paper(request.args.get("paper"), current_app.config["PAPER"])
    pdf = sheets.evening_pdf(evening, paper)
    headers = {
        "Content-Type": "application/pdf",
        "Content-Disposition": f'inline; filename="evening-{evening.night}-{paper}.pdf"',
    }
    return pdf, headers


@bp.get("/evenings/<night>/blank.pdf")
def blank_pdf(night):
    """Blank sheets for the tables of the evening's latest game, to play it on paper: each
    with its teams and date filled in and the QR code of its typing page (?paper=)."""
    evening = evening_or_404(night)
    games = [table.game for table in evening.current if table.game.is_open]
    if not games:
        abort(404, description=_("No table of this evening is playing: there is no sheet to print."))
    paper = sheets.paper(request.args.get("paper"), current_app.config["PAPER"])
    pdf = sheets.pdf_from_htmls([game_blank_html(game, paper, pdf=True) for game in games])
    headers = {
        "Content-Type": "application/pdf",
        "Content-Disposition": f'inline; filename="evening-{evening.night}-sheets-{paper}.pdf"',
    }
    return pdf, headers


@bp.get("/evenings/<night>/share.svg")
def qr(night):
    """The evening's share link as a QR code, for the other phones to scan."""
    evening = evening_or_404(night)
    if not evening.share_token:
        abort(404, description=_("This evening is not shared."))
    link = share_url(evening.share_token, "evenings.follow", "shared")
    response = Response(qr_svg(link), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/evenings/<night>/share/new")
def renew_share(night):
    """A new share link for the evening (the old one stops working)."""
    return _share(night, True, _("New share link made: the old one, if any, no longer works."))


@bp.post("/evenings/<night>/share/stop")
def stop_share(night):
    """Stop sharing the evening: its link stops working."""
    return _share(night, False, _("Sharing stopped: the evening's link no longer works."))


def _share(night, on, message):
    evening = evening_or_404(night)
    if evening.mode is None:
        abort(404, description=_("Only an evening started from “Start an evening” has a share link."))
    evening_tables.set_sharing(get_db(), evening.night, on)  # the CSRF token was checked already
    flash(message, "success")
    return redirect(url_for("evenings.show", night=evening.night, _anchor="share"), 303)


@bp.get("/evenings/<night>.json")
@language.english
def show_json(night):
    """The evening page's numbers, the same as the page shows."""
    return as_json(evening_or_404(night))


def as_json(evening):
    def table(t):
        game = t.game
        return {
            "table": t.number,
            "game_id": game.id,
            "round": len(game.rounds),
            "finished": game.finished,
            "leader": t.leader,
            "teams": [
                {"name": team.name, "players": [p.name for p in team.players], "total": total}
                for team, total in zip(game.teams, game.standings.totals)
            ],
        }

    best, high = evening.best_round, evening.highest_game
    return {
        "night": evening.night,
        "mode": evening.mode,
        "version": evening.version,
        "sittings": [[table(t) for t in sitting] for sitting in evening.sittings],
        "other_games": [g.id for g in evening.loose],
        "standings": [
            {"name": n.name, "games": n.games, "won": n.won, "points": n.points} for n in evening.standings
        ],
        "ranking_rule": evening.ranking_rule,
        "best_round": {"points": best[0], "team": best[1], "game_id": best[2].id, "round": best[3]}
        if best
        else None,
        "highest_game": {"total": high[0], "team": high[1], "game_id": high[2].id} if high else None,
    }
