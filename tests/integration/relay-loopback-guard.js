// Loaded into the test process and, through NODE_OPTIONS=--import, into every relay and sandbox
// process the network tests start: a connection to anything but loopback fails before it is made,
// whether it is asked for by address or by a name that resolves elsewhere.
import dns from 'node:dns';
import net from 'node:net';

/**
 * Whether a host is loopback: 127.0.0.0/8, ::1 (also IPv4-mapped) or localhost.
 * @param {unknown} host
 */
export function isLoopback(host) {
	const text = String(host)
		.replace(/^\[|\]$/g, '')
		.toLowerCase();
	return (
		text === 'localhost' ||
		text === '::1' ||
		/^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(text)
	);
}

/** @param {string} host */
const refusal = (host) => new Error(`loopback guard: refused a connection to ${host}`);

/**
 * A lookup that fails for any name resolving to an address other than loopback.
 * @param {Function} lookup
 * @returns {Function}
 */
function guardedLookup(lookup) {
	return (
		/** @type {string} */ hostname,
		/** @type {object} */ options,
		/** @type {Function} */ callback
	) =>
		lookup(
			hostname,
			options,
			(
				/** @type {Error | null} */ error,
				/** @type {string | {address: string}[]} */ address,
				/** @type {number} */ family
			) => {
				if (error) return callback(error, address, family);
				const all = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
				const outside = all.find((candidate) => !isLoopback(candidate));
				if (outside !== undefined) return callback(refusal(`${hostname} (${outside})`));
				callback(null, address, family);
			}
		);
}

/** @type {Function & { loopbackGuard?: boolean }} */
const connect = net.Socket.prototype.connect;
if (!connect.loopbackGuard) {
	/** @this {net.Socket} @param {any[]} args */
	const guarded = function (...args) {
		const list = Array.isArray(args[0]) ? args[0] : args;
		let options = list[0];
		if (options === null || typeof options !== 'object') {
			if (typeof options === 'string' && !/^\d+$/.test(options)) return connect.apply(this, args); // a Unix socket
			options = { port: Number(options), host: typeof list[1] === 'string' ? list[1] : undefined };
			list.splice(0, typeof list[1] === 'string' ? 2 : 1, options);
		}
		if (options.path == null) {
			const host = options.host ?? 'localhost';
			if (net.isIP(String(host).replace(/^\[|\]$/g, ''))) {
				if (!isLoopback(host)) throw refusal(host);
			} else {
				list[0] = { ...options, lookup: guardedLookup(options.lookup ?? dns.lookup) };
			}
		}
		return connect.apply(this, args);
	};
	net.Socket.prototype.connect = Object.assign(guarded, { loopbackGuard: true });
}
