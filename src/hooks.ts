import type { Reroute } from '@sveltejs/kit';
import { deLocalizeUrl } from '$lib/paraglide/runtime';

// /zh-CN/verify is the route /verify in Chinese: one route tree serves both languages, and the
// language is read from the URL (Paraglide's url strategy, vite.config.ts).
export const reroute: Reroute = (request) => deLocalizeUrl(request.url).pathname;
