"""Winnable deals: the shipped lists really are won, and more are found on demand."""

from __future__ import annotations

import random

import pytest

from app.engine import DealCode, Game, Position, Rules
from app.solver import Budget, solve
from app.solver.deals import (
    NoWinnableDealError,
    list_name,
    load_lists,
    winnable_deal,
    winnable_numbers,
)

BUDGET = Budget(nodes=300_000, seconds=60)
LISTS = ["app-d3", "app-d1", "classic-d3", "classic-d1", "skill-d3", "skill-d1"]


def test_each_preset_and_draw_has_its_list() -> None:
    for preset in ("app", "classic", "skill"):
        for draw in (1, 3):
            assert list_name(Rules.preset_named(preset, draw=draw)) == f"{preset}-d{draw}"


def test_options_that_do_not_change_play_keep_the_list() -> None:
    rules = Rules.preset_named("classic", draw=1, undo_limit=5, scoring="skill")
    assert list_name(rules) == "classic-d1"


def test_other_play_options_have_no_list() -> None:
    assert list_name(Rules.preset_named("skill", draw=3, passes=3)) is None  # level Hard
    assert list_name(Rules.preset_named("app", tableau_moves="all")) is None
    assert winnable_numbers(Rules.preset_named("skill", passes=3)) == ()


def test_the_shipped_file_has_every_list_of_valid_deal_numbers() -> None:
    lists = load_lists()
    assert sorted(lists) == sorted(LISTS)
    for numbers in lists.values():
        assert len(numbers) >= 20
        assert len(set(numbers)) == len(numbers)


@pytest.mark.parametrize("name", LISTS)
def test_a_sample_of_each_list_is_won_by_the_solver(name: str) -> None:
    preset, draw = name.split("-d")
    rules = Rules.preset_named(preset, draw=int(draw))
    for number in random.Random(name).sample(load_lists()[name], 2):
        code = DealCode(rules, number=number)
        solution = solve(Position.deal(code.deck), rules, BUDGET)
        assert solution.won
        game = Game(code)
        for move in solution.line:
            game.play(move)
        assert game.won


def test_a_winnable_deal_comes_from_the_list_and_avoids_used_ones() -> None:
    rules = Rules.preset_named("skill", draw=1)
    listed = winnable_numbers(rules)
    used = set(listed[1:])
    assert winnable_deal(rules, used) == listed[0]
    assert winnable_deal(rules, lambda n: n != listed[2]) == listed[2]


def test_when_the_list_runs_out_new_deals_are_solved() -> None:
    rules = Rules.preset_named("app", draw=1)
    listed = set(winnable_numbers(rules))
    number = winnable_deal(rules, listed, BUDGET, random.Random(5))
    assert number not in listed
    code = DealCode(rules, number=number)
    assert solve(Position.deal(code.deck), rules, BUDGET).won


def test_rules_without_a_list_are_solved_on_demand() -> None:
    rules = Rules.preset_named("app", draw=1, empty_column="waste")
    number = winnable_deal(rules, (), BUDGET, random.Random(1))
    code = DealCode(rules, number=number)
    assert solve(Position.deal(code.deck), rules, BUDGET).won


def test_no_winnable_deal_found_is_an_error_that_says_why() -> None:
    rules = Rules.preset_named("app", draw=3)
    with pytest.raises(NoWinnableDealError, match="no unused winnable deal"):
        winnable_deal(rules, lambda n: True, BUDGET, random.Random(1), attempts=3)
