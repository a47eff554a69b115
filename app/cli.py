"""The `canfield` command: `deal`, `serve` and `solve`."""

from __future__ import annotations

import argparse
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="canfield", description="Canfield solitaire")
    commands = parser.add_subparsers(dest="command", required=True)
    deal = commands.add_parser("deal", help="print the opening summary of a deal code")
    deal.add_argument("code", help="a deal code such as CF1-D3-AAAAACL")
    deal.set_defaults(run=_deal)
    args = parser.parse_args(argv)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
