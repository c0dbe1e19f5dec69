/** The event the root layout sends on window once the page has hydrated: what the page's
 * bootstrap held until then is done again (paint-first.ts). */
export const HYDRATED = 'mac-playground:hydrated';
