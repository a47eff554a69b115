"""Types of the solver's compiled core (app/solver/_core.c)."""

from app.solver.board import State, Step, Successor

class Core:
    """One problem's search (rules, reserve, start rank) and the states proved lost."""

    def __init__(
        self,
        draw: int,
        passes: int,
        tableau_mode: int,
        empty_any: bool,
        foundation_to_tableau: bool,
        autocomplete: bool,
        reserve: bytes,
        start_rank: int,
    ) -> None: ...
    def search(
        self, state: State, max_nodes: int, seconds: float, threads: int = 1, max_bytes: int = 0
    ) -> tuple[int, list[Step], int]:
        """(code, steps, nodes): code 0 unknown (also when the search would hold more than
        `max_bytes` a thread; 0: no limit), 1 won (with its steps), 2 unwinnable."""
    def shortcut(self, start: State, steps: list[Step]) -> list[Step]:
        """search._shortcut's line (the steps of a winning line from the settled `start`,
        its detours cut out), made in the core; ValueError if `steps` do not win."""
    def beam(self, state: State, width: int, max_nodes: int) -> tuple[int, list[Step], int]:
        """(code, steps, nodes) of search.beam from `state` (before settling), with the proofs
        this Core holds: code 1 won (with its steps), 0 no win found."""
    def successors(self, state: State) -> list[Successor]: ...
    def settle(self, state: State, cascade: bool = True) -> State: ...
    def key(self, state: State) -> bytes: ...
    def value(self, state: State) -> int: ...
    def lost(self, state: State) -> bool: ...
    def columns_cannot_hold(self, state: State) -> bool: ...
    def ends_game_lost(self, state: State) -> bool: ...
    def runs_to_hold(self, cards: int, allowed: int) -> int: ...
    def reserve_stuck(self, state: State, lookahead: int = ..., certain: bool = True) -> bool: ...
    @property
    def known_dead(self) -> int: ...
    @property
    def dead_slots(self) -> int: ...
    @property
    def peak_bytes(self) -> int: ...
    @property
    def left_for_last(self) -> int:
        """Children the last search left for last among their siblings, the other thread
        being in them (or `leave_every`)."""
    path_children: int
    """Children the depth-first path holds, about, before the frames nearest the root give
    theirs up (made again when the search comes back to them: the same search)."""
    leave_every: int
    """0: a run leaves for last only the children the other thread is in (two threads); n, a
    test's: every n-th fresh child too, as if the other thread were in it."""
    opening: int
    """0: searches follow the schedule; a seed: each search is only the shuffled run of that
    seed (as the schedule's n-th shuffled run), in one thread (bench/openings.py)."""
    covered_memo: bool
    """Whether the reserve test under top-or-all moves remembers its answers (`top_covered`),
    the same answers either way: on by default, off for the tests' comparisons."""
