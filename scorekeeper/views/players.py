"""The family's players: the leaderboard, everyone, one player's record, renaming."""

import datetime

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import InputRequired, Length

from .. import charts, formatting, games, stats
from ..db import get_db

bp = Blueprint("players", __name__, url_prefix="/players")


class RenameForm(FlaskForm):
    name = StringField("New name", validators=[InputRequired("Type a name."), Length(max=40)])


@bp.get("")
def index():
    """Show the leaderboard and a page of everyone, each linking to their record."""
    db = get_db()
    page = request.args.get("page", 1, type=int)
    if page < 1:
        abort(404, description="There is no such page.")
    players, pages = stats.players_page(db, page, stats.PLAYERS_PER_PAGE)
    if page > pages:
        abort(404, description="There is no such page.")
    return render_template("players/index.html", leaderboard=stats.leaderboard(db),
                           players=players, page=page, pages=pages)


@bp.get("/<int:player_id>")
def show(player_id):
    """Show one player's record: stats, best partner, head to head, results, recent games."""
    db = get_db()
    player = _player_or_404(db, player_id)
    record = stats.player_record(db, player_id)
    timeline = stats.timeline(db, player_id)
    return render_template(
        "players/show.html", player=player, stats=record.stats, partner=record.best_partner,
        min_together=stats.MIN_GAMES_TOGETHER, rivals=record.head_to_head, timeline=timeline,
        chart=results_chart(player["name"], timeline) if timeline else None,
        recent=stats.recent_games(db, player_id))


@bp.route("/<int:player_id>/rename", methods=["GET", "POST"])
def rename(player_id):
    """Rename a player; their games and history follow."""
    db = get_db()
    player = _player_or_404(db, player_id)
    form = RenameForm(name=player["name"])
    if form.validate_on_submit():
        try:
            games.rename_player(db, player_id, form.name.data)
        except ValueError as taken:
            form.name.errors.append(str(taken))
        else:
            flash(f"{player['name']} is now {games.clean_name(form.name.data)}.", "success")
            return redirect(url_for("players.show", player_id=player_id))
    status = 422 if form.errors else 200
    return render_template("players/rename.html", player=player, form=form), status


def _player_or_404(db, player_id):
    player = stats.player(db, player_id)
    if player is None:
        abort(404, description="There is no such player.")
    return player


def _month(stamp):
    """"2024-03-05T…" -> "Mar ’24": short enough for eight labels across a phone."""
    return datetime.date.fromisoformat(stamp[:10]).strftime("%b \u2019%y")


def results_chart(name, timeline):
    """The player's team's final totals beside the winning totals, oldest game first."""
    wins = sum(game["won"] for game in timeline)
    totals = [game["total"] for game in timeline]
    first, last = timeline[0]["finished_at"][:10], timeline[-1]["finished_at"][:10]
    if len(timeline) == 1:
        span = f"their one finished game ({first})"
    else:
        span = f"each of their last {len(timeline)} finished games, {first} to {last},"
    description = (
        f"{name}’s team’s final total in {span} beside the game’s winning total. "
        f"Won {wins}, lost {len(timeline) - wins}. Highest total {formatting.number(max(totals))}, "
        f"lowest {formatting.number(min(totals))}.")
    return charts.line_chart(
        f"{name}’s results, game by game", description, [_month(g["finished_at"]) for g in timeline],
        [(f"{name}’s team", totals), ("Winning total", [game["best"] for game in timeline])])
