"""Following a game from another phone: its share link, read-only, and the buttons that manage it.

``/s/<token>`` is the one page a share link opens, without the passcode: the
game's standings, meld minimums for the next round and its rounds, and
nothing else (no other game, no edit, no export, no players). It refreshes
itself (static/app.js asks again every few seconds with the page's ETag and
gets a 304 until the game changes) and without JavaScript it is one reload.
The game screen shows the link as a QR code; making a new link or stopping
sharing is a change to the game (``services.games.share_game``, ``stop_sharing``).
"""

import hashlib
import io
import secrets
from urllib.parse import urlsplit, urlunsplit

import segno
from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for

from ..forms.games import ActionForm
from ..printing import pictures
from ..scoring.language import _, language
from ..services import Conflict, NotFound, game_model, games, records
from ..storage.db import get_db
from ..web.security import LOCAL_HOSTS, machine_names
from . import found, trust

bp = Blueprint("share", __name__)

# Part of every ETag, so that a restarted (perhaps upgraded) app never answers
# "unchanged" for a page its templates would now draw differently.
_STARTED = secrets.token_hex(4)


def etag_of(*parts):
    """A page's ETag: what it shows, the language it says it in (a phone that switched
    language must not be told its copy in the other one is unchanged), this app's start."""
    text = ":".join(str(part) for part in (*parts, language(), _STARTED))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _etag(token, revision):
    return etag_of(token, revision)


def gone():
    """A link that was never made, or was stopped: say so, show nothing else."""
    response = Response(render_template("share/gone.html"), 404)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/s/<token>")
def follow(token):
    """A shared game, read-only; 304 when the phone already shows its latest."""
    db = get_db()
    seen = game_model.shared_game_revision(db, token)
    if seen is None:
        return gone()
    picture_url = share_url(token, "share.picture")
    return followed(token, seen[1], lambda: game_model.load_shared_game(db, token), picture_url)


def followed(link, revision, load, picture_url=None):
    """The read-only page of a followed game (``load()``: the game, or None when the link
    no longer opens it); 304 when the phone already shows ``revision`` of it. With
    ``picture_url``, a finished game's page names its picture for a chat's link preview."""
    etag = _etag(link, revision)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        game = load()
        if game is None:
            return gone()
        etag = _etag(link, game.revision)
        response = Response(
            render_template(
                "share/follow.html",
                game=game,
                s=game.standings,
                etag=etag,
                poll_seconds=current_app.config["FOLLOW_POLL_SECONDS"],
                picture_url=picture_url,
            )
        )
    response.set_etag(etag)
    # kept, but asked about every time (a 304 costs one indexed read)
    response.headers["Cache-Control"] = "no-cache"
    return response


def share_url(token, endpoint="share.follow", argument="token"):
    """The share link (a game's, or ``endpoint``'s: an evening's) as a phone at the table
    opens it: when this page was opened on the computer itself (localhost), the
    address phones reach it at instead:
    ``SHARE_ADDRESS`` as the server set it (``serve.share_address``: None when it
    listens on loopback only, so the link stays as opened), else the first LAN
    address. Opened over https, the link is still an http one (a guest's phone trusts
    no household certificate), unless every phone here is paired (views/trust.py)."""
    url = url_for(endpoint, **{argument: token}, _external=True)
    parts = urlsplit(url)
    config = current_app.config
    reached = config["SHARE_ADDRESS"] if "SHARE_ADDRESS" in config else next(iter(machine_names()[0]), None)
    host, port = parts.hostname, parts.port
    if parts.scheme == "https" and config.get("HTTP_PORT") and not trust.every_phone_paired():
        parts, port = parts._replace(scheme="http"), config["HTTP_PORT"]
    if host in LOCAL_HOSTS and reached and reached in (config.get("TRUSTED_HOSTS") or ()):
        host = reached
    if (host, port) != (parts.hostname, parts.port):
        parts = parts._replace(netloc=host + (f":{port}" if port else ""))
    return urlunsplit(parts)


def qr_svg(text):
    """``text`` as a QR code, black on white with its quiet zone, as SVG that scales."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", xmldecl=False, omitsize=True, border=4, dark="#000", light="#fff", title=text
    )
    return out.getvalue()


@bp.get("/games/<id:game_id>/share.svg")
def qr(game_id):
    """The game's share link as a QR code, to scan at the table."""
    game = found(game_model.load_game(get_db(), game_id), _("There is no game %(id)s.", id=game_id))
    found(game.share_token, _("This game is not shared."))
    response = Response(qr_svg(share_url(game.share_token)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


def picture_response(game):
    """A finished game's picture (``printing.pictures``), with its ETag: a 304 when the
    phone has it already."""
    found(
        game if game is not None and game.finished and game.rounds else None,
        _("Only a finished game with a round has a picture."),
    )
    return picture_answer(pictures.game_picture(game, records.worth_telling(get_db(), game)))


def picture_answer(picture):
    """A picture as a response with its ETag (a 304 when the phone has it already), kept
    but asked about again: what it shows may change (a game reopened, a player renamed)."""
    response = Response(picture.png, mimetype="image/png")
    response.set_etag(picture.etag)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get("/games/<id:game_id>/picture.png")
def game_picture(game_id):
    """A finished game as a picture for the family chat (behind the passcode)."""
    return picture_response(game_model.load_game(get_db(), game_id, remember=True))


@bp.get("/s/<token>/picture.png")
def picture(token):
    """The picture of a shared game, through its share link alone (what a chat's link
    preview fetches: no passcode, no other game)."""
    game = game_model.load_shared_game(get_db(), token)
    if game is None:
        return gone()
    return picture_response(game)


@bp.post("/games/<id:game_id>/share/new")
def renew(game_id):
    """Make a new share link (the old one stops working)."""
    return _change(game_id, games.share_game, _("New share link made: the old one, if any, no longer works."))


@bp.post("/games/<id:game_id>/share/stop")
def stop(game_id):
    """Stop sharing: the link stops working."""
    return _change(game_id, games.stop_sharing, _("Sharing stopped: the link no longer works."))


def _change(game_id, change, message):
    db = get_db()
    game = found(game_model.load_game(db, game_id), _("There is no game %(id)s.", id=game_id))
    form = ActionForm()  # its CSRF token was checked before the view (CSRFProtect)
    try:
        change(db, game.id, form.revision.data, loaded=game)
    except (Conflict, NotFound) as refusal:
        flash(str(refusal), "error")
        for meanwhile in getattr(refusal, "changes", ()):
            flash(_("Meanwhile: %(change)s", change=meanwhile.summary), "info")
    else:
        flash(message, "success")
    return redirect(url_for("games.show", game_id=game.id, _anchor="share"), 303)
