/**
 * How far, in seconds either way, a request's ts may be from the server's clock (or, judging a
 * logged request, from the time it was logged) before the service answers invalid_time. The spec
 * does not state it (§5.8): this is an assumption, the sandbox's, which every page and the triage
 * state as such; the sandbox's settings and the triage's --window change it.
 */
export const TS_WINDOW_SECONDS = 300;
