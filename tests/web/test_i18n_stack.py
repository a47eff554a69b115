"""The i18n stack: catalogs load, the current language is per context, pages say it."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app import i18n


def test_every_language_has_a_catalog_with_its_plural_rule() -> None:
    # Polish and Russian have three plural forms, Hebrew and English two: the catalogs'
    # headers must say so, or ngettext picks the wrong form.
    expected = {"pl": 3, "ru": 3, "he": 2}
    for language, forms in expected.items():
        catalog = i18n.translations(language)
        assert catalog.plural(5) < forms  # type: ignore[attr-defined]
        assert (i18n.LOCALE_DIR / language / "LC_MESSAGES" / "messages.po").exists()
    assert set(i18n.LANGUAGES) == {"en", "pl", "he", "ru"}


def test_the_language_is_set_for_a_block_and_then_restored() -> None:
    assert i18n.current() == "en"
    with i18n.using("he"):
        assert i18n.current() == "he"
        assert i18n.direction() == "rtl"
        with i18n.using("xx"):
            assert i18n.current() == "en"
        assert i18n.current() == "he"
    assert i18n.current() == "en"
    assert i18n.direction() == "ltr"


def test_an_untranslated_message_reads_as_the_english(client: TestClient) -> None:
    with i18n.using("pl"):
        assert i18n.gettext("No such message in any catalog") == "No such message in any catalog"
        assert i18n.ngettext("%(n)s card", "%(n)s cards", 1) == "%(n)s card"


def test_the_board_page_names_its_language_and_direction(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert '<html lang="en" dir="ltr">' in page.text
