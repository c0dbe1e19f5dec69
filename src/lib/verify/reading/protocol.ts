// What the page and the reading worker say to each other, and the work itself: one function the
// worker runs on each job, and the page runs at once on a small one.
import { readShareLink, type ShareLinkReading } from '../case/share-state';
import { readPaste, type PasteReading } from './read-paste';

/** A paste to read, or a share link's fragment to open (decode): its paste is then read as a paste. */
export type ReadJob = { kind: 'paste'; text: string } | { kind: 'link'; fragment: string };

/** To the worker: a job, numbered so that the answer to a job another replaced is told apart. */
export interface JobMessage {
	id: number;
	job: ReadJob;
}

/**
 * From the worker: the job's result (with its errors as plain data, see wire.ts), or what went
 * wrong when a reader failed in a way none should (a reader throws only MacInputError, which is a
 * result).
 */
export type ResultMessage = { id: number; result: unknown } | { id: number; failed: string };

/** Runs a job. */
export function runJob(job: ReadJob): PasteReading | ShareLinkReading {
	return job.kind === 'paste' ? readPaste(job.text) : readShareLink(job.fragment);
}
