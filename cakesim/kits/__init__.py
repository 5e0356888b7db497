"""Kits every game builds on: what several games need, written once and knowing no game.

``strategies`` makes every game's strategy record from the spec the game declares, and
reads the shipped tuned strategy files (without loading the tuner).
"""
