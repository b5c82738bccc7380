"""User-facing text: English source strings here, translations in gettext catalogs.

Every visible string and ``aria-label`` of the app has a key (``"area.thing"``) and its English
text in :data:`EN` (or :data:`EN_PLURAL` for a message with a count). The other languages live in
``locale/<lang>.po`` (gettext; ``msgctxt`` is the key, ``msgid`` the English text), compiled at
build time to ``static/vendor/i18n/<lang>.mo.gz`` (gzip) by ``scripts/i18n.py`` (Babel). The page loads the
one catalog of the language in use and hands it to :func:`install`; English needs none.

:func:`text` and :func:`ntext` fill ``{placeholders}`` with ``str.format``. Every number with
a fraction shown to the user goes through :func:`decimal` or :func:`percent` (CLDR's decimal
symbol and percent format of the language, generated into :mod:`sos.app.text.cldr`). Adding a language:
one ``locale/<lang>.po`` and one line in :data:`LANGUAGE_NAMES` (docs/contributing.md, "Translations").
"""

from __future__ import annotations

import gettext
import io
import zlib
from typing import Final

from .cldr import NUMBERS

#: The languages the app speaks: code -> (its own name, writing direction). English first.
LANGUAGE_NAMES: Final[dict[str, tuple[str, str]]] = {
    "en": ("English", "ltr"),
    "de": ("Deutsch", "ltr"),
    "tr": ("Türkçe", "ltr"),
    "es": ("Español", "ltr"),
    "fr": ("Français", "ltr"),
    "pt": ("Português", "ltr"),
    "el": ("Ελληνικά", "ltr"),
    "ar": ("العربية", "rtl"),
    "hi": ("हिन्दी", "ltr"),
}
LANGUAGES: Final[tuple[str, ...]] = tuple(LANGUAGE_NAMES)
DEFAULT_LANGUAGE: Final = "en"

EN: Final[dict[str, str]] = {
    "app.title": "SOS",
    "app.tagline": "The paper-and-pencil game",
    "player.name": "Player {n}",
    "player.computer": "Computer {n}",
    "level.human": "human",
    "level.easy": "easy",
    "level.medium": "medium",
    "level.hard": "hard",
    "level.perfect": "perfect",
    "level.mixed": "mixed",
    "status.thinking": "{name} is thinking…",
    "settings.seat": "Player {n}",
    "button.hint": "Hint",
    "hint.label": "Show the best move",
    "hint.thinking": "Looking for the best move…",
    "hint.move": "Hint: write {letter} on {square}.",
    "hint.exact.draw": "Perfect play: draw.",
    "hint.exact.simple.win": "Perfect play: you win.",
    "hint.exact.simple.draw": "Perfect play: draw.",
    "hint.exact.simple.loss": "Perfect play: you lose.",
    "hint.proven.win": "Proven: you can win, whatever the opponent plays.",
    "hint.proven.draw": "Proven: you can hold a draw, but not force a win.",
    "hint.proven.loss": "Proven: against best play you lose.",
    "hint.estimate2.ahead": "Estimate (not proven): you finish about {points} ahead.",
    "hint.estimate2.even": "Estimate (not proven): the scores end about even.",
    "hint.estimate2.behind": "Estimate (not proven): you finish about {points} behind.",
    "hint.estimate2.simple.ahead": "Estimate (not proven): you are likely to make the first SOS.",
    "hint.estimate2.simple.even": "Estimate (not proven): no side is ahead yet.",
    "hint.estimate2.simple.behind": "Estimate (not proven): your opponent is likely to make the first SOS.",
    "hint.estimate.ahead": "Estimate: you gain about {points} more than the others from here.",
    "hint.estimate.even": "Estimate: about even from here.",
    "hint.estimate.behind": "Estimate: the others gain about {points} more than you from here.",
    "player.style.0": "circled",
    "player.style.1": "struck through",
    "player.style.2": "dashed",
    "player.style.3": "double line",
    "player.colour.0": "blue",
    "player.colour.1": "red",
    "player.colour.2": "green",
    "player.colour.3": "purple",
    "notice.rematch_seat": "Rematch: you are now {name}, in {colour} ({mark}); {first} moves first.",
    "status.turn": "{name} to move",
    "status.loading": "Loading the game engine…",
    "status.tap_to_start": "Tap a square to start",
    "result.win": "{name} wins, {scores}",
    "result.win.simple": "{name} wins with the first SOS",
    "result.you.win": "You win, {scores}",
    "result.you.win.simple": "You win with the first SOS",
    "result.draw": "Draw, {scores}",
    "result.draw.simple": "Draw: the board is full without an SOS",
    "result.and": " and ",
    "result.close": "Hide the result",
    "scores.label": "Scores",
    "cell.empty": "{square}, empty",
    "cell.letter": "{square}, {letter}",
    "cell.last": "{square}, {letter}, last move",
    "board.label": "SOS board, {rows} by {cols}",
    "board.skip_to": "Skip to the board",
    "letter.choose": "Letter to write",
    "letter.S": "Write S",
    "letter.O": "Write O",
    "button.new_game": "New game",
    "new_game.label": "A new game at once, with the same board and players",
    "button.settings": "Settings",
    "button.start": "Start",
    "button.cancel": "Cancel",
    "start.choose": "Play against:",
    "start.computer": "the computer",
    "start.here": "a friend here",
    "start.link": "a friend by link",
    "start.level": "Level of the computer",
    "settings.title": "Settings",
    "settings.start": "Start a new game",
    "settings.perfect_note": "Perfect play is offered on boards up to {side} × {side}: on a larger board the solver cannot finish in time.",
    "settings.keep": "Keep",
    "settings.keep.label": "Close, keeping the language and theme chosen here; the game goes on",
    "settings.cancel.label": "Close, putting the language and theme back as they were",
    "settings.size": "Board size",
    "settings.mode": "Mode",
    "settings.mode.general": "General: most SOSs wins",
    "settings.mode.simple": "Simple: first SOS wins",
    "settings.players": "Players",
    "settings.language": "Language",
    "mode.general": "General game",
    "mode.simple": "Simple game",
    "notice.bad_param": "Ignored {name}={value}: {reason}; using {default}.",
    "notice.reason.size": "the board size must be a whole number from {min} to {max}",
    "notice.reason.mode": "the mode must be general or simple",
    "notice.reason.players": "the number of players must be from {min} to {max}",
    "notice.reason.seats": "seats must be a comma list of human, easy, medium, hard or perfect",
    "notice.reason.seats_count": "there must be one seat per player",
    "notice.reason.lang": "the language must be one of {codes}",
    "notice.reason.perfect": "perfect play is offered on boards up to {side} × {side}",
    "notice.reason.embed": "embed must be 1 or 0",
    "notice.reason.start": "start must be tap or now",
    "notice.bad_names": "The players' names in this link could not be read, so the usual names are shown.",
    "notice.bad_id": (
        "Ignored id={value}: an id is 1 to 64 letters, digits, “-”, “_” or “.”; this frame"
        " keeps a game of its own."
    ),
    "notice.early.started": "this game already has moves",
    "notice.early.board": "the game shown has another board",
    "notice.early.computer": "it was the computer's turn",
    "notice.early.turn": "it was not this device's turn",
    "notice.early.over": "the game was over",
    "notice.dismiss": "Dismiss",
    "game.over": "Game over",
    "button.undo": "Undo",
    "button.redo": "Redo",
    "button.share": "Share",
    "button.record": "Game record",
    "button.help": "How to play",
    "button.close": "Close",
    "button.copy": "Copy",
    "button.import": "Load this game",
    "undo.label": "Undo (Ctrl+Z)",
    "redo.label": "Redo (Ctrl+Y)",
    "moves.title": "Moves",
    "moves.start": "Start",
    "moves.empty": "No moves yet.",
    "moves.turn": "{number}. {name}",
    "moves.points": "+{points}",
    "moves.ply.label": "Go to the position after {action}",
    "status.viewing": "Viewing move {ply} of {total}",
    "status.viewing.computer": "Viewing move {ply} of {total}: Redo plays on",
    "announce.move": "{name} wrote {letter} on {square}.",
    "announce.again": "{name} moves again.",
    "announce.next": "{name} to move.",
    "share.title": "Share this game",
    "share.text": "Anyone who opens this link sees this position, ready to play on.",
    "share.copied": "Link copied.",
    "share.copy_failed": "Copy the link from the box.",
    "record.title": "Game record",
    "record.text": "Copy this text to keep the game, or paste a game and load it.",
    "record.field": "Game record text",
    "record.loaded": "Game loaded.",
    "record.loaded_no_names": "Game loaded. The players' names in it could not be read, so the usual names are shown.",
    "record.error": "This game text could not be loaded: {error}",
    "notice.save_bad": "The save of an earlier version of SOS could not be read; it is kept unchanged in this browser.",
    "notice.save_newer": "The saved game “{game}” was written by a newer version of SOS, which this page cannot open. Reload the page to update; the game is kept unchanged.",
    "notice.save_damaged": "The saved game “{game}” is damaged and cannot be opened. It is kept unchanged: in “Your games” you can copy or download its saved text.",
    "notice.cut_off": "The computer ran out of time and played a quicker move.",
    "notice.restored": "The storage of this browser was cleared; the game shown here was saved again.",
    "notice.forked_unreadable": "The save of this game (“{game}”) can no longer be read by this version (a newer version changed it, or it is damaged); your moves are kept as a separate game.",
    "record.error.line": "Line {line}: {error}",
    "record.error.turn": "Turn {turn} (line {line}): {error}",
    "record.reason.empty": "the game text is empty",
    "record.reason.too_long": "the game text is longer than {limit} characters",
    "record.reason.header": "expected a header like 'SOS 6x6 general, 2 players'",
    "record.reason.rules": "a {rows} × {cols} board with {players} players cannot be played",
    "record.reason.turn_format": "expected a numbered turn like '3. S@b2', got '{text}'",
    "record.reason.turn_order": "expected turn {expected}, got {got}",
    "record.reason.notation": "'{text}' is not an action like 'S@b3'",
    "record.reason.off_board": "{action} is off the {rows}x{cols} board",
    "record.reason.taken": "{action}: square {square} is already written",
    "record.reason.over": "{action}: the game is already over",
    "record.reason.no_header": "the game text has no header line",
    "record.reason.share_not_text": "the shared game is not text",
    "record.reason.share_too_long": "the shared game has more moves than the board has squares",
    "record.reason.share_unreadable": "the shared game has unreadable text at character {position}",
    "record.reason.share_illegal": "move {number} ({action}) of the shared game is not legal",
    "record.reason.save_unreadable": "the saved game is not readable",
    "record.reason.save_not_sos": "the saved game is not an SOS save",
    "record.reason.save_version": "the saved game has format version {version}",
    "record.reason.save_damaged": "the saved game is damaged",
    "record.reason.save_seats": "the saved game has unknown seats",
    "record.reason.save_cursor": "the saved game has a bad move number",
    "record.reason.save_prefs": "the saved game has damaged preferences",
    "record.reason.save_board": "its board is {rows} × {cols}, and this version plays {min} × {min} to {max} × {max}",
    "notice.no_storage": "This browser does not let the game save, so it will not be kept after you leave.",
    "settings.theme": "Theme",
    "settings.sound": "Sounds",
    "settings.seats": "Who plays",
    "embed.not_saved": "Not saved in this frame",
    "theme.auto": "Like the system",
    "theme.light": "Light",
    "theme.dark": "Dark",
    "help.title": "How to play",
    "help.rules.1": "Take turns writing S or O in any empty square; you choose the letter each time.",
    "help.rules.2": "Complete S-O-S in a straight line of three squares — across, down or diagonally — to score a point. One letter can complete several SOSs at once.",
    "help.rules.3": "If you score, you move again, for as long as you keep scoring.",
    "help.rules.4": "General game: when the board is full, the most SOSs wins; equal scores are a draw. Simple game: the first SOS wins; a full board without one is a draw.",
    "help.example": "Example: writing O between two S's scores one SOS.",
    "help.keys.title": "Keyboard",
    "help.keys.arrows": "Arrow keys, Home, End: move around the board",
    "help.keys.letters": "S or O: write that letter in the focused square (elsewhere: choose the letter)",
    "help.keys.enter": "Enter or Space: write the chosen letter",
    "help.keys.undo": "Ctrl+Z / Ctrl+Y: undo / redo",
    # offline + embedding (issue 4)
    "update.available": "New version available",
    "update.reload": "Reload",
    "embed.open_full": "Open the full game",
    "embed.puzzle_start": "Show the puzzle",
    # the library of games (issue 11)
    "button.games": "Your games",
    "games.mode.general": "general",
    "games.mode.simple": "simple",
    "games.heading": "Your games",
    "games.text": "Every game is kept in this browser. Open one to play on, or delete it.",
    "games.empty": "No saved games yet.",
    "games.open": "Open",
    "games.delete": "Delete",
    "games.delete.label": "Delete the game: {title}",
    "games.deleted": "Game deleted.",
    "games.undo_delete": "Undo delete",
    "games.current": "shown now",
    "games.unreadable.title": "Saved game “{game}”",
    "games.unreadable.first": "A game saved by the first version of SOS",
    "games.unreadable.newer": "Saved by a newer version: cannot be opened by this version. Reload the page to update.",
    "games.unreadable.damaged": "Cannot be opened by this version: {reason}. Its saved text is kept.",
    "games.copy": "Copy saved text",
    "games.download": "Download",
    "games.copied": "Copied.",
    "games.more": "Show more games",
    "games.count": "{shown} of {total}",
    "games.search": "Search your games (name, date, board, result)",
    "games.search.none": "No game holds every word of “{query}”.",
    # keeping the library, export and import (issue 33)
    "games.keep.kept": "This browser keeps your games: it does not clear them to free space. To take them to another device, export them.",
    "games.keep.evictable": "This browser may clear your games when space runs low or the site goes unused for weeks. Export them now and then to keep a copy.",
    "games.keep.unknown": "This browser cannot be asked to keep your games, so it may clear them. Export them now and then to keep a copy.",
    "games.keep.refused": "This browser does not let the page save: your games last only while this page is open. Export them to keep them.",
    "games.keep.safari": "Safari deletes this site's data, your games included, after 7 days of Safari use without a visit here, unless SOS is on your Home Screen (Share, then Add to Home Screen). The Home Screen app has games of its own: export yours here and import them there.",
    "games.export": "Export all games",
    "games.import": "Import games",
    "backup.puzzles": "Puzzle progress merged.",
    "backup.rating.taken": "Puzzle rating taken from the file.",
    "backup.rating.kept": "The puzzle rating here is kept: it counts more rated puzzles than the file’s.",
    "backup.file.too_big": "This file is too big to be a SOS library ({size} MB; at most {max} MB). Nothing was imported.",
    "backup.file.not_text": "This file is not text, so it is not a SOS library file. Nothing was imported.",
    "backup.file.not_library": "This is not a SOS library file: its first line is not a SOS library header. Nothing was imported.",
    "backup.file.newer": "This file was made by a newer version of SOS (library format version {version}). Reload the page to update, then import it again. Nothing was imported.",
    "backup.file.empty": "This file is empty. Nothing was imported.",
    "backup.file.unreadable": "The file could not be read. Nothing was imported.",
    "backup.line.too_long": "not imported: longer than any entry SOS writes",
    "backup.line.unreadable": "not imported: the line cannot be read (cut or changed?)",
    "backup.line.unknown": "not imported: an entry of a kind this version does not know ({kind})",
    "backup.line.newer": "not imported: saved by a newer version of SOS (format version {version}); reload the page to update, then import the file again",
    "backup.line.damaged": "not imported: {reason}",
    "backup.line.damaged_entry": "not imported: a damaged entry ({kind})",
    "backup.line.here_unreadable": "not merged: the one saved here cannot be read by this version and is left as it is",
    "backup.line.full": "not imported: storage is full",
    "backup.line.refused": "not imported: this browser does not let the page save",
    "lines.title": "Other lines of this game",
    "notice.storage_full": "Storage is full: this game is not being saved. Free space by deleting old games.",
    "notice.game_missing": "That game is not saved in this browser, so another one was opened.",
    "notice.followed": "This game was continued in another tab; it now shows the latest moves.",
    "notice.forked": "This game was continued differently in another tab; your moves are kept as a separate game.",
    "notice.link_old": "This link shows an earlier position of a game you have played further; your game is shown.",
    "notice.link_fork": "This link disagrees with the moves of your game; both are kept.",
    "notice.open_games": "Your games",
    # a bug in one of the page's handlers, storage that keeps nothing (issue 42)
    "fault.saved": "Something went wrong — your game is saved.",
    "fault.not_kept": "Something went wrong — this browser keeps no game in this window: export this game to keep it.",
    "fault.copy": "Copy details",
    "fault.copied": "Details copied: paste them into a bug report.",
    "fault.copy_failed": "Copy the details from the box into a bug report.",
    "fault.details": "Details for a bug report",
    "notice.export_game": "Export this game",
    "notice.keep_asking": "Your browser may ask whether this site may keep its data: allow it, and your games are not cleared to free space.",
    # games by link (issue 15)
    "undo.fork.title": "Take back your move?",
    "undo.fork.text": "The link with this move may already be with your friend. If they answer it, the game splits in two: yours without the move, theirs with it, and both devices keep both.",
    "undo.fork.keep": "Keep my move",
    "undo.fork.confirm": "Take it back",
    "remote.option": "Play a friend by link (on another device)",
    "remote.seat": "Your seat on this device",
    "remote.name": "Your name (optional)",
    "remote.named": "{name} ({player})",
    "remote.you": "On this device you play {name}.",
    "remote.your_turn": "Your turn.",
    "remote.waiting": "{name} is to move on another device: send this link.",
    "remote.over": "Game over. Send the link so everyone sees the result.",
    "remote.viewing": "An earlier position is shown: go to the last move to play on.",
    "remote.link": "Link to the game",
    "remote.share": "Share…",
    "remote.share_title": "SOS: your move",
    "remote.sent": "Your move is on its way, so it can no longer be taken back.",
    "remote.honest": "Anyone who has this link can see the game and move for the player whose turn it is: send it only to your friend.",
    "remote.new": "Game by link opened: you play {name} on this device.",
    "remote.fork": "This link disagrees with the moves of your game; both games are kept.",
    "remote.error": "This game link could not be used: {reason}. Nothing was changed.",
    "remote.list": "By link · you: {me} · {players}",
    "remote.list.link": "Last link",
    "remote.reason.empty": "it is empty",
    "remote.reason.unreadable": "character {position} is not part of a game link (was it changed in a messenger?)",
    "remote.reason.version": "it is damaged, or it comes from a newer version of this game (reload the page to get it)",
    "remote.reason.truncated": "it is incomplete (cut off or changed on the way); ask for the whole link again",
    "remote.reason.checksum": "it was changed or damaged on the way (its check code does not match)",
    "remote.reason.rules": "its board settings are not ones this app plays",
    "remote.reason.game_id": "its game id is damaged",
    "remote.reason.sender": "it names seat {seat}, which this game does not have",
    "remote.reason.names": "its player names are damaged",
    "remote.reason.too_many": "it has {count} moves for {cells} squares",
    "remote.reason.off_board": "move {number} is off the board",
    "remote.reason.taken": "move {number} ({action}) is on square {square}, which is already written",
    "remote.reason.over": "move {number} ({action}) comes after the end of the game",
    "remote.reason.seat": "it has a move for your seat (Player {player}) that was not made on this device",
    "help.remote.title": "Playing a friend by link",
    "help.remote.text": "Choose “a friend by link” above the board of a new game, or “Play a friend by link” in Settings. After your turn, send the link in any messenger; your friend opens it, plays and sends a link back. Each link holds the whole game and every move is checked again. A link is not secret and not signed: anyone who has it can see the game and move for the player whose turn it is.",
    # start-up failure screen (static/boot-error.js; table generated by scripts/i18n.py)
    "boot.title": "The game could not start.",
    "boot.file": "A file of the game could not be loaded or is damaged. The site may be being updated.",
    "boot.network": "The game could not be downloaded. Check your internet connection.",
    "boot.portal": "The network answered with a page that is not the game (a Wi-Fi sign-in page?). Sign in or check the connection, then try again.",
    "boot.clock": "This device's date is far outside what the game can run with. Set the date and time right, then try again.",
    "boot.slow": "Starting takes much longer than it should.",
    "boot.runtime": "The game engine stopped with an error.",
    "boot.retry": "Try again",
    "boot.detail": "Technical details",
    # the web app manifest (static/manifest.webmanifest; one per language, built)
    "manifest.name": "SOS — the paper-and-pencil game",
    "manifest.description": "Write S or O, complete S-O-S lines, score and move again. Plays offline.",
    "remote.reason.not_link": "it is not a game link",
    # puzzles (issue 14)
    "button.puzzles": "Puzzles",
    "puzzles.heading": "Puzzles",
    "puzzles.daily_title": "Daily puzzle · {date}",
    "puzzles.bad_date": "The daily puzzle needs this device's date, which cannot be used ({date}). Set the clock right; the other puzzles work.",
    "puzzles.numbered": "Puzzle {number}",
    "puzzles.rating": "difficulty {rating}/5",
    "puzzles.goal.win": "{name} to move: find the move that wins.",
    "puzzles.goal.lead": "{name} to move: find the move that wins by the most (every other move gives away points).",
    "puzzles.goal.draw": "{name} to move: find the only move that does not lose.",
    "puzzles.steps": "This puzzle has {steps} moves to find: this is move {step}.",
    "puzzles.right": "Right: {action}! {name} answers {reply}. Find the next move.",
    "puzzles.right.again": "Right: {action}! It scores, so you move again: find the next move.",
    "puzzles.solved": "Solved: {action} is the move!",
    "puzzles.solved.after": "Solved: {action} is the move (on a later try).",
    "puzzles.why.safe": "After it, {name} has no SOS to complete.",
    "puzzles.why.others": "Every other move does worse: at best, {outcome}.",
    "puzzles.wrong": "{action} is not it: {outcome}.",
    "puzzles.wrong.reply": "{action} is not it: after the answer {reply}, {outcome}.",
    "puzzles.outcome.simple_loss": "your opponent wins with perfect play",
    "puzzles.outcome.draw": "it is only a draw with perfect play",
    "puzzles.outcome.less": "you finish only {points} ahead instead of {best}",
    "puzzles.outcome.loss": "you lose by {points} with perfect play",
    "puzzles.retry": "Try again",
    "puzzles.show_solution": "Show the solution",
    "puzzles.solution": "The solution: {moves}.",
    "puzzles.solution.answer": "{name} answers {reply}",
    "puzzles.next": "Next puzzle",
    "puzzles.daily": "Daily puzzle",
    "puzzles.stats": "Solved {solved} · Failed {failed} · Daily streak {streak}",
    "puzzles.not_saved": "progress is not being saved (storage full or blocked)",
    "puzzles.fetch_failed": "the file could not be fetched (offline?)",
    "puzzles.load_failed": "The puzzles could not be loaded: {reason}. Your game is unchanged.",
    "puzzles.unknown": "There is no puzzle “{id}”. Your game is unchanged.",
    "puzzles.board": "Puzzle board, {rows} by {cols}",
    "puzzles.letter": "Letter to write",
    # review (issue 14)
    "button.review": "Review",
    "review.label": "Review every move of this game with the solver",
    "review.title": "Game review",
    "review.close": "Close the review",
    "review.running": "Reviewing… {done} of {total} positions",
    "review.cancelled": "Review cancelled. Press Review to start again.",
    "review.partial": "Moves were played after this review: press Review to review them too.",
    "review.select": "Choose a move in the list or on the graph to see what it was worth.",
    "review.pending": "This move is not judged yet: the review is still running.",
    "review.summary": "{name}: accuracy {accuracy}, inaccuracies {inaccuracies}, mistakes {mistakes}, blunders {blunders}",
    "review.verdict.best": "best move",
    "review.verdict.good": "good move",
    "review.verdict.inaccuracy": "inaccuracy",
    "review.verdict.mistake": "mistake",
    "review.verdict.blunder": "blunder",
    "review.move": "Move {ply}, {name}: {action} — {verdict}.",
    "review.values": "Before: {before}. After: {after}.",
    "review.unsure": "The computer is unsure here: its estimates before and after this move disagree.",
    "review.best": "Best: {actions}.",
    "review.best.marked": "The best move is marked on the board.",
    "review.value.win": "a win by {points}",
    "review.value.draw": "a draw",
    "review.value.draw.ahead": "about a draw, {points} ahead",
    "review.value.draw.behind": "about a draw, {points} behind",
    "review.value.loss": "a loss by {points}",
    "review.value.simple.win": "a win",
    "review.value.simple.draw": "a draw",
    "review.value.simple.loss": "a loss",
    "review.exact": "proven",
    "review.estimate": "estimate",
    "review.graph": "Evaluation graph, one point per move: above the middle line {name} is ahead.",
    "review.graph.many": "Evaluation graph, one point per move: each point is the mover's own outlook.",
    "review.legend": "● proven by the solver · ■ estimate of the search",
    "review.prev": "Previous move",
    "review.next": "Next move",
    "review.end": "The final position",
    "review.play": "Play from here",
    "review.play.label": "Close the review and play on from the position shown (a new line; the game's own moves are kept)",
    "review.ply.label": "{label}, {verdict}",
    # players: names, rematch, statistics, puzzle rating (issue 26)
    "player.with_level": "{name} · {level}",
    "players.versus": " vs ",
    "stats.heading": "Your record against the computer",
    "stats.bar": "{level}: {win} won, {draw} drawn, {loss} lost",
    "stats.col.level": "Level",
    "stats.col.size": "Board",
    "stats.col.win": "Won",
    "stats.col.draw": "Drawn",
    "stats.col.loss": "Lost",
    "stats.col.score": "Score",
    "stats.empty": "No finished game against the computer yet. Games with one person and computer players count here.",
    "rating.label": "Puzzle rating",
    "rating.value": "Puzzle rating: {rating}",
    "rating.provisional": "Puzzle rating: {rating}? (provisional: a few more puzzles settle it)",
    "rating.provisional_short": "Puzzle rating: {rating}?",
    "rating.history": "Your puzzle rating after each puzzle, from {low} to {high}",
    "settings.name": "Name of player {n}",
    "button.rematch": "Rematch",
    "rematch.label": "Play again with the same players and settings, seats rotated",
    "button.stats": "Statistics",
    "stats.reset": "Reset the record",
    "stats.reset.done": "Record reset: games started from now on count. Your games are all kept.",
    "stats.reset.undo": "Undo reset",
    "stats.reset.undone": "The record is back as it was.",
    "stats.mode_line": "{mode}: {win} won, {draw} drawn, {loss} lost · winning streak {current}, best {best}",
    "stats.chart": "Won, drawn and lost games per level",
    "stats.puzzles": "Puzzles",
    "stats.no_rating": "No puzzle rated yet.",
    "button.skip": "Skip ahead",
    "skip.label": "Show the computers' moves at once (key: Esc)",
    "skip.running": "Skipping ahead…",
    "puzzles.difficulty": "Difficulty",
    "puzzles.difficulty.line": "Next puzzles are chosen near a rating of {target} (yours: {rating}).",
    "puzzles.daily.solved": "✓ solved today",
    "puzzles.difficulty.easiest": "easiest",
    "puzzles.difficulty.easier": "easier",
    "puzzles.difficulty.normal": "normal",
    "puzzles.difficulty.harder": "harder",
    "puzzles.difficulty.hardest": "hardest",
    "puzzles.context": "{mode} · score {scores}",
    "help.hint.title": "Hint",
    "help.hint.text": "Hint marks the best move on the board and chooses its letter for you; the line below says what it is worth. “Perfect play” and “Proven” were proven by the solver; “Estimate” is the search's judgement.",
    "help.review.title": "Review and its marks",
    "help.review.text": "Review judges every move against the solver. The result comes first: a move that turns a won or drawn position into a lost one is a blunder, one that turns a win into a draw a mistake — even if it costs only one point. A move that keeps the result is judged by the points it gives away.",
    "help.marks.best": "★ best: the best move, or one of them",
    "help.marks.good": "✓ good: gives away less than half a point",
    "help.marks.inaccuracy": "?! inaccuracy: gives away about one point",
    "help.marks.mistake": "? mistake: gives away two points, or turns a win into a draw",
    "help.marks.blunder": "?? blunder: gives away three points or more, or turns the game into a loss",
    "help.keys.skip": "Esc: while computers play, skip ahead to the result or your turn",
    "review.axis.up": "▲ {name} ahead",
    "review.axis.down": "▼ {name} behind",
    "puzzles.back": "Back to the puzzle",
}

#: Messages with plural forms: key -> (singular, plural) in English; :func:`ntext` picks the
#: form for a count by the language's plural rule (gettext ``npgettext``).
EN_PLURAL: Final[dict[str, tuple[str, str]]] = {
    "status.scored": (
        "{name} scored {points} and moves again",
        "{name} scored {points} and moves again",
    ),
    "notice.shared_loaded": (
        "Shared game loaded: {moves} move.",
        "Shared game loaded: {moves} moves.",
    ),
    "notice.early": (
        "The square you tapped before the game was ready was not played: {reason}.",
        "The {squares} squares you tapped before the game was ready were not played: {reason}.",
    ),
    "games.moves": (
        "{moves} move",
        "{moves} moves",
    ),
    "remote.reason.too_long": (
        "it has {extra} character too many at the end",
        "it has {extra} characters too many at the end",
    ),
    "rating.change": (
        "{change} point",
        "{change} points",
    ),
    "puzzles.why.sos": (
        "Your moves made {count} SOS.",
        "Your moves made {count} SOSs.",
    ),
    "lines.switch": (
        "From move {ply}, {action}: {moves} move in all",
        "From move {ply}, {action}: {moves} moves in all",
    ),
    "remote.updated": (
        "Link opened: the game now has {moves} move.",
        "Link opened: the game now has {moves} moves.",
    ),
    "remote.old": (
        "This link is older than your game ({link} move, yours has {mine}); your game is shown.",
        "This link is older than your game ({link} moves, yours has {mine}); your game is shown.",
    ),
    "score.label": (
        "{name}: {score} point, marks SOSs {style}",
        "{name}: {score} points, marks SOSs {style}",
    ),
    "score.label.computer": (
        "{name}, computer ({level}): {score} point, marks SOSs {style}",
        "{name}, computer ({level}): {score} points, marks SOSs {style}",
    ),
    "announce.scored": (
        "{name} scored {points}.",
        "{name} scored {points}.",
    ),
    "hint.exact.win": (
        "Perfect play: you win by {points}.",
        "Perfect play: you win by {points}.",
    ),
    "hint.exact.loss": (
        "Perfect play: you lose by {points}.",
        "Perfect play: you lose by {points}.",
    ),
    "result.draw.between": (
        "Draw between {names}, {points} each",
        "Draw between {names}, {points} each",
    ),
    "games.title": (
        "{size} × {size} · {mode} · {players} players",
        "{size} × {size} · {mode} · {players} players",
    ),
    # export and import (issue 33)
    "backup.exported": (
        "{games} game exported to {file}.",
        "{games} games exported to {file}.",
    ),
    "backup.left_out": (
        "{entries} damaged entry was left out: it can be downloaded from the list.",
        "{entries} damaged entries were left out: each can be downloaded from the list.",
    ),
    "backup.added": (
        "{games} game added.",
        "{games} games added.",
    ),
    "backup.beside": (
        "{games} of them differs from the game here with the same id: both are kept.",
        "{games} of them differ from the games here with the same ids: both are kept.",
    ),
    "backup.already": (
        "{games} game was already here.",
        "{games} games were already here.",
    ),
    "backup.full": (
        "Storage is full: {games} game did not fit and was not imported. Delete games you do not need, then import the file again: games already imported are not added twice.",
        "Storage is full: {games} games did not fit and were not imported. Delete games you do not need, then import the file again: games already imported are not added twice.",
    ),
    "backup.storage_refused": (
        "This browser does not let the page save: {games} game was not imported.",
        "This browser does not let the page save: {games} games were not imported.",
    ),
    "backup.cut": (
        "The file ends early: it announces {expected} game and holds {found}.",
        "The file ends early: it announces {expected} games and holds {found}.",
    ),
    "backup.set_aside": (
        "{lines} line was set aside (nothing of it was written):",
        "{lines} lines were set aside (nothing of them was written):",
    ),
    "backup.more": (
        "… and {lines} more line.",
        "… and {lines} more lines.",
    ),
    "backup.importing": (
        "Importing: {done} of {total} game…",
        "Importing: {done} of {total} games…",
    ),
    "backup.exporting": (
        "Exporting: {done} of {total} game…",
        "Exporting: {done} of {total} games…",
    ),
    # review (issue 14)
    "review.lost": (
        "Lost {points} point.",
        "Lost {points} points.",
    ),
    "review.best.more": (
        "Best: {actions} and {more} more.",
        "Best: {actions} and {more} more.",
    ),
    # players (issue 26)
    "stats.total": (
        "{games} game counted",
        "{games} games counted",
    ),
}

#: Installed catalogs by language (see :func:`install`); English is the source and needs none.
_CATALOGS: dict[str, gettext.NullTranslations] = {}


def install(lang: str, mo: bytes) -> None:
    """Use the compiled gettext catalog ``mo`` for ``lang``: the bytes of a ``.mo`` file, or of
    one gzip-compressed (RFC 1952, magic 1f 8b: ``static/vendor/i18n/<lang>.mo.gz``).

    Raises:
        OSError: ``mo`` is not a gettext catalog (``gettext.GNUTranslations``).
        zlib.error: ``mo`` starts as gzip but is damaged or cut short.
    """
    if mo[:2] == b"\x1f\x8b":  # a .mo starts with 950412de (either byte order)
        mo = zlib.decompress(mo, 16 + zlib.MAX_WBITS)
    _CATALOGS[lang] = gettext.GNUTranslations(io.BytesIO(mo))


def installed(lang: str) -> bool:
    """Whether :func:`text` speaks ``lang`` now (English always; others once installed)."""
    return lang == DEFAULT_LANGUAGE or lang in _CATALOGS


def direction(lang: str) -> str:
    """``"rtl"`` or ``"ltr"``: the writing direction of ``lang``."""
    return LANGUAGE_NAMES.get(lang, LANGUAGE_NAMES[DEFAULT_LANGUAGE])[1]


def text(lang: str, key: str, **values: object) -> str:
    """The string ``key`` in ``lang``, placeholders filled from ``values`` (extra ones unused).

    A language whose catalog is not installed, or a message its catalog lacks, gives English.

    Raises:
        KeyError: for an unknown key (a programming error, caught by the catalog test).
    """
    english = EN[key]
    catalog = _CATALOGS.get(lang)
    found = catalog.pgettext(key, english) if catalog is not None else english
    return found.format(**values)


def ntext(lang: str, key: str, n: int, **values: object) -> str:
    """The plural message ``key`` in ``lang`` for the count ``n`` (gettext ``npgettext``: the
    form the language's ``Plural-Forms`` rule picks), placeholders filled from ``values``.

    Raises:
        KeyError: for an unknown key.
    """
    singular, plural = EN_PLURAL[key]
    catalog = _CATALOGS.get(lang)
    if catalog is not None:
        found = catalog.npgettext(key, singular, plural, n)
    else:
        found = singular if n == 1 else plural
    return found.format(**values)


def decimal(lang: str, value: float, places: int = 1, trim: bool = True) -> str:
    """``value`` rounded to ``places`` decimals with the decimal symbol of ``lang`` (CLDR,
    :mod:`sos.app.text.cldr`; Latin digits, no grouping): ``decimal("de", 1.05)`` -> ``"1,1"`` (half
    to even after binary rounding, as ``format``), ``decimal("en", 2.0)`` -> ``"2"``.

    Args:
        places: decimals at most (0 or more).
        trim: drop trailing zeros and a bare decimal symbol (``2.50`` -> ``2.5``); False keeps
            exactly ``places`` decimals (``decimal("fr", 1, trim=False)`` -> ``"1,0"``).

    An unknown language gets English's symbols; a value that rounds to zero never shows a sign.
    """
    shown = f"{value:.{max(0, places)}f}"
    if trim and "." in shown:
        shown = shown.rstrip("0").rstrip(".")
    if shown.startswith("-") and not shown.strip("-0."):
        shown = shown[1:]
    return shown.replace(".", NUMBERS.get(lang, NUMBERS[DEFAULT_LANGUAGE])[0])


def percent(lang: str, value: float, places: int = 1) -> str:
    """``value`` (in percent: ``95.8`` for 95.8 %) as :func:`decimal` gives it, in the
    percent format of ``lang`` (CLDR): ``"95.8%"`` (en), ``"95,8\u00a0%"`` (de, fr),
    ``"%95,8"`` (tr)."""
    _, prefix, suffix = NUMBERS.get(lang, NUMBERS[DEFAULT_LANGUAGE])
    return f"{prefix}{decimal(lang, value, places)}{suffix}"


def pick_language(preferred: list[str]) -> str:
    """The first supported language among browser ``preferred`` tags (``"de-AT"`` -> ``"de"``)."""
    for tag in preferred:
        base = str(tag).split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE


