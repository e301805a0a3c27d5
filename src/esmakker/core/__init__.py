"""The rules core: standard library only."""
