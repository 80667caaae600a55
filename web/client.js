// The solver client: the only module that talks to the solver. Here it asks
// the server's HTTP API; a build that runs the solver in the page
// (WebAssembly) replaces this one file, keeping these functions.

/** An answer the solver refused, with its message (a bad position: the command line's). */
export class SolverError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function get(path, signal) {
  let response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" }, signal });
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new SolverError(`cannot reach the solver: ${e.message}`, 0);
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: a proxy's page, for example.
  }
  signal?.throwIfAborted();
  if (!response.ok) {
    const why = body && body.error ? body.error : `HTTP ${response.status}`;
    throw new SolverError(why, response.status);
  }
  return body;
}

/**
 * Every column's score of `moves` (the fields of `c4solver analyze --json`:
 * scores, best, score, pv with `pv`, nodes, time_us). An abort of `signal`
 * rejects it with the signal's reason and closes the request's connection, so
 * that the server stops its search.
 */
export function analyze(moves, { pv = false, signal } = {}) {
  const query = new URLSearchParams({ pos: moves });
  if (pv) query.set("pv", "1");
  return get(`analyze?${query}`, signal);
}

/** The board's size, `{width, height}`. */
export async function boardSize() {
  const health = await get("health");
  const [width, height] = String(health.size).split("x").map(Number);
  return { width, height };
}
