"""Victory points: a tournament turn's result from the points difference, as FIBUR scores it.

In a Burraco tournament the pairs of a turn play a set number of hands (smazzate), and the
difference of their points (the match points) becomes victory points, 0 to 20 a pair and 20
between the two, so that turns played at different tables compare. The Federazione Italiana
Burraco's tables (Codice di Gara, art. 17) for turns of 3 and of 4 hands are below, as
puntiburraco.it gives them ("Partite e Punti Vittoria nei Tornei di Burraco",
https://www.puntiburraco.it/partite_e_punti_vittoria_burraco_nei_tornei.html; docs/house-rules.md).

A rule set asks for them with ``victory_points: "fibur"`` and a set number of hands
(``end: {"rounds": 3}`` or 4); ``standings`` then gives each of the two teams its points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

FIBUR = "fibur"
#: a turn's points, shared: the winner's and the loser's add up to it
TURN = 20
#: hands in the turn -> its bands: (the largest points difference of the band, the winner's
#: victory points); past the last band the winner takes all ``TURN``. A band's lower end is
#: the one before it plus 5 (0–50, 55–150…: totals are counted in 5s); a difference between
#: (a paper score not in 5s) is in the band above it.
FIBUR_TABLES: Mapping[int, tuple[tuple[int, int], ...]] = {
    3: (
        (50, 10),
        (150, 11),
        (250, 12),
        (350, 13),
        (500, 14),
        (650, 15),
        (800, 16),
        (1000, 17),
        (1250, 18),
        (1500, 19),
    ),
    4: (
        (100, 10),
        (300, 11),
        (500, 12),
        (700, 13),
        (900, 14),
        (1100, 15),
        (1300, 16),
        (1500, 17),
        (1700, 18),
        (2000, 19),
    ),
}


def check(value: Any, end: Mapping[str, int] | None) -> str | None:
    """The rule ``victory_points`` read: None (no victory points) or "fibur", which needs a
    turn of 3 or 4 hands (``end``: ``{"rounds": 3}`` or 4)."""
    if value is None:
        return None
    if value != FIBUR:
        raise ValueError(f'victory_points: must be null or "{FIBUR}", not {value!r}')
    hands = end.get("rounds") if end else None
    if hands not in FIBUR_TABLES:
        raise ValueError(
            "victory_points: FIBUR's tables are for a turn of 3 or 4 hands "
            '(end: {"rounds": 3} or {"rounds": 4})'
        )
    return value


def winners_points(difference: int, hands: int) -> int:
    """The victory points of the team ahead by ``difference`` in a turn of ``hands``."""
    for most, points in FIBUR_TABLES[hands]:
        if difference <= most:
            return points
    return TURN


def victory_points(scheme: str | None, hands: int | None, totals: Sequence[int]) -> list[int] | None:
    """Each team's victory points from its total, in team order; None where the rules ask
    none, or for a game of more than two teams (a turn is played by two pairs). A tie gives
    each half of the turn (10 and 10): a draw."""
    if scheme != FIBUR or hands not in FIBUR_TABLES or len(totals) != 2:
        return None
    first, second = totals
    ahead = winners_points(abs(first - second), hands)
    return [ahead, TURN - ahead] if first >= second else [TURN - ahead, ahead]
