"""The message catalogs are complete (SPEC §11): every message of the code and templates is
extracted, and translated in Polish, Hebrew and Russian with the English's placeholders."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from app import i18n

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "app" / "i18n" / "messages.pot"
TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    """Each message as (context, English singular)."""
    return {(message.context, english(message)[0]) for message in catalog if message.id}


def english(message: Message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def translations(message: Message) -> tuple[str, ...]:
    string = message.string
    return string if isinstance(string, tuple) else (string,)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_the_template_holds_every_message_of_the_code_and_templates(tmp_path: Path) -> None:
    """`make messages` extracts with babel.cfg; the stored template must be what it gives."""
    extracted = tmp_path / "messages.pot"
    pybabel = Path(sys.executable).parent / "pybabel"
    command = ["extract", "-F", "babel.cfg", "-o", str(extracted), "--no-location", "."]
    subprocess.run([str(pybabel), "-q", *command], cwd=ROOT, check=True)
    fresh, stored = keys(read(extracted)), keys(read(POT))
    assert fresh - stored == set(), "messages not in messages.pot: run `make messages`"
    assert stored - fresh == set(), "messages.pot has messages no code uses: `make messages`"
    assert len(fresh) > 50


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_english_placeholders(language: str) -> None:
    catalog = read(i18n.LOCALE_DIR / language / "LC_MESSAGES" / "messages.po", language)
    assert keys(read(POT)) <= keys(catalog), f"{language}: run `make messages`"
    forms = catalog.num_plurals
    problems = []
    for message in catalog:
        if not message.id:
            continue
        source = english(message)
        texts = translations(message)
        name = f"{language}: {source[0]!r}"
        if message.fuzzy or not all(texts):
            problems.append(f"{name} is not translated")
            continue
        if isinstance(message.id, tuple) and len(texts) != forms:
            problems.append(f"{name} has {len(texts)} plural forms, not {forms}")
        wanted = placeholders(source[-1])
        for index, text in enumerate(texts):
            found = placeholders(text)
            # A singular form may leave out the count ("מהלך אחד"), as msgfmt allows.
            singular_may_omit = isinstance(message.id, tuple) and index == 0
            if found != wanted and not (singular_may_omit and found <= wanted):
                problems.append(f"{name}: placeholders {sorted(found)}, not {sorted(wanted)}")
            try:
                text % dict.fromkeys(found | wanted, 1)
            except (ValueError, TypeError, KeyError) as error:
                problems.append(f"{name}: {text!r} cannot be formatted ({error})")
    assert problems == []


def test_a_translated_message_is_used_in_its_language() -> None:
    with i18n.using("pl"):
        assert i18n.gettext("There is nothing to undo.") == "Nie ma czego cofnąć."
    with i18n.using("ru"):
        text = i18n.ngettext(
            "No winning line from here; undo %(num)d move to get back to a winnable position.",
            "No winning line from here; undo %(num)d moves to get back to a winnable position.",
            22,
        )
        assert "отмените %(num)d хода" in text
