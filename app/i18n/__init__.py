"""The player's language: the four message catalogs (Babel .po files), the current locale,
and the gettext functions that every player-facing sentence goes through (SPEC §11).

The catalogs in `app/i18n/locale/<lang>/LC_MESSAGES/messages.po` are the truth: they are
read and compiled in memory the first time a language is used, so there is no build step.
`pybabel extract -F babel.cfg -o app/i18n/messages.pot .` then `pybabel update -i
app/i18n/messages.pot -d app/i18n/locale` keeps them in step with the code.

The current language is a context variable: a request sets it once (see the web layer's
language negotiation) and every `gettext` below it, in Python or in a template, speaks it.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta
from functools import cache
from io import BytesIO
from pathlib import Path

from babel.dates import format_datetime, format_timedelta
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import Translations

LANGUAGES = ("en", "pl", "he", "ru")
DEFAULT = "en"
RIGHT_TO_LEFT = frozenset({"he"})
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"

_current: ContextVar[str] = ContextVar("canfield_language", default=DEFAULT)


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The compiled catalog of `language` (English and unknown languages: the source text)."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == DEFAULT or not path.exists():
        return _gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    compiled = BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def current() -> str:
    """The language of the code running now (`en` outside a request)."""
    return _current.get()


def direction(language: str | None = None) -> str:
    """`rtl` or `ltr`, for `<html dir=...>`."""
    return "rtl" if (language or current()) in RIGHT_TO_LEFT else "ltr"


@contextmanager
def using(language: str) -> Iterator[None]:
    """Speak `language` inside the block (an unknown one speaks English)."""
    token = _current.set(language if language in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


def gettext(message: str) -> str:
    """`message` in the current language."""
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` that fits the count `n`, in the current language."""
    return translations(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the current language, told apart from the same words by `context`."""
    return translations(current()).pgettext(context, message)


def number(value: float) -> str:
    """A number as the current language writes it (`1,234` in English, `1 234` in Polish)."""
    return format_decimal(value, locale=current())


def percent(value: float) -> str:
    """A fraction as a percentage in the current language (`0.4167` -> `42%`, `42 %`)."""
    return format_percent(value, locale=current())


def duration(seconds: float) -> str:
    """A length of time in words in the current language (`3 minutes`, `3 minuty`)."""
    return format_timedelta(timedelta(seconds=seconds), locale=current())


def moment(when: datetime) -> str:
    """A date and time as the current language writes them (medium length)."""
    return format_datetime(when, format="medium", locale=current())


def or_list(items: Sequence[str]) -> str:
    """Choices as the current language lists them (`a, b, or c`, `a, b lub c`)."""
    return format_list(list(items), style="or", locale=current())


def and_list(items: Sequence[str]) -> str:
    """Items as the current language lists them (`a, b, and c`, `a, b i c`)."""
    return format_list(list(items), locale=current())


def gettext_noop(message: str) -> str:
    """Marks `message` for extraction where it is defined; translate it where it is shown."""
    return message


__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "RIGHT_TO_LEFT",
    "and_list",
    "current",
    "direction",
    "duration",
    "gettext",
    "gettext_noop",
    "moment",
    "ngettext",
    "number",
    "or_list",
    "percent",
    "pgettext",
    "translations",
    "using",
]
