"""Levels (SPEC §10): hard caps the passes at three; the others keep the preset's rules."""

import pytest

from app.engine import (
    CHOSEN_LEVELS,
    LEVELS,
    InvalidRulesError,
    Rules,
    parse_level,
    rules_for_level,
)


@pytest.mark.parametrize("preset", ["app", "classic", "skill"])
@pytest.mark.parametrize("draw", [1, 3])
def test_level_hard_allows_three_passes_under_every_preset_and_draw(preset: str, draw: int) -> None:
    rules = Rules.preset_named(preset, draw=draw)
    hard = rules_for_level(rules, "hard")
    assert hard.passes == 3
    assert hard.with_options(passes=rules.passes) == rules  # nothing else changes
    assert hard.token == rules.token + "P3"


@pytest.mark.parametrize("level", ["easy", "medium", "shared"])
def test_the_other_levels_keep_the_rules(level: str) -> None:
    rules = Rules.preset_named("skill", draw=1)
    assert rules_for_level(rules, parse_level(level)) is rules


def test_hard_never_allows_more_passes_than_the_rules_do() -> None:
    assert rules_for_level(Rules.preset_named("app", passes=1), "hard").passes == 1
    assert rules_for_level(Rules.preset_named("app", passes=7), "hard").passes == 3


def test_levels_are_named_and_an_unknown_one_is_refused() -> None:
    assert LEVELS == ("easy", "medium", "hard", "shared")
    assert "shared" not in CHOSEN_LEVELS
    for bad in ("Hard", "expert", None, 3):
        with pytest.raises(InvalidRulesError, match="unknown level"):
            parse_level(bad)
