import { describe, expect, it } from 'vitest';
import {
	BASE_URLS,
	DEPLOYMENT_HOSTS,
	DEPLOYMENTS,
	deploymentOfHost,
	hostsOf,
	REGIONS
} from '$lib/account-api/deployments';

describe('deployments', () => {
	it('names each deployment with the host of its default base URL', () => {
		for (const region of REGIONS) {
			const deployment = DEPLOYMENTS[region];
			expect(deployment.region).toBe(region);
			expect(new URL(deployment.defaultBaseUrl).hostname).toBe(deployment.host);
		}
		expect(DEPLOYMENT_HOSTS).toEqual(['open.tapapis.cn', 'open.tapapis.com']);
	});

	it('uses the base URLs the build bakes in, where the build defines them', () => {
		expect(BASE_URLS).toEqual({
			domestic: __DOMESTIC_BASE_URL__,
			overseas: __OVERSEAS_BASE_URL__
		});
	});

	it('takes the hosts of base URLs, leaving out what is not a URL', () => {
		expect(hostsOf(['https://Open.Example.com:8443/x', 'not a url', ''])).toEqual([
			'open.example.com'
		]);
	});

	it("knows each deployment's host of the older docs, and a deployment by its current host", () => {
		expect(REGIONS.map((region) => DEPLOYMENTS[region].legacyHost)).toEqual([
			'openapi.taptap.com',
			'openapi.tap.io'
		]);
		expect(deploymentOfHost('open.tapapis.com')?.region).toBe('overseas');
		expect(deploymentOfHost('openapi.tap.io')).toBeUndefined();
	});
});
