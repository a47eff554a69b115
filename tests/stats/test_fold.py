"""The statistics' figures (SPEC §10) from a sequence of finished games."""

from app.stats import Finished, recount, stats_json


def game(
    won: bool, score: int = 0, seconds: int = 100, moves: int = 50, **mode: object
) -> Finished:
    fields: dict[str, object] = {"preset": "skill", "level": "medium", "draw": 3, "casino": False}
    fields.update(mode)
    return Finished(won=won, score=score, seconds=seconds, moves=moves, **fields)  # type: ignore[arg-type]


def test_streaks_count_the_last_run_and_the_longest_run_of_wins() -> None:
    results = [True, True, False, True, True, True, False, False]
    modes, _ = recount(game(won) for won in results)
    (figures,) = modes.values()
    assert (figures.played, figures.won, figures.lost) == (8, 5, 3)
    assert figures.streak == -2
    assert figures.best_streak == 3
    assert figures.win_rate == 0.625


def test_the_best_figures_are_over_won_games_only() -> None:
    modes, _ = recount(
        [
            game(False, score=9999, seconds=1, moves=1),
            game(True, score=500, seconds=300, moves=120),
            game(True, score=800, seconds=400, moves=140),
            game(True, score=700, seconds=250, moves=130),
        ]
    )
    (figures,) = modes.values()
    assert (figures.best_score, figures.best_seconds, figures.fewest_moves) == (800, 250, 120)


def test_a_mode_without_a_win_has_no_best_figures_and_the_rows_are_sorted() -> None:
    answer = stats_json(
        *recount(
            [
                game(False, preset="skill", level="hard", draw=1),
                game(True, preset="app", level="medium", draw=3),
                game(False, preset="app", level="easy", draw=3),
                game(False, score=-47, preset="classic", level="medium", draw=3, casino=True),
                game(True, score=208, preset="classic", level="medium", draw=3, casino=True),
            ]
        )
    )
    rows = [(row["preset"], row["level"], row["draw"]) for row in answer["modes"]]
    assert rows == sorted(rows)
    assert len(rows) == 4
    hard = next(row for row in answer["modes"] if row["level"] == "hard")
    assert hard["best_score"] is None and hard["streak"] == -1 and hard["win_rate"] == 0.0
    assert answer["casino"] == {"games": 2, "bankroll": 161}


def test_the_win_rate_has_four_decimals() -> None:
    modes, _ = recount([game(True), game(False), game(False)])
    assert stats_json(modes, recount([])[1])["modes"][0]["win_rate"] == 0.3333
