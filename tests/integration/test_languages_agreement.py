"""Words that agree, as a native reading of the pages asks (issue 56): kinds of book counted
in the plural ("4 canastras limpas"), a pair's verb and "Vencedores" in the plural, 0 counted
in the plural in Portuguese, the printed sheet's rules line saying only what the game has, a
sentence per form where Portuguese contracts ("nesta rodada"), and a tie at the target told."""

import copy
import datetime
import gettext
import html
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.support import Translations

from scorekeeper.exchange import importer, jsonfile
from scorekeeper.scoring import RULESETS, RuleSet, TeamRound, check_round
from scorekeeper.scoring import language as engine_language
from scorekeeper.scoring.words import Words, counted
from scorekeeper.services import evenings, game_model, games, rulesets
from scorekeeper.services.schema import migrate
from scorekeeper.storage.db import connect, transaction

from ..helpers import at_home
from ..httpkit import make_app
from .test_sheets import read

FOLDER = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
PAIRS = [("", ["Ann", "Bo"]), ("", ["Cy", "Di"])]
TWO = [("", ["Ann"]), ("", ["Cy"])]
WON = [TeamRound(books={"clean": 4, "dirty": 5}, melded_points=2500, went_out=True), TeamRound()]
SMALL = [TeamRound(books={"clean": 1}, melded_points=300, went_out=True), TeamRound()]
TIED = [TeamRound(books={"clean": 4, "dirty": 5}, melded_points=2500)] * 2
ONE_DECK = {"decks": 1, "jokers": 2, "hand": 11, "foot": 11}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """One household's games, made once for the module (its pages are only read): for Buraco,
    Burraco and Canasta a game of two pairs won, a game of two players still
    going, and a Buraco game tied at its target. Returns the phone and the games' ids."""
    folder = tmp_path_factory.mktemp("agreement")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCOREKEEPER_INSTANCE_PATH", str(folder / "instance"))
        patch.delenv("SCOREKEEPER_DATABASE", raising=False)
        app = make_app(folder / "scores.db")
        db = connect(app.config["DATABASE"])
        ids = {}

        def make(name, key, teams, rounds, end=False):
            when = evenings.stored(datetime.date(2026, 4, 2), datetime.time(19, 30))
            with transaction(db):
                rules = RULESETS[key] if key in RULESETS else rulesets.get_rule_set(db, key).rules
                game_id = games.insert_game(db, rules, key, teams, created_at=when)
            game = game_model.load_game(db, game_id)
            for number, entries in enumerate(rounds, start=1):
                game = games.add_round(db, game.id, game.revision, number, entries)
            if end and not game.standings.finished:
                game = games.end_game(db, game.id, game.revision)
            ids[name] = game.id

        # a household's Buraco dealt from one deck (first: the household's latest game stays Buraco)
        one_deck = RuleSet.from_dict(
            {**RULESETS["buraco"].to_dict(), "name": "Buraco de um baralho", "deal": ONE_DECK}
        )
        with transaction(db):
            key = rulesets.insert_house_rules(db, one_deck)
        make("one deck", key, PAIRS, [])
        for key in ("canasta", "burraco", "buraco"):
            # Canasta's game is ended by hand after two rounds (its chart describes a winner)
            make(f"{key} pairs", key, PAIRS, [SMALL, SMALL] if key == "canasta" else [WON], end=True)
            make(f"{key} two", key, TWO, [])
        make("buraco tied", "buraco", PAIRS, [TIED])
        db.close()
        yield at_home(app.test_client(), app), ids


def page(phone, url, language):
    response = phone.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, url
    text = re.sub(r"<[^>]+>", " ", html.unescape(response.get_data(as_text=True)))
    return " ".join(text.split())


def sheet(phone, game_id, language):
    response = phone.get(f"/games/{game_id}/sheet.pdf", headers={"Accept-Language": language})
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    return " ".join(read(response.data)[1].split())


@pytest.mark.parametrize(
    ("language", "words", "counts", "said"),
    [
        ("pt_BR", None, {"clean": 4, "dirty": 5}, "4 canastras limpas + 5 sujas"),
        ("pt_BR", None, {"clean": 1, "dirty": 1}, "1 canastra limpa + 1 suja"),
        ("es", None, {"clean": 4, "dirty": 1}, "4 canastas limpias + 1 sucia"),
        ("it", None, {"clean": 2}, "2 canaste pulite"),
        ("it", RULESETS["burraco"].words, {"clean": 1, "dirty": 2}, "1 burraco pulito + 2 sporchi"),
        ("pt_BR", RULESETS["burraco"].words, {"clean": 2}, "2 burracos limpos"),
        ("en", None, {"clean": 4, "dirty": 5}, "4 clean + 5 dirty books"),
    ],
)
def test_kinds_of_book_agree_with_their_counts(language, words, counts, said):
    assert counted(counts, Words.of(words, language)) == said


@pytest.mark.long  # six printed sheets laid out by WeasyPrint, half a second each
def test_buraco_and_burraco_sheets_print_no_3s_row_and_no_missing_meld_minimum(played):
    phone, ids = played
    threes = re.compile(
        r"\b(red|black) 3\b|\b3 (vermelhos?|pretos?|rojos?|negros?|rossi|rosso|neri|nero)\b", re.I
    )
    nothing = re.compile(
        r"Meld minimum: none|para baixar: nenhum|para bajar: ninguno|apertura: nessuno", re.I
    )
    for key in ("buraco", "burraco"):
        for language in ("en", "pt-BR", "es", "it"):
            text = sheet(phone, ids[f"{key} pairs"], language)
            assert not threes.search(text), (key, language, threes.search(text))
            assert not nothing.search(text), (key, language, text)
    # Canasta's 3s are rows of their own, and they are printed
    assert re.search(r"3 vermelhos [−+]?\d", sheet(phone, ids["canasta pairs"], "pt-BR"))


def test_the_printed_requirement_says_its_noun_once(played):
    phone, ids = played
    text = sheet(phone, ids["buraco pairs"], "pt-BR")
    assert "Para bater: 1 canastra limpa." in text and "canastra: 1" not in text
    assert text.startswith("Buraco · folha de pontos")
    assert "Um empate na liderança então se desempata: mais uma rodada" in text  # Buraco plays a tie off
    assert "Vencedores: Ann & Bo com 3.900." in text


def test_a_pair_wins_and_goes_out_in_the_plural(played):
    phone, ids = played
    expected = {"pt-BR": "Vencedores: Ann & Bo.", "es": "Ganadores: Ann & Bo.", "it": "Vincitori: Ann & Bo."}
    for language, winners in expected.items():
        assert winners in page(phone, f"/games/{ids['canasta pairs']}", language), language
    went_out = {
        "pt-BR": ("Ann & Bo bateram", "Ann bateu"),
        "es": ("Ann & Bo cerraron", "Ann cerró"),
        "it": ("Ann & Bo hanno chiuso", "Ann ha chiuso"),
    }
    for language, (pair, one) in went_out.items():
        assert pair in page(phone, f"/games/{ids['buraco tied']}/rounds/new", language), language
        assert one in page(phone, f"/games/{ids['buraco two']}/rounds/new", language), language


def test_the_round_page_says_nesta_rodada(played):
    phone, ids = played
    text = page(phone, f"/games/{ids['buraco two']}/rounds/new", "pt-BR")
    assert "digitado nesta rodada neste celular" in text and "em esta" not in text


def test_a_tie_at_the_target_is_told_another_round_is_played(played):
    phone, ids = played
    told = {
        "en": "A tie for the lead: these rules play another round",
        "pt-BR": "Empate na liderança: estas regras mandam jogar mais uma rodada",
        "es": "Empate en cabeza: estas reglas juegan otra mano",
        "it": "Pareggio in testa: queste regole fanno giocare un'altra smazzata",
    }
    for language, sentence in told.items():
        text = page(phone, f"/games/{ids['buraco tied']}", language)
        assert sentence in text and "ends the game" not in text, language
    assert told["en"] not in page(phone, f"/games/{ids['buraco two']}", "en")


def test_a_books_value_and_the_heading_say_the_games_words(played):
    phone, _ids = played
    assert "+200 por canastra" in page(phone, "/rules/buraco", "pt-BR")
    assert "+200 per burraco" in page(phone, "/rules/burraco", "it")
    assert "+300 por canasta" in page(phone, "/rules/canasta", "es")
    home = page(phone, "/", "pt-BR")  # the household's latest game is Buraco
    assert home.count("Buraco") and "Mão e Pé" not in home


def catalog(language):
    with open(FOLDER / language / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file)


@pytest.mark.parametrize("language", ["pt_BR", "es", "it"])
def test_zero_is_counted_in_the_plural(language):
    """0 vitórias, 0 vittorie, 0 victorias: the catalog's rule puts 0 with 2, not with 1."""
    form = gettext.c2py(catalog(language).plural_expr)
    assert form(0) == form(2) != form(1)


# a noun that is the same in the singular and the plural
INVARIANT = {"it": {"%(num)s record", "%(num)s set of house rules"}}


@pytest.mark.parametrize("language", ["pt_BR", "es", "it"])
def test_every_count_is_said_in_its_plural_forms(language):
    """A message counted with ngettext says one and many apart in each language: the slip
    was "cada uma das 1 rodadas", "1 partite su 1", "0 vitória"."""
    same = [
        m.id[0]
        for m in catalog(language)
        if m.pluralizable and m.string[0] == m.string[-1] and m.id[0] not in INVARIANT.get(language, ())
    ]
    assert not same, same


# a team's name followed by its verb in English: "%(team)s went out with …", "%(team)s has …"
TEAM_VERB = re.compile(r"^%\(team\)s (went|did|has|melded|came|won|wins|win|is)\b")


@pytest.mark.parametrize("language", ["pt_BR", "es", "it"])
def test_a_teams_name_is_never_the_subject_of_a_verb_that_cannot_agree(language):
    """A pair is plural ("Ann & Bo bateram"): a message with the team's name as its subject
    either counts the team's players (plural forms) or says "a equipe / el equipo / la squadra"
    before the name, so that the verb agrees whoever plays."""
    wrong = [
        (m.id, m.string)
        for m in catalog(language)
        if not m.pluralizable and TEAM_VERB.match(m.id) and m.string.startswith("%(team)s")
    ]
    assert not wrong, wrong


def test_rules_that_play_a_tie_off_do_not_say_a_tie_is_possible(played):
    phone, _ids = played
    buraco = page(phone, "/rules/buraco", "pt-BR")
    assert "chega a 3.000; o maior total vence." in buraco and "pode haver empate" not in buraco
    assert "mais uma rodada, até uma equipe ficar na frente" in buraco
    # a tournament turn's tie is a draw: it may end tied
    assert "pode haver empate" in page(phone, "/rules/burraco-torneo", "pt-BR")


@pytest.mark.long  # four printed sheets laid out by WeasyPrint, half a second each
def test_the_sheets_deal_counts_its_decks(played):
    """ "1 baralho", "2 baralhos": the deal's decks are counted in their plural forms."""
    phone, ids = played
    said = {
        "pt-BR": ("1 baralho para 4 jogadores", "2 baralhos para 4 jogadores"),
        "es": ("1 mazo para 4 jugadores", "2 mazos para 4 jugadores"),
        "it": ("1 mazzo per 4 giocatori", "2 mazzi per 4 giocatori"),
        "en": ("1 deck for 4 players", "2 decks for 4 players"),
    }
    for language, (one, two) in said.items():
        assert one in sheet(phone, ids["one deck"], language), language
        assert two in sheet(phone, ids["buraco pairs"], language), language


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("pt_BR", "1 registro para uma partida de 2 equipes", "2 registros para uma partida de 3 equipes"),
        ("es", "1 entrada para una partida de 2 equipos", "2 entradas para una partida de 3 equipos"),
        ("it", "1 voce per una partita di 2 squadre", "2 voci per una partita di 3 squadre"),
        ("en", "1 entry for a game of 2 teams", "2 entries for a game of 3 teams"),
    ],
)
def test_an_import_counts_a_rounds_entries(tmp_path, language, one, two):
    """A history file whose round has an entry too few is refused in the reader's language,
    the entries counted in their plural forms ("1 registro", "2 registros")."""
    for name in ("scores.db", "other.db"):
        migrate(tmp_path / name)
    db, other = connect(tmp_path / "scores.db"), connect(tmp_path / "other.db")
    for teams in (PAIRS, [*PAIRS, ("", ["Ed"])]):
        game = games.create_game(db, RULESETS["buraco"], "buraco", teams)
        games.add_round(db, game.id, game.revision, 1, [TeamRound()] * len(teams))
    export = jsonfile.export_history(db)
    catalog = Translations.load(str(FOLDER), [language])
    before = engine_language.use(lambda: catalog, lambda: language)
    try:
        for game, said in zip(export["games"], (one, two), strict=True):
            bad = copy.deepcopy(export)
            bad["games"] = [game]
            del game["rounds"][0]["entries"][0]
            with pytest.raises(ValueError) as refused:
                importer.import_history(other, bad)
            assert str(refused.value) == f"games[0].rounds[0].entries: {said}"
    finally:
        engine_language.use(*before)
        db.close()
        other.close()


def test_the_piles_each_take_their_in(played):
    """ "na mão e no pé", never "na mão e pé": each pile takes its own article where the
    language puts one, in the house-rules editor's hint and the rows of the 3s caught."""
    phone, _ids = played
    said = {
        "pt-BR": ("deixada na mão e no pé.", "3 vermelhos pegos na mão ou no pé"),
        "es": ("que quede en la mano y en el pie.", "3 rojos que quedaron en la mano o en el pie"),
        "it": ("rimasta in mano e nel piede.", "3 rossi rimasti in mano o nel piede"),
        "en": ("left in hand and foot.", "Red 3 caught in hand or foot"),
    }
    for language, (left, caught) in said.items():
        editor = page(phone, "/rules/new?from=friends-family", language)
        assert left in editor and caught in editor, language
        assert caught in page(phone, "/rules/friends-family", language), language
    slips = (
        "na mão e pé",
        "na mão ou pé",
        "pegos (mão",
        "en mano o pie",
        "en la mano y el pie",
        "in mano o piede",
    )
    editor = " ".join(page(phone, "/rules/new?from=friends-family", language) for language in said)
    assert not [slip for slip in slips if slip in editor]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("pt_BR", "Ann & Bo: 37 pontos baixados? Não pode ser — toda carta vale um múltiplo de 5."),
        ("es", "Ann & Bo: ¿37 puntos bajados? No puede ser — cada carta vale un múltiplo de 5."),
        ("it", "Ann & Bo: 37 punti calati? Non è possibile — ogni carta vale un multiplo di 5."),
    ],
)
def test_points_that_cannot_be_right_are_asked_about_without_a_verb_to_agree(language, said):
    """The slip was "37 pontos baixados não pode estar certo" (a plural subject, a singular
    verb): the count is asked about, so nothing agrees with it."""
    catalog = Translations.load(str(FOLDER), [language])
    before = engine_language.use(lambda: catalog, lambda: language)
    try:
        problems = check_round(
            RULESETS["buraco"],
            [TeamRound(melded_points=37), TeamRound()],
            1,
            team_names=["Ann & Bo", "Cy & Di"],
        )
    finally:
        engine_language.use(*before)
    assert [p.message for p in problems if p.message.startswith("Ann & Bo: ")] == [
        said
        + {
            "pt_BR": " Verifique se há erro de digitação.",
            "es": " Revisa si hay un error de tipeo.",
            "it": " Controlla se c’è un errore di battitura.",
        }[language]
    ]


CATALOGS = Path(__file__).parents[2] / "scorekeeper" / "translations"


@pytest.mark.long  # a printed sheet laid out by WeasyPrint in each language, half a second each
@pytest.mark.parametrize(
    ("language", "one", "three"),
    [
        ("pt_BR", "Termina: após 1 rodada.", "Termina: após 3 rodadas."),
        ("es", "Termina: tras 1 mano.", "Termina: tras 3 manos."),
        ("it", "Fine: dopo 1 smazzata.", "Fine: dopo 3 smazzate."),
    ],
)
def test_a_sheets_end_counts_its_rounds(played, language, one, three):
    """A tournament turn's printed sheet ends "após 3 rodadas", and a house game of one
    round would end "após 1 rodada" (its catalog's singular: no preset plays one round)."""
    phone, _ids = played
    response = phone.get("/rules/burraco-torneo/blank.pdf", headers={"Accept-Language": language})
    assert response.status_code == 200
    assert three in " ".join(read(response.data)[1].split())
    catalog = Translations.load(CATALOGS, [language])
    single = catalog.ngettext("Ends: after %(num)s round.", "Ends: after %(num)s rounds.", 1)
    assert single % {"num": 1} == one
