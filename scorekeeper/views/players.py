from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import InputRequired, Length

from .. import games
from ..db import get_db

bp = Blueprint("players", __name__, url_prefix="/players")


class RenameForm(FlaskForm):
    name = StringField("New name", validators=[InputRequired("Type a name."), Length(max=40)])


@bp.get("")
def index():
    """List the family's players."""
    return render_template("players/index.html", players=games.list_players(get_db()))


@bp.route("/<int:player_id>/rename", methods=["GET", "POST"])
def rename(player_id):
    """Rename a player; their games and history follow."""
    db = get_db()
    player = next((p for p in games.list_players(db) if p["id"] == player_id), None)
    if player is None:
        abort(404, description="There is no such player.")
    form = RenameForm(name=player["name"])
    if form.validate_on_submit():
        try:
            games.rename_player(db, player_id, form.name.data)
        except ValueError as taken:
            form.name.errors.append(str(taken))
        else:
            flash(f"{player['name']} is now {games.clean_name(form.name.data)}.", "success")
            return redirect(url_for("players.index"))
    status = 422 if form.errors else 200
    return render_template("players/rename.html", player=player, form=form), status
