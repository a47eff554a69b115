"""Canfield: solitaire in the browser with the game held on the server."""
