// The reading worker's entry: the page starts it with
//   new Worker(new URL('./reading.worker.ts', import.meta.url), { type: 'module' })
// (Vite bundles it with the readers as a worker of its own) and talks to it through PasteReader.
// It reads one job at a time; the page ends it (terminate) to cancel a job or to start a newer one.
import { runJob, type JobMessage, type ResultMessage } from './protocol';
import { toWire } from './wire';

const port = globalThis as unknown as {
	onmessage: ((event: MessageEvent<JobMessage>) => void) | null;
	postMessage(message: ResultMessage): void;
};

port.onmessage = ({ data: { id, job } }) => {
	let message: ResultMessage;
	try {
		message = { id, result: toWire(runJob(job)) };
	} catch (error) {
		message = { id, failed: error instanceof Error ? `${error.name}: ${error.message}` : 'error' };
	}
	port.postMessage(message);
};
