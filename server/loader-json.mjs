// @ts-check
// Loader data for a document without the trip through a response body
// (docs/decisions/018-remembered-route-matching.md).
//
// In Remix v2 every loader's data becomes a JSON `Response` (the route's own
// `json()`, or Remix's for a plain object), and for a document React Router
// then reads that body back as bytes and parses it: a stringify, a stream,
// an encode, a decode and a parse per loader, about a tenth of an uncached
// page's CPU. Here `json()` of plain JSON data (what a JSON round trip gives
// back unchanged) makes a response that writes its body only when someone
// reads it, and a data strategy for documents takes the data straight from
// it. Other data is written at once, as React Router's `json()` does, and the
// strategy parses the text it wrote. Responses sent to a browser (data
// requests, the API) read as any other response.

import { BodyOnReadResponse, NULL_BODY_STATUSES } from "./body-on-read.mjs";

/**
 * @typedef {(data: unknown, init?: number | ResponseInit) => Response} Json
 * @typedef {{ type: string; result: unknown }} StrategyResult
 * @typedef {{ shouldLoad: boolean; route: { id: string }; resolve: () => Promise<StrategyResult> }} StrategyMatch
 * @typedef {(args: { matches: StrategyMatch[] }) => Promise<Record<string, StrategyResult>>} DataStrategy
 */

/** How deep plain data may nest; deeper (or circular) data is written at once, as React Router does. */
const MAX_DEPTH = 64;

/**
 * Whether JSON.stringify then JSON.parse would give `value` back as it is:
 * strings, booleans, null, finite numbers other than -0, and arrays (without
 * holes) and plain objects of those, without `undefined` and without
 * `toJSON`. Collects the arrays and objects it walked into `found`.
 * @param {unknown} value
 * @param {object[]} found
 * @param {number} depth
 * @returns {boolean}
 */
function isPlainJson(value, found, depth = 0) {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || !isPlainJson(value[i], found, depth + 1)) return false;
        }
      } else {
        if (Object.getPrototypeOf(value) !== Object.prototype || "toJSON" in value) return false;
        for (const key in value) {
          if (!isPlainJson(/** @type {Record<string, unknown>} */ (value)[key], found, depth + 1)) return false;
        }
      }
      found.push(value);
      return true;
    }
    default:
      return false;
  }
}

/**
 * Whether `data` is plain JSON (isPlainJson). If so, it is frozen: the
 * render reads the loader's own objects rather than a copy, so nothing may
 * change them afterwards.
 * @param {unknown} data
 */
function keptAsPlainJson(data) {
  /** @type {object[]} */
  const found = [];
  if (!isPlainJson(data, found)) return false;
  for (const value of found) Object.freeze(value);
  return true;
}

/** A JSON response of plain data, written when first read: exactly what writing it at once would give. */
class PlainJsonResponse extends BodyOnReadResponse {
  /** @type {unknown} */
  #data;

  /** @param {unknown} data plain JSON (keptAsPlainJson) @param {ResponseInit} init */
  constructor(data, init) {
    super(() => JSON.stringify(data), init);
    this.#data = data;
  }

  /** The data, as React Router would parse it from the body. */
  get data() {
    return this.#data;
  }
}

/** The JSON text each written-at-once `json()` response holds, until the response is dropped. @type {WeakMap<Response, string>} */
const texts = new WeakMap();

/**
 * `json()` as React Router writes it: plain data in a response that writes
 * its body when read, anything else written at once with its text kept.
 * @type {Json}
 */
export function json(data, init = {}) {
  const responseInit = typeof init === "number" ? { status: init } : init;
  const headers = new Headers(responseInit.headers);
  if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json; charset=utf-8");
  // A status that may have no body (204…) refuses the body at once, as React Router's json() does.
  if (!NULL_BODY_STATUSES.has(responseInit.status ?? 200) && keptAsPlainJson(data))
    return new PlainJsonResponse(data, { ...responseInit, headers });
  const text = JSON.stringify(data);
  const response = new Response(text, { ...responseInit, headers });
  if (typeof text === "string") texts.set(response, text);
  return response;
}

/**
 * The data a loader's response carries, as React Router would read it, when
 * it is a `json()` response with a success status whose body nobody read:
 * the data itself when it was plain, else the parsed text.
 * @param {unknown} result
 * @param {(data: unknown, init: ResponseInit) => unknown} withInit React Router's `data()`
 */
function parsed(result, withInit) {
  if (!(result instanceof Response) || result.bodyUsed || result.status < 200 || result.status > 299) return result;
  // React Router parses only what says it is JSON (its own test), and reads anything else as text.
  if (!/\bapplication\/json\b/.test(result.headers.get("Content-Type") ?? "")) return result;
  const init = { status: result.status, statusText: result.statusText, headers: result.headers };
  if (result instanceof PlainJsonResponse) return withInit(result.data, init);
  const text = texts.get(result);
  return text === undefined ? result : withInit(JSON.parse(text), init);
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
    // A response is known by its class first: Remix's test reads `body`, which would write a plain JSON response's body.
    return result instanceof Response || responses.isResponse(result) ? result : responses.json(result);
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
