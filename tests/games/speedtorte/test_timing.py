"""The Eilauftrag timing model: the think-time table every engine adds from."""

import numpy as np

from cakesim.games.speedtorte.timing import load_timing


def test_think_time_grows_by_decide_per_bit_with_each_doubling_of_the_options():
    profile = load_timing().profile()
    table = profile.arrays(7)
    assert table[0] == profile.notice
    for n in (1, 3, 7):  # 1 + n options are 1, 2 and 3 bits
        assert table[n] == profile.notice + profile.decide_per_bit * np.log2(1 + n)
    assert list(table[-2:]) == [profile.sigma, profile.flight]


def test_the_think_times_do_not_use_numpys_log2(monkeypatch):
    # NumPy's log2 may differ in its last bits between processors; a think time one bit
    # off can decide whether an order is in time, so the table must not depend on it.
    profile = load_timing().profile()
    before = profile.arrays(20)
    monkeypatch.setattr(np, "log2", lambda x, *a, **k: np.nextafter(np.log(x) / np.log(2),
                                                                    np.inf))
    assert np.array_equal(profile.arrays(20), before)
