#!/usr/bin/env python3
"""The gettext catalogs of the app (locale/<lang>.po), kept with Babel.

Commands (run from anywhere; paths are relative to the repository):

  python scripts/i18n.py update         extract the messages from sos/app/text/i18n.py (key =
                                        msgctxt, English = msgid) and merge them into every
                                        locale/*.po:
                                        a new key comes in empty (no guess from a similar
                                        message), a key whose English changed keeps its old
                                        translation marked fuzzy (with the old English as
                                        ``#| msgid``) for a translator to check, removed keys
                                        are dropped. A ``DE`` dict still left in
                                        sos/app/text/i18n.py (a branch written before the
                                        catalogs) fills empty German entries first.
  python scripts/i18n.py init LANG      start locale/LANG.po (then add LANG to LANGUAGE_NAMES)
  python scripts/i18n.py numbers        write sos/app/text/cldr.py: each language's decimal
                                        symbol and percent format from CLDR (Babel), which the
                                        page reads
                                        without Babel (``update`` writes it too)
  python scripts/i18n.py check          list what a catalog misses, has stale, or breaks
                                        (empty, fuzzy or still English messages, placeholders,
                                        plural forms); exit 1 if anything. Each of these fails
                                        the language tests: every language needs a real
                                        translation of every message.
  python scripts/i18n.py compile [DIR]  write DIR (default static/vendor/i18n/): <lang>.mo.gz
                                        (the .mo, gzip -9, no time stamp: GitHub Pages
                                        serves a .mo uncompressed) for each language but
                                        English, boot.json (the start-up
                                        failure texts for static/boot-error.js) and
                                        manifest.<lang>.webmanifest (name and description)

``scripts/build.mjs`` runs ``compile``; ``tests/app/test_i18n.py`` runs the checks on the
catalogs, ``tests/tools/test_i18n_script.py`` tests this script.
"""

from __future__ import annotations

import ast
import gzip
import io
import json
import posixpath
import re
import string
import sys
from collections.abc import Iterator
from pathlib import Path

from babel import Locale
from babel import __version__ as BABEL_VERSION
from babel.core import get_cldr_version
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "sos" / "app" / "text" / "i18n.py"
LOCALE = ROOT / "locale"
OUT = ROOT / "static" / "vendor" / "i18n"
MANIFEST = ROOT / "static" / "manifest.webmanifest"
NUMBERS_MODULE = ROOT / "sos" / "app" / "text" / "cldr.py"
DOMAIN = "sos"
#: Plural-Forms where Babel's default is not the one wanted. Arabic: GNU gettext's standard rule,
#: zero, one, two, few (3-10), many (11-99), other (100-102, ...) (Babel orders the last two
#: otherwise). Portuguese (Brazilian) and Hindi: 0 and 1 singular, as CLDR's "pt" and "hi".
PLURAL_FORMS = {
    "pt": "nplurals=2; plural=(n > 1);",
    "hi": "nplurals=2; plural=(n > 1);",
    "ar": "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
    "n%100>=11 ? 4 : 5);",
}
#: The CLDR plural category of each gettext form index, per language (for the plural test).
PLURAL_CATEGORIES = {
    "ar": ("zero", "one", "two", "few", "many", "other"),
    "tr": ("other",),
}
BOOT_KEYS = ("title", "file", "network", "portal", "clock", "slow", "runtime", "retry", "detail")
#: Words that are the same in every language: the game's name and its letters.
#: The page's texts drawn before Python runs (static/boot.js), besides the ``data-i18n*`` keys of
#: index.html outside its dialogs: the status, the players' names and labels, the squares'
#: labels, the puzzle embed's button. Written into :data:`FIRST_PAINT_FILE` for every language.
FIRST_PAINT_KEYS = (
    "app.title", "status.loading", "status.tap_to_start", "player.name", "player.computer",
    "player.style.0", "player.style.1", "player.style.2", "player.style.3",
    "level.easy", "level.medium", "level.hard", "level.perfect",
    "cell.empty", "cell.letter", "board.label", "embed.puzzle_start", "puzzles.daily",
    "button.puzzles",
)
#: Plural messages of the first paint, in their form for a count of 0 (every score is 0 then).
FIRST_PAINT_ZERO = ("score.label", "score.label.computer")
FIRST_PAINT_FILE = "first-paint.js"
UNIVERSAL_WORDS = frozenset({"SOS", "S", "O"})
#: Messages whose translation is rightly the English text in that language (the same word),
#: by key. Any other message left in English is reported by ``check``.
SAME_AS_ENGLISH = {
    "de": frozenset({"player.computer", "puzzles.difficulty.normal"}),  # "Computer {n}"
    "es": frozenset({"games.mode.general", "games.mode.simple", "puzzles.difficulty.normal"}),
    "fr": frozenset({"games.mode.simple", "stats.col.score", "rating.change", "puzzles.context"}),
    "pt": frozenset({"puzzles.difficulty.normal"}),
    "tr": frozenset({"puzzles.difficulty.normal"}),
}
#: What ``check`` says after its list: why each line matters.
WHY = (
    "i18n: every language needs a real translation of every message: an empty, fuzzy or "
    "English message shows English in that language's page, and fails the language tests "
    "(tests/app/test_i18n.py: test_catalog_is_complete_and_current; "
    "tests/e2e/test_languages.py: no English left in the page). Translate each line above in "
    "locale/<lang>.po (remove the '#, fuzzy' line once checked), then run this check again."
)


def _dict_literal(tree: ast.Module, name: str) -> tuple[dict[str, object], dict[str, int]] | None:
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if isinstance(target, ast.Name) and target.id == name and node.value is not None:
            assert isinstance(node.value, ast.Dict)
            lines = {
                ast.literal_eval(k): k.lineno
                for k in node.value.keys
                if isinstance(k, ast.Constant)
            }
            return ast.literal_eval(node.value), lines
    return None


def source_messages() -> tuple[dict[str, str], dict[str, tuple[str, str]], dict[str, str]]:
    """(EN, EN_PLURAL, leftover DE) read from sos/app/text/i18n.py without importing it."""
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    en = _dict_literal(tree, "EN")
    plural = _dict_literal(tree, "EN_PLURAL")
    if en is None or plural is None:
        raise SystemExit("i18n: sos/app/text/i18n.py has no EN or EN_PLURAL dict")
    de = _dict_literal(tree, "DE")
    return en[0], plural[0], (de[0] if de else {})  # type: ignore[return-value]


def direction(lang: str) -> str:
    """``rtl`` or ``ltr``, from LANGUAGE_NAMES in sos/app/text/i18n.py."""
    found = _dict_literal(ast.parse(SOURCE.read_text(encoding="utf-8")), "LANGUAGE_NAMES")
    names = found[0] if found else {}
    entry = names.get(lang, ("", "ltr"))
    return str(entry[1])  # type: ignore[index]


def number_formats(lang: str) -> tuple[str, str, str]:
    """CLDR's (decimal symbol, percent prefix, percent suffix) of ``lang`` in Latin digits
    (``"de"`` -> ``(",", "", "\\xa0%")``, ``"tr"`` -> ``(",", "%", "")``), from Babel."""
    locale = Locale.parse(lang)
    symbols = locale.number_symbols["latn"]
    pattern = locale.percent_formats[None].pattern.split(";")[0]
    digits = re.search(r"[#0][#0,.]*", pattern)
    assert digits is not None, pattern
    sign = symbols["percentSign"]
    prefix, suffix = pattern[: digits.start()], pattern[digits.end() :]
    return symbols["decimal"], prefix.replace("%", sign), suffix.replace("%", sign)


def numbers_source() -> str:
    """The text of sos/app/text/cldr.py for the languages of LANGUAGE_NAMES."""
    found = _dict_literal(ast.parse(SOURCE.read_text(encoding="utf-8")), "LANGUAGE_NAMES")
    langs = sorted(found[0]) if found else []
    rows = "".join(
        "    {}: ({}),\n".format(
            json.dumps(lang), ", ".join(json.dumps(x) for x in number_formats(lang))
        )
        for lang in langs
    )
    cldr = get_cldr_version()
    return (
        '"""Each language\'s decimal symbol and percent format, from CLDR (Babel '
        f"{BABEL_VERSION}, CLDR {cldr}).\n\n"
        "Generated by ``python scripts/i18n.py numbers`` (``update`` runs it too): do not edit.\n"
        "The page has no Babel; :func:`sos.app.text.i18n.decimal` and "
        ":func:`sos.app.text.i18n.percent`\n"
        "read this table. tests/tools/test_i18n_script.py fails when it differs from Babel's.\n"
        '"""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Final\n\n"
        "#: language -> (decimal symbol, percent prefix, percent suffix), Latin digits.\n"
        "NUMBERS: Final[dict[str, tuple[str, str, str]]] = {\n"
        f"{rows}"
        "}\n"
    )


def write_numbers() -> None:
    NUMBERS_MODULE.write_text(numbers_source(), encoding="utf-8")
    print(f"i18n: wrote {NUMBERS_MODULE.relative_to(ROOT)}")


def template() -> Catalog:
    """The message template (what a .pot would hold): every key of sos/app/text/i18n.py."""
    en, plural, _ = source_messages()
    pot = Catalog(domain=DOMAIN, project="SOS", fuzzy=False)
    for key, english in en.items():
        pot.add(english, locations=[("sos/app/text/i18n.py", None)], context=key)
    for key, (one, other) in plural.items():
        pot.add((one, other), locations=[("sos/app/text/i18n.py", None)], context=key)
    return pot


def po_path(lang: str) -> Path:
    return LOCALE / f"{lang}.po"


def languages() -> list[str]:
    """The languages with a catalog (locale/*.po), sorted."""
    return sorted(p.stem for p in LOCALE.glob("*.po"))


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


HEADER = (
    "# SOS, the paper-and-pencil game: {name} translation.\n"
    "# Messages come from sos/app/text/i18n.py (msgctxt = the key); update with\n"
    "# `python scripts/i18n.py update`, check with `python scripts/i18n.py check`."
)


def write(lang: str, catalog: Catalog) -> None:
    name = catalog.locale.english_name if catalog.locale else lang
    catalog.header_comment = HEADER.format(name=name)
    catalog.project, catalog.version = "SOS", "1"
    if catalog.last_translator in ("", "None", "SOS", "FULL NAME <EMAIL@ADDRESS>"):
        catalog.last_translator = "SOS translators"
    catalog.language_team = f"{lang} (SOS)"
    if lang in PLURAL_FORMS:
        # Babel writes its own Plural-Forms for the locale; keep gettext's standard one.
        catalog._num_plurals, catalog._plural_expr = _parse_plural(PLURAL_FORMS[lang])
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalog,
        width=0,
        include_lineno=False,
        ignore_obsolete=True,
        include_previous=True,
    )
    data = buffer.getvalue()
    if lang in PLURAL_FORMS:
        lines = [
            f'"Plural-Forms: {PLURAL_FORMS[lang]}\\n"'.encode()
            if line.startswith(b'"Plural-Forms:')
            else line
            for line in data.split(b"\n")
        ]
        data = b"\n".join(lines)
    po_path(lang).write_bytes(data)


def _parse_plural(header: str) -> tuple[int, str]:
    nplurals, expr = header.rstrip(";").split(";", 1)
    return int(nplurals.split("=")[1]), expr.strip().removeprefix("plural=")


def merge(catalog: Catalog, pot: Catalog) -> None:
    """Bring ``catalog`` up to ``pot`` (the template), matching messages by key only.

    A key that ``catalog`` has with the same English keeps its translation; a key whose English
    changed keeps its old translation marked fuzzy, with the old English as ``previous_id``
    (``#| msgid``), when singular/plural still match (else it comes in empty); a new key comes
    in empty; keys ``pot`` lacks become obsolete (not written). Babel's own fuzzy matching is
    off: it guesses from similar English of *other* keys ("Resign this game?" got the German
    of "Share this game").
    """
    old = {m.context: m for m in catalog if m.id and m.string and not _empty(m.string)}
    catalog.update(pot, no_fuzzy_matching=True)
    for message in catalog:
        before = old.get(message.context)
        if not message.id or before is None or not _empty(message.string):
            continue
        if before.id == message.id or isinstance(before.id, str) != isinstance(message.id, str):
            continue
        message.string = before.string
        message.flags.add("fuzzy")
        message.previous_id = [before.id] if isinstance(before.id, str) else list(before.id)


def _empty(string: object) -> bool:
    if isinstance(string, (list, tuple)):
        return not any(string)
    return not string


def update() -> None:
    _, _, legacy_de = source_messages()
    for lang in languages():
        # A fresh template per language: Catalog.update adds the template's own Message
        # objects, so filling one catalog's new messages would fill the next ones too.
        pot = template()
        catalog = read(lang)
        pot.creation_date = catalog.creation_date  # no churn in the headers
        merge(catalog, pot)
        if lang == "de" and legacy_de:
            for message in catalog:
                key = message.context
                if key in legacy_de and (not message.string or message.fuzzy) and isinstance(
                    message.id, str
                ):
                    message.string = str(legacy_de[key])
                    message.flags.discard("fuzzy")
        write(lang, catalog)
        print(f"i18n: updated {po_path(lang).relative_to(ROOT)}")
    write_numbers()
    if legacy_de:
        print(
            "i18n: German texts taken from the DE dict in sos/app/text/i18n.py: delete that "
            "dict now"
        )


def init(lang: str) -> None:
    if po_path(lang).exists():
        raise SystemExit(f"i18n: {po_path(lang)} exists already")
    catalog = Catalog(locale=lang, domain=DOMAIN, project="SOS", fuzzy=False)
    catalog.update(template())
    write(lang, catalog)
    print(f"i18n: wrote {po_path(lang).relative_to(ROOT)}; add {lang!r} to LANGUAGE_NAMES")


def fields(message: str) -> set[str]:
    """The ``str.format`` placeholders of ``message``.

    Raises:
        ValueError: for a broken placeholder (an unmatched brace).
    """
    return {name for _, name, _, _ in string.Formatter().parse(message) if name is not None}


def problems(lang: str) -> Iterator[str]:
    """Everything wrong with locale/<lang>.po against sos/app/text/i18n.py, one line each."""
    pot = template()
    catalog = read(lang)
    wanted = {m.context: m for m in pot if m.id}
    seen: set[str] = set()
    if lang in PLURAL_FORMS and catalog.plural_forms != PLURAL_FORMS[lang]:
        yield f"{lang}: Plural-Forms is {catalog.plural_forms!r}, expected {PLURAL_FORMS[lang]!r}"
    for message in catalog:
        if not message.id:
            continue
        key = message.context or ""
        seen.add(key)
        source = wanted.get(key)
        if source is None:
            yield f"{lang}: {key}: stale (no such message in sos/app/text/i18n.py)"
            continue
        if message.id != source.id:
            yield f"{lang}: {key}: stale (its English text changed: run scripts/i18n.py update)"
            continue
        yield from _check_translation(lang, key, message, catalog.num_plurals)
    for key, _message in catalog.obsolete.items():
        yield f"{lang}: {key}: stale (obsolete entry)"
    for key in wanted.keys() - seen:
        yield f"{lang}: {key}: missing"


def _check_translation(lang: str, key: str, message: Message, nplurals: int) -> Iterator[str]:
    if message.fuzzy:
        yield f"{lang}: {key}: fuzzy (not checked by a translator)"
        return
    if isinstance(message.id, str):
        english, forms = fields(message.id), [message.string]
        allowed = english
    else:
        english = fields(message.id[1])
        allowed = english | fields(message.id[0])
        forms = list(message.string)
        if len(forms) != nplurals:
            yield f"{lang}: {key}: {len(forms)} plural forms, Plural-Forms says {nplurals}"
    last = len(forms) - 1
    english_forms = {message.id} if isinstance(message.id, str) else set(message.id)
    for index, form in enumerate(forms):
        if not form:
            yield f"{lang}: {key}: empty (untranslated: the page shows English)"
            return
        same = form in english_forms and not _same_everywhere(str(form))
        if same and key not in SAME_AS_ENGLISH.get(lang, ()):
            yield (
                f"{lang}: {key}: still English ({form!r}); translate it, or if it is the "
                f"same word in {lang}, add {key!r} to SAME_AS_ENGLISH[{lang!r}] in "
                "scripts/i18n.py"
            )
            return
        try:
            found = fields(str(form))
        except ValueError as error:
            yield f"{lang}: {key}: broken placeholder ({error})"
            continue
        if not found <= allowed:
            yield f"{lang}: {key}: unknown placeholder(s) {sorted(found - allowed)}"
        # a plural form other than the last may spell out its count ("one point", Arabic's
        # dual), so it may leave out one placeholder; the last form ("other") keeps them all
        left_out = english - found
        if left_out and (index == last or len(left_out) > 1):
            yield f"{lang}: {key}: placeholder(s) {sorted(left_out)} left out"


def _same_everywhere(message: str) -> bool:
    """True if ``message`` has no word but placeholders, numbers, signs and UNIVERSAL_WORDS."""
    try:
        words = " ".join(literal for literal, _, _, _ in string.Formatter().parse(message))
    except ValueError:
        return False
    return set(re.findall(r"[^\W\d_]+", words)) <= UNIVERSAL_WORDS


def compile_all(out: Path = OUT) -> list[Path]:
    """Write the gzip-compressed .mo files (``<lang>.mo.gz``), boot.json and the translated
    manifests to ``out``."""
    bad = [line for lang in languages() for line in problems(lang)]
    if bad:
        print("i18n: incomplete catalogs (English where missing):", file=sys.stderr)
        for line in bad[:20]:
            print(f"  {line}", file=sys.stderr)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    en, _, _ = source_messages()
    boot = {"en": {k: en[f"boot.{k}"] for k in BOOT_KEYS}}
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    for lang in languages():
        catalog = read(lang)
        path = out / f"{lang}.mo.gz"
        mo = io.BytesIO()
        write_mo(mo, catalog, use_fuzzy=False)
        path.write_bytes(gzip.compress(mo.getvalue(), compresslevel=9, mtime=0))
        (out / f"{lang}.mo").unlink(missing_ok=True)  # an uncompressed one of an older build
        written.append(path)
        strings = {m.context: m.string for m in catalog if m.id and not m.fuzzy}
        boot[lang] = {k: str(strings.get(f"boot.{k}") or en[f"boot.{k}"]) for k in BOOT_KEYS}
        boot[lang]["dir"] = direction(lang)
        written.append(_manifest(out, lang, manifest, strings, en))
    path = out / "boot.json"
    path.write_text(json.dumps(boot, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    written.append(path)
    written.append(write_first_paint(out))
    return written


def first_paint_keys(page: str) -> list[str]:
    """The message keys of ``page`` (index.html's text) outside its ``<dialog>`` elements and
    hidden ``<section>`` panels, then :data:`FIRST_PAINT_KEYS`: what the page shows before
    Python runs."""
    outside = re.sub(r"<dialog\b.*?</dialog>", "", page, flags=re.DOTALL)
    outside = re.sub(r"<section\b[^>]*\bhidden\b[^>]*>.*?</section>", "", outside, flags=re.DOTALL)
    found = re.findall(r'data-i18n(?:-aria|-title)?="([^"]+)"', outside)
    return list(dict.fromkeys([*found, *FIRST_PAINT_KEYS]))


def write_first_paint(out: Path) -> Path:
    """``out``/first-paint.js: the ES module static/boot.js imports to draw the page in its
    language before Python runs -- ``TEXTS[lang][key]`` for every language (``dir``: its
    writing direction; the ``{placeholders}`` kept for the page to fill; a plural message in
    its form for 0). Only texts: no rule of the game."""
    sys.path.insert(0, str(ROOT))
    from sos.app.text import i18n as app_i18n

    en, en_plural, _ = source_messages()
    keys = first_paint_keys((ROOT / "index.html").read_text(encoding="utf-8"))
    texts: dict[str, dict[str, str]] = {}
    for lang in ["en", *languages()]:
        if lang != "en":
            app_i18n.install(lang, (out / f"{lang}.mo.gz").read_bytes())
        table = {"dir": direction(lang)}
        for key in keys:
            kept = {name: "{" + name + "}" for name in fields(en[key])}
            table[key] = app_i18n.text(lang, key, **kept)
        for key in FIRST_PAINT_ZERO:
            kept = {name: "{" + name + "}" for name in fields(en_plural[key][1])}
            table[key] = app_i18n.ntext(lang, key, 0, **kept)
        texts[lang] = table
    path = out / FIRST_PAINT_FILE
    body = json.dumps(texts, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    path.write_text(
        "// Generated by scripts/i18n.py compile from locale/*.po: do not edit.\n"
        f"export const TEXTS = {body};\n",
        encoding="utf-8",
    )
    return path


def _manifest(
    out: Path, lang: str, base: dict[str, object], strings: dict[str, object], en: dict[str, str]
) -> Path:
    """manifest.<lang>.webmanifest: the app's manifest with name, description, lang and dir in
    ``lang``; its relative URLs rewritten for its folder (the same absolute URLs, so the same
    app ``id``)."""
    rel = posixpath.relpath("static", "static/vendor/i18n")  # where the page loads them from

    def moved(url: str) -> str:
        return posixpath.normpath(posixpath.join(rel, url))

    data = dict(base)
    for field in ("start_url", "scope", "id"):
        value = str(data[field])
        data[field] = moved(value) + ("/" if value.endswith("/") else "")
    data["icons"] = [{**icon, "src": moved(icon["src"])} for icon in base["icons"]]  # type: ignore[attr-defined]
    data["name"] = str(strings.get("manifest.name") or en["manifest.name"])
    data["description"] = str(strings.get("manifest.description") or en["manifest.description"])
    data["lang"] = lang
    data["dir"] = direction(lang)
    path = out / f"manifest.{lang}.webmanifest"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else ""
    if command == "update":
        update()
    elif command == "init" and len(argv) == 3:
        init(argv[2])
    elif command == "numbers":
        write_numbers()
    elif command == "check":
        bad = [line for lang in languages() for line in problems(lang)]
        if not bad:
            print("i18n: all catalogs complete")
            return 0
        print("\n".join(bad))
        print(WHY)
        return 1
    elif command == "compile":
        out = Path(argv[2]).resolve() if len(argv) > 2 else OUT
        files = compile_all(out)
        print(f"i18n: compiled {len(files)} files -> {out.relative_to(ROOT)}/")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
