"""The gettext catalogs (locale/*.po) against the English source (sos/app/text/i18n.py)."""

from __future__ import annotations

import gettext
import gzip
import io
import json
import re
import shutil
import zlib
from pathlib import Path

import i18n as tool  # scripts/i18n.py (tests/conftest.py puts scripts/ on sys.path)
import pytest
from babel import Locale

from sos.app.text import i18n
from sos.app.text.i18n import EN, EN_PLURAL, LANGUAGE_NAMES, LANGUAGES, ntext, text

ROOT = Path(__file__).resolve().parents[2]
COUNTS = (0, 1, 2, 5, 11, 100)
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def test_one_catalog_per_language() -> None:
    assert LANGUAGES[0] == "en"
    assert sorted(TRANSLATED) == tool.languages()
    for lang, (name, writing) in LANGUAGE_NAMES.items():
        assert Locale.parse(lang).get_display_name(lang).lower().startswith(name.lower()[:4])
        assert writing == Locale.parse(lang).text_direction


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_is_complete_and_current(lang: str) -> None:
    assert list(tool.problems(lang)) == []


def _copy_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    locale = tmp_path / "locale"
    shutil.copytree(tool.LOCALE, locale)
    monkeypatch.setattr(tool, "LOCALE", locale)
    return locale / "de.po"


def test_the_check_finds_a_missing_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    po = _copy_locale(tmp_path, monkeypatch)
    text_ = po.read_text(encoding="utf-8")
    entry = re.search(r'#: sos/app/text/i18n.py\nmsgctxt "button.undo"\n.*?\n\n', text_, re.S)
    assert entry
    po.write_text(text_.replace(entry.group(0), ""), encoding="utf-8")
    assert list(tool.problems("de")) == ["de: button.undo: missing"]


def test_the_check_finds_a_stale_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    po = _copy_locale(tmp_path, monkeypatch)
    stale = '\n#: sos/app/text/i18n.py\nmsgctxt "button.gone"\nmsgid "Gone"\nmsgstr "Weg"\n'
    changed = po.read_text(encoding="utf-8").replace('msgid "Undo"\n', 'msgid "Undo it"\n')
    po.write_text(changed + stale, encoding="utf-8")
    found = list(tool.problems("de"))
    assert "de: button.gone: stale (no such message in sos/app/text/i18n.py)" in found
    assert any(line.startswith("de: button.undo: stale") for line in found)


def test_the_check_finds_broken_placeholders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    po = _copy_locale(tmp_path, monkeypatch)
    text_ = po.read_text(encoding="utf-8")
    text_ = text_.replace('msgstr "{name} ist am Zug"', 'msgstr "{nme} ist am Zug"')
    text_ = text_.replace('msgstr "Spieler {n}"', 'msgstr "Spieler {n"')
    text_ = text_.replace('msgstr[1] "{moves} Züge"', 'msgstr[1] "Züge"')
    po.write_text(text_, encoding="utf-8")
    found = "\n".join(tool.problems("de"))
    assert "status.turn: unknown placeholder(s) ['nme']" in found
    assert "status.turn: placeholder(s) ['name'] left out" in found
    assert "player.name: broken placeholder" in found
    assert "games.moves: placeholder(s) ['moves'] left out" in found


def _categories(lang: str) -> tuple[str, ...]:
    return tool.PLURAL_CATEGORIES.get(lang, ("one", "other"))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_follow_cldr(lang: str) -> None:
    """The Plural-Forms rule of each catalog picks, for 0, 1, 2, 5, 11, 100 (and up to 200), the
    form of the CLDR plural category of that count (Arabic: six forms)."""
    catalog = tool.read(lang)
    rule = gettext.c2py(catalog.plural_expr)
    locale = Locale.parse(lang)
    assert catalog.num_plurals == len(_categories(lang))
    for n in (*COUNTS, *range(201)):
        if catalog.num_plurals == 1:  # no plural nouns after a number (Turkish "5 hamle")
            assert rule(n) == 0
        else:
            assert _categories(lang)[rule(n)] == locale.plural_form(n), (lang, n)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_messages_in_the_app(lang: str) -> None:
    """ntext gives the catalog's form for each count, the count written in it where it is."""
    rule = gettext.c2py(tool.read(lang).plural_expr)
    forms = {m.context: m.string for m in tool.read(lang) if isinstance(m.id, tuple)}
    for n in COUNTS:
        got = ntext(lang, "games.moves", n, moves=n)
        assert got == forms["games.moves"][rule(n)].format(moves=n)
        assert got != ntext("en", "games.moves", n, moves=n) or lang == "en"
        if "{moves}" in forms["games.moves"][rule(n)]:
            assert str(n) in got


def test_english_plurals() -> None:
    assert [ntext("en", "games.moves", n, moves=n) for n in (0, 1, 2)] == [
        "0 moves",
        "1 move",
        "2 moves",
    ]
    assert ntext("en", "notice.shared_loaded", 1, moves=1) == "Shared game loaded: 1 move."


def test_names_and_counts_fit_the_grammar_around_them() -> None:
    """Issue 32, item 10: Greek put a name (nominative, "Παίκτης 1") after a genitive article
    ("Σειρά του Παίκτης 1"); it now says "Σειρά: Παίκτης 1", which holds for any name. Counts
    that can be 1 take a plural message ("1 character", "+1 point")."""
    from sos.app.game.view import player_name
    from sos.app.share.remote import LinkError

    assert text("el", "status.turn", name=player_name("el", 0)) == "Σειρά: Παίκτης 1"
    articles = re.compile(r"\b(του|της|τον|την|στον|στην|Ο|ο|Η|η) \{(name|me|who)\}")  # noqa: RUF001
    for message in tool.read("el"):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:  # an article fixes the gender and case of any name
            assert not articles.search(string), (message.context, string)
    assert LinkError("too_long", extra=1).reason_in("en") == (
        "it has 1 character too many at the end")
    assert LinkError("too_long", extra=3).reason_in("fr").startswith("il a 3 caractères")
    assert ntext("en", "rating.change", 1, change="+1") == "+1 point"
    assert ntext("ar", "rating.change", 5, change="-5") == "-5 نقاط"
    garbage = LinkError("version", version=32)  # what "?r=garbage" gives
    for lang in LANGUAGES:
        assert "32" not in garbage.reason_in(lang), lang  # no format number for a player


@pytest.mark.skipif("ar" not in LANGUAGES, reason="no Arabic catalog yet")
def test_arabic_has_six_forms() -> None:
    texts = {ntext("ar", "games.moves", n, moves=n) for n in COUNTS}
    assert len(texts) == 6


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_renders(lang: str) -> None:
    values = {name: 7 for name in ("n", "points", "moves", "ply", "total", "score", "size")}
    for key, english in EN.items():
        names = tool.fields(english)
        got = text(lang, key, **{n: values.get(n, f"<{n}>") for n in names})
        assert got.strip()
    for key in EN_PLURAL:
        names = tool.fields(EN_PLURAL[key][1]) | tool.fields(EN_PLURAL[key][0])
        assert ntext(lang, key, 7, **{n: values.get(n, 7) for n in names}).strip()


def test_a_language_without_its_catalog_speaks_english() -> None:
    assert not i18n.installed("xx")
    assert text("xx", "button.undo") == "Undo"
    assert i18n.installed("en")


def test_boot_error_english_matches_the_source() -> None:
    """static/boot-error.js shows English without a download; the other languages come from
    the catalogs (static/vendor/i18n/boot.json, built)."""
    js = (ROOT / "static" / "boot-error.js").read_text(encoding="utf-8")
    block = re.search(r"const ENGLISH = (\{.*?\});", js, re.S)
    assert block
    inline = json.loads(re.sub(r"(\w+):", r'"\1":', block.group(1)).replace(",\n}", "\n}"))
    assert inline == {k: EN[f"boot.{k}"] for k in tool.BOOT_KEYS}


def test_compile_writes_catalogs_boot_texts_and_manifests(tmp_path: Path) -> None:
    out = tmp_path / "static" / "vendor" / "i18n"
    monkey_root = tool.ROOT
    assert monkey_root == ROOT
    written = tool.compile_all(out)
    names = {p.name for p in written}
    for lang in TRANSLATED:
        assert {f"{lang}.mo.gz", f"manifest.{lang}.webmanifest"} <= names
        with gzip.open(out / f"{lang}.mo.gz", "rb") as handle:
            catalog = gettext.GNUTranslations(handle)
        assert catalog.pgettext("button.undo", "Undo") == text(lang, "button.undo")
    boot = json.loads((out / "boot.json").read_text(encoding="utf-8"))
    assert set(boot) == set(LANGUAGES)
    assert boot["de"]["retry"] == "Erneut versuchen"
    manifest = json.loads((ROOT / "static" / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert (manifest["name"], manifest["description"]) == (
        EN["manifest.name"],
        EN["manifest.description"],
    )
    german = json.loads((out / "manifest.de.webmanifest").read_text(encoding="utf-8"))
    assert german["name"] == text("de", "manifest.name") and german["lang"] == "de"
    assert german["icons"][0]["src"] == "../../icons/icon.svg"
    assert german["start_url"] == "../../../index.html"


def test_compile_ships_the_catalogs_gzip_compressed_and_reproducible(tmp_path: Path) -> None:
    """Each catalog is <lang>.mo.gz (Pages does not compress a .mo): at most half the .mo,
    the same bytes from every build (no time stamp), and install reads it as the .mo itself."""
    first, second = tmp_path / "a", tmp_path / "b"
    tool.compile_all(first)
    tool.compile_all(second)
    for lang in TRANSLATED:
        packed = (first / f"{lang}.mo.gz").read_bytes()
        assert packed == (second / f"{lang}.mo.gz").read_bytes()
        assert not (first / f"{lang}.mo").exists()
        mo = gzip.decompress(packed)
        assert mo[:4] in (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde")  # the .mo magic
        assert len(packed) * 2 <= len(mo), (lang, len(packed), len(mo))
        catalog = gettext.GNUTranslations(io.BytesIO(mo))
        i18n.install(lang, packed)
        assert text(lang, "button.undo") == catalog.pgettext("button.undo", "Undo") != "Undo"
        i18n.install(lang, mo)  # a server that sent it with Content-Encoding: gzip
        assert text(lang, "button.undo") == catalog.pgettext("button.undo", "Undo")


def test_a_damaged_compressed_catalog_raises_and_keeps_the_installed_one(tmp_path: Path) -> None:
    tool.compile_all(tmp_path)
    before = text("de", "button.undo")
    packed = (tmp_path / "de.mo.gz").read_bytes()
    with pytest.raises(zlib.error):
        i18n.install("de", packed[: len(packed) // 2])
    assert text("de", "button.undo") == before != "Undo"


def test_compile_writes_the_first_paint_texts_of_every_language(tmp_path: Path) -> None:
    """static/vendor/i18n/first-paint.js: the texts static/boot.js draws the page with before
    Python runs, from the catalogs -- the page's keys outside its dialogs, the status and the
    players' labels, a plural in its form for 0 -- with each language's direction."""
    from sos.app.text.i18n import ntext

    out = tmp_path / "i18n"
    tool.compile_all(out)
    module = (out / tool.FIRST_PAINT_FILE).read_text(encoding="utf-8")
    found = re.fullmatch(r"// Generated [^\n]*\nexport const TEXTS = (\{.*\});\n", module, re.S)
    assert found, module[:200]
    texts = json.loads(found.group(1))
    assert set(texts) == set(LANGUAGES)
    assert texts["de"]["status.tap_to_start"] == text("de", "status.tap_to_start")
    assert texts["ar"]["dir"] == "rtl" and texts["en"]["dir"] == "ltr"
    assert texts["fr"]["player.name"] == text("fr", "player.name", n="{n}")
    assert texts["ar"]["score.label"] == ntext(
        "ar", "score.label", 0, name="{name}", score="{score}", style="{style}"
    )
    assert {"letter.S", "embed.open_full", "button.review", "scores.label"} <= set(texts["el"])
    assert "help.title" not in texts["el"]  # in a dialog: translated by Python when opened
    assert "review.title" not in texts["el"]  # a hidden panel
    assert len(module.encode()) < 30_000


def test_decimal_and_percent_use_cldr_symbols() -> None:
    from sos.app.text.i18n import LANGUAGES, decimal, percent

    assert [decimal(lang, 1.25, 1) for lang in ("en", "de", "fr", "tr", "ar", "hi")] == [
        "1.2", "1,2", "1,2", "1,2", "1.2", "1.2"
    ]
    assert decimal("de", 2.0) == "2" and decimal("de", 2.0, trim=False) == "2,0"
    assert decimal("en", 0.375, 2) == "0.38" and decimal("fr", 3.5, 0) == "4"
    assert decimal("de", -0.01) == "0" and decimal("de", -1.5) == "-1,5"
    assert percent("en", 95.8) == "95.8%" and percent("de", 95.8) == "95,8\u00a0%"
    assert percent("fr", 95.84) == "95,8\u00a0%" and percent("tr", 95.8) == "%95,8"
    assert percent("hi", 50, 0) == "50%" and percent("ar", 50, 0) == "50\u200e%\u200e"
    assert percent("xx", 12.5) == "12.5%"  # an unknown language: English
    for lang in LANGUAGES:  # every language has its row
        assert decimal(lang, 0.5) in ("0.5", "0,5")
