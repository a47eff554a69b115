"""Every message the server itself shows a person, in one place, each a function that
speaks the current language (app/i18n). The rules' refusals, input the engine cannot read
and the hints are worded from their facts in app/i18n/wording.py."""

from __future__ import annotations

from app.i18n import gettext as _
from app.i18n import number


def game_not_found() -> str:
    return _(
        "There is no such game here: the link may be mistyped, or the game belongs to "
        "another player."
    )


def page_not_found() -> str:
    return _("There is no such page.")


def stale_version(current: int) -> str:
    return _(
        "The game has moved on since you saw it (it is now at version %(current)s); "
        "reload it and try again."
    ) % {"current": number(current)}


def cross_site() -> str:
    return _("Refused: this request came from another site.")


def not_json() -> str:
    return _("Send the body as JSON, with the header Content-Type: application/json.")


def bad_json(position: object) -> str:
    return _("The body is not valid JSON (at character %(position)s).") % {"position": position}


def unreadable_body() -> str:
    return _("The body is not valid JSON in UTF-8, nor a form that can be read.")


def body_too_large(limit: int) -> str:
    return _("The request body is too large (at most %(limit)s bytes).") % {"limit": number(limit)}


def method_not_allowed(method: str) -> str:
    return _("%(method)s is not allowed here.") % {"method": method}


def server_error() -> str:
    return _("Something went wrong on the server; the game is as it was before.")


def code_and_options() -> str:
    return _(
        "Give either a deal code (which carries its own rules) or rules, preset, draw "
        "and deck, not both."
    )


def preset_conflict(outer: object, inner: object) -> str:
    return _("The preset is given twice, as %(outer)s and %(inner)s; give it once.") % {
        "outer": repr(outer),
        "inner": repr(inner),
    }


def draw_conflict(outer: object, inner: object) -> str:
    return _("The draw count is given twice, as %(outer)s and %(inner)s; give it once.") % {
        "outer": repr(outer),
        "inner": repr(inner),
    }


def not_an_object() -> str:
    return _("The body must be a JSON object.")


def unknown_field(field: str) -> str:
    return _("Unknown field %(field)s.") % {"field": repr(field)}


def missing_field(field: str) -> str:
    return _("%(field)s is required.") % {"field": repr(field)}


def missing_body() -> str:
    return _("The request needs a JSON body.")


def not_whole_number(field: str) -> str:
    return _("%(field)s must be a whole number.") % {"field": repr(field)}


def not_true_or_false(field: str) -> str:
    return _("%(field)s must be true or false.") % {"field": repr(field)}


def not_text(field: str) -> str:
    return _("%(field)s must be text.") % {"field": repr(field)}


def not_a_list(field: str) -> str:
    return _("%(field)s must be a list.") % {"field": repr(field)}


def field_not_an_object(field: str) -> str:
    return _("%(field)s must be a JSON object.") % {"field": repr(field)}


def bad_field(field: str) -> str:
    return _("%(field)s has a value that cannot be used here.") % {"field": repr(field)}


def http_error(status_code: int) -> str:
    return _("This request cannot be answered (HTTP error %(code)s).") % {"code": status_code}


def winnable_with_deal() -> str:
    return _(
        "Winnable deals only picks the deal itself: give rules (a preset, a draw count, "
        "options), not a deal code or a deck."
    )


def no_winnable_deal() -> str:
    return _(
        "No winnable deal could be found for these rules just now; try again, or deal "
        'without "Winnable deals only".'
    )


def computer_busy() -> str:
    return _("The computer player is busy just now; try again in a moment.")


def unknown_language(lang: str) -> str:
    return _("Unknown language %(lang)s: choose en, pl, he, ru or auto.") % {"lang": repr(lang)}


def level_with_deal(level: str) -> str:
    return _(
        "A deal code or deck is always played at level shared, not %(level)s: leave the "
        "level out."
    ) % {"level": repr(level)}


def shared_without_deal() -> str:
    return _("Level shared is for a game of a deal code or deck: give one.")


def winnable_and_level(level: str) -> str:
    return _(
        '"winnable" is level easy, but the level is given as %(level)s: give one of them.'
    ) % {"level": repr(level)}


def game_lost() -> str:
    return _("This game is over: it counted as lost when a new game was started.")


def game_over_won() -> str:
    return _("This game is over: it is won.")


def unknown_level(level: str) -> str:
    return _("Unknown level %(level)s: choose easy, medium or hard.") % {"level": repr(level)}
