"""Hypothesis strategies for the engine tests: rule sets and deals."""

from __future__ import annotations

from hypothesis import strategies as st

from app.engine import PRESETS, Card, DealCode, Rules
from app.engine.cards import ORDERED_DECK
from app.engine.codes import MAX_DEAL_NUMBER


def any_rules() -> st.SearchStrategy[Rules]:
    """Every combination of options, from any preset."""
    return st.builds(
        Rules.preset_named,
        st.sampled_from(sorted(PRESETS)),
        draw=st.sampled_from((1, 3)),
        passes=st.one_of(st.none(), st.integers(1, 4)),
        tableau_moves=st.sampled_from(("any-run", "top-or-all", "all")),
        empty_column=st.sampled_from(("any", "waste")),
        foundation_to_tableau=st.booleans(),
        undo_limit=st.one_of(st.none(), st.integers(0, 4), st.just(100)),
        scoring=st.sampled_from(("app", "skill", "casino")),
        autocomplete=st.booleans(),
    )


def any_deck() -> st.SearchStrategy[tuple[Card, ...]]:
    return st.permutations(ORDERED_DECK).map(tuple)


def any_code(rules: Rules) -> st.SearchStrategy[DealCode]:
    """A deal number or a custom deck, with `rules`."""
    return st.one_of(
        st.integers(0, MAX_DEAL_NUMBER).map(lambda n: DealCode(rules, number=n)),
        any_deck().map(lambda deck: DealCode.for_deck(deck, rules)),
    )
