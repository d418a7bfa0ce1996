"""Prune-and-search beyond games: selection (median of medians, randomised quickselect)
and two-dimensional linear programming by Megiddo's method, each round recorded."""
