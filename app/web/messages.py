"""Every message the server itself shows a person, in one place (ready for translation).

The engine's own messages (an illegal move's reason, a bad code) come from
app/engine and are shown as they are.
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
