"""The seeds' example game of SPEC §9: its deck, code and the summaries it reads."""

from pathlib import Path

DEALING_ORDER = (
    "AC 2C 3C 4C 5C 7C 8C 9C TC JS QS 8H QC 7H 6C KH QH AS JC KC AD 2D 3D 4D 5D 6D "
    "7D 8D 9D TD JD QD KD AH 2H 3H 4H 5H 6H 9H TH JH 2S 3S 4S 5S 6S 7S 8S 9S TS KS"
)
SEED_DECK = DEALING_ORDER.split()
SEED_CODE = "CF1-D3-AAAAAAAOEGYXXBLQBCLVSVVBKAUAXFBHCBYLVAMIYTIVUUAA"
SEED_OPENING = (
    "Stock: 34 cards; waste empty; reserve: 13 cards, top: queen of clubs. "
    "Foundations, start rank 7: hearts up to 7 of hearts (1), spades empty, diamonds empty, "
    "clubs empty. Column 1: 6 of clubs; column 2: king of hearts; column 3: queen of hearts; "
    "column 4: ace of spades."
)
# After QC-t2, 8H-f, KH-t4: column 2 empties and the reserve refills it with QS.
SEED_AFTER_THREE = (
    "Stock: 34 cards; waste empty; reserve: 10 cards, top: jack of spades. "
    "Foundations, start rank 7: hearts up to 8 of hearts (2), spades empty, diamonds empty, "
    "clubs empty. Column 1: 6 of clubs; column 2: queen of spades; column 3: queen of hearts; "
    "column 4: ace of spades, king of hearts, queen of clubs."
)


def seed_summaries(seed: str, first_words: str) -> list[str]:
    """The summary lines of a seed file (`000`: Polish, `002`: Hebrew) in ../shared/seeds:
    the opening of the §9 game and the position after its three moves, in that order."""
    seeds = Path(__file__).resolve().parents[2] / "shared" / "seeds"
    (path,) = seeds.glob(f"{seed}_*.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.startswith(first_words)]
