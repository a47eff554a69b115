"""Browser tests: the board page in Debian's Chromium against a real `canfield serve`."""
