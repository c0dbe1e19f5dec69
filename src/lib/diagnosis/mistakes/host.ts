// Mistakes in the host and port lines: another deployment's host, a host of the older docs, the
// host as written, the host with its port, and a port that is not the one the request went to, is
// empty, or is what a URL API answers for no port.
import { text, type Text } from '$lib/i18n/text';
import { DEPLOYMENTS, REGIONS, deploymentOfHost, type Region } from '$lib/account-api/deployments';
import type { Candidate, CatalogueEntry } from './entry';

const REGION_NAMES: Record<Region, Text> = {
	domestic: text('diagnosis_region_domestic'),
	overseas: text('diagnosis_region_overseas')
};

export const HOST_MISTAKES = [
	{
		id: 'host-other-deployment',
		prior: 0.12,
		slot: 'host',
		fix: text('diagnosis_fix_host_other_deployment'),
		variants: (inputs, { knownHosts }) => {
			// A loop, not filter() then map(): V8 compiled the chain a second time in every thread of
			// a triage once it had met both kinds of array that filter() makes.
			const candidates: Candidate[] = [];
			for (const host of knownHosts)
				if (host !== inputs.host)
					candidates.push({
						inputs: { ...inputs, host },
						title: otherDeploymentTitle(host, inputs.host, knownHosts)
					});
			return candidates;
		}
	},
	{
		id: 'host-legacy',
		prior: 0.06,
		slot: 'host',
		fix: text('diagnosis_fix_host_legacy'),
		// Only while a deployment's current host is called: each deployment's host of the older docs,
		// its own region's first.
		variants: (inputs) => {
			const called = deploymentOfHost(inputs.host);
			if (called === undefined) return [];
			return [called.region, ...REGIONS.filter((region) => region !== called.region)].map(
				(region) => ({
					inputs: { ...inputs, host: DEPLOYMENTS[region].legacyHost },
					title: text('diagnosis_title_host_legacy', {
						host: DEPLOYMENTS[region].legacyHost,
						region: REGION_NAMES[region],
						called: inputs.host
					})
				})
			);
		}
	},
	{
		id: 'host-as-written',
		prior: 0.05,
		slot: 'host',
		fix: text('diagnosis_fix_host_as_written'),
		variants: (inputs, { written }) => {
			const host = written?.host;
			if (host === undefined || host === '' || host === inputs.host) return [];
			return [
				{
					inputs: { ...inputs, host },
					title: text(
						host.toLowerCase() === inputs.host
							? 'diagnosis_title_host_case'
							: 'diagnosis_title_host_as_written',
						{ host, sent: inputs.host }
					)
				}
			];
		}
	},
	{
		id: 'host-with-port',
		prior: 0.08,
		slot: 'host-port',
		fix: text('diagnosis_fix_host_with_port'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, host: `${inputs.host}:${inputs.port}` },
				title: text('diagnosis_title_host_with_port', { host: `${inputs.host}:${inputs.port}` })
			}
		]
	},
	{
		id: 'port-wrong',
		prior: 0.07,
		slot: 'port',
		fix: text('diagnosis_fix_port_wrong'),
		variants: (inputs, { scheme, explicitPort }) =>
			['443', '80', explicitPort]
				.filter(
					(port, index, all) => port !== '' && port !== inputs.port && all.indexOf(port) === index
				)
				.map((port) => ({
					inputs: { ...inputs, port },
					title: portTitle(port, inputs.port, scheme, explicitPort)
				}))
	},
	{
		id: 'port-empty',
		prior: 0.06,
		slot: 'port',
		fix: text('diagnosis_fix_port_empty'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, port: '' },
				title: text('diagnosis_title_port_empty', { port: inputs.port })
			}
		]
	},
	{
		// What a URL API answers for a port the URL does not show, written into the line as text:
		// Java's URI.getPort() and URL.getPort() give -1, Python's urlsplit().port gives None.
		id: 'port-unset',
		prior: 0.02,
		slot: 'port',
		fix: text('diagnosis_fix_port_empty'),
		variants: (inputs) =>
			(
				[
					['-1', 'diagnosis_title_port_minus_one'],
					['None', 'diagnosis_title_port_none']
				] as const
			).map(([port, title]) => ({
				inputs: { ...inputs, port },
				title: text(title, { port: inputs.port })
			}))
	}
] as const satisfies readonly CatalogueEntry[];

/** The other deployment's host, named by its region when it is one of the service's own. */
function otherDeploymentTitle(host: string, called: string, knownHosts: readonly string[]): Text {
	const signed = deploymentOfHost(host);
	if (signed !== undefined && deploymentOfHost(called) !== undefined)
		return text('diagnosis_title_host_region', {
			host,
			region: REGION_NAMES[signed.region],
			called
		});
	return text(
		knownHosts.includes(called)
			? 'diagnosis_title_host_other_deployment'
			: 'diagnosis_title_host_deployment',
		{ host, called }
	);
}

function portTitle(port: string, sent: string, scheme: string, explicitPort: string): Text {
	if (explicitPort !== '' && port !== explicitPort)
		return text('diagnosis_title_port_default', {
			port,
			sent,
			scheme: port === '443' ? 'https' : 'http',
			named: explicitPort
		});
	if (port === '80' && scheme === 'https') return text('diagnosis_title_port_http', { port, sent });
	if (port === '443' && scheme === 'http')
		return text('diagnosis_title_port_https', { port, sent });
	return text('diagnosis_title_port', { port, sent });
}
