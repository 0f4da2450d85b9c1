"""`python bench/floor_app.py --host H --port P`: the app as `make run` serves it
(``scorekeeper.serve``), plus one post/redirect/get that saves nothing.

It does what every change on this stack does whatever it changes, and nothing
else: the POST checks the form's CSRF token, notes the change in the session,
flashes a message and answers 303; the GET shows the message in the app's
layout (``base.html``) with a button's form (a CSRF token). `make bench` sets
the save of a round beside it: what the save costs beyond the stack it runs on.
"""

from flask import flash, redirect, render_template, session, url_for

from scorekeeper import create_app, serve
from scorekeeper.forms.games import ActionForm

PAGE = """{% extends "base.html" %}{% block content %}
<h1>Nothing saved</h1>
<form method="post" action="{{ url_for('bench_floor') }}">{{ form.csrf_token }}{{ form.revision }}
<button type="submit" class="button">Again</button></form>
{% endblock %}"""


def app_with_floor():
    app = create_app()
    page = app.jinja_env.from_string(PAGE)  # compiled once, as the app's templates are

    @app.route("/bench/floor", methods=["GET", "POST"])
    def bench_floor():
        form = ActionForm(revision=1)
        if not form.validate_on_submit():
            return render_template(page, form=form)
        session["saved"] = {"game": 0, "round": 0, "number": 1, "added": True, "before": 1, "after": 2}
        flash("Round 1 saved.", "success")
        return redirect(url_for("bench_floor"), 303)

    return app


if __name__ == "__main__":
    serve.main(make_app=app_with_floor)
