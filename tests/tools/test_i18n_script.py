"""scripts/i18n.py update and check, on copies of the catalogs and of the English source.

(The catalogs themselves are checked in tests/app/test_i18n.py.)
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import i18n as tool  # scripts/i18n.py (tests/conftest.py puts scripts/ on sys.path)
import pytest


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of locale/ and of sos/app/text/i18n.py that the tool reads and writes instead."""
    shutil.copytree(tool.LOCALE, tmp_path / "locale")
    shutil.copy(tool.SOURCE, tmp_path / "i18n.py")
    monkeypatch.setattr(tool, "LOCALE", tmp_path / "locale")
    monkeypatch.setattr(tool, "SOURCE", tmp_path / "i18n.py")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "NUMBERS_MODULE", tmp_path / "cldr.py")
    return tmp_path


def _edit_source(sandbox: Path, old: str, new: str) -> None:
    source = sandbox / "i18n.py"
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1
    source.write_text(text.replace(old, new), encoding="utf-8")


def _message(lang: str, key: str) -> tool.Message:
    found = [m for m in tool.read(lang) if m.context == key]
    assert len(found) == 1, key
    return found[0]


def _set_translation(lang: str, key: str, translation: str) -> None:
    po = tool.po_path(lang)
    text = po.read_text(encoding="utf-8")
    pattern = rf'(msgctxt "{re.escape(key)}"\nmsgid "[^"]*"\nmsgstr )"[^"]*"'
    changed, count = re.subn(pattern, rf'\1"{translation}"', text)
    assert count == 1, key
    po.write_text(changed, encoding="utf-8")


RESIGN = '    "share.title": "Share this game",\n    "button.resign": "Resign this game?",\n'


def test_update_leaves_a_new_message_empty(sandbox: Path) -> None:
    _edit_source(sandbox, '    "share.title": "Share this game",\n', RESIGN)
    # What Babel's fuzzy matching does with it: the German of "Share this game".
    guessed = tool.read("de")
    guessed.update(tool.template())
    guess = next(m for m in guessed if m.context == "button.resign")
    assert guess.string and guess.fuzzy

    tool.update()
    for lang in tool.languages():
        message = _message(lang, "button.resign")
        assert (message.string, message.fuzzy) == ("", False), lang
        assert f"{lang}: button.resign: empty" in "\n".join(tool.problems(lang))
    # every other message kept its translation
    assert _message("de", "share.title").string == "Diese Partie teilen"
    assert _message("de", "button.undo").string == "Rückgängig"


def test_update_keeps_a_changed_message_fuzzy_for_review(sandbox: Path) -> None:
    _edit_source(sandbox, '"button.undo": "Undo",', '"button.undo": "Undo the move",')
    tool.update()
    message = _message("de", "button.undo")
    assert (message.id, message.string, message.fuzzy) == ("Undo the move", "Rückgängig", True)
    # the old English is written for the translator (Babel's reader does not keep it)
    assert '#, fuzzy\n#| msgid "Undo"\nmsgctxt "button.undo"\n' in tool.po_path("de").read_text(
        encoding="utf-8"
    )
    assert "de: button.undo: fuzzy (not checked by a translator)" in list(tool.problems("de"))


def test_update_of_current_catalogs_changes_nothing(sandbox: Path) -> None:
    before = {p.name: p.read_bytes() for p in (sandbox / "locale").glob("*.po")}
    tool.update()
    after = {p.name: p.read_bytes() for p in (sandbox / "locale").glob("*.po")}
    assert after == before


def test_check_reports_english_left_in_a_catalog(sandbox: Path) -> None:
    _set_translation("de", "button.undo", "Undo")
    _set_translation("fr", "share.title", "Share this game")
    assert [line for line in tool.problems("de") if "button.undo" in line] == [
        "de: button.undo: still English ('Undo'); translate it, or if it is the same word in "
        "de, add 'button.undo' to SAME_AS_ENGLISH['de'] in scripts/i18n.py"
    ]
    assert any(line.startswith("fr: share.title: still English") for line in tool.problems("fr"))


def test_check_accepts_what_is_the_same_in_a_language(sandbox: Path) -> None:
    # The game's name, placeholders only, and words listed in SAME_AS_ENGLISH.
    assert _message("de", "app.title").string == "SOS"
    assert _message("de", "cell.letter").string == "{square}, {letter}"
    assert _message("de", "player.computer").string == "Computer {n}"
    assert list(tool.problems("de")) == []
    # ... but only in the language listed: "Computer {n}" left in Turkish is English.
    _set_translation("tr", "player.computer", "Computer {n}")
    found = list(tool.problems("tr"))
    assert any(line.startswith("tr: player.computer: still English") for line in found)


def test_check_says_why_it_fails(sandbox: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert tool.main(["i18n.py", "check"]) == 0
    assert capsys.readouterr().out == "i18n: all catalogs complete\n"
    _set_translation("es", "button.undo", "")
    assert tool.main(["i18n.py", "check"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("es: button.undo: empty (untranslated: the page shows English)\n")
    assert "fails the language tests" in out
    assert "tests/e2e/test_languages.py" in out and "tests/app/test_i18n.py" in out


def test_the_number_table_is_babels_cldr_data(sandbox: Path) -> None:
    """sos/app/text/cldr.py is what ``numbers`` (and ``update``) generate from Babel now, for every
    language of LANGUAGE_NAMES (rerun ``python scripts/i18n.py numbers`` after a Babel update)."""
    shipped = (
        Path(tool.__file__).resolve().parent.parent / "sos" / "app" / "text" / "cldr.py"
    ).read_text(encoding="utf-8")
    assert shipped == tool.numbers_source()
    tool.update()
    assert (sandbox / "cldr.py").read_text(encoding="utf-8") == shipped
    assert tool.number_formats("de") == (",", "", "\u00a0%")
    assert tool.number_formats("tr") == (",", "%", "")
    assert tool.number_formats("en") == (".", "", "%")
