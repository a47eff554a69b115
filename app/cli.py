"""The `canfield` command: `deal`, `serve`, `prune` and `solve`."""

from __future__ import annotations

import argparse
import os
import sys

from app.engine import DealCode, EngineError, summary
from app.engine.position import Position


def _deal(args: argparse.Namespace) -> int:
    try:
        code = DealCode.parse(args.code)
    except EngineError as error:
        print(f"canfield: {error}", file=sys.stderr)
        return 2
    print(code)
    print(summary(Position.deal(code.deck)))
    return 0


def _serve(args: argparse.Namespace) -> int:
    from app.web.serve import serve  # the web stack loads only for this command

    serve(host=args.host, port=args.port)
    return 0


def _prune(args: argparse.Namespace) -> int:
    from app.store import Store, make_engine, migrate
    from app.store.prune import Pruning
    from app.web.settings import Settings

    settings = Settings()
    days = settings.prune_after_days if args.days is None else args.days
    engine = make_engine(settings.resolved_database_url())
    try:
        migrate(engine)
        store = Store(engine)
        pruned = Pruning(store).run(days=days)
        store.close()
    finally:
        engine.dispose()
    print(
        f"removed {pruned.games} games with no action and {pruned.players} players "
        f"not seen for {days:g} days, {pruned.counters} spent rate-limit counters"
    )
    return 0


def _solve(args: argparse.Namespace) -> int:
    from app.solver.cli import main as solve_main

    return solve_main(args.solve_args)


def main(argv: list[str] | None = None) -> int:
    try:
        status = _main(argv)
        sys.stdout.flush()  # here, so that a closed pipe is caught below
    except BrokenPipeError:
        # The reader went away (`canfield solve CODE | head`): stop quietly like other
        # commands do, with stdout pointed at /dev/null so the exit flush fails no more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


def _main(argv: list[str] | None) -> int:
    args_list = sys.argv[1:] if argv is None else argv
    if args_list[:1] == ["solve"]:
        # The solver's own parser reads every option after `solve` (argparse's
        # REMAINDER would stop at the first one that looks like ours).
        from app.solver.cli import main as solve_main

        return solve_main(args_list[1:])
    parser = argparse.ArgumentParser(prog="canfield", description="Canfield solitaire")
    commands = parser.add_subparsers(dest="command", required=True)
    deal = commands.add_parser("deal", help="print the opening summary of a deal code")
    deal.add_argument("code", help="a deal code such as CF1-D3-AAAAACL")
    deal.set_defaults(run=_deal)
    serve = commands.add_parser("serve", help="start the web app with uvicorn")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(run=_serve)
    prune = commands.add_parser(
        "prune",
        help="remove games with no action of players not seen for 30 days (DATABASE_URL)",
    )
    prune.add_argument("--days", type=float, default=None, help="not seen for this long")
    prune.set_defaults(run=_prune)
    solve = commands.add_parser(
        "solve", help="solve a deal or a batch of deals (see `canfield solve --help`)"
    )
    solve.add_argument("solve_args", nargs=argparse.REMAINDER)
    solve.set_defaults(run=_solve)
    args = parser.parse_args(args_list)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
