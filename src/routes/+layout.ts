// A static site: every page is rendered at build time and served as files.
export const prerender = true;
