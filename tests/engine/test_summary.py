"""The plain-text position summary (SPEC §6)."""

from app.engine import DealCode, Position, summary

from .table import table


def test_one_card_is_singular_and_a_waste_names_its_top() -> None:
    position = table("KS", "QH", "", "TC", stock="2D", waste="3C 4D 5D", rest="reserve")
    text = summary(position)
    assert text.startswith("Stock: 1 card; waste: 3 cards, top: 5 of diamonds; reserve: ")
    assert "column 3: empty" in text
    one_in_reserve = summary(table("KS", "QH", "JD", "TC", reserve="9H"))
    assert "; reserve: 1 card, top: 9 of hearts." in one_in_reserve


def test_empty_piles_read_empty_and_each_sentence_starts_with_a_capital() -> None:
    position = table("", "QH", "", "", foundations="KC KD", rest="reserve", start="A", base="D")
    text = summary(position)
    assert text.startswith("Stock empty; waste empty; reserve: ")
    assert "Foundations, start rank ace: diamonds up to king of diamonds (13), clubs up to " in text
    assert "hearts empty, spades empty." in text
    assert text.endswith(
        "Column 1: empty; column 2: queen of hearts; column 3: empty; column 4: empty."
    )


def test_the_start_rank_is_a_word_for_court_cards_and_aces_and_digits_otherwise() -> None:
    assert "start rank jack:" in summary(table(start="J", base="S", foundations="JS"))
    assert "start rank 10:" in summary(table(start="T", base="S", foundations="TS"))
    assert "start rank 2:" in summary(table(start="2", base="S", foundations="2S"))


def test_the_summary_of_deal_hello() -> None:
    position = Position.deal(DealCode.parse("CF1-D3-HELLOAB").deck)
    assert summary(position) == (
        "Stock: 34 cards; waste empty; reserve: 13 cards, top: 7 of diamonds. "
        "Foundations, start rank 9: spades up to 9 of spades (1), diamonds empty, clubs empty, "
        "hearts empty. Column 1: queen of hearts; column 2: 3 of clubs; column 3: 8 of clubs; "
        "column 4: queen of diamonds."
    )
