// Drawing the board: an SVG of the grid and its stones, a row of column
// buttons above it for the scores, clicks and taps on a column. It draws what
// it is given and knows nothing of the rules or the server.

const SVG = "http://www.w3.org/2000/svg";
const CELL = 100;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export class BoardView {
  /**
   * Draws an empty `width` x `height` board into `container`; `onColumn(col)`
   * is called when a column is clicked or tapped.
   */
  constructor(container, width, height, onColumn) {
    this.width = width;
    this.height = height;
    container.replaceChildren();
    this.svg = el("svg", {
      viewBox: `0 0 ${width * CELL} ${height * CELL}`,
      role: "grid",
      "aria-label": `Connect Four board, ${width} columns`,
      class: "board",
    }, container);
    const defs = el("defs", {}, this.svg);
    // The frame with a hole per cell: stones show through the holes.
    const mask = el("mask", { id: "holes" }, defs);
    el("rect", { width: width * CELL, height: height * CELL, fill: "white" }, mask);
    for (let c = 0; c < width; c++) {
      for (let r = 0; r < height; r++) {
        el("circle", { cx: c * CELL + CELL / 2, cy: r * CELL + CELL / 2, r: CELL * 0.38, fill: "black" }, mask);
      }
    }
    this.stones = el("g", { class: "stones" }, this.svg);
    el("rect", { width: width * CELL, height: height * CELL, rx: 14, class: "frame", mask: "url(#holes)" }, this.svg);
    this.columns = [];
    for (let c = 0; c < width; c++) {
      const col = el("rect", {
        x: c * CELL, y: 0, width: CELL, height: height * CELL,
        class: "column", "data-col": c, role: "button",
        "aria-label": `play column ${c + 1}`,
      }, this.svg);
      col.addEventListener("click", () => onColumn(c));
      this.columns.push(col);
    }
  }

  /**
   * Draws the stones of `game` (its cells, last move and winning line);
   * `playable` says whether clicks are taken now (a person's turn).
   */
  render(game, playable) {
    this.stones.replaceChildren();
    const last = game.moves.length ? game.moves[game.moves.length - 1] : -1;
    const lastRow = last >= 0 ? game.heightOf(last) - 1 : -1;
    const winning = new Set(game.line.map(([c, r]) => `${c},${r}`));
    for (let c = 0; c < this.width; c++) {
      for (let r = 0; r < this.height; r++) {
        const side = game.cells[c][r];
        if (!side) continue;
        const cx = c * CELL + CELL / 2;
        const cy = (this.height - 1 - r) * CELL + CELL / 2;
        const classes = [`stone`, `p${side}`];
        if (winning.has(`${c},${r}`)) classes.push("win");
        el("circle", { cx, cy, r: CELL * 0.4, class: classes.join(" ") }, this.stones);
        // A mark inside the second player's stones: the sides differ without colour.
        if (side === 2) el("circle", { cx, cy, r: CELL * 0.17, class: "mark" }, this.stones);
        if (c === last && r === lastRow) el("circle", { cx, cy, r: CELL * 0.07, class: "last" }, this.stones);
      }
    }
    for (let c = 0; c < this.width; c++) {
      this.columns[c].classList.toggle("playable", playable && game.canPlay(c));
    }
  }
}
