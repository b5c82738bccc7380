"""Texts kept as (key, values) and translated when shown, so that the page's language is
decided once and a language change re-translates what is already queued.

A :class:`Message` is a catalog key of :mod:`sos.app.text.i18n` with its placeholder values; a value
may itself be a :class:`Message` (e.g. the reason inside "size=13 ignored: …"), translated in
the same language. Notices (:attr:`sos.app.app.AppSession.notices`), the notices of
:func:`sos.app.share.params.parse_params` and the errors of records and links are Messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import ntext, text


@dataclass(frozen=True)
class Message:
    """The catalog message ``key`` with placeholder ``values`` (name, value) pairs; with a
    ``count`` it is the plural message for that count (:func:`sos.app.text.i18n.ntext`).

    Equal keys and values compare equal, so a queued notice can be found and removed by value.
    """

    key: str
    values: tuple[tuple[str, object], ...] = ()
    count: int | None = None

    def text(self, lang: str) -> str:
        """The message in ``lang`` (nested Messages translated in ``lang`` too).

        Raises:
            KeyError: for a key the catalog does not have (a programming error).
        """
        values = {
            name: value.text(lang) if isinstance(value, Message) else value
            for name, value in self.values
        }
        if self.count is not None:
            return ntext(lang, self.key, self.count, **values)
        return text(lang, self.key, **values)


def message(key: str, **values: object) -> Message:
    """``Message(key, values)``: e.g. ``message("remote.error", reason=...)``."""
    return Message(key, tuple(values.items()))


def plural(key: str, count: int, **values: object) -> Message:
    """The plural message ``key`` for ``count``: e.g. ``plural("remote.updated", 3, moves=3)``."""
    return Message(key, tuple(values.items()), count)
