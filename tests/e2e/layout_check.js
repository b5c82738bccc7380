// The layout checks of tests/e2e/test_layout.py: the problems seen on the page as shown.
// Argument: oneScreen (board, letters and a game-over panel must be in view together).
(oneScreen) => {
  const problems = [];
  const root = document.documentElement;
  const vw = root.clientWidth, vh = innerHeight;
  const shown = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: false })
    && el.getBoundingClientRect().width > 0;
  const label = (el) => {
    const id = el.id ? `#${el.id}` : el.dataset.testid ? `[data-testid=${el.dataset.testid}]`
      : `${el.tagName.toLowerCase()}${[...el.classList].map((c) => "." + c).join("")}`;
    return `${id} "${(el.textContent || "").trim().slice(0, 40)}"`;
  };
  window.scrollTo(0, 0);
  if (root.scrollWidth > vw + 1) problems.push(`page scrolls sideways: ${root.scrollWidth} > ${vw}`);
  if (root.classList.contains("embed") && root.scrollHeight > vh + 1)
    problems.push(`embed scrolls: ${root.scrollHeight} > ${vh}`);

  // Text: never clipped, never an ellipsis, never cut by an ancestor hiding overflow -- except a
  // name too long for its place, cut with an ellipsis, whose title holds it whole (a player's
  // name on the score card, a turn of the move list).
  for (const el of document.querySelectorAll(".app *")) {
    if (!shown(el) || el.closest(".visually-hidden")) continue;  // screen-reader text
    const box = el.getBoundingClientRect();
    if (box.width <= 1 && box.height <= 1) continue;  // hidden the same way (the embed's review title)
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(el);
    const titled = style.textOverflow === "ellipsis" && el.title !== ""
      && el.title.trim() === el.textContent.trim();
    if (style.textOverflow === "ellipsis" && !titled) problems.push(`ellipsis: ${label(el)}`);
    if (!titled && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      problems.push(`text clipped: ${label(el)} (${el.scrollWidth} > ${el.clientWidth})`);
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.right > vw + 1) problems.push(`text off screen: ${label(el)}`);
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (!["hidden", "clip"].includes(s.overflowX) && !["hidden", "clip"].includes(s.overflowY)) continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1)
        problems.push(`text cut by ${label(a)}: ${label(el)} `
          + `[${[r.left, r.top, r.right, r.bottom].map(Math.round)} outside ${[b.left, b.top, b.right, b.bottom].map(Math.round)}]`);
    }
  }

  // A scrolled move list starts with a whole line: a turn's first, or one of a turn's lines
  // of moves (a turn taller than the list: a long chain of SOSs).
  const list = document.getElementById("move-list");
  if (list && shown(list) && list.scrollTop > 0) {
    const listTop = list.getBoundingClientRect().top + list.clientTop;
    const tops = [...list.children, ...list.querySelectorAll(".ply")]
      .map((el) => el.getBoundingClientRect().top - listTop);
    if (!tops.some((t) => Math.abs(t) <= 1))
      problems.push(`move list starts with a cut row (scrolled ${Math.round(list.scrollTop)} px)`);
  }

  // Controls: reachable by scrolling, and nothing on top of them.
  const controls = document.querySelectorAll(
    ".app button, .app a[href], .app select, .app input, .app textarea");
  for (const el of controls) {
    if (!shown(el) || el.disabled || el.getAttribute("aria-disabled") === "true") continue;
    let r = el.getBoundingClientRect();
    const atCentre = (rect) => {
      const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      return hit && (hit === el || el.contains(hit));
    };
    if (r.top < 0 || r.bottom > vh || r.left < 0 || r.right > vw || !atCentre(r)) {
      // scroll the page (or a list) only when needed
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      r = el.getBoundingClientRect();
    }
    if (r.left < -1 || r.right > vw + 1 || r.top < -1 || r.bottom > vh + 1) {
      problems.push(`control not reachable: ${label(el)} at ${Math.round(r.left)},${Math.round(r.top)}`);
      continue;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || (hit !== el && !el.contains(hit)))
      problems.push(`control covered: ${label(el)} by ${hit ? label(hit) : "nothing"}`);
  }
  window.scrollTo(0, 0);

  // The board with its coordinates fits the width.
  const wrap = document.getElementById("board-wrap").getBoundingClientRect();
  const rowsLabels = document.getElementById("coords-rows").getBoundingClientRect();
  if (rowsLabels.left < -1 || wrap.right > vw + 1)
    problems.push(`board does not fit: ${Math.round(rowsLabels.left)}..${Math.round(wrap.right)} of ${vw}`);

  // Squares are square (an SOS ring drawn over them stays round), and each coordinate label
  // stays beside its own row or column, inside the board's extent (it scales with the board).
  const cells = [...document.querySelectorAll("#board .cell")];
  const oval = cells.find((c) => {
    const r = c.getBoundingClientRect();
    return Math.abs(r.width - r.height) > 1;
  });
  if (oval) {
    const r = oval.getBoundingClientRect();
    problems.push(`squares not square: ${r.width.toFixed(1)} × ${r.height.toFixed(1)}`);
  }
  const board = document.getElementById("board").getBoundingClientRect();
  for (const [id, lo, hi] of [["coords-rows", "top", "bottom"], ["coords-cols", "left", "right"]]) {
    for (const span of document.querySelectorAll(`#${id} span`)) {
      const r = span.getBoundingClientRect();
      if (r[lo] < board[lo] - 1 || r[hi] > board[hi] + 1)
        problems.push(`coordinate "${span.textContent}" outside the board: `
          + `${Math.round(r[lo])}..${Math.round(r[hi])} not in ${Math.round(board[lo])}..${Math.round(board[hi])}`);
    }
  }

  // Board, letters and the game-over panel in view together, without scrolling.
  if (oneScreen) {
    const together = ["#board-wrap", "[data-testid=letter-S]", "[data-testid=letter-O]"];
    if (!document.getElementById("result").hidden) together.push("#result");
    for (const sel of together) {
      const r = document.querySelector(sel).getBoundingClientRect();
      if (r.top < -1 || r.bottom > vh + 1 || r.left < -1 || r.right > vw + 1)
        problems.push(`${sel} not in view at the top of the page: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${vh}`);
    }
  }
  return problems;
}
