"""A whole game: every round scored, the running totals, what the next round asks, the verdict."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .entries import TeamRound
from .minimums import books_to_go_out, first_meld_books, meld_minimum
from .rounds import TeamRoundScore, score_round
from .rules import RuleSet
from .values import MAX_PLAYERS_PER_TEAM, MAX_TEAMS, MIN_TEAMS, TIE_PLAY_ON
from .victory import victory_points

__all__ = ["MAX_PLAYERS_PER_TEAM", "MAX_TEAMS", "MIN_TEAMS", "Standings", "Verdict", "standings", "verdict"]


@dataclass(frozen=True)
class Verdict:
    """A game's result, the one answer every page, stat, export and sheet shows.

    ``winners`` are the teams with the highest total once the game is
    finished: one, or several in a tie. A game that is not finished, or was
    ended before any round was played, has no result (no winners).
    """

    finished: bool
    winners: tuple[int, ...]

    @property
    def decided(self) -> bool:
        return bool(self.winners)

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1


def ranks(totals: Sequence[int]) -> list[int]:
    """Each team's place: 1 for the highest total; equal totals share a place."""
    return [1 + sum(other > total for other in totals) for total in totals]


def verdict(totals: Sequence[int], finished: bool, rounds_played: int) -> Verdict:
    """Who won: the highest total, once the game is finished and a round was played."""
    if not finished or not rounds_played or not totals:
        return Verdict(finished, ())
    best = max(totals)
    return Verdict(finished, tuple(i for i, total in enumerate(totals) if total == best))


def running_totals(round_totals: Sequence[Sequence[int]]) -> list[list[int]]:
    """Per round, per team: the total after it, from each round's scores (team order)."""
    running, totals = [], None
    for scores in round_totals:
        totals = list(scores) if totals is None else [t + s for t, s in zip(totals, scores)]
        running.append(totals)
    return running


def _reached(rules: RuleSet, number: int, totals: Sequence[int]) -> bool:
    """Whether round ``number`` brought the rules' end: a team at the target, or the set rounds played."""
    best = max(totals, default=0)
    return (rules.target_score is not None and best >= rules.target_score) or (
        rules.planned_rounds is not None and number >= rules.planned_rounds
    )


def _tied_on(rules: RuleSet, totals: Sequence[int]) -> bool:
    """Whether teams share the lead under rules that play a tie off with another round."""
    best = max(totals, default=0)
    return rules.tie == TIE_PLAY_ON and sum(total == best for total in totals) > 1


def _ends(rules: RuleSet, number: int, totals: Sequence[int]) -> bool:
    """Whether the game ends after round ``number`` with these totals: a team at the target
    or the set rounds played, and, where the rules play a tie off, one team alone ahead."""
    return _reached(rules, number, totals) and not _tied_on(rules, totals)


@dataclass(frozen=True)
class Standings:
    """Where a game stands after its rounds (lists are in team order)."""

    round_scores: list[list[TeamRoundScore]]  # per round, per team
    running_totals: list[list[int]]  # per round, per team: the total after it
    meld_minimums: list[list[int | None]]  # per round, per team: the minimum it had
    totals: list[int]
    next_round: int
    next_meld_minimums: list[int | None]
    next_books_to_go_out: dict[str, int] | None
    next_first_meld_books: dict[str, int] | None  # the books the next round's first meld must hold
    verdict: Verdict
    ended_after: int | None  # the round after which the rules ended the game, if they did
    # the rules' end is reached with the lead tied, and the rules play another round for it
    playing_off: bool = False
    # per team, the victory points its total gives, where the rules ask for them and a round
    # was played (a tournament turn's, ``scoring.victory``); else None
    victory_points: list[int] | None = None

    @property
    def finished(self) -> bool:
        return self.verdict.finished

    @property
    def winners(self) -> list[int]:
        return list(self.verdict.winners)


def standings(
    rules: RuleSet,
    rounds: Sequence[Sequence[TeamRound]],
    *,
    teams: int | None = None,
    ended: bool = False,
    known: Standings | None = None,
) -> Standings:
    """Score every round of a game and say where it stands.

    :param rounds: the rounds in order, each a list of ``TeamRound`` in team order.
    :param teams: the number of teams, needed only before the first round.
    :param ended: the table ended the game by hand (always allowed; the only
        way to end one whose rules leave the end to the table).
    :param known: what this function gave for the first of these rounds under
        the same rules (a game before its newest round was added): those
        rounds are not scored again.

    Every round given is scored, even one played after the rules' end: the
    table decides whether to play on, and the totals say who is ahead.
    """
    if teams is None:
        teams = len(rounds[0]) if rounds else 0
    for number, entries in enumerate(rounds, start=1):
        if len(entries) != teams:
            raise ValueError(f"round {number}: {len(entries)} teams, expected {teams}")
    totals = [0] * teams
    round_scores, running, minimums = [], [], []
    ended_after = None
    done = 0
    if known is not None and len(known.round_scores) <= len(rounds):
        done = len(known.round_scores)
        round_scores, running = list(known.round_scores), [list(r) for r in known.running_totals]
        minimums, ended_after = list(known.meld_minimums), known.ended_after
        totals = list(known.totals) if done else totals
    for number, entries in enumerate(rounds[done:], start=done + 1):
        minimums.append([meld_minimum(rules, number, total) for total in totals])
        scores = score_round(rules, entries, number)
        totals = [total + score.total for total, score in zip(totals, scores)]
        round_scores.append(scores)
        running.append(list(totals))
        if ended_after is None and _ends(rules, number, totals):
            ended_after = number
    next_round = len(rounds) + 1
    finished = ended or ended_after is not None
    return Standings(
        round_scores=round_scores,
        running_totals=running,
        meld_minimums=minimums,
        totals=totals,
        next_round=next_round,
        next_meld_minimums=[meld_minimum(rules, next_round, total) for total in totals],
        next_books_to_go_out=books_to_go_out(rules, next_round),
        next_first_meld_books=first_meld_books(rules, next_round),
        verdict=verdict(totals, finished, len(rounds)),
        ended_after=ended_after,
        playing_off=not finished
        and bool(rounds)
        and _reached(rules, len(rounds), totals)
        and _tied_on(rules, totals),
        victory_points=victory_points(rules.victory_points, rules.planned_rounds, totals) if rounds else None,
    )
