"""Texts kept as (key, values) (sos.app.text.message): translated when shown, nested messages in
the same language, plural forms by count, equal by value."""

from __future__ import annotations

import pytest

from sos.app.text.i18n import ntext, text
from sos.app.text.message import Message, message, plural


def test_a_message_is_translated_when_shown() -> None:
    notice = message("remote.error", reason=message("record.reason.share_too_long"))
    for lang in ("en", "de", "ar"):
        reason = text(lang, "record.reason.share_too_long")
        assert notice.text(lang) == text(lang, "remote.error", reason=reason)
    assert notice.text("en") != notice.text("de")


def test_plural_messages_follow_the_count() -> None:
    one, many = plural("games.moves", 1, moves=1), plural("games.moves", 5, moves=5)
    assert one.text("en") == "1 move" and many.text("en") == "5 moves"
    assert many.text("de") == ntext("de", "games.moves", 5, moves=5)


def test_equal_keys_and_values_are_equal() -> None:
    assert message("notice.storage_full") == Message("notice.storage_full")
    assert message("notice.followed") != message("notice.forked")


def test_an_unknown_key_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        message("no.such.key").text("en")
