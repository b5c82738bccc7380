"""The preferences kept across games (``sos-prefs``): language, theme, letter, sound."""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..text.i18n import LANGUAGES

THEMES = ("auto", "light", "dark")


@dataclass
class Prefs:
    """Preferences kept across games: language (None: follow the browser), theme, letter,
    sound (off unless turned on)."""

    lang: str | None = None
    theme: str = "auto"
    letter: str = "S"
    sound: bool = False

    @classmethod
    def load(cls, raw: str | None) -> Prefs:
        """Read stored preferences; anything unreadable is replaced by the default."""
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        lang, theme, letter = data.get("lang"), data.get("theme"), data.get("letter")
        return cls(
            lang if lang in LANGUAGES else None,
            theme if isinstance(theme, str) and theme in THEMES else "auto",
            letter if isinstance(letter, str) and letter in ("S", "O") else "S",
            data.get("sound") is True,
        )

    def dump(self) -> str:
        """JSON text of the preferences."""
        return json.dumps(
            {"lang": self.lang, "theme": self.theme, "letter": self.letter, "sound": self.sound}
        )
