"""Tuning strategies by self-play, and measuring how far a strategy can be exploited.

``arena`` plays one candidate against fixed opponents on duplicate deals and returns the
candidate's wins per deal and seat; ``search`` tunes a strategy's weights with CMA-ES
against a population that grows with each champion; ``exploit`` tunes one seat's best
response to a fixed strategy; ``record`` writes and reads the tuned strategies' files.
The package knows games only through the core contract and the ``Tunable`` capability of
the strategy kit (``tuning_base``, ``tuning_box``, ``weights_of``, ``with_weights``,
``strategy_table``).
"""
