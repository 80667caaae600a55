// Drives the page of a running `c4solver serve` in the system's headless
// Chromium and prints what it saw as one JSON object (tests/web.rs checks it
// against the command line). Usage:
//   node drive.mjs check URL BROWSER
//   node drive.mjs screenshots URL BROWSER OUT_DIR
//   node drive.mjs offline SITE_DIR BROWSER   (serves the static build itself,
//                                             then stops serving and reloads)
//   node drive.mjs stale URL BROWSER MOVES COL (plays MOVES by clicks, then COL
//                                             while MOVES is being analyzed)
//   node drive.mjs restart URL BROWSER MOVES   (the static build: aborts the
//                                             search of MOVES, asks again)
//   node drive.mjs size URL BROWSER MOVES COL  (another board size: MOVES shown,
//                                             then COL, 0-based, by its key)
//   node drive.mjs picker URL BROWSER CASES    (the size picker: CASES is JSON,
//                                             {small, deep: [[size, moves]], bad: [query]})
import { chromium } from "playwright-core";
import { serveDir } from "./serve-dir.mjs";

const [mode, base, browserPath, outDir, staleCol] = process.argv.slice(2);

async function scoresShown(page) {
  await page.waitForFunction(() => document.querySelectorAll("#scores .score").length > 0);
  return page.$$eval("#scores .score", (cells) =>
    cells.map((c) => {
      const text = c.firstChild.textContent.replace("★", "").replace("–", "");
      return text === "" ? null : Number(text);
    }),
  );
}

async function address(page) {
  return new URL(page.url()).searchParams.get("pos");
}

async function check(browser) {
  const page = await browser.newPage();
  const seen = { consoleErrors: [] };
  page.on("pageerror", (e) => seen.consoleErrors.push(String(e)));
  // The static build's worker fetches the 12-stone book after it starts.
  seen.bookFetches = [];
  page.on("response", (r) => {
    if (new URL(r.url()).pathname === "/book.c4book") seen.bookFetches.push(r.status());
  });

  // A shared position: its scores show.
  await page.goto(`${base}/?pos=4455`);
  seen.scores4455 = await scoresShown(page);
  seen.pickerSizes = await page.$$eval("#size option", (options) => options.map((o) => o.value));
  seen.pickerValue = await page.$eval("#size", (s) => s.value);
  seen.words4455 = await page.$$eval("#explain li", (items) => items.map((i) => i.textContent));

  // The address round-trips: a click changes it, a reload keeps it.
  await page.click('svg.board .column[data-col="2"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get("pos") === "44553");
  await page.reload();
  seen.reloadedPos = await address(page);
  seen.reloadedStones = await page.$$eval("svg.board .stone", (s) => s.length);
  seen.scores44553 = await scoresShown(page);

  // A game by clicks against the perfect solver (Red: the person, always the
  // leftmost column that is not full), to its end.
  await page.goto(`${base}/`);
  await page.selectOption("#p1", "person");
  await page.selectOption("#p2", "perfect");
  await page.click("#new");
  for (let turn = 0; turn < 30; turn++) {
    const status = await page.textContent("#status");
    if (/wins|Draw/.test(status)) break;
    await page.waitForFunction(() => /Red to move|wins|Draw/.test(document.getElementById("status").textContent));
    if (/wins|Draw/.test(await page.textContent("#status"))) break;
    const col = await page.$$eval("svg.board .column.playable", (cols) => Number(cols[0].dataset.col));
    const before = await address(page);
    await page.click(`svg.board .column[data-col="${col}"]`);
    await page.waitForFunction((b) => new URL(location.href).searchParams.get("pos") !== b, before);
    await page.waitForFunction(() => /Red to move|wins|Draw/.test(document.getElementById("status").textContent));
  }
  seen.gameStatus = await page.textContent("#status");
  seen.gamePos = await address(page);

  // Take back: back to the person's turn, two moves fewer.
  await page.click("#undo");
  seen.afterUndoPos = await address(page);
  seen.afterUndoStatus = await page.textContent("#status");
  seen.afterUndoStones = await page.$$eval("svg.board .stone", (s) => s.length);
  await page.click("#redo");
  seen.afterRedoPos = await address(page);

  // Keys play too: 4 then the solver answers.
  await page.click("#new");
  await page.keyboard.press("4");
  await page.waitForFunction(() => (new URL(location.href).searchParams.get("pos") ?? "").length === 2);
  seen.afterKeyPos = await address(page);

  // A bad position shows its message.
  await page.goto(`${base}/?pos=448`);
  await page.waitForSelector("#error:not([hidden])");
  seen.badPosError = await page.textContent("#error");
  seen.badPosBoard = await page.$$eval("svg.board", (b) => b.length);

  // A long bad position: its message stays inside the panel and the viewport,
  // on a desktop and on a phone.
  seen.longError = [];
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const narrow = await browser.newPage({ viewport: { width, height } });
    await narrow.goto(`${base}/?pos=${"x".repeat(3000)}`);
    await narrow.waitForSelector("#error:not([hidden])");
    seen.longError.push(
      await narrow.evaluate((width) => {
        const box = document.getElementById("error").getBoundingClientRect();
        const panel = document.querySelector(".play").getBoundingClientRect();
        return {
          width,
          left: box.left,
          right: box.right,
          height: box.height,
          panelLeft: panel.left,
          panelRight: panel.right,
          viewportWidth: document.documentElement.clientWidth,
          viewportHeight: window.innerHeight,
          pageWidth: document.documentElement.scrollWidth,
          textLength: document.getElementById("error").textContent.length,
        };
      }, width),
    );
    await narrow.close();
  }

  // The book the WebAssembly solver answers from once book.c4book has arrived
  // (null for serve's page, whose client has no bookDepth).
  await page.goto(`${base}/?pos=4455`);
  await scoresShown(page);
  seen.bookDepth = await page.evaluate(async () => {
    const client = await import("./client.js");
    if (!client.bookDepth) return null;
    for (let i = 0; i < 300 && (await client.bookDepth()) !== 12; i++) {
      await new Promise((done) => setTimeout(done, 100));
    }
    return client.bookDepth();
  });
  await page.close();
  return seen;
}

async function screenshots(browser) {
  for (const [name, width, height] of [["page-desktop.png", 1280, 800], ["page-phone.png", 390, 844]]) {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(`${base}/?pos=4455`);
    await scoresShown(page);
    await page.screenshot({ path: `${outDir}/${name}` });
    await page.close();
  }
  return { written: 2 };
}

// The static build, loaded once with the network, then reloaded with none: the
// service worker's cache serves the page, its modules, the .wasm and the book.
async function offline(browser) {
  const server = await serveDir(base);
  const url = `http://127.0.0.1:${server.address().port}`;
  const context = await browser.newContext();
  const page = await context.newPage();
  const seen = { consoleErrors: [] };
  page.on("pageerror", (e) => seen.consoleErrors.push(String(e)));
  await page.goto(`${url}/?pos=4455`);
  seen.online = await scoresShown(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // No network at all: the server is gone and the browser is offline.
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await context.setOffline(true);
  await page.reload();
  seen.offline = await scoresShown(page);
  seen.offlinePos = await address(page);
  seen.controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
  // A new position is searched by the solver from the cache: a move in the
  // page, its scores shown.
  await page.goto(`${url}/?pos=445`);
  seen.offline445 = await scoresShown(page);
  await context.close();
  return seen;
}

// A move played while a hard position is being analyzed: the page aborts that
// analysis, and the answer for the new position is shown in the time of its own
// search. Plays `moves` by clicks (each aborting the analysis of the one before),
// clicks `col` while `moves` is being searched, counts the Web Workers started
// between that click and the answer (the static build ends the stale search's
// worker and starts another), then times a whole analysis of `moves` by the same
// solver client, for the log.
async function stale(browser, moves, col) {
  const page = await browser.newPage();
  const seen = { consoleErrors: [], bookFetches: [], workers: 0 };
  page.on("pageerror", (e) => seen.consoleErrors.push(String(e)));
  page.on("worker", () => (seen.workers += 1));
  page.on("response", (r) => {
    if (new URL(r.url()).pathname === "/book.c4book") seen.bookFetches.push(r.status());
  });
  const pos = (p) => page.waitForFunction((p) => new URL(location.href).searchParams.get("pos") === p, p);
  // A shared position leaves both sides to persons and shows the scores.
  await page.goto(`${base}/?pos=4455`);
  await scoresShown(page);
  await page.evaluate(async () => {
    const client = await import("./client.js");
    for (let i = 0; client.bookDepth && i < 300 && (await client.bookDepth()) !== 12; i++) {
      await new Promise((done) => setTimeout(done, 100));
    }
  });
  await page.click("#new");
  await pos("");
  let asked = 0;
  for (let n = 1; n <= moves.length; n++) {
    asked = Date.now();
    await page.click(`svg.board .column[data-col="${Number(moves[n - 1]) - 1}"]`);
    await pos(moves.slice(0, n));
  }
  // Under way: the spinner shows, and the search has had a moment to start.
  await page.waitForSelector("#spinner:not([hidden])");
  await page.waitForTimeout(250);
  const clicked = Date.now();
  const workersBefore = seen.workers;
  await page.click(`svg.board .column[data-col="${Number(col) - 1}"]`);
  await pos(moves + col);
  seen.scores = await scoresShown(page);
  seen.answeredMs = Date.now() - clicked;
  seen.workersStarted = seen.workers - workersBefore;
  // How long the stale search had run when the move was played.
  seen.headStartMs = clicked - asked;
  seen.spinnerHidden = await page.$eval("#spinner", (s) => s.hidden);
  seen.error = await page.textContent("#error");
  // The stale search's own duration, by the same client, after.
  Object.assign(
    seen,
    await page.evaluate(async ([moves, col]) => {
      const client = await import("./client.js");
      const depth = client.bookDepth ? await client.bookDepth() : null;
      // Each timed from an empty table, as in the page: a request aborted at once
      // ends the static build's worker, and the next one starts afresh.
      const timed = async (position) => {
        const asking = new AbortController();
        const dropped = client.analyze(position, { signal: asking.signal }).catch(() => null);
        asking.abort();
        await dropped;
        const start = performance.now();
        const answer = await client.analyze(position);
        return [performance.now() - start, answer.scores];
      };
      const [staleMs, staleScores] = await timed(moves);
      const [newMs] = await timed(moves + col);
      return { bookDepthAfter: depth, staleMs, staleScores, newMs };
    }, [moves, col]),
  );
  await page.close();
  return seen;
}

// The static build's worker, ended while it searches, is followed by one that
// starts with the 12-stone book the first one fetched.
async function restart(browser, moves) {
  const page = await browser.newPage();
  const seen = { consoleErrors: [], bookFetches: [], workers: 0 };
  page.on("pageerror", (e) => seen.consoleErrors.push(String(e)));
  page.on("worker", () => (seen.workers += 1));
  page.on("response", (r) => {
    if (new URL(r.url()).pathname === "/book.c4book") seen.bookFetches.push(r.status());
  });
  await page.goto(`${base}/?pos=4455`);
  await scoresShown(page);
  Object.assign(
    seen,
    await page.evaluate(async (moves) => {
      const client = await import("./client.js");
      for (let i = 0; i < 300 && (await client.bookDepth()) !== 12; i++) {
        await new Promise((done) => setTimeout(done, 100));
      }
      const asking = new AbortController();
      const search = client.analyze(moves, { signal: asking.signal });
      setTimeout(() => asking.abort(), 50);
      const aborted = await search.then(
        () => "answered",
        (e) => e.name,
      );
      return { aborted, bookDepthAfter: await client.bookDepth(), scores: (await client.analyze(moves)).scores };
    }, moves),
  );
  await page.close();
  return seen;
}

// A board of another size: what MOVES shows (columns drawn, stones, keys,
// scores), then column COL played by its key (a, b, c past the ninth) and the
// scores after a reload of the new address.
async function size(browser, moves, col) {
  const page = await browser.newPage();
  const seen = { consoleErrors: [] };
  page.on("pageerror", (e) => seen.consoleErrors.push(String(e)));
  await page.goto(`${base}/?pos=${moves}`);
  seen.scores = await scoresShown(page);
  seen.columns = await page.$$eval("svg.board .column", (c) => c.length);
  seen.stones = await page.$$eval("svg.board .stone", (s) => s.length);
  seen.keys = await page.textContent("#keys");
  const key = Number(col) < 9 ? String(Number(col) + 1) : String.fromCharCode(97 + Number(col) - 9);
  await page.locator("body").press(key);
  await page.waitForFunction((m) => new URL(location.href).searchParams.get("pos") !== m, moves);
  seen.afterPos = await address(page);
  await page.reload();
  seen.afterScores = await scoresShown(page);
  seen.afterStones = await page.$$eval("svg.board .stone", (s) => s.length);
  await page.close();
  return seen;
}

/** The number of columns and stones drawn, and the address's size and pos. */
async function board(page) {
  const url = new URL(page.url());
  return {
    columns: await page.$$eval("svg.board .column", (c) => c.length),
    stones: await page.$$eval("svg.board .stone", (s) => s.length),
    size: url.searchParams.get("size"),
    pos: url.searchParams.get("pos"),
    picked: await page.$eval("#size", (s) => s.value),
  };
}

// The size picker: the first load (7x6) fetches the 7x6 .wasm alone; picking
// `small` draws its board, puts it in the address, and a game of two clicks shows
// the solver's scores; each `deep` position loaded by its address shows its
// scores, then one click more; each `bad` query shows its message.
async function picker(browser, cases) {
  const { small, deep, bad } = JSON.parse(cases);
  const page = await browser.newPage();
  const seen = { consoleErrors: [], wasm: [] };
  page.on("pageerror", (e) => seen.consoleErrors.push(String(e)));
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith(".wasm")) seen.wasm.push(path);
  });
  await page.goto(`${base}/?pos=4455`);
  await scoresShown(page);
  seen.firstWasm = [...seen.wasm];
  seen.offered = await page.$$eval("#size option", (options) => options.map((o) => o.value));
  await page.selectOption("#size", small);
  await page.waitForFunction((s) => new URL(location.href).searchParams.get("size") === s, small);
  seen.picked = await board(page);
  seen.pickedScores = await scoresShown(page);
  for (const col of [0, 1]) {
    const before = await address(page);
    await page.click(`svg.board .column[data-col="${col}"]`);
    await page.waitForFunction((b) => new URL(location.href).searchParams.get("pos") !== b, before);
  }
  seen.played = await board(page);
  seen.playedScores = await scoresShown(page);
  seen.deep = [];
  for (const [size, moves] of deep) {
    await page.goto(`${base}/?size=${size}&pos=${moves}`);
    const shown = { scores: await scoresShown(page), ...(await board(page)) };
    const col = await page.$$eval("svg.board .column.playable", (cols) => Number(cols[0].dataset.col));
    await page.click(`svg.board .column[data-col="${col}"]`);
    await page.waitForFunction((m) => new URL(location.href).searchParams.get("pos") !== m, moves);
    shown.after = { scores: await scoresShown(page), ...(await board(page)) };
    seen.deep.push(shown);
  }
  seen.bad = [];
  for (const query of bad) {
    await page.goto(`${base}/${query}`);
    await page.waitForSelector("#error:not([hidden])");
    seen.bad.push({ error: await page.textContent("#error"), ...(await board(page)) });
  }
  await page.close();
  return seen;
}

const browser = await chromium.launch({ executablePath: browserPath, headless: true });
try {
  const result =
    mode === "stale"
      ? await stale(browser, outDir, staleCol)
      : mode === "restart"
        ? await restart(browser, outDir)
        : mode === "size"
          ? await size(browser, outDir, staleCol)
          : mode === "picker"
            ? await picker(browser, outDir)
          : await ({ screenshots, offline, check }[mode] ?? check)(browser);
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
}
