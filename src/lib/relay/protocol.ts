/** The header that tells a relay's own answer from the upstream's; the page reads it to tell them apart. */
export const RELAY_ERROR_HEADER = 'x-relay-error';
