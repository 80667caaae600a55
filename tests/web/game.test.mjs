// The page's game rules and words, without a browser (`node --test`; run by
// tests/web.rs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Game, chooseMove, columnOf, columnSymbol, scoreWords } from "../../web/game.js";

test("moves, turns, four in a row and take back", () => {
  const game = Game.fromMoves("1212121");
  assert.equal(game.winner, 1);
  assert.equal(game.line.length, 4);
  assert.ok(game.over && !game.canPlay(3));
  assert.ok(game.undo());
  assert.equal(game.winner, 0);
  assert.equal(game.text, "121212");
  assert.ok(game.redo());
  assert.equal(game.text, "1212121");
  assert.equal(Game.fromMoves("1111111"), null, "a full column");
  assert.equal(Game.fromMoves("18"), null, "no column 8");
  assert.equal(Game.fromMoves("12121212"), null, "a move after the end");
});

test("the words of a score on 7x6 and on an odd board", () => {
  const g = Game.fromMoves("4455");
  assert.equal(scoreWords(18, g), "you win with your 4th stone");
  assert.equal(scoreWords(-4, g), "you lose at move 36");
  assert.equal(scoreWords(0, g), "draw");
  assert.equal(scoreWords(null, g), "column full");
  // Yellow to move on 7x6: Red's 3rd stone is move 5.
  assert.equal(scoreWords(-19, Game.fromMoves("445")), "you lose at move 5");
  // 5x5: a win at once from n stones scores (26 - n) / 2 rounded down, so the
  // first player's k-th stone wins with 14 - k, the second's with 13 - k.
  const odd = new Game(5, 5);
  assert.equal(scoreWords(10, odd), "you win with your 4th stone");
  odd.play(0);
  assert.equal(scoreWords(9, odd), "you win with your 4th stone");
});

test("the solver's levels", () => {
  const scores = [-4, -3, 18, 2, 2, 18, -3];
  assert.equal(chooseMove(scores, "perfect"), 2, "the best nearest the centre, left first");
  assert.equal(chooseMove([null, 1, 1, null, 1, 1, null], "perfect"), 2);
  const seen = new Set();
  for (let i = 0; i < 200; i++) seen.add(chooseMove(scores, "easy"));
  assert.deepEqual([...seen].sort(), [2, 5], "within 10 of 18");
  for (let i = 0; i < 200; i++) assert.notEqual(chooseMove([1, null, 0], "medium"), 1);
  assert.equal(chooseMove([null, null], "perfect"), -1);
});

test("column symbols", () => {
  assert.equal(columnSymbol(0), "1");
  assert.equal(columnSymbol(9), "a");
  assert.equal(columnOf("a", 12), 9);
  assert.equal(columnOf("8", 7), -1);
});
