"""Players by name, rematch, the record against the computer, the puzzle rating, skip ahead,
language and theme in place, the hint's letter and How to play (issue 26) -- in English, German
and Arabic, at phone (390x844), embed (320x420, ``?embed=1``) and desktop (1280x800) sizes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers import EmbedHost, cell, computer_pause, write
from playwright.sync_api import BrowserContext, Page, expect

from sos import Action, Rules
from sos.app.learn.puzzle_set import DATA_PATH, Puzzle, parse_puzzles
from sos.app.share.remote import RemoteLink, encode_link
from sos.app.text.i18n import text
from sos.state import replay

Opener = Callable[..., Page]
ROOT = Path(__file__).resolve().parents[2]
SIZES = {"phone": (390, 844), "embed": (320, 420), "desktop": (1280, 800)}
# Texts the tests look for, per language (from the catalogs, checked here by hand).
WINS = {"en": "{} wins", "de": "{} gewinnt", "ar": "فاز {}"}
RATING = {"en": "Puzzle rating", "de": "Rätselwertung", "ar": "تصنيف الألغاز"}


@cache
def puzzles() -> tuple[Puzzle, ...]:
    return parse_puzzles((ROOT / DATA_PATH).read_text(encoding="utf-8"))


def sized(page: Page, size: str) -> str:
    """Set the viewport; the query suffix for that size (``&embed=1`` for the embed)."""
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    return "&embed=1" if size == "embed" else ""


def rating_value(page: Page) -> int:
    found = re.search(r"(\d{3,4})", page.get_by_test_id("puzzle-rating").inner_text())
    assert found, page.get_by_test_id("puzzle-rating").inner_text()
    return int(found.group(1))


# --------------------------------------------------------------------------- 1. the hint
@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("de", "phone"), ("ar", "phone")])
def test_the_hint_selects_its_letter(open_app: Opener, page: Page, lang: str, size: str) -> None:
    """A 3x3 position where the only good move is an O (S.S on the top row): after Hint the
    O button is pressed, and tapping the marked square writes O. (The compact embed offers
    no Hint: board, letters, scores, status and Review only.)"""
    page = open_app(f"?size=3&lang={lang}&game=Sa1Sc1{sized(page, size)}")
    expect(page.get_by_test_id("letter-S")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("hint").click()
    hinted = page.locator("button.cell.hint")
    expect(hinted).to_have_count(1, timeout=60_000)
    expect(hinted).to_have_attribute("data-hint", "O")
    expect(page.get_by_test_id("letter-O")).to_have_attribute("aria-pressed", "true")
    hint_text = page.get_by_test_id("hint-text")
    expect(hint_text).to_contain_text(text(lang, "hint.move", letter="O", square="b1"))
    hinted.click()
    expect(cell(page, 0, 1)).to_have_text("O")
    expect(page.get_by_test_id("score-0")).to_have_text("1")
    expect(page.locator("button.cell.hint")).to_have_count(0)  # following the hint clears it
    expect(hint_text).to_be_hidden()


# --------------------------------------------------------------------------- 2, 4: names, language
@pytest.mark.parametrize("lang,other,size", [("en", "ar", "desktop"), ("de", "en", "phone"),
                                             ("ar", "de", "phone")])
def test_names_everywhere_and_language_and_theme_change_in_place(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], lang: str, other: str,
    size: str,
) -> None:
    page = open_app(f"?size=3&mode=simple&lang={lang}{sized(page, size)}")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-name-0").fill("Alice")
    page.get_by_test_id("settings-name-1").fill("Bruno")
    page.get_by_test_id("settings-start").click()
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("Alice")
    write(page, 0, 0, "S")
    expect(status).to_contain_text("Bruno")
    write(page, 0, 1, "O")
    write(page, 0, 2, "S")  # Alice makes the first SOS
    expect(page.get_by_test_id("result")).to_be_visible()
    for where in ("result", "status"):
        expect(page.get_by_test_id(where)).to_contain_text(WINS[lang].format("Alice"))
    expect(page.locator("#players li[data-player='0']")).to_contain_text("Alice")
    expect(page.locator("#players li[data-player='1']")).to_contain_text("Bruno")
    expect(page.get_by_test_id("move-list")).to_contain_text("Bruno")
    expect(page.get_by_test_id("announce")).to_contain_text("Alice")
    shot(page, f"players-names-{lang}-{size}")
    game_id = page.url.split("#g=")[1]

    # The language and the theme apply at once; the game stays (no new game, no Start).
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-lang").select_option(other)
    expect(page.locator("html")).to_have_attribute("lang", other)
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if other == "ar" else "ltr")
    page.get_by_test_id("settings-theme").select_option("dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.get_by_test_id("settings-name-0")).to_have_value("Alice")  # the form kept it
    page.get_by_test_id("settings-keep").click()  # (Cancel would put the language back)
    expect(page).to_have_url(re.compile(f"#g={game_id}$"))  # the same game, not a new one
    expect(page).to_have_url(re.compile(f"lang={other}"))  # (a reload keeps the language)
    expect(cell(page, 0, 1)).to_have_text("O")
    expect(status).to_contain_text(WINS[other].format("Alice"))
    expect(page.get_by_test_id("announce")).to_contain_text(WINS[other].format("Alice"))
    expect(page.get_by_test_id("rematch")).to_have_text(
        {"en": "Rematch", "de": "Revanche", "ar": "مباراة ثأرية"}[other]
    )
    # "Your games" names the players; a reload keeps the language chosen.
    page.get_by_test_id("games").click()
    expect(page.get_by_test_id("game-entry").first).to_contain_text("Alice")
    page.keyboard.press("Escape")
    page.reload()
    page.locator('html[data-ready="1"]').wait_for(state="attached", timeout=90_000)
    expect(page.locator("html")).to_have_attribute("lang", other)
    expect(page.get_by_test_id("status")).to_contain_text("Alice")
    shot(page, f"players-language-{lang}-to-{other}-{size}")


def test_a_long_name_pasted_in_settings_is_cut_at_its_last_whole_word(open_app: Opener) -> None:
    """The name field takes a 100-character name whole (its ``maxlength`` is the app's
    NAME_FIELD_MAX), so the app cuts it after its last whole word with "…" as the docs say --
    not the browser at character 96, mid-word (issue 50, item 12)."""
    name = (
        "Anna-Lena Sophie Charlotte Friederike von Hohenzollern-Sigmaringen und Zu Guttenberg "
        "Maximilian-Alex"
    )
    page = open_app("?size=3")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-name-0").fill(name)
    expect(page.get_by_test_id("settings-name-0")).to_have_value(name)
    page.get_by_test_id("settings-start").click()
    card = page.locator("#players li[data-player='0']")
    expect(card).to_contain_text("Zu Guttenberg…")
    expect(card).not_to_contain_text("Maximilian")


def test_the_play_against_row_never_rewrites_a_seat_that_moved(open_app: Opener) -> None:
    """Issue 50, item 2. A computer that opened the game: the row goes with its move (it
    would have made that computer "Player 1", credited with its move). A person's first move:
    the computer takes only the seat that has not moved, and the address's ``seats=`` follows
    the game shown, so a reload or a copied address starts the same kind of game."""
    page = open_app("?size=4&seats=easy,human")
    plies = page.get_by_test_id("move-list").locator("button.ply")
    expect(plies).to_have_count(1, timeout=30_000)  # the computer opened
    expect(page.get_by_test_id("start-choice")).to_be_hidden()
    page = open_app("?size=4")
    write(page, 0, 0, "S")
    expect(page.get_by_test_id("start-choice")).to_be_visible()  # no reply yet
    page.get_by_test_id("play-computer").click()
    expect(plies).to_have_count(2, timeout=30_000)  # the computer answered
    expect(page).to_have_url(re.compile(r"seats=human,medium"))
    expect(page.locator('#players .player[data-player="0"]')).to_have_attribute(
        "data-kind", "human"
    )


def test_a_shared_link_brings_the_players_names(
    open_app: Opener, new_context: Callable[..., BrowserContext]
) -> None:
    """Share's link carries the names (issue 50, item 1), percent-encoded JSON that the
    browser's URLSearchParams decodes for the app: someone else who opens it sees them, and
    markup in a name stays text."""
    page = open_app("?size=4")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-name-0").fill("Alice & <b>Bo</b>")
    page.get_by_test_id("settings-name-1").fill("Zoë Ünal")
    page.get_by_test_id("settings-start").click()
    write(page, 0, 0, "S")
    page.get_by_test_id("share").click()
    share_url = page.get_by_test_id("share-url")
    expect(share_url).to_have_value(re.compile(r"game=Sa1&names="))
    other = new_context().new_page()  # someone else, with no saved game
    other.goto(share_url.input_value())
    other.wait_for_selector('html[data-ready="1"]', timeout=60_000)
    expect(cell(other, 0, 0)).to_have_text("S")
    expect(other.locator("#players li[data-player='0']")).to_contain_text("Alice & <b>Bo</b>")
    expect(other.locator("#players li[data-player='1']")).to_contain_text("Zoë Ünal")
    expect(other.get_by_test_id("status")).to_contain_text("Zoë Ünal")
    assert other.locator("#players b").count() == 0


# --------------------------------------------------------------------------- rematch
@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("de", "phone"), ("ar", "embed")])
def test_rematch_rotates_the_seats(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], lang: str, size: str
) -> None:
    """A finished game (by link) of a person against easy: Rematch starts a new game with the
    same settings, the computer now in seat 1 (it moves first); the old game is kept."""
    page = open_app(f"?size=3&mode=simple&seats=human,easy&lang={lang}&game=Sa1Ob1Sc1"
                    f"{sized(page, size)}")
    expect(page.get_by_test_id("result")).to_be_visible()
    shot(page, f"players-result-{lang}-{size}")
    first = page.url
    page.get_by_test_id("rematch").click()
    expect(page.locator("#players li[data-player='0']")).to_have_attribute("data-kind", "easy")
    expect(page.locator("#players li[data-player='1']")).to_have_attribute("data-kind", "human")
    expect(page.locator("button.cell:has-text('S'), button.cell:has-text('O')")).to_have_count(
        1, timeout=30_000)  # the computer, now first, has moved
    expect(page).not_to_have_url(first)
    expect(page.get_by_test_id("result")).to_be_hidden()
    page.go_back()  # the finished game is still there
    expect(page.get_by_test_id("result")).to_be_visible(timeout=30_000)


# --------------------------------------------------------------------------- puzzle rating
@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("de", "phone"), ("ar", "embed")])
def test_the_puzzle_rating_moves_with_results_and_survives_a_reload(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], lang: str, size: str
) -> None:
    puzzle = next(p for p in puzzles() if p.rating == 3 and len(p.wrong) == 1)
    suffix = sized(page, size)
    page = open_app(f"?lang={lang}&puzzle={puzzle.id}{suffix}")
    rating = page.get_by_test_id("puzzle-rating")
    expect(rating).to_contain_text(RATING[lang], timeout=30_000)
    assert rating_value(page) == 1500
    expect(page.get_by_test_id("puzzle-context")).not_to_be_empty()
    move = puzzle.line[0]
    page.get_by_test_id(f"puzzle-letter-{move.letter}").click()
    page.locator(f'#puzzle-board button.cell[data-row="{move.row}"][data-col="{move.col}"]').click()
    expect(page.get_by_test_id("puzzle-feedback")).to_have_attribute("data-kind", "solved")
    expect(rating).to_contain_text("+100")
    assert rating_value(page) == 1600
    shot(page, f"players-puzzle-rating-{lang}-{size}")
    page.get_by_test_id("puzzle-next").click()
    shown = page.get_by_test_id("puzzle-dialog").get_attribute("data-puzzle")
    second = next(p for p in puzzles() if p.id == shown)
    wrong = next(iter(second.wrong[0]))
    page.get_by_test_id(f"puzzle-letter-{wrong.letter}").click()
    page.locator(f'#puzzle-board button.cell[data-row="{wrong.row}"][data-col="{wrong.col}"]'
                 ).click()
    expect(page.get_by_test_id("puzzle-feedback")).to_have_attribute("data-kind", "wrong")
    expect(rating).to_contain_text("-")
    after = rating_value(page)
    assert after < 1600
    open_app(f"?lang={lang}&puzzle={puzzle.id}{suffix}")  # a new visit (the page loaded anew)
    expect(page.get_by_test_id("puzzle-rating")).to_contain_text(str(after), timeout=30_000)
    stored = page.evaluate("localStorage.getItem('sos-puzzle-rating')")
    assert len(json.loads(stored)["history"]) == 2


# --------------------------------------------------------------------------- skip ahead
@pytest.mark.parametrize("lang,size,how", [("en", "desktop", "button"), ("de", "phone", "key"),
                                           ("ar", "embed", "button")])
def test_skip_ends_a_computer_run(
    open_app: Opener, page: Page, lang: str, size: str, how: str
) -> None:
    """Two easy computers on 7x7 (49 moves): Skip shows the end at once. The visible pause
    before each computer move is raised to 5 s, so that without Skip the moves left would take
    minutes; the result must come well within the 60 s waited (load-proof, not a time bound)."""
    page = open_app(f"?size=7&seats=easy,easy&lang={lang}{sized(page, size)}")
    skip = page.get_by_test_id("skip")
    expect(skip).to_be_visible(timeout=30_000)
    computer_pause(page, 5.0)
    written = page.locator("button.cell:has-text('S'), button.cell:has-text('O')")
    left = 49 - written.count()
    assert left * 5.0 > 2 * 60, left  # watched, the rest would take over twice the wait
    if how == "key":
        page.locator("body").press("Escape")
    else:
        skip.click()
    expect(page.get_by_test_id("result")).to_be_visible(timeout=60_000)
    expect(written).to_have_count(49)
    expect(skip).to_be_hidden()
    expect(page.get_by_test_id("status")).to_have_text(page.locator("#result-text")
                                                       .inner_text())


# --------------------------------------------------------------------------- how to play
@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("de", "phone"), ("ar", "phone")])
def test_how_to_play_opens_at_the_top_and_explains_hint_review_and_marks(
    open_app: Opener, page: Page, lang: str, size: str
) -> None:
    page = open_app(f"?lang={lang}{sized(page, size)}")
    page.get_by_test_id("help").click()
    dialog = page.locator("#help-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#help-title")).to_be_focused()
    assert dialog.evaluate("d => d.scrollTop") == 0
    assert page.locator("#help-title").evaluate(
        "h => h.getBoundingClientRect().top >= 0"
        " && h.getBoundingClientRect().bottom <= innerHeight"
    )
    marks = page.get_by_test_id("help-marks").inner_text()
    for mark in ("★", "✓", "?!", "?", "??"):
        assert mark in marks
    assert page.get_by_test_id("help-hint").inner_text().strip()
    assert page.get_by_test_id("help-review").inner_text().strip()


# --------------------------------------------------------------------------- one share link
@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("de", "phone"), ("ar", "phone")])
def test_a_friend_game_has_one_link_to_send(
    open_app: Opener, page: Page, lang: str, size: str
) -> None:
    page = open_app(f"?size=4&lang={lang}{sized(page, size)}")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("remote").check()
    page.get_by_test_id("settings-start").click()
    write(page, 0, 0, "S")
    field = page.get_by_test_id("remote-link")
    expect(field).to_have_value(re.compile(r"\?r="))
    link = field.input_value()
    page.get_by_test_id("share").click()
    expect(page.locator("#share-url")).to_have_value(link)


# --------------------------------------------------------------------------- 5. embed puzzle
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_closing_the_daily_puzzle_in_an_embed_leaves_a_way_back(
    open_app: Opener, page: Page, lang: str
) -> None:
    page = open_app(f"?puzzle=daily&lang={lang}{sized(page, 'embed')}")
    dialog = page.get_by_test_id("puzzle-dialog")
    expect(dialog).to_be_visible(timeout=30_000)
    shown = dialog.get_attribute("data-puzzle")
    assert shown
    page.get_by_test_id("puzzle-close").click()
    back = page.get_by_test_id("embed-puzzle")
    expect(back).to_be_visible()
    back.click()
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-puzzle", shown)


# --------------------------------------------------------------------------- 6. review graph
@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("ar", "phone"), ("de", "embed")])
def test_the_review_graph_says_which_way_is_ahead(
    open_app: Opener, page: Page, lang: str, size: str
) -> None:
    page = open_app(f"?size=3&lang={lang}&game=Sa1Sc1Ob1Sa3{sized(page, size)}")
    page.get_by_test_id("review").click()
    up, down = page.get_by_test_id("review-up"), page.get_by_test_id("review-down")
    expect(up).to_contain_text("▲", timeout=60_000)
    expect(down).to_contain_text("▼")
    name = {"en": "Player 1", "de": "Spieler 1", "ar": "اللاعب 1"}[lang]
    expect(up).to_contain_text(name)


# --------------------------------------------------------------------------- 9. embed events
@pytest.mark.parametrize("lang", ["en", "de", "ar"])
def test_the_embed_events_name_the_players(page: Page, embed: EmbedHost, lang: str) -> None:
    """A friend's link in a 320x420 frame (Bruno sent it after A1 S, B1 O; this device is
    Alice, to move): ``sos:ready`` and ``sos:game-over`` carry both names, and the result text
    is the one the frame shows, with Alice's name. The compact view offers no Statistics
    (docs/embedding.md: the record is the full game's)."""
    link = RemoteLink("embedtest", Rules.square(3, mode="simple"),
                      (Action.parse("S@a1"), Action.parse("O@b1")), 1, ("Alice", "Bruno"))
    _frame, game = embed.open(f"?embed=1&lang={lang}&r={quote(encode_link(link), safe='')}")
    assert embed.wait_messages(1)[0]["data"]["names"] == ["Alice", "Bruno"]
    expect(game.get_by_test_id("stats")).to_be_hidden()  # the record is the full game's
    expect(game.get_by_test_id("status")).to_contain_text("Alice")
    game.get_by_test_id("letter-S").click()
    game.locator('button.cell[data-row="0"][data-col="2"]').click()
    expect(game.get_by_test_id("result")).to_be_visible()
    over = embed.wait_messages(2)[1]["data"]
    assert over["type"] == "sos:game-over" and over["winner"] == 0
    assert over["names"] == ["Alice", "Bruno"]
    assert WINS[lang].format("Alice") in over["text"]
    expect(game.locator("#result-text")).to_have_text(over["text"])


# --------------------------------------------------------------------------- 5. puzzle header
@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("de", "phone"), ("ar", "embed")])
def test_a_puzzle_shows_its_own_mode_and_score(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], lang: str, size: str
) -> None:
    """A general puzzle (score 2-1, the first move scores) opened over a simple 5x5 game: the
    puzzle's mode and score are in its dialog, the score follows the move, and nothing of the
    game behind (its "Simple game", its scores) shows while the puzzle is open."""
    puzzle = next(p for p in puzzles() if p.id == "5g-39d815")
    state = replay(puzzle.rules, puzzle.moves)
    page = open_app(f"?size=5&mode=simple&lang={lang}&puzzle={puzzle.id}{sized(page, size)}")
    dialog = page.get_by_test_id("puzzle-dialog")
    expect(dialog).to_be_visible(timeout=30_000)
    context = page.get_by_test_id("puzzle-context")
    expect(context).to_contain_text(text(lang, "settings.mode.general"))
    expect(context).not_to_contain_text(text(lang, "settings.mode.simple"))
    expect(context).to_contain_text("–".join(map(str, state.scores)))
    for behind in ("#mode-text", "#board", "[data-testid=score-0]"):
        expect(page.locator(behind)).not_to_be_visible()
    shot(page, f"players-puzzle-mode-{lang}-{size}")
    move = puzzle.line[0]
    page.get_by_test_id(f"puzzle-letter-{move.letter}").click()
    page.locator(f'#puzzle-board button.cell[data-row="{move.row}"][data-col="{move.col}"]').click()
    state.apply(move)
    expect(context).to_contain_text("–".join(map(str, state.scores)))
    page.get_by_test_id("puzzle-close").click()
    if size != "embed":  # (the compact view has no mode line)
        expect(page.locator("#mode-text")).to_have_text(text(lang, "mode.simple"))
    expect(page.locator("#board")).to_be_visible()
