"""A game (SPEC §5): undo and its limit, app and skill scoring, autocomplete and the win."""

import pytest

from app.engine import DealCode, Game, IllegalMoveError, Rules, SkillScoring
from tests.shared import SEED_CODE

from .table import cards, game_at, play_greedily, sorted_deck, table

APP = Rules.preset_named("app")
SKILL = Rules.preset_named("skill")


def game_of(token: str, deal: str = "HELLOAB") -> Game:
    return Game(DealCode.parse(f"CF1-{token}-{deal}"))


def snapshot(game: Game) -> tuple[object, ...]:
    return (game.position, game.score, game.moves, game.undo_available)


# --- undo ---------------------------------------------------------------------------------


def test_undo_takes_back_a_reserve_refill() -> None:
    # KH-t4 empties column 2, which the reserve refills with QS (the seeds' third move).
    game = Game(DealCode.parse(SEED_CODE))
    game.play("QC-t2")
    game.play("8H-f")
    before = game.position
    game.play("KH-t4")
    assert game.position.tableau[1] == cards("QS")
    game.undo()
    assert game.position == before
    assert game.position.tableau[1] == cards("KH QC")
    assert str(game.position.reserve[-1]) == "QS"


def test_undo_takes_back_a_recycle_and_its_pass() -> None:
    game = game_of("D3")
    while game.position.stock:
        game.play("draw")
    before = game.position
    game.play("draw")
    assert game.position.pass_number == 2
    game.undo()
    assert game.position == before
    assert game.position.pass_number == 1


def test_an_undo_limit_of_zero_keeps_nothing_to_undo() -> None:
    game = game_of("D3U0")
    game.play("draw")
    assert game.undo_available == 0
    with pytest.raises(IllegalMoveError, match="there is nothing to undo"):
        game.undo()
    assert game.version == 1


def test_a_small_undo_limit_drops_the_oldest_action_for_good() -> None:
    game = game_of("D3U2")
    positions = [game.position]
    for _ in range(3):
        game.play("draw")
        positions.append(game.position)
    assert game.undo_available == 2
    game.undo()
    game.undo()
    assert game.position == positions[1]
    assert game.undo_available == 0
    with pytest.raises(IllegalMoveError, match="there is nothing to undo"):
        game.undo()
    # A new action does not bring the dropped one back.
    game.play("draw")
    game.undo()
    assert game.position == positions[1]
    assert game.undo_available == 0


def test_the_app_preset_keeps_the_last_hundred_actions() -> None:
    game = game_of("D1")
    for _ in range(101):
        game.play("draw")
    assert game.undo_available == 100


def test_unlimited_undo_goes_back_to_the_deal() -> None:
    game = game_of("D3UX")
    opening = game.position
    for _ in range(60):  # several passes through the stock
        game.play("draw")
    assert game.undo_available == 60
    for _ in range(60):
        game.undo()
    assert game.position == opening
    assert game.moves == 0
    assert game.version == 120
    assert game.actions[-1] == "undo"


def test_an_illegal_move_changes_nothing() -> None:
    game = game_of("D3")
    game.play("draw")
    before = (*snapshot(game), game.version, list(game.actions))
    with pytest.raises(IllegalMoveError):
        game.play("KS-f")
    assert (*snapshot(game), game.version, list(game.actions)) == before


# --- app scoring --------------------------------------------------------------------------


def test_app_scores_five_a_card_to_a_foundation_and_nothing_to_take_one_back() -> None:
    game = game_at(table("5S", "9D", "8C", "4H", foundations="3H"), APP)
    game.play("4H-f")
    assert game.score == 5
    game.play("4H-t1")  # taking it back costs nothing
    assert game.score == 5
    game.play("4H-f")  # and putting it back scores again
    assert game.score == 10
    game.undo()
    assert game.score == 5
    game.undo()
    game.undo()
    assert game.score == 0
    assert game.moves == 0


def test_app_scores_255_for_a_win_without_taking_cards_back() -> None:
    for draw in (1, 3):
        game = Game(DealCode.for_deck(sorted_deck(), Rules.preset_named("app", draw=draw)))
        play_greedily(game)
        assert game.won
        assert game.score == 255


def test_app_draws_and_column_moves_score_nothing() -> None:
    game = game_at(table("5S", "9D", "8C", "4H", foundations="3H", stock="2D"), APP)
    game.play("draw")
    game.play("4H-t1")
    assert game.score == 0


# --- autocomplete -------------------------------------------------------------------------

# Stock and waste are empty and the reserve holds only JH. Column 3 is hand-made so that
# the cascade stops: QH lies under KH.
STUCK = table("KD", "QS", "QH KH KS", "QD", reserve="JH", foundations="KC JD TH JS")
# The same, but every card can reach its foundation.
WINNING = table("KD", "KH QS", "KS QH", "QD", reserve="JH", foundations="KC JD TH JS")


def test_autocomplete_sends_the_remaining_cards_up_as_part_of_the_move() -> None:
    game = game_at(STUCK, SKILL)
    game.play("JH-f")
    assert game.position.tableau == ((), (), cards("QH KH"), ())
    assert game.position.foundations == (13, 13, 11, 13)
    assert game.version == 1
    assert game.moves == 1
    assert game.actions == ["JH-f"]
    assert game.score == 5 * 10  # JH, then QS, KS, QD and KD by themselves


def test_the_whole_cascade_is_one_undo() -> None:
    game = game_at(STUCK, SKILL)
    game.play("JH-f")
    game.undo()
    assert game.position == STUCK
    assert game.score == 0
    assert game.moves == 2  # skill: the undo itself counts as a move
    assert game.version == 2


def test_autocomplete_can_win_the_game() -> None:
    game = game_at(WINNING, Rules.preset_named("app", autocomplete=True))
    game.play("JH-f")
    assert game.won
    assert game.score == 7 * 5
    assert game.moves == 1


def test_without_autocomplete_nothing_moves_by_itself() -> None:
    game = game_at(WINNING, APP)
    game.play("JH-f")
    assert game.position.tableau == WINNING.tableau
    assert game.score == 5


# --- the win ------------------------------------------------------------------------------


def won_game() -> Game:
    game = game_at(table("KS", foundations="KC KD KH QS"), APP)
    game.play("KS-f")
    return game


def test_a_won_game_has_no_moves_and_nothing_to_undo() -> None:
    game = won_game()
    assert game.won
    assert game.legal_moves() == []
    assert game.undo_available == 0


@pytest.mark.parametrize("action", ["draw", "KS-t1", "AC-t2", "undo"])
def test_a_won_game_refuses_every_move_and_undo(action: str) -> None:
    game = won_game()
    with pytest.raises(IllegalMoveError, match="the game is won"):
        game.apply_action(action)
    assert game.version == 1


@pytest.mark.parametrize("card", ["KS", "AH", "7D"])
def test_a_won_game_refuses_every_tap(card: str) -> None:
    game = won_game()
    with pytest.raises(IllegalMoveError, match="the game is won"):
        game.tap(card)
    with pytest.raises(IllegalMoveError, match="the game is won"):
        game.tap(card, double=True)


def test_the_summary_of_a_won_game() -> None:
    assert won_game().summary() == (
        "Stock empty; waste empty; reserve empty. Foundations, start rank ace: "
        "clubs up to king of clubs (13), hearts up to king of hearts (13), "
        "spades up to king of spades (13), diamonds up to king of diamonds (13). "
        "Column 1: empty; column 2: empty; column 3: empty; column 4: empty."
    )


# --- skill scoring ------------------------------------------------------------------------


def test_skill_scores_ten_a_card_and_charges_thirty_for_every_thirty_seconds() -> None:
    game = game_at(STUCK, SKILL)
    game.play("JH-f")
    assert game.score == 50
    for seconds, score in ((29, 50), (30, 20), (59.9, 20), (60, 0), (600, 0)):
        game.seconds = seconds
        assert game.score == score


def test_skill_adds_600000_divided_by_the_seconds_played_on_a_win() -> None:
    game = game_at(WINNING, SKILL)
    game.play("JH-f")
    assert game.won
    game.seconds = 40
    assert game.score == 70 - 30 + 600_000 // 40
    game.seconds = 100  # the points are down to 0 before the bonus
    assert game.score == 6000


def test_skill_undo_gives_back_its_points_and_counts_as_a_move() -> None:
    game = game_at(table("5S", "9D", "8C", "4H", foundations="3H"), SKILL)
    game.play("4H-f")
    assert (game.score, game.moves) == (10, 1)
    game.undo()
    assert (game.score, game.moves) == (0, 2)
    app = game_at(table("5S", "9D", "8C", "4H", foundations="3H"), APP)
    app.play("4H-f")
    app.undo()
    assert (app.score, app.moves) == (0, 0)


def test_skill_score_never_goes_below_zero() -> None:
    scoring = SkillScoring()
    assert scoring.score(0, 3600, won=False) == 0
    assert scoring.score(10, 31, won=False) == 0
    assert scoring.score(0, 0, won=True) == 600_000  # a win within the first second


# --- casino scoring -------------------------------------------------------------------------

CLASSIC = Rules.preset_named("classic")


def test_classic_scores_as_a_casino_game_that_starts_at_minus_47() -> None:
    assert CLASSIC.scoring == "casino"
    game = game_of("C3")
    # The deck costs 52 and the base card, already on its foundation, pays 5 back.
    assert game.score == -47


def test_casino_pays_five_a_card_and_takes_it_back_with_the_card() -> None:
    rules = CLASSIC.with_options(foundation_to_tableau=True)
    game = game_at(table("5S", "9D", "8C", "4H", foundations="3H"), rules)
    start = game.score
    game.play("4H-f")
    assert game.score == start + 5
    game.play("4H-t1")  # a card taken off the foundation takes its 5 with it
    assert game.score == start
    game.play("4H-f")
    assert game.score == start + 5
    game.undo()
    assert game.score == start
    game.undo()
    game.undo()
    assert game.score == start
    assert game.moves == 0


def test_a_won_casino_game_ends_at_208() -> None:
    for draw in (1, 3):
        game = Game(DealCode.for_deck(sorted_deck(), Rules.preset_named("classic", draw=draw)))
        play_greedily(game)
        assert game.won
        assert game.score == 5 * 52 - 52 == 208


def test_casino_scoring_can_go_below_zero_and_has_its_own_code_letter() -> None:
    game = game_of("D3GC")
    assert game.rules.scoring == "casino"
    assert game.score < 0
    assert Rules.preset_named("app", scoring="casino").token == "D3GC"
    assert Rules.preset_named("classic", scoring="app").token == "C3GA"


# --- the score's parts (the results screen) -------------------------------------------------


def test_the_parts_of_a_score_add_up_to_it_in_every_scoring() -> None:
    for preset in ("app", "classic", "skill"):
        game = Game(DealCode.for_deck(sorted_deck(), Rules.preset_named(preset, draw=1)))
        play_greedily(game)
        assert game.won
        game.seconds = 200.0
        parts = game.scoring.parts(game.points, game.seconds, game.won)
        assert sum(part.points for part in parts) == game.score
        cards = parts[0]
        assert cards.kind == "cards" and cards.count == (52 if preset == "classic" else 51)
    kinds = [part.kind for part in game.scoring.parts(game.points, game.seconds, True)]
    assert kinds == ["cards", "time_penalty", "time_bonus"]
    penalty = game.scoring.parts(game.points, 200.0, True)[1]
    assert (penalty.count, penalty.points) == (6, -180)
