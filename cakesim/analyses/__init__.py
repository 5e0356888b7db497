"""Analyses that play games of their own, beyond an experiment's tables: the sequential
test of a claim (``sprt``), the sample-size planner's pilot runs (``planner``) and the
tables the skill section adds (``skill``).

``cakesim.stats`` stays arithmetic on result arrays; this layer runs the games it reads.
"""
