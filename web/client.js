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
 * Every column's score of `moves` on the board `size` ("8x8"; the server's
 * default when left out): the fields of `c4solver analyze --json` (scores,
 * best, score, pv with `pv`, nodes, time_us). An abort of `signal` rejects it
 * with the signal's reason and closes the request's connection, so that the
 * server stops its search.
 */
export function analyze(moves, { pv = false, size, signal } = {}) {
  const query = new URLSearchParams({ pos: moves });
  if (pv) query.set("pv", "1");
  // The server's own size needs no parameter, so that a server without one answers.
  if (size !== undefined && size !== offered.default) {
    if (!offered.sizeParam) {
      const why = `board size ${size} is not served here: this server has the ${offered.default} board only`;
      return Promise.reject(new SolverError(why, 400));
    }
    query.set("size", size);
  }
  return get(`analyze?${query}`, signal);
}

// What the server offers, once `sizes()` has asked: a server without `GET /sizes`
// has one board, its /health's size, and takes no `size` parameter.
let offered = { default: undefined, sizeParam: false };

/**
 * The board sizes the server was built with, `{sizes: ["7x6", ...], default:
 * "7x6"}` (`GET /sizes`); from a server without that endpoint, its one size
 * (`GET /health`).
 */
export async function sizes() {
  let body = null;
  try {
    body = await get("sizes");
  } catch {
    // An older server: no /sizes.
  }
  if (Array.isArray(body?.sizes) && typeof body.default === "string") {
    offered = { default: body.default, sizeParam: true };
    return { sizes: body.sizes.map(String), default: body.default };
  }
  const health = await get("health");
  offered = { default: String(health.size), sizeParam: false };
  return { sizes: [offered.default], default: offered.default };
}
