"""The package installs like any other: a wheel that serves pages and prints on its own,
and every dependency in pyproject.toml earns its place."""

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Run from the installed wheel only: the page, a round form and a score sheet.
WHEEL_CHECK = textwrap.dedent("""
    import pathlib, sys
    import scorekeeper
    from scorekeeper import create_app
    from scorekeeper.services.schema import migrate

    site = pathlib.Path(sys.argv[1]).resolve()
    assert pathlib.Path(scorekeeper.__file__).resolve().is_relative_to(site), scorekeeper.__file__
    database = pathlib.Path(sys.argv[2])
    migrate(database)
    app = create_app({"TESTING": True, "DATABASE": str(database), "WTF_CSRF_ENABLED": False})
    assert pathlib.Path(app.template_folder).is_relative_to(site), app.template_folder
    client = app.test_client()
    home = client.get("/")
    assert home.status_code == 200 and "Scorekeeper" in home.text, home.status_code
    assert client.get("/static/style.css").status_code == 200
    started = client.post("/games/new", data={
        "rules_key": "tablet", "rules_from": "tablet", "teams-0-players-0": "Ann",
        "teams-1-players-0": "Bo", **{f"rules-{k}": v for k, v in {
            "name": "Tablet", "going_out": "200", "meld_mode": "by_round",
            "meld_by_round": "50, 75", "end_mode": "rounds", "end_rounds": "5",
            "red_three": "100", "black_three": "5", "penalty": "0", "red_three_melded": "0",
            "cut_22": "0", "books_mode": "same", "book_clean-value": "500",
            "book_clean-to_go_out": "2", "book_dirty-value": "300", "book_dirty-to_go_out": "2",
            **{f"card_values-{r}": "10" for r in
               ("joker", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")}}.items()}})
    assert started.status_code == 303, started.text[:2000]
    game = started.headers["Location"]
    form = client.get(game + "/rounds/new")
    assert form.status_code == 200 and "Points melded" in form.text
    sheet = client.get(game + "/sheet.pdf")
    assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF"), sheet.status_code
    print("wheel ok")
""")


def _tracked(folder):
    return sorted(p.relative_to(ROOT / folder).as_posix() for p in (ROOT / folder).rglob("*") if p.is_file())


@pytest.mark.long
@pytest.mark.timeout(180)  # builds a wheel and installs it into a new virtual environment
def test_the_wheel_ships_templates_and_static_and_works_on_its_own(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "scorekeeper", "templates", "static"):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(
            ROOT / name,
            source / name,
            **({"ignore": shutil.ignore_patterns("__pycache__")} if (ROOT / name).is_dir() else {}),
        )
    # no build isolation: the build uses this environment's setuptools, never PyPI
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = (tmp_path / "dist").glob("scorekeeper-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("templates", "static"):
        missing = [f for f in _tracked(folder) if f"scorekeeper/{folder}/{f}" not in names]
        assert not missing, f"{folder}/ files left out of the wheel (pyproject.toml packages): {missing}"
    # the reader's digit model (issue 55), package data beside its module
    assert "scorekeeper/reading/digits.npz" in names, "the digit model's weights left out of the wheel"

    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
        check=True,
    )
    env = {**os.environ, "PYTHONPATH": str(site), "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance")}
    env.pop("SCOREKEEPER_DATABASE", None)
    run = subprocess.run(
        [sys.executable, "-c", WHEEL_CHECK, str(site), str(tmp_path / "wheel.db")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0 and "wheel ok" in run.stdout, run.stdout + run.stderr
    # the wheel's own command line works too
    init = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "init-db"],
        cwd=tmp_path,
        env={**env, "SCOREKEEPER_DATABASE": str(tmp_path / "cli.db")},
        capture_output=True,
        text=True,
    )
    assert init.returncode == 0 and "applied" in init.stdout, init.stdout + init.stderr


# Used without an import statement: where, and the text there that uses it.
NOT_IMPORTED = {
    "setuptools": ("tests/integration/test_package.py", "--no-build-isolation"),
    "ruff": ("Makefile", "-m ruff check"),
    "coverage": ("pyproject.toml", "[tool.coverage.run]"),
    "pytest-timeout": ("pyproject.toml", "timeout = 60"),
    "pytest-xdist": ("Makefile", "-m pytest -n auto"),
    "pytest-cov": ("Makefile", "--cov"),
    "pytest-randomly": ("Makefile", "--randomly-seed"),  # a plugin: loaded, never imported
}


def _imports(folders):
    found = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(
                re.findall(
                    r"^\s*(?:from|import)\s+([A-Za-z_][A-Za-z0-9_]*)",
                    path.read_text(encoding="utf-8"),
                    re.MULTILINE,
                )
            )
    return found


def test_every_dependency_is_imported_by_the_code():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    modules = {}  # distribution name -> its top-level modules
    for module, distributions in importlib.metadata.packages_distributions().items():
        for distribution in distributions:
            modules.setdefault(distribution.lower().replace("_", "-"), set()).add(module)

    def name(requirement):
        return re.match(r"[A-Za-z0-9_.-]+", requirement)[0].lower().replace("_", "-")

    groups = [
        (project["dependencies"], ("scorekeeper",)),
        (project["optional-dependencies"]["test"], ("tests", "bench")),
    ]
    for requirements, folders in groups:
        imported = _imports(folders)
        for requirement in map(name, requirements):
            if requirement in NOT_IMPORTED:
                path, proof = NOT_IMPORTED[requirement]
                assert proof in (ROOT / path).read_text(encoding="utf-8")
                continue
            assert modules.get(requirement, set()) & imported, (
                f"{requirement} is in pyproject.toml but nothing in {', '.join(folders)} imports it"
            )
