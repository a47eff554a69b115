"""A deck whose opening can be won but one move spoils: shared by the hint tests."""

# Classic rules, draw 1, one pass. The opening can be won, but KS-t2 (the king onto the
# ace of hearts) spoils it for good; found with the solver, which proves both quickly.
SPOIL_RULES = {"preset": "classic", "draw": 1, "passes": 1}
SPOIL_DECK = [
    "9H", "TH", "4S", "4H", "4D", "4C", "3S", "3H", "3D", "3C", "2S", "2H", "2D", "AC",
    "KS", "AH", "AS", "2C", "5H", "5S", "6C", "8D", "6H", "6S", "7C", "7D", "7H", "7S",
    "8C", "6D", "8H", "8S", "9C", "9D", "TS", "9S", "TC", "TD", "5C", "KH", "JC", "JD",
    "JH", "JS", "QC", "QD", "QH", "QS", "KC", "KD", "5D", "AD",
]  # fmt: skip
SPOIL = "KS-t2"
