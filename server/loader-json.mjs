// @ts-check
// Loader data for a document without the trip through a response body
// (docs/decisions/018-remembered-route-matching.md).
//
// In Remix v2 every loader's data becomes a JSON `Response` (the route's own
// `json()`, or Remix's for a plain object), and for a document React Router
// then reads that body back as bytes and parses it: a stream, an encode and a
// decode per loader, about a tenth of an uncached page's CPU. This keeps the
// JSON text `json()` wrote beside its response, and a data strategy for
// documents parses that text directly: the same `JSON.parse` of the same
// string, without the body. Responses sent to a browser (data requests, the
// API) are untouched and stay real responses.

/**
 * @typedef {(data: unknown, init?: number | ResponseInit) => Response} Json
 * @typedef {{ type: string; result: unknown }} StrategyResult
 * @typedef {{ shouldLoad: boolean; route: { id: string }; resolve: () => Promise<StrategyResult> }} StrategyMatch
 * @typedef {(args: { matches: StrategyMatch[] }) => Promise<Record<string, StrategyResult>>} DataStrategy
 */

/** The JSON text each `json()` response holds, until the response is dropped. @type {WeakMap<Response, string>} */
const texts = new WeakMap();

/**
 * `json()` as React Router writes it, keeping the text beside the response.
 * @type {Json}
 */
export function json(data, init = {}) {
  const responseInit = typeof init === "number" ? { status: init } : init;
  const headers = new Headers(responseInit.headers);
  if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json; charset=utf-8");
  const text = JSON.stringify(data);
  const response = new Response(text, { ...responseInit, headers });
  if (typeof text === "string") texts.set(response, text);
  return response;
}

/**
 * The data a loader's response carries, as React Router would read it, when
 * it is a `json()` response with a success status whose body nobody read.
 * @param {unknown} result
 * @param {(data: unknown, init: ResponseInit) => unknown} withInit React Router's `data()`
 */
function parsed(result, withInit) {
  if (!(result instanceof Response) || result.bodyUsed || result.status < 200 || result.status > 299) return result;
  const text = texts.get(result);
  // React Router parses only what says it is JSON (its own test), and reads anything else as text.
  if (text === undefined || !/\bapplication\/json\b/.test(result.headers.get("Content-Type") ?? "")) return result;
  return withInit(JSON.parse(text), { status: result.status, statusText: result.statusText, headers: result.headers });
}

/**
 * A data strategy that runs loaders and actions as React Router's default one
 * does, then hands over `json()` responses' data without their bodies.
 * @param {(data: unknown, init: ResponseInit) => unknown} withInit React Router's `data()`
 * @returns {DataStrategy}
 */
export function bodilessDataStrategy(withInit) {
  return async function dataStrategy({ matches }) {
    const toLoad = matches.filter((match) => match.shouldLoad);
    const results = await Promise.all(toLoad.map((match) => match.resolve()));
    /** @type {Record<string, StrategyResult>} */
    const byRoute = {};
    results.forEach((result, i) => {
      const id = /** @type {StrategyMatch} */ (toLoad[i]).route.id;
      byRoute[id] = result.type === "data" ? { type: "data", result: parsed(result.result, withInit) } : result;
    });
    return byRoute;
  };
}

/**
 * @typedef {{ loadContext: unknown; loader: (args: { request: Request; context: unknown; params: unknown }) => unknown; params: unknown; request: Request; routeId: string; singleFetch?: boolean }} LoaderCall
 * @typedef {{
 *   callRouteLoader: (call: LoaderCall) => Promise<unknown>;
 * }} RuntimeData
 * @typedef {{ json: Json; isResponse: (value: unknown) => boolean; isDeferredData: (value: unknown) => boolean }} RuntimeResponses
 */

/**
 * Remix hands each loader a copy of the request with its `index` and `_data`
 * parameters taken out: two new requests (and abort signals) per loader. An
 * address without a query has neither, and the copy would read exactly as
 * the request, so the loader is given the request itself. Everything else is
 * Remix's own call.
 * @param {RuntimeData} data the runtime's `data` module
 * @param {RuntimeResponses} responses the runtime's `responses` module
 */
export function loadWithoutCopies(data, responses) {
  const original = data.callRouteLoader;
  data.callRouteLoader = async function callRouteLoader(call) {
    if (call.singleFetch || call.request.url.includes("?")) return original(call);
    const result = await call.loader({ request: call.request, context: call.loadContext, params: call.params });
    // As Remix answers these (its words, so its errors read the same).
    if (result === undefined || responses.isDeferredData(result)) return original({ ...call, loader: () => result });
    return responses.isResponse(result) ? result : responses.json(result);
  };
}

/**
 * Installs the text-keeping `json()` where Remix's server runtime and the
 * app's `@remix-run/node` import reach it (the runtime's `responses` module,
 * which turns plain loader objects into JSON, and its index, which
 * `@remix-run/node` re-exports through a getter).
 * @param {{ json: Json }[]} modules
 */
export function keepLoaderJson(modules) {
  for (const module of modules) {
    module.json = json;
    // A later Remix whose module objects cannot be changed must not leave this silently unused.
    if (module.json !== json) throw new Error("loader-json: json() could not be replaced");
  }
}
