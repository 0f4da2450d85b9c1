"""make bench: how long printing a score sheet takes, as ratios to a floor.

The floor is measured in the same run and process: the median time WeasyPrint
takes to render a one-line page with the same font configuration. Figures are
medians over several renders after a warm-up, so one slow render (a busy
machine) does not move them much.
"""

import os
import resource
import sys
import tempfile

import common  # bench/common.py: the scripts run as `python bench/NAME.py`

RUNS = int(os.environ.get("BENCH_RUNS", "9"))


def median_ms(action, runs=RUNS):
    return common.median_ms(action, runs)


def main():
    folder = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = folder
    from weasyprint import HTML

    from scorekeeper import create_app, sheets
    from scorekeeper.db import connect, migrate
    from scorekeeper.scoring import RULESETS, TeamRound
    from scorekeeper.services import games

    path = os.path.join(folder, "bench.db")
    migrate(path)
    app = create_app({"DATABASE": path})
    db = connect(path)
    teams = [("", ["Ann", "Bo"]), ("", ["Cy", "Di"]), ("", ["Eve", "Flo"]), ("", ["Gus", "Hal"])]
    game = games.create_game(db, RULESETS["tablet"], "tablet", teams)
    for number in range(1, 6):
        entries = [
            TeamRound(
                books={"clean": 2, "dirty": 1},
                melded_points=600,
                unplayed_points=35,
                red_threes=1,
                black_threes=2,
                went_out=i == number % 4,
            )
            for i in range(4)
        ]
        game = games.add_round(db, game.id, game.revision, number, entries)
    client = app.test_client()
    url = f"/games/{game.id}/sheet.pdf"
    css = os.path.join(app.static_folder, "sheet.css")

    with app.test_request_context():
        fonts, _ = sheets._fonts_and_style(css)
    floor = median_ms(lambda: HTML(string="<p>Hand and Foot</p>").write_pdf(font_config=fonts))

    def fresh():
        sheets._cache.clear()
        assert client.get(url).status_code == 200

    sheet = median_ms(fresh)
    cached = median_ms(lambda: client.get(url), runs=RUNS * 3)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"python {sys.version.split()[0]}, {RUNS} runs each (median), same process")
    print(f"floor: WeasyPrint one-line page      {floor:8.1f} ms")
    print(f"5-round, 4-team game sheet (fresh)    {sheet:8.1f} ms   {sheet / floor:6.1f}x the floor")
    print(
        f"the same sheet again (cached)         {cached:8.1f} ms   {cached / floor:6.2f}x the floor, "
        f"{cached / sheet:.3f}x a fresh render"
    )
    print(f"peak memory of this process          {peak_mb:8.1f} MB")
    db.close()


if __name__ == "__main__":
    main()
