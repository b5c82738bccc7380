"""An embed's messages in each engine (tests/e2e/test_layout_fit.py measures them in Chromium
with real wheel scrolls): four bad parameters in a 320 x 420 frame of a host page
(tests/engines/frame.html: WebKitGTK's window is no narrower than 447 px, and an embed lives in
a frame anyway), more notices than the area shows; at the top and after a scroll that stops
between two lines (static/boot.js brings it to rest on a line), no line of text is cut by the
area's edges, and the fade lies over the area's last line while more follows and over none at
the end."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from drivers import Profile, Server

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from test_layout_fit import LINES  # the same measure as in Chromium


def inside(function: str) -> str:
    """``function`` (JavaScript source) run in the game's frame of tests/engines/frame.html."""
    return ("() => document.getElementById('game').contentWindow"
            f".eval('(' + {json.dumps(function)} + ')')()")


def test_an_embeds_messages_show_whole_lines_and_a_cue(profile: Profile, server: Server) -> None:
    profile.goto(server.url + "tests/engines/frame.html"
                 "?embed=1&start=now&size=99&players=x&lang=zz&seats=foo")
    assert profile.call(inside("() => [innerWidth, innerHeight]")) == [320, 420]
    profile.wait_for(inside("() => document.documentElement.dataset.ready === '1'"),
                     what="the game ready in its frame", timeout=240)
    profile.wait_for(inside("() => document.querySelectorAll('#notice-list li').length === 4"),
                     what="four notices")
    # (100 and 170: Firefox cut a line by 1-1.5 px there, its notices 54.5 px high)
    for at, end in ((0, False), (25, False), (100, False), (170, False), (10_000, True)):
        profile.call(inside(f"() => {{ document.getElementById('messages').scrollTop = {at}; }}"))
        profile.wait_for(inside(
            "() => new Promise((done) => { const a = document.getElementById('messages'),"
            " t = a.scrollTop; setTimeout(() => done(a.scrollTop === t), 500); })"),
            what="the scroll at rest",
        )
        seen = profile.call(inside(LINES))
        assert seen["lines"] > 6 and seen["cut"] == [], (at, seen)
        assert "gradient" in seen["fade"], seen
        assert (seen["top"] >= seen["end"] - 1) == end, seen
        assert seen["faded"] == (0 if end else 1), seen
