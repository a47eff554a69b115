"""The computer player in the web app: hints, "still winnable?" and winnable deals, each
player's one search at a time, in a pool of worker processes shared fairly."""

from app.web.computer.jobs import HintAnswer
from app.web.computer.player import (
    ComputerBusy,
    ComputerPlayer,
    NoWinnableDeal,
    SearchRefused,
    computer_for,
)

__all__ = [
    "ComputerBusy",
    "ComputerPlayer",
    "HintAnswer",
    "NoWinnableDeal",
    "SearchRefused",
    "computer_for",
]
