// Paints the board skeleton before Python starts, sized from the ?size= parameter
// (the Python app validates it again and reports bad values). No game logic here.
const params = new URLSearchParams(location.search);
const raw = Number(params.get("size"));
const size = Number.isInteger(raw) && raw >= 3 && raw <= 12 ? raw : 6;
const board = document.getElementById("board");
if (board && !board.hasChildNodes()) {
  board.style.setProperty("--rows", String(size));
  board.style.setProperty("--cols", String(size));
  for (let r = 0; r < size; r++) {
    const row = document.createElement("div");
    row.className = "board-row";
    row.setAttribute("role", "row");
    for (let c = 0; c < size; c++) {
      const cell = document.createElement("div");
      cell.className = "cell skeleton";
      cell.setAttribute("role", "gridcell");
      row.appendChild(cell);
    }
    board.appendChild(row);
  }
}
if (params.get("embed") === "1") document.documentElement.classList.add("embed");
// For benchmarks/bench_boot.py: the frame that shows the skeleton board starts now.
requestAnimationFrame(() => performance.mark("sos:board"));
// Embed view: "Open the full game" = this URL without embed=1 (works even if Python fails).
const openFull = document.getElementById("open-full");
if (openFull) {
  const full = new URL(location.href);
  full.searchParams.delete("embed");
  openFull.href = full.href;
}
