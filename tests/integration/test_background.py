"""The one count of the requests the app is answering (background.py): what the sheets
printed in the background and the ratings' catch-up give way to."""

from scorekeeper import background
from scorekeeper.services import catch_up


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


def test_a_worker_runs_its_jobs_in_turn_once_each_past_a_failure_and_ends_when_idle(caplog):
    import threading

    worker = background.Worker("test-worker", idle=0.05)
    gate, done = threading.Event(), []

    def blocked():
        gate.wait(10)
        done.append("blocked")

    def fails():
        raise RuntimeError("a sheet that cannot be laid out")

    def step():
        done.append("step")

    worker.submit(blocked)
    worker.submit(step, once=True)
    worker.submit(step, once=True)  # the same job waits already: not queued twice
    worker.submit(fails)
    worker.submit(lambda: done.append("after"))
    assert not worker.wait(0.05)  # the first job is held: the rest wait their turn
    gate.set()
    assert worker.wait(10)
    assert done == ["blocked", "step", "after"]
    assert "test-worker: a job failed" in caplog.text
    # idle: its thread ended; the next job starts one again
    thread = worker._thread
    if thread is not None:
        thread.join(10)
    assert worker._thread is None
    worker.submit(step)
    assert worker.wait(10) and done[-1] == "step"


def test_a_job_that_asks_to_run_again_later_does_so_sooner_when_woken_or_submitted_and_stop_ends_it():
    """How the backups wait for their hour: the job returns the seconds until it looks again."""
    import threading

    worker = background.Worker("test-again", idle=60)
    runs = []
    ran = threading.Semaphore(0)

    def look():
        runs.append(len(runs))
        ran.release()
        return 0.01 if len(runs) < 3 else 3600  # soon twice, then an hour away

    worker.submit(look, once=True)
    for _ in range(3):  # the first run, then twice again by itself
        assert ran.acquire(timeout=10)
    assert worker.wait(10)  # a job waiting for its hour is not unfinished work
    assert not ran.acquire(timeout=0.05) and len(runs) == 3
    worker.wake()  # a test moved its clock: the job looks now
    assert ran.acquire(timeout=10) and worker.wait(10)
    worker.submit(look, once=True)  # a change: the job looks now, not in an hour
    assert ran.acquire(timeout=10) and worker.wait(10)
    assert len(runs) == 5
    thread = worker._thread
    assert thread is not None and thread.is_alive()  # it waits for the hour, not idle
    assert worker.stop(10) and not thread.is_alive() and worker._thread is None
    worker.wake()  # nothing waits to run later any more
    assert not ran.acquire(timeout=0.05)


def test_stop_ends_a_worker_whose_running_job_asks_to_run_again_and_a_bool_is_no_seconds():
    """A review found stop() undone by the job running as it came (it asked to run again
    later, and did), and True or False taken for seconds."""
    import threading

    worker = background.Worker("test-stop", idle=60)
    inside, release, runs = threading.Event(), threading.Event(), []

    def look():
        runs.append(1)
        inside.set()
        release.wait(10)
        return 0.01  # soon again

    worker.submit(look, once=True)
    assert inside.wait(10)
    thread = worker._thread
    stopping = threading.Thread(target=lambda: runs.append(worker.stop(10)))
    stopping.start()
    release.set()
    stopping.join(15)
    assert runs == [1, True] and not thread.is_alive() and worker._later == {}

    answers = iter([False, True, None])
    done = threading.Event()

    def flag():
        answer = next(answers)
        done.set()
        return answer

    worker.submit(flag)
    assert done.wait(10) and worker.wait(10)
    assert worker._later == {}  # False is not "again at once", True not "in a second"


def test_wake_while_the_job_runs_runs_it_again_at_once():
    """The backups' test clock moved while a look was under way: the look runs again."""
    import threading

    worker = background.Worker("test-wake", idle=60)
    inside, release = threading.Event(), threading.Event()
    runs = []

    def look():
        runs.append(1)
        if len(runs) == 1:
            inside.set()
            release.wait(10)
        return 3600

    worker.submit(look, once=True)
    assert inside.wait(10)
    worker.wake()
    release.set()
    assert worker.wait(10) and len(runs) == 2
    assert worker.stop(10)


def test_a_job_submitted_for_later_as_the_worker_goes_idle_is_not_lost():
    """Its idle end and a submit(after=…) met: the job waited with no thread to run it."""
    import threading

    worker = background.Worker("test-idle", idle=0.001)
    for _ in range(200):
        ran = threading.Event()
        worker.submit(ran.set, after=0)
        assert ran.wait(5), "a job submitted for later was lost"
    worker.stop(10)
