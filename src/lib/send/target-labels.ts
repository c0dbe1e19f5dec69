// The names of the send targets, in the importer's language (a text module).
import { m } from '$lib/paraglide/messages.js';
import type { Target } from './send';

export function targetLabel(target: Target): string {
	switch (target) {
		case 'sandbox':
			return m.send_target_sandbox();
		case 'proxy':
			return m.send_target_proxy();
		case 'direct':
			return m.send_target_direct();
	}
}
