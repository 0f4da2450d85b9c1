"""Records and years: the family's best, each linked to its game; a year at the table, and its book."""

from flask import Blueprint, abort, current_app, jsonify, render_template, request

from ..printing import sheets, yearbook
from ..scoring.language import _
from ..services import catch_up, colours, records, years
from ..storage.db import get_db, snapshot
from ..web import charts, formatting, language

# no url_prefix: /records.json sits beside /records, /years/2026.json beside /years/2026
bp = Blueprint("records", __name__)
# last year's book drawn in the background once the year has ended
bp.record_once(lambda state: yearbook.init_app(state.app))


def _records():
    db = get_db()
    with snapshot(db):  # the streaks and the ratings' mark as of one moment
        return {
            **records.all_records(db),
            "years": years.years_played(db),
            "ratings_behind": catch_up.behind_since(db),
        }


@bp.get("/records")
def index():
    """Show every record: per rule set, streaks, the busiest evening; the years played."""
    return render_template("records/index.html", **_records())


@bp.get("/records.json")
@language.english
def index_json():
    """Every record as JSON: what the records page shows."""
    return jsonify(_records())


def _year(year):
    if not 1 <= year <= 9999:
        abort(404, description=_("There is no such year."))
    db = get_db()
    data = years.year_review(db, year)
    # each player's colour (services/colours.py), as the year's swatches draw it
    drawn = colours.player_colours(db, [p["id"] for p in data["most_wins"]])
    data["most_wins"] = [{**p, "colour": drawn[p["id"]].key} for p in data["most_wins"]]
    return data


@bp.get("/years/<int:year>")
def year(year):
    """Show a year at the table: games, nights, most wins, best partnership, records, games per month."""
    data = _year(year)
    # who else played each night, besides its most wins (a filter per night in the template
    # was a third of the page's time at a year of 360 nights)
    others = {n["night"]: [p for p in n["players"] if p not in set(n["winners"])] for n in data["nights"]}
    return render_template(
        "records/year.html",
        palette=colours.BY_KEY,
        chart=months_chart(data) if data["games"] else None,
        others_by_night=others,
        **data,
    )


@bp.get("/years/<int:year>.json")
@language.english
def year_json(year):
    """A year at the table as JSON: what its page shows."""
    return jsonify(_year(year))


def months_chart(data):
    """Games played each month of the year."""
    counts = [m["games"] for m in data["months"]]
    labels = [_(years.MONTHS[int(m["month"][5:7]) - 1]) for m in data["months"]]
    busiest = max(range(len(counts)), key=lambda m: counts[m])
    description = _(
        "Games played each month of %(year)s, %(first)s to %(last)s: "
        "%(games)s in all, the most in %(busiest)s (%(most)s).",
        year=data["year"],
        first=labels[0],
        last=labels[-1],
        games=formatting.number(data["games"]),
        busiest=labels[busiest],
        most=formatting.number(counts[busiest]),
    )
    return charts.line_chart(
        _("Games per month, %(year)s", year=data["year"]), description, labels, [(_("Games"), counts)]
    )


@bp.get("/years/<int:year>/book.pdf")
def book(year):
    """The year's book (issue 58): the PDF when it is drawn, else a page saying how far its
    drawing has got (drawn in the background: the page asks again every two seconds, with
    or without JavaScript, until the book is there)."""
    if not 1 <= year <= 9999:
        abort(404, description=_("There is no such year."))
    db = get_db()
    if year not in years.years_played(db):
        abort(404, description=_("No finished games in %(year)s.", year=year))
    paper = sheets.paper(request.args.get("paper"), current_app.config["PAPER"])
    wanted = yearbook.book_of(
        db, year, language.code(), paper, current_app.config.get("HOUSEHOLD_NAME") or ""
    )
    pdf = yearbook.ask(current_app._get_current_object(), wanted)
    if pdf is not None:
        return pdf, {
            "Content-Type": "application/pdf",
            "Content-Disposition": f'inline; filename="{year}.pdf"',
        }
    step, steps, _seconds = yearbook.progress(wanted) or (len(yearbook.STEPS), len(yearbook.STEPS), 0)
    page = render_template("yearbook/progress.html", year=year, step=step, steps=steps, paper=paper)
    # not a PDF yet: never cached, and said again at the next refresh
    return page, 202, {"Cache-Control": "no-store"}
