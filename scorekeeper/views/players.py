"""The family's players: the leaderboard, everyone, one player's record, renaming, their colour."""

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for

from ..forms.players import ColourForm, RenameForm
from ..printing import pictures
from ..scoring.language import _, ngettext
from ..services import Conflict, NotFound, catch_up, colours, evening_tables, players, ratings, stats, years
from ..storage.db import get_db, snapshot
from ..web import charts, formatting, language
from . import found, page_number, posted_or_filled
from .share import picture_answer

# no url_prefix: /players.json sits beside /players
bp = Blueprint("players", __name__)


def _index():
    db = get_db()
    page = page_number(request.args)
    with snapshot(db):  # the ratings and their mark as of one moment
        everyone, pages = stats.players_page(db, page, stats.PLAYERS_PER_PAGE)
        if page > pages:
            abort(404, description=_("There is no such page."))
        return {
            "leaderboard": stats.leaderboard(db),
            "players": everyone,
            "page": page,
            "pages": pages,
            "ratings_behind": catch_up.behind_since(db),
        }


@bp.get("/players")
def index():
    """Show everyone in one list, best rating first, each linking to their record."""
    return render_template("players/index.html", trend_games=ratings.TREND_GAMES, **_index())


@bp.get("/players.json")
@language.english
def index_json():
    """A page of everyone as the page lists them, and the leaderboard (its first ten
    rated players), as JSON."""
    return jsonify(_index())


def _show(player_id):
    db = get_db()
    with snapshot(db):  # the ratings and their mark as of one moment
        return _read_player(db, player_id)


def _read_player(db, player_id):
    player, _revision = _player_or_404(db, player_id)
    record = stats.player_record(db, player_id)
    colour = colours.player_colours(db, [player_id])[player_id]
    return {
        "player": {"id": player.id, "name": player.name, "colour": colour.key},
        "stats": record.stats,
        "rating": ratings.current(db, [player_id])[player_id],
        "rating_history": ratings.history(db, player_id, limit=RATING_GAMES),
        "streaks": dict(zip(("current", "longest"), ratings.streaks(db, player_id))),
        "best_partner": record.best_partner,
        "partnerships": stats.partnerships(db, player_id),
        "head_to_head": record.head_to_head,
        "timeline": stats.timeline(db, player_id),
        "recent": stats.recent_games(db, player_id),
        "evenings": evening_tables.player_evenings(db, player_id),
        "ratings_behind": catch_up.behind_since(db),
    }


RATING_GAMES = 50  # the rating chart: their latest fifty games


@bp.get("/players/<id:player_id>")
def show(player_id):
    """Show one player's record: rating, stats, best partner, head to head, results, recent games."""
    return _show_page(player_id)


def _show_page(player_id, colour_form=None, status=200):
    data = _show(player_id)
    name, timeline = data["player"]["name"], data["timeline"]
    colour = colours.colour(data["player"]["colour"])
    colour_form = colour_form or ColourForm(formdata=None, colour=colour.key)
    return render_template(
        "players/show.html",
        player=data["player"],
        colour=colour,
        colour_form=colour_form,
        palette=colours.PALETTE,
        stats=data["stats"],
        rating=data["rating"],
        partner=data["best_partner"],
        streaks=data["streaks"],
        partnerships=data["partnerships"],
        share_rule=_(ratings.SHARE_RULE),
        rivals=data["head_to_head"],
        timeline=timeline,
        chart=results_chart(name, timeline, colour) if timeline else None,
        rating_history=data["rating_history"],
        rating_chart=rating_chart(name, data["rating_history"], colour) if data["rating_history"] else None,
        recent=data["recent"],
        evenings=data["evenings"],
        ratings_behind=data["ratings_behind"],
        latest_year=years.latest_year_of(get_db(), player_id),
    ), status


@bp.post("/players/<id:player_id>/colour")
def colour(player_id):
    """Change a player's colour: every chart, picture and table that draws them follows."""
    db = get_db()
    player, _revision = _player_or_404(db, player_id)
    form = ColourForm()
    if not form.validate_on_submit():
        return _show_page(player_id, form, 422)
    try:
        chosen = colours.set_colour(db, player_id, form.colour.data)
    except NotFound as gone:
        flash(str(gone), "error")
        return redirect(url_for("players.index"), 303)
    flash(_("%(name)s’s colour: %(colour)s.", name=player.name, colour=chosen.label), "success")
    return redirect(url_for("players.show", player_id=player_id, _anchor="colour"), 303)


@bp.get("/years/<int:year>/players/<id:player_id>/picture.png")
def year_picture(year, player_id):
    """A player's year as a picture for the family chat: games, wins, rating, best partner."""
    db = get_db()
    year_of = found(
        years.player_year(db, year, player_id), _("No game of this player in %(year)s.", year=year)
    )
    return picture_answer(pictures.year_picture(year_of, colours.player_colours(db, [player_id])[player_id]))


@bp.get("/players/<id:player_id>.json")
@language.english
def show_json(player_id):
    """One player's record as JSON: the numbers their page shows."""
    data = _show(player_id)
    s, r = data["stats"], data["rating"]
    return jsonify(
        {
            **data,
            "stats": {**vars(s), "losses": s.losses},
            "rating": {"rating": r.ordinal, "mu": r.mu, "sigma": r.sigma, "games": r.games},
        }
    )


@bp.route("/players/<id:player_id>/rename", methods=["GET", "POST"])
def rename(player_id):
    """Rename a player; their games and history follow."""
    db = get_db()
    player, revision = _player_or_404(db, player_id)
    form = posted_or_filled(RenameForm, name=player.name, revision=revision)
    if form.validate_on_submit():
        try:
            renamed = players.rename_player(db, player_id, form.revision.data, form.name.data)
        except ValueError as refused:
            form.name.errors.append(str(refused))
        except (Conflict, NotFound) as conflict:
            flash(str(conflict), "error")
            return redirect(url_for("players.show", player_id=player_id), 303)
        else:
            if renamed.name != player.name:
                flash(_("%(old)s is now %(new)s.", old=player.name, new=renamed.name), "success")
            return redirect(url_for("players.show", player_id=player_id), 303)
    status = 422 if form.errors else 200
    return render_template("players/rename.html", player=player, form=form), status


def _player_or_404(db, player_id):
    """(Player, revision)."""
    return found(players.player(db, player_id), _("There is no such player."))


def _month(stamp):
    """ "2024-03-05T…" -> "Mar ’24": short enough for eight labels across a phone."""
    return formatting.short_month(stamp)


def results_chart(name, timeline, colour=None):
    """The player's team's final totals beside the winning totals, oldest game first."""
    wins = sum(game["won"] for game in timeline)
    totals = [game["total"] for game in timeline]
    first, last = formatting.day(timeline[0]["played_at"]), formatting.day(timeline[-1]["played_at"])
    values = {
        "name": name,
        "first": first,
        "last": last,
        "count": len(timeline),
        "won": wins,
        "lost": len(timeline) - wins,
        "highest": formatting.number(max(totals)),
        "lowest": formatting.number(min(totals)),
    }
    description = ngettext(
        "%(name)s’s team’s final total in their one finished game (played %(first)s) beside the "
        "game’s winning total. Won %(won)s, lost %(lost)s. Highest total %(highest)s, lowest %(lowest)s.",
        "%(name)s’s team’s final total in each of their last %(count)s finished games, played "
        "%(first)s to %(last)s, beside the game’s winning total. Won %(won)s, lost %(lost)s. "
        "Highest total %(highest)s, lowest %(lowest)s.",
        len(timeline),
        **values,
    )
    return charts.line_chart(
        _("%(name)s’s results, game by game", name=name),
        description,
        [_month(g["played_at"]) for g in timeline],
        [
            (_("%(name)s’s team", name=name), totals, colour),
            (_("Winning total"), [game["best"] for game in timeline]),
        ],
    )


def rating_chart(name, history, colour=None):
    """The player's fair rating after each of their latest games, oldest first."""
    values = [round(h["ordinal"], 1) for h in history]
    first, last = formatting.day(history[0]["played_at"]), formatting.day(history[-1]["played_at"])
    said = {
        "name": name,
        "count": len(history),
        "first": first,
        "last": last,
        "now": formatting.rating(values[-1]),
        "highest": formatting.rating(max(values)),
        "lowest": formatting.rating(min(values)),
    }
    description = ngettext(
        "%(name)s’s rating after their one rated game, played %(first)s to %(last)s: "
        "now %(now)s, highest %(highest)s, lowest %(lowest)s.",
        "%(name)s’s rating after each of their last %(count)s games, played %(first)s to %(last)s: "
        "now %(now)s, highest %(highest)s, lowest %(lowest)s.",
        len(history),
        **said,
    )
    return charts.line_chart(
        _("%(name)s’s rating, game by game", name=name),
        description,
        [_month(h["played_at"]) for h in history],
        [(_("Rating"), values, colour)],
    )
