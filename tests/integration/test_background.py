"""The one count of the requests the app is answering (background.py): what the sheets
printed in the background and the ratings' catch-up give way to."""

from scorekeeper import background, catch_up


def test_the_app_counts_its_requests_once_for_every_worker(app):
    requests = background.answering(app)
    assert catch_up.for_app(app).requests is requests  # the catch-up gives way to this count
    with app.test_request_context("/rules"):
        app.preprocess_request()  # a request being answered
        assert requests.now()[0] == 1
        assert not requests.wait_for_none(0.01)
        app.do_teardown_request()  # answered
    count, since = requests.now()
    assert count == 0 and since >= 0
    assert requests.wait_for_none(0)


def test_a_request_answered_by_an_earlier_hook_is_not_counted_off_twice(app, client):
    """A request refused before the count's own hook (an unknown Host) leaves it at 0."""
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/rules").status_code == 200
    assert background.answering(app).now()[0] == 0
