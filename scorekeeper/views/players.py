"""The family's players: the leaderboard, everyone, one player's record, renaming."""

import datetime

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from .. import charts, formatting
from ..db import get_db
from ..forms.players import RenameForm
from ..services import Conflict, NotFound, players, stats
from . import found, page_number, posted_or_filled

bp = Blueprint("players", __name__, url_prefix="/players")


@bp.get("")
def index():
    """Show the leaderboard and a page of everyone, each linking to their record."""
    db = get_db()
    page = page_number(request.args)
    everyone, pages = stats.players_page(db, page, stats.PLAYERS_PER_PAGE)
    if page > pages:
        abort(404, description="There is no such page.")
    return render_template(
        "players/index.html", leaderboard=stats.leaderboard(db), players=everyone, page=page, pages=pages
    )


@bp.get("/<id:player_id>")
def show(player_id):
    """Show one player's record: stats, best partner, head to head, results, recent games."""
    db = get_db()
    player, _ = _player_or_404(db, player_id)
    record = stats.player_record(db, player_id)
    timeline = stats.timeline(db, player_id)
    return render_template(
        "players/show.html",
        player=player,
        stats=record.stats,
        partner=record.best_partner,
        min_together=stats.MIN_GAMES_TOGETHER,
        rivals=record.head_to_head,
        timeline=timeline,
        chart=results_chart(player.name, timeline) if timeline else None,
        recent=stats.recent_games(db, player_id),
    )


@bp.route("/<id:player_id>/rename", methods=["GET", "POST"])
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
                flash(f"{player.name} is now {renamed.name}.", "success")
            return redirect(url_for("players.show", player_id=player_id), 303)
    status = 422 if form.errors else 200
    return render_template("players/rename.html", player=player, form=form), status


def _player_or_404(db, player_id):
    """(Player, revision)."""
    return found(players.player(db, player_id), "There is no such player.")


def _month(stamp):
    """ "2024-03-05T…" -> "Mar ’24": short enough for eight labels across a phone."""
    day = formatting.day(stamp)
    return datetime.date.fromisoformat(day).strftime("%b \u2019%y") if day else ""


def results_chart(name, timeline):
    """The player's team's final totals beside the winning totals, oldest game first."""
    wins = sum(game["won"] for game in timeline)
    totals = [game["total"] for game in timeline]
    first, last = formatting.day(timeline[0]["finished_at"]), formatting.day(timeline[-1]["finished_at"])
    if len(timeline) == 1:
        span = f"their one finished game ({first})"
    else:
        span = f"each of their last {len(timeline)} finished games, {first} to {last},"
    description = (
        f"{name}’s team’s final total in {span} beside the game’s winning total. "
        f"Won {wins}, lost {len(timeline) - wins}. Highest total {formatting.number(max(totals))}, "
        f"lowest {formatting.number(min(totals))}."
    )
    return charts.line_chart(
        f"{name}’s results, game by game",
        description,
        [_month(g["finished_at"]) for g in timeline],
        [(f"{name}’s team", totals), ("Winning total", [game["best"] for game in timeline])],
    )
