"""Kits every game builds on: what several games need, written once and knowing no game.

``strategies`` reads the shipped tuned strategy files (without loading the tuner).
"""
