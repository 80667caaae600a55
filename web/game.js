// The game: the moves played, the stones on the board, whose turn it is, who
// won, and take back / redo. Pure state, no drawing and no network.

/** The symbol of a 0-based column: 1-9, then a, b, c (as the command line). */
export function columnSymbol(col) {
  return col < 9 ? String(col + 1) : String.fromCharCode(97 + col - 9);
}

/** The 0-based column of a symbol, or -1. */
export function columnOf(symbol, width) {
  const ch = symbol.toLowerCase();
  let col = -1;
  if (ch >= "1" && ch <= "9") col = ch.charCodeAt(0) - 49;
  else if (ch >= "a" && ch <= "z") col = ch.charCodeAt(0) - 97 + 9;
  return col >= 0 && col < width ? col : -1;
}

export class Game {
  constructor(width = 7, height = 6) {
    this.width = width;
    this.height = height;
    this.reset();
  }

  /** Back to the empty board. */
  reset() {
    this.moves = [];
    this.undone = [];
    // cells[col][row], row 0 at the bottom: 0 empty, 1 first player, 2 second.
    this.cells = Array.from({ length: this.width }, () => Array(this.height).fill(0));
    this.winner = 0;
    this.line = [];
  }

  /**
   * The game after `text` (the moves, "4455"), or `null` if it cannot be played
   * here (the server then says why, in the command line's words). A finished
   * game is accepted: the page can show and share it.
   */
  static fromMoves(text, width = 7, height = 6) {
    const game = new Game(width, height);
    for (const symbol of text.trim()) {
      const col = columnOf(symbol, width);
      if (col < 0 || !game.canPlay(col)) return null;
      game.play(col, false);
    }
    return game;
  }

  /** The move string. */
  get text() {
    return this.moves.map(columnSymbol).join("");
  }

  /** 1 or 2: the side to move. */
  get toMove() {
    return this.moves.length % 2 === 0 ? 1 : 2;
  }

  get full() {
    return this.moves.length === this.width * this.height;
  }

  get over() {
    return this.winner !== 0 || this.full;
  }

  heightOf(col) {
    return this.cells[col].indexOf(0) === -1 ? this.height : this.cells[col].indexOf(0);
  }

  canPlay(col) {
    return !this.over && col >= 0 && col < this.width && this.heightOf(col) < this.height;
  }

  /** Plays `col` (0-based); `fresh` (a new move, not a redo) forgets the redos. */
  play(col, fresh = true) {
    if (!this.canPlay(col)) return false;
    const row = this.heightOf(col);
    const side = this.toMove;
    this.cells[col][row] = side;
    this.moves.push(col);
    if (fresh) this.undone = [];
    const line = this.fourThrough(col, row, side);
    if (line) {
      this.winner = side;
      this.line = line;
    }
    return true;
  }

  /** Takes back the last move; false if there is none. */
  undo() {
    const col = this.moves.pop();
    if (col === undefined) return false;
    this.cells[col][this.heightOf(col) - 1] = 0;
    this.undone.push(col);
    this.winner = 0;
    this.line = [];
    return true;
  }

  /** Plays the last move taken back again; false if there is none. */
  redo() {
    const col = this.undone.pop();
    if (col === undefined) return false;
    return this.play(col, false);
  }

  /** The cells of four (or more) in a row through (col, row), or null. */
  fourThrough(col, row, side) {
    for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
      const cells = [[col, row]];
      for (const sign of [1, -1]) {
        let c = col + sign * dc;
        let r = row + sign * dr;
        while (c >= 0 && c < this.width && r >= 0 && r < this.height && this.cells[c][r] === side) {
          cells.push([c, r]);
          c += sign * dc;
          r += sign * dr;
        }
      }
      if (cells.length >= 4) return cells;
    }
    return null;
  }
}

/**
 * What a column's score means for the side that plays it, in words that need
 * no colour. A win with the winner's k-th stone scores (cells + 3) / 2 - k for
 * the first player and (cells + 2) / 2 - k for the second (rounded down).
 */
export function scoreWords(score, game) {
  if (score === null || score === undefined) return "column full";
  if (score === 0) return "draw";
  const cells = game.width * game.height;
  const winner = score > 0 ? game.toMove : 3 - game.toMove;
  const stones = Math.floor((cells + (winner === 1 ? 3 : 2)) / 2) - Math.abs(score);
  if (score > 0) return `you win with your ${ordinal(stones)} stone`;
  const moveNumber = winner === 1 ? 2 * stones - 1 : 2 * stones;
  return `you lose at move ${moveNumber}`;
}

export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th"}`;
}

/** How far below the best a level may play (as `c4solver play --level`). */
export const LEVELS = { perfect: 0, strong: 2, medium: 5, easy: 10 };

/**
 * The solver's move at `level` from every column's score: perfect plays the
 * best column nearest the centre; the others one at random within their margin.
 */
export function chooseMove(scores, level, random = Math.random) {
  const playable = scores.map((s, c) => [s, c]).filter(([s]) => s !== null);
  if (playable.length === 0) return -1;
  const best = Math.max(...playable.map(([s]) => s));
  const margin = LEVELS[level] ?? 0;
  const width = scores.length;
  const fromCentre = (c) => Math.abs(2 * c - (width - 1)) * 2 + (2 * c < width - 1 ? 0 : 1);
  if (margin === 0) {
    const top = playable.filter(([s]) => s === best).map(([, c]) => c);
    return top.sort((a, b) => fromCentre(a) - fromCentre(b))[0];
  }
  const near = playable.filter(([s]) => s >= best - margin).map(([, c]) => c);
  return near[Math.floor(random() * near.length)];
}
