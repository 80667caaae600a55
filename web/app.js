// The page: wires the game state, the board drawing and the solver client to
// the controls, the keys and the address (?size=WxH&pos=MOVES; the size only
// when it is not the solver's default).

import { BoardView } from "./board.js";
import { Game, columnOf, columnSymbol, scoreWords, chooseMove } from "./game.js";
import * as client from "./client.js";

const { analyze, sizes, SolverError } = client;

// Pause before a solver's move, so that a game between solvers can be watched.
const SOLVER_DELAY_MS = 350;
const NAMES = { 1: "Red", 2: "Yellow" };

const $ = (id) => document.getElementById(id);
const ui = {
  status: $("status"), turnDisc: $("turn-disc"), spinner: $("spinner"), error: $("error"),
  scores: $("scores"), board: $("board"), undo: $("undo"), redo: $("redo"), newGame: $("new"),
  p1: $("p1"), p2: $("p2"), solution: $("solution"), explain: $("explain"),
  pv: $("pv"), pvline: $("pvline"), size: $("size"),
};

let game = new Game();
let view = null;
// The board size asked of the solver ("7x6"), and what the solver offers.
let size = "7x6";
let offered = { sizes: ["7x6"], default: "7x6" };
// Every change of position bumps the token: answers for older positions are
// dropped. It also aborts the requests for the older position (`asking`), so
// that neither the server nor the WebAssembly worker goes on searching it.
let token = 0;
let asking = new AbortController();
let pending = 0;

function player(side) {
  return (side === 1 ? ui.p1 : ui.p2).value;
}

function personToMove() {
  return !game.over && player(game.toMove) === "person";
}

function showError(message) {
  ui.error.textContent = message;
  ui.error.hidden = !message;
}

function thinking(delta) {
  pending += delta;
  ui.spinner.hidden = pending === 0;
}

/** Asks the solver client, with the spinner shown meanwhile; a new position aborts it. */
async function ask(moves, options) {
  thinking(1);
  try {
    return await analyze(moves, { ...options, size, signal: asking.signal });
  } finally {
    thinking(-1);
  }
}

function setAddress() {
  const url = new URL(window.location.href);
  if (size === offered.default) url.searchParams.delete("size");
  else url.searchParams.set("size", size);
  url.searchParams.set("pos", game.text);
  window.history.replaceState(null, "", url);
}

function statusText() {
  if (game.winner) return `${NAMES[game.winner]} wins: four in a row`;
  if (game.full) return "Draw: the board is full";
  const who = player(game.toMove) === "person" ? "to move" : "(solver) to move";
  return `${NAMES[game.toMove]} ${who} · move ${game.moves.length + 1}`;
}

function renderScores(answer) {
  ui.scores.style.gridTemplateColumns = `repeat(${game.width}, 1fr)`;
  ui.scores.replaceChildren();
  ui.explain.replaceChildren();
  if (!answer) return;
  const best = new Set(answer.best.map((c) => c - 1));
  answer.scores.forEach((score, col) => {
    const cell = document.createElement("div");
    cell.className = "score";
    cell.dataset.col = col;
    const item = document.createElement("li");
    const label = `<span class="col">Column ${columnSymbol(col)}</span>`;
    if (score === null) {
      cell.dataset.score = "full";
      cell.innerHTML = "–<small>full</small>";
      item.innerHTML = `${label}<span>full</span>`;
    } else {
      const kind = score > 0 ? "win" : score < 0 ? "lose" : "draw";
      const shown = score > 0 ? `+${score}` : `${score}`;
      cell.dataset.score = score;
      cell.classList.add(kind, ...(best.has(col) ? ["best"] : []));
      cell.innerHTML = `${best.has(col) ? "★" : ""}${shown}<small>${kind}</small>`;
      item.innerHTML = `${label}<span>${shown}: ${scoreWords(score, game)}${best.has(col) ? " ★" : ""}</span>`;
    }
    cell.title = score === null ? "column full" : scoreWords(score, game);
    ui.scores.appendChild(cell);
    ui.explain.appendChild(item);
  });
}

/** Redraws everything for the current position and asks the solver what it needs. */
function update() {
  token += 1;
  asking.abort();
  asking = new AbortController();
  const mine = token;
  view.render(game, personToMove());
  setAddress();
  ui.status.textContent = statusText();
  ui.turnDisc.className = `disc ${game.winner ? `p${game.winner}` : game.over ? "none" : `p${game.toMove}`}`;
  ui.undo.disabled = game.moves.length === 0;
  ui.redo.disabled = game.undone.length === 0;
  ui.pv.disabled = game.over;
  ui.pvline.hidden = true;
  ui.explain.hidden = !ui.solution.checked;
  renderScores(null);
  const solverTurn = !game.over && !personToMove();
  if (game.over || (!ui.solution.checked && !solverTurn)) return;
  const moves = game.text;
  ask(moves)
    .then((answer) => {
      if (mine !== token) return;
      showError("");
      if (ui.solution.checked) renderScores(answer);
      if (solverTurn) {
        const col = chooseMove(answer.scores, player(game.toMove));
        setTimeout(() => {
          if (mine !== token) return;
          game.play(col);
          update();
        }, SOLVER_DELAY_MS);
      }
    })
    .catch((e) => {
      if (mine === token) showError(e instanceof SolverError ? e.message : String(e));
    });
}

function playColumn(col) {
  if (!personToMove() || !game.canPlay(col)) return;
  showError("");
  game.play(col);
  update();
}

/** Takes back one move, and more until a person is to move (as `play`'s u). */
function takeBack() {
  if (!game.undo()) return;
  const someone = ui.p1.value === "person" || ui.p2.value === "person";
  while (someone && !personToMove() && game.moves.length > 0) game.undo();
  update();
}

function redo() {
  if (game.redo()) update();
}

async function showLine() {
  const mine = token;
  try {
    const answer = await ask(game.text, { pv: true });
    if (mine !== token) return;
    const line = [...answer.pv].join(" ");
    ui.pvline.textContent = line ? `Best play: ${line}` : "No move left";
    ui.pvline.hidden = false;
  } catch (e) {
    // An aborted request belongs to a position left since.
    if (mine === token) showError(e.message);
  }
}

/** Width and height of a size written "WxH". */
function dimensions(text) {
  const [width, height] = text.split("x").map(Number);
  return { width, height };
}

/** A new empty board of `picked` (one the solver offers): game, drawing, picker and keys. */
function setBoard(picked, moves = "") {
  size = picked;
  const { width, height } = dimensions(size);
  const loaded = Game.fromMoves(moves, width, height);
  game = loaded ?? new Game(width, height);
  view = new BoardView(ui.board, width, height, playColumn);
  ui.size.value = size;
  // Past the ninth column, the command line's letters: 1–9, a–c.
  const last = columnSymbol(width - 1);
  $("keys").textContent = width <= 9 ? `1–${last}` : width === 10 ? "1–9, a" : `1–9, a–${last}`;
  return loaded !== null;
}

/** The picker's sizes, narrowest first, then lowest. */
function fillPicker() {
  const order = (a, b) => dimensions(a).width - dimensions(b).width || dimensions(a).height - dimensions(b).height;
  ui.size.replaceChildren(
    ...[...offered.sizes].sort(order).map((s) => {
      const option = document.createElement("option");
      option.value = s;
      option.textContent = s === offered.default ? `${s} (standard)` : s;
      return option;
    }),
  );
  ui.size.disabled = offered.sizes.length < 2;
}

/** Shows `message` over an empty board that nobody plays on their own. */
function refuse(message) {
  showError(message);
  // Both sides to persons: nobody moves on their own over the error.
  ui.p2.value = "person";
  view.render(game, true);
  ui.status.textContent = statusText();
  ui.undo.disabled = true;
  ui.redo.disabled = true;
}

/**
 * Whether `text` is a size worth drawing before the solver has listed its own:
 * `WxH` with 4 to 15 each, within the widest bitboard.
 */
function drawable(text) {
  const { width, height } = dimensions(text ?? "");
  return /^\d+x\d+$/.test(text ?? "") && width >= 4 && height >= 4 && width <= 15 && height <= 15 && width * (height + 1) <= 128;
}

async function start() {
  const params = new URLSearchParams(window.location.search);
  const pos = params.get("pos") ?? "";
  // The static build knows its default size: the board shows at once, before
  // its worker has listed the sizes.
  const early = params.get("size") ?? client.DEFAULT_SIZE;
  if (drawable(early)) {
    setBoard(early, pos);
    view.render(game, false);
  }
  try {
    offered = await sizes();
  } catch (e) {
    showError(e.message);
  }
  fillPicker();
  const wanted = params.get("size") ?? offered.default;
  if (!offered.sizes.includes(wanted)) {
    setBoard(offered.default);
    // The solver says what is wrong with the size, in the command line's words.
    let why = `board size ${wanted} is not offered here`;
    try {
      await analyze("", { size: wanted });
    } catch (e) {
      why = e.message;
    }
    refuse(`size=${wanted}: ${why}`);
    return;
  }
  if (!setBoard(wanted, pos)) {
    // The solver says what is wrong, in the command line's words.
    let why = `cannot play ${JSON.stringify(pos)} on this board`;
    try {
      await ask(pos);
    } catch (e) {
      why = `pos=${pos}: ${e.message}`;
    }
    refuse(why);
    return;
  }
  if (pos !== "") {
    // A shared position is for study: nobody moves on their own, the scores show.
    ui.p2.value = "person";
    ui.solution.checked = true;
  }
  update();
}

ui.undo.addEventListener("click", takeBack);
ui.redo.addEventListener("click", redo);
ui.newGame.addEventListener("click", () => {
  game.reset();
  showError("");
  update();
});
ui.size.addEventListener("change", () => {
  setBoard(ui.size.value);
  showError("");
  update();
});
ui.p1.addEventListener("change", update);
ui.p2.addEventListener("change", update);
ui.solution.addEventListener("change", update);
ui.pv.addEventListener("click", showLine);
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof HTMLSelectElement) return;
  const key = event.key.toLowerCase();
  const col = columnOf(key, game.width);
  if (key === "u" || key === "backspace") takeBack();
  else if (key === "r") redo();
  else if (key === "n") ui.newGame.click();
  else if (key === "s") ui.solution.click();
  else if (col >= 0 && /^[1-9a-c]$/.test(key)) playColumn(col);
  else return;
  event.preventDefault();
});

start();
