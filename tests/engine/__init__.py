"""Tests of the rules engine (app/engine)."""
