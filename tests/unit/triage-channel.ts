// The triage worker's code on one end of a real message channel, every message structured-cloned
// as between the page and its worker; the page's end is what a test gets. Ports close after each test.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach } from 'vitest';
import { serveTriage, type TriageCommand, type TriagePort, type TriageReport } from '$lib/triage';

const open: MessagePort[] = [];
afterEach(() => {
	for (const port of open.splice(0)) port.close();
});

/** The page's end of a channel whose other end runs the worker's code. */
export function workerChannel(): TriagePort<TriageReport, TriageCommand> & { terminate(): void } {
	const { port1, port2 } = new MessageChannel();
	open.push(port1, port2);
	port1.start();
	port2.start();
	serveTriage(port1 as unknown as TriagePort<TriageCommand, TriageReport>);
	return Object.assign(port2 as unknown as TriagePort<TriageReport, TriageCommand>, {
		terminate: () => port2.close()
	});
}
