// Run from the fresh project where the packed `c4solver-wasm` package is
// installed: the package's answers to options and calls that are wrong, or
// right but easy to get wrong (issue 68), as one JSON object of
// {case: {ok: what it gave} or {error: message, name: the error's class}}.
//   node options.mjs
import { createSolver, sizes } from "c4solver-wasm";

async function outcome(f) {
  try {
    return { ok: await f() };
  } catch (e) {
    return { error: e.message, name: e.constructor.name };
  }
}

const freed = await createSolver({ tableMb: 1 });
freed.free();
const seen = {
  null: await outcome(async () => (await createSolver(null)).size),
  number: await outcome(() => createSolver(7)),
  tableMbString: await outcome(() => createSolver({ tableMb: "64" })),
  tableMbZero: await outcome(() => createSolver({ tableMb: 0 })),
  sizeNumber: await outcome(() => createSolver({ size: 8 })),
  sizeSyntax: await outcome(() => createSolver({ size: "eight" })),
  sizeTooLarge: await outcome(() => createSolver({ size: "9x9" })),
  sizeTooSmall: await outcome(() => createSolver({ size: "3x6" })),
  size8x8: await outcome(async () => (await createSolver({ size: "8X8", tableMb: 1 })).size),
  afterFree: await outcome(() => freed.analyze("4455")),
  depthAfterFree: await outcome(() => freed.bookDepth),
  freeTwice: await outcome(() => freed.free() ?? "nothing"),
  sizes: await outcome(sizes),
};
process.stdout.write(JSON.stringify(seen) + "\n");
