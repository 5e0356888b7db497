"""Statistics on exact sums.

Intervals and verdicts, sample-size planning, sequential tests, ladders, the
regression gate.
"""
