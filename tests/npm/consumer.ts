// Type-checked (tsc --strict, Node's module resolution) in the fresh project that
// installed the packed package: the declarations resolve through package.json's
// `types` and describe the API as used.
import { createSolver, fullBook, sizes, type Answer, type Solver } from "c4solver-wasm";

const solver: Solver = await createSolver({ tableMb: 16 });
const answer: Answer = solver.analyze("4455", { pv: true });
const best: number[] = answer.best;
const full: (number | null)[] = answer.scores;
const line: string | undefined = answer.pv;
const score: number = solver.solve("4455", { weak: true });
const depth: number | null = solver.bookDepth;
const strong = await createSolver({ book: await fullBook() });
strong.free();
const boards: string[] = await sizes();
const wide: Solver = await createSolver({ size: "8x8", book: false });
const board: string = wide.size;
const defaults = await createSolver(null);
console.log(best, full, line, score, depth, boards, board, defaults.size);
