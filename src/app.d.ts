// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	/** Base URL of the domestic deployment, fixed at build time (vite.config.ts). */
	const __DOMESTIC_BASE_URL__: string;
	/** Base URL of the overseas deployment, fixed at build time (vite.config.ts). */
	const __OVERSEAS_BASE_URL__: string;
	namespace App {}
}

export {};
