// Plain TypeScript with no import: vite.config.ts, the relay under Node and the page all read it.

/** Spec §1: two deployments with identical behaviour; only the host differs. */
export type Region = 'domestic' | 'overseas';

export interface Deployment {
	region: Region;
	label: string;
	/** The base URL a build uses unless its environment variable names another (vite.config.ts). */
	defaultBaseUrl: string;
	/** The host of defaultBaseUrl. */
	host: string;
	/** The build-time variable that overrides defaultBaseUrl. */
	baseUrlVariable: string;
	/**
	 * The host the vendor's older documentation gave for this deployment. Code copied from those docs
	 * still signs it while calling the current host, which the diagnosis names as a mistake.
	 */
	legacyHost: string;
}

export const DEPLOYMENTS: Readonly<Record<Region, Deployment>> = {
	domestic: {
		region: 'domestic',
		label: 'Domestic',
		defaultBaseUrl: 'https://open.tapapis.cn',
		host: 'open.tapapis.cn',
		baseUrlVariable: 'PUBLIC_DOMESTIC_BASE_URL',
		legacyHost: 'openapi.taptap.com'
	},
	overseas: {
		region: 'overseas',
		label: 'Overseas',
		defaultBaseUrl: 'https://open.tapapis.com',
		host: 'open.tapapis.com',
		baseUrlVariable: 'PUBLIC_OVERSEAS_BASE_URL',
		legacyHost: 'openapi.tap.io'
	}
};

export const REGIONS: readonly Region[] = ['domestic', 'overseas'];

/** The hosts of the two deployments. */
export const DEPLOYMENT_HOSTS: readonly string[] = REGIONS.map(
	(region) => DEPLOYMENTS[region].host
);

/** The deployment whose current host is `host` (lower case), if any. */
export function deploymentOfHost(host: string): Deployment | undefined {
	// A loop, not map() then find(): a triage's threads call this for every mismatch, and V8
	// compiled the chain a second time in each once it had met both arrays' kinds.
	for (const region of REGIONS) if (DEPLOYMENTS[region].host === host) return DEPLOYMENTS[region];
	return undefined;
}

/**
 * The base URL of each deployment in this build. The page's build bakes them in (vite.config.ts
 * defines the two constants); where nothing defines them (the relay under Node, vite.config.ts
 * itself) they are the defaults.
 */
export const BASE_URLS: Readonly<Record<Region, string>> = {
	domestic:
		typeof __DOMESTIC_BASE_URL__ === 'string'
			? __DOMESTIC_BASE_URL__
			: DEPLOYMENTS.domestic.defaultBaseUrl,
	overseas:
		typeof __OVERSEAS_BASE_URL__ === 'string'
			? __OVERSEAS_BASE_URL__
			: DEPLOYMENTS.overseas.defaultBaseUrl
};

/** The host names of some base URLs, leaving out any that is not a URL. */
export function hostsOf(baseUrls: Iterable<string>): string[] {
	return [...baseUrls].flatMap((url) => {
		try {
			return [new URL(url).hostname];
		} catch {
			return [];
		}
	});
}
