"""The usage example in the solver package's docstring runs as written."""

import doctest

import app.solver


def test_the_package_example_runs() -> None:
    failures, tried = doctest.testmod(app.solver)
    assert tried > 0
    assert failures == 0
