"""The live panel's ranges part: a human line the strategy file never takes has no range (the
panel says so instead of failing), and a range is drawn per hand label."""

from types import SimpleNamespace

import numpy as np

from pokertui.widgets.live_panel import ranges_text


def test_a_line_the_file_never_takes_is_said_not_drawn():
    labels = ("J", "Q", "K")
    spot = SimpleNamespace(bot_range=np.array([0.2, 0.3, 0.5]), human_range=None)
    shown = ranges_text(spot, labels, labels).plain  # type: ignore[arg-type]
    assert "never takes your line" in shown
    assert "Bot's range" in shown and "K" in shown
    drawn = SimpleNamespace(bot_range=np.array([0.2, 0.3, 0.5]), human_range=np.ones(3) / 3)
    assert "never takes" not in ranges_text(drawn, labels, labels).plain  # type: ignore[arg-type]
