// Loaded first in every page WebKit loads in the engines suite (tests/engines/recorder-proxy.ts puts
// it there): classic WebDriver has no console log to read, so this keeps, for the suite to read, what
// the console would show as an error: console.error, an uncaught error or rejection, a CSP violation.
(() => {
	/** @type {string[]} */
	const seen = [];
	Object.defineProperty(window, '__engineErrors', { value: seen });
	const consoleError = console.error.bind(console);
	console.error = (...args) => {
		seen.push(`console error: ${args.map(String).join(' ')}`);
		consoleError(...args);
	};
	// WebKit's stack leaves out the message: both are kept.
	addEventListener('error', (event) =>
		seen.push(
			`uncaught: ${event.message} (${event.filename}:${event.lineno}) ${event.error?.stack ?? ''}`
		)
	);
	addEventListener('unhandledrejection', (event) =>
		seen.push(`unhandled rejection: ${String(event.reason)} ${event.reason?.stack ?? ''}`)
	);
	addEventListener('securitypolicyviolation', (event) =>
		seen.push(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)
	);
})();
