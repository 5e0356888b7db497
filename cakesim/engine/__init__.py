"""The machinery every game runs on.

Seeding, Numba options, strict readers, the game contract, the runner and its cache.
"""
