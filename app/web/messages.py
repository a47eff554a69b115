"""Every message the server itself shows a person, in one place (ready for translation).

The engine's own messages (an illegal move's reason, a bad code) come from
app/engine and are shown as they are; so are the computer player's (app/solver)
when it has no move to give ("No winning line from here; undo 3 moves ...").
"""

GAME_NOT_FOUND = (
    "There is no such game here: the link may be mistyped, or the game belongs to "
    "another player."
)
PAGE_NOT_FOUND = "There is no such page."
STALE_VERSION = (
    "The game has moved on since you saw it (it is now at version {current}); "
    "reload it and try again."
)
CROSS_SITE = "Refused: this request came from another site."
NOT_JSON = "Send the body as JSON, with the header Content-Type: application/json."
BAD_JSON = "The body is not valid JSON: {error} (at character {position})."
BODY_TOO_LARGE = "The request body is too large (at most {limit} bytes)."
METHOD_NOT_ALLOWED = "{method} is not allowed here."
SERVER_ERROR = "Something went wrong on the server; the game is as it was before."
CODE_AND_OPTIONS = (
    "Give either a deal code (which carries its own rules) or rules, preset, draw "
    "and deck, not both."
)
PRESET_CONFLICT = "The preset is given twice, as {outer!r} and {inner!r}; give it once."
DRAW_CONFLICT = "The draw count is given twice, as {outer!r} and {inner!r}; give it once."
NOT_AN_OBJECT = "The body must be a JSON object."
UNKNOWN_FIELD = "Unknown field {field!r}."
MISSING_FIELD = "{field!r} is required."
BAD_FIELD = "{field!r}: {problem}."
WINNABLE_WITH_DEAL = (
    "Winnable deals only picks the deal itself: give rules (a preset, a draw count, "
    "options), not a deal code or a deck."
)
NO_WINNABLE_DEAL = (
    "No winnable deal could be found for these rules just now; try again, or deal "
    "without \"Winnable deals only\"."
)
COMPUTER_BUSY = "The computer player is busy just now; try again in a moment."
GAME_WON_NO_HINT = "The game is won: there is nothing left to hint."
HINT_MOVE = "Hint: move the {card} to {where} ({move})."
HINT_TO_FOUNDATION = "its foundation"
HINT_TO_COLUMN = "column {number}"
HINT_DRAW = "Hint: draw from the stock (draw)."
HINT_TURN_OVER = "Hint: turn the waste over (draw)."
LEVEL_WITH_DEAL = (
    "A deal code or deck is always played at level shared, not {level!r}: leave the level out."
)
SHARED_WITHOUT_DEAL = "Level shared is for a game of a deal code or deck: give one."
WINNABLE_AND_LEVEL = (
    "\"winnable\" is level easy, but the level is given as {level!r}: give one of them."
)
GAME_LOST = "This game is over: it counted as lost when a new game was started."
GAME_OVER_WON = "This game is over: it is won."
