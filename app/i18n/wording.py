"""The engine's and the computer player's facts in the player's language: refusal reasons
(app/engine/refusals.py) and hints, with cards and piles named in words, never notation.

The Polish and Russian sentences are written so that each card takes the case listed in
`_CASES` (the same in both languages); English and Hebrew do not inflect card names.
"""

from __future__ import annotations

from app.engine import FOUNDATION, Card, Move
from app.engine.refusals import Refusal, Why
from app.engine.words import Case, card_words
from app.i18n import current, gettext, ngettext
from app.i18n import gettext_noop as N_

_REFUSALS = {
    Why.GAME_WON: N_("The game is won."),
    Why.NO_SUCH_COLUMN: N_("There is no column %(number)s."),
    Why.NOTHING_TO_DRAW: N_("The stock and the waste are both empty."),
    Why.NO_PASSES_LEFT: N_("No passes through the stock are left (%(number)s of %(number)s used)."),
    Why.FACE_DOWN: N_("The %(card)s is still face down in the stock."),
    Why.UNDER_IN_WASTE: N_("The %(top)s covers the %(card)s in the waste."),
    Why.UNDER_IN_RESERVE: N_("The %(top)s covers the %(card)s in the reserve."),
    Why.UNDER_ON_FOUNDATION: N_("The %(top)s covers the %(card)s on its foundation."),
    Why.UNDER_IN_COLUMN: N_("The %(top)s covers the %(card)s in column %(number)s."),
    Why.ALREADY_ON_FOUNDATION: N_("The %(card)s is already on its foundation."),
    Why.FOUNDATIONS_KEEP_CARDS: N_("In these rules, cards never come back from the foundations."),
    Why.TOP_OR_WHOLE_COLUMN: N_("Only the last card of a column or the whole column can move."),
    Why.WHOLE_COLUMN_ONLY: N_("Only a whole column can move."),
    Why.FOUNDATION_STARTS_AT: N_("The foundation of this suit starts from the %(card)s."),
    Why.FOUNDATION_FULL: N_("That foundation is full."),
    Why.FOUNDATION_TAKES: N_("The next card on that foundation is the %(card)s."),
    Why.ALREADY_IN_COLUMN: N_("The %(card)s is already in column %(number)s."),
    Why.DOES_NOT_FIT: N_("The %(card)s does not fit on the %(target)s."),
    Why.EMPTY_COLUMN_TAKES_WASTE: N_("An empty column takes only the top card of the waste."),
    Why.NOTHING_TO_UNDO: N_("There is nothing to undo."),
    Why.NO_MOVE_FOR_TAP: N_("The %(card)s has no move just now."),
}  # fmt: skip

# The card placeholders of a refusal, in order of its cards, and the case each takes.
_CARD_ROLES: dict[Why, tuple[tuple[str, Case], ...]] = {
    Why.FACE_DOWN: (("card", "nominative"),),
    Why.UNDER_IN_WASTE: (("card", "accusative"), ("top", "nominative")),
    Why.UNDER_IN_RESERVE: (("card", "accusative"), ("top", "nominative")),
    Why.UNDER_ON_FOUNDATION: (("card", "accusative"), ("top", "nominative")),
    Why.UNDER_IN_COLUMN: (("card", "accusative"), ("top", "nominative")),
    Why.ALREADY_ON_FOUNDATION: (("card", "nominative"),),
    Why.FOUNDATION_STARTS_AT: (("card", "genitive"),),
    Why.FOUNDATION_TAKES: (("card", "nominative"),),
    Why.ALREADY_IN_COLUMN: (("card", "nominative"),),
    Why.DOES_NOT_FIT: (("card", "nominative"), ("target", "accusative")),
    Why.NO_MOVE_FOR_TAP: (("card", "nominative"),),
}


def card(card: Card, case: Case = "nominative") -> str:
    """A card in words in the current language: `queen of clubs`, `damę trefl`."""
    return card_words(card, current(), case)


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def refusal(refusal: Refusal) -> str:
    """Why the rules refuse an action, as one sentence in the current language."""
    values: dict[str, object] = {"number": refusal.number}
    for (name, case), named in zip(_CARD_ROLES.get(refusal.why, ()), refusal.cards, strict=False):
        values[name] = card(named, case)
    return capitalised(gettext(_REFUSALS[refusal.why]) % values)


def hint_move(move: Move, stock: bool) -> str:
    """A hint's move in words (`stock`: whether the stock has cards to draw)."""
    if move.card is None:
        if stock:
            return gettext("Hint: draw from the stock.")
        return gettext("Hint: turn the waste over into the stock.")
    if move.target == FOUNDATION:
        return gettext("Hint: put the %(card)s on its foundation.") % {
            "card": card(move.card, "accusative")
        }
    return gettext("Hint: move the %(card)s to column %(number)s.") % {
        "card": card(move.card, "accusative"),
        "number": move.target + 1,
    }


def no_hint(why: str, undo: int | None, undo_available: int) -> str:
    """Why a hint has no move, from the computer player's facts (HintAnswer.why, .undo)."""
    if why == "won":
        return gettext("The game is won: there is nothing left to hint.")
    if why == "undo" and undo is not None:
        return ngettext(
            "No winning line from here; undo %(num)d move to get back to a winnable position.",
            "No winning line from here; undo %(num)d moves to get back to a winnable position.",
            undo,
        ) % {"num": undo}
    if why == "from-start":
        return gettext("No winning line from here; this deal cannot be won from its start either.")
    if why == "no-earlier":
        return ngettext(
            "No winning line from here, nor from the %(num)d position undo can go back to.",
            "No winning line from here, nor from any of the %(num)d positions undo can go back to.",
            undo_available,
        ) % {"num": undo_available}
    if why == "no-undo":
        return gettext("No winning line from here, and there is no move to undo.")
    if why == "in-time":
        return gettext("No winning line from here; no winnable earlier position was found in time.")
    return gettext(
        "The computer player could not tell in time whether this position can still be won."
    )
