// Drives the page of a running `c4solver serve` in the system's headless
// Chromium and prints what it saw as one JSON object (tests/web.rs checks it
// against the command line). Usage:
//   node drive.mjs check URL BROWSER
//   node drive.mjs screenshots URL BROWSER OUT_DIR
import { chromium } from "playwright-core";

const [mode, base, browserPath, outDir] = process.argv.slice(2);

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

const browser = await chromium.launch({ executablePath: browserPath, headless: true });
try {
  const result = mode === "screenshots" ? await screenshots(browser) : await check(browser);
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
}
