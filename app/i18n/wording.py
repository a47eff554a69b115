"""The engine's and the computer player's facts in the player's language: refusal reasons
(app/engine/refusals.py), input the engine cannot read (app/engine/unreadable.py) and
hints, with cards and piles named in words, never notation; the values a player typed
stay as typed, quoted.

The Polish and Russian sentences are written so that each card takes the case listed in
`_CASES` (the same in both languages); English and Hebrew do not inflect card names.
"""

from __future__ import annotations

from app.engine import FOUNDATION, Card, Move
from app.engine.refusals import Refusal, Why
from app.engine.unreadable import MISSING_IN_WORDS, Unreadable, What, quoted
from app.engine.words import Case, card_words
from app.i18n import and_list, current, direction, gettext, ngettext, number, or_list
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


def isolated(text: object) -> str:
    """Text as typed (Latin letters, digits, notation) set apart from the sentence around
    it in a right-to-left language (Unicode's first-strong isolate), so that its own
    punctuation stays with it: in Hebrew `CF1-D3P9-` would otherwise show as `-CF1-D3P9`."""
    return f"\u2068{text}\u2069" if direction() == "rtl" else str(text)


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


# The English of each message is the engine's own (app/engine/unreadable.py ENGLISH), so
# an English player reads what the CLI and the logs say; a test holds them equal.
_UNREADABLE = {
    What.NO_SUCH_CARD: N_("no card has rank %(low)s and suit %(high)s"),
    What.UNKNOWN_CARD: N_(
        "unknown card %(text)s: expected a rank of A23456789TJQK then a suit of CDHS"
    ),
    What.UNKNOWN_RANK: N_("unknown rank %(text)s: expected one of A23456789TJQK"),
    What.UNKNOWN_MOVE: N_(
        "unknown move %(text)s: expected draw, a card to its foundation such as 8H-f, or a "
        "card to a column such as KH-t4"
    ),
    What.DECK_NOT_A_LIST: N_("a deck is a list of 52 cards"),
    What.DUPLICATE_CARD: N_("duplicate card %(given)s: the %(card)s is in the deck twice"),
    What.UNKNOWN_PRESET: N_("unknown preset %(text)s: expected %(choices)s"),
    What.UNKNOWN_OPTION: N_("unknown rule option %(text)s: expected %(choices)s"),
    What.RULES_NOT_AN_OBJECT: N_("rules must be an object of options"),
    What.BAD_CHOICE: N_("bad value %(text)s for rule %(option)s: expected %(choices)s"),
    What.BAD_COUNT: N_(
        "bad value %(text)s for rule %(option)s: expected null (unlimited) or a whole number "
        "from %(low)s to %(high)s"
    ),
    What.BAD_SWITCH: N_("bad value %(text)s for rule %(option)s: expected true or false"),
    What.UNKNOWN_LEVEL: N_("unknown level %(text)s: expected %(choices)s"),
    What.CODE_NOT_TEXT: N_("a deal code is text such as CF1-D3-AAAAACL"),
    What.BAD_CODE: N_("bad deal code %(text)s: expected CF1-<rules>-<deal>, e.g. CF1-D3-AAAAACL"),
    What.UNKNOWN_RULES: N_(
        "unknown rules %(text)s: expected D3 or D1 (app), C3/C1 (classic) or S3/S1 (skill), "
        "optionally followed by option overrides"
    ),
    What.UNKNOWN_RULE_LETTER: N_("unknown rule letter %(letter)s in rules %(token)s"),
    What.RULE_LETTER_TWICE: N_("rule letter %(letter)s appears twice in rules %(token)s"),
    What.BAD_RULE_LETTER_VALUE: N_("bad value %(text)s for rule letter %(letter)s"),
    What.RULE_TAKES_A_NUMBER: N_(
        "rule letter %(letter)s in a deal code takes a number, not %(text)s"
    ),
    What.RULES_IN_CODE: N_("rules %(token)s: %(reason)s"),
    What.NOT_CANONICAL: N_(
        "rules %(token)s are not in canonical form; write them as %(canonical)s"
    ),
    What.BAD_DEAL_LETTERS: N_("expected 7 or 48 letters after %(start)s, got %(text)s"),
    What.NO_SUCH_DECK: N_(
        "the 48 letters of a custom deal (%(text)s) stand for a number of 52! or more; no "
        "deck has that code"
    ),
    What.DEAL_NUMBER_RANGE: N_("deal number must be from %(low)s to %(high)s"),
    What.DEAL_NUMBER_LETTERS: N_("a deal number is 7 letters A-Z, got %(text)s"),
    What.NOT_A_STORED_POSITION: N_("not a stored position: %(text)s"),
}  # fmt: skip


def _short_deck(fact: Unreadable, values: dict[str, object]) -> str:
    """A deck of fewer than 52 cards: the missing cards in notation, and in words (in the
    genitive: `brakuje króla pik`) when there are few of them."""
    if len(fact.cards) > MISSING_IN_WORDS:
        return (
            ngettext(
                "%(num)d card, need 52 (missing %(missing)s)",
                "%(num)d cards, need 52 (missing %(missing)s)",
                fact.low,
            )
            % values
        )
    values["cards"] = and_list([card(missing, "genitive") for missing in fact.cards])
    return (
        ngettext(
            "%(num)d card, need 52 (missing %(missing)s): the deck lacks the %(cards)s",
            "%(num)d cards, need 52 (missing %(missing)s): the deck lacks the %(cards)s",
            fact.low,
        )
        % values
    )


def unreadable(fact: Unreadable) -> str:
    """What the engine could not read, in the current language: the values as given
    (quoted), choices listed the language's way, cards in words. English starts in lower
    case and has no full stop, as the engine's; a page makes a sentence of it."""
    values: dict[str, object] = {
        "text": isolated(quoted(fact.text)),
        "given": isolated(fact.text),
        "token": isolated(quoted(fact.text)),
        "option": isolated(quoted(fact.name)),
        "letter": isolated(quoted(fact.name)),
        "canonical": isolated(fact.name),
        "start": isolated(fact.name),
        "choices": or_list([isolated(choice) for choice in fact.choices]),
        "low": number(fact.low),
        "high": number(fact.high),
        "num": fact.low,
        "missing": isolated(" ".join(str(missing) for missing in fact.cards)),
    }
    if fact.what == What.SHORT_DECK:
        return _short_deck(fact, values)
    if fact.what == What.DUPLICATE_CARD:
        values["card"] = card(fact.cards[0])
    if fact.cause is not None:
        values["reason"] = unreadable(fact.cause)
    return gettext(_UNREADABLE[fact.what]) % values
