/**
 * Names of the nodes `runNode` builds, in a module of their own: what needs only the names (the
 * benchmark's flag and list reading, which every documented bench command is checked through)
 * then does not load n8n-core, about a second of CPU each time.
 */
export const SOURCE_NODE = 'Source';
export const NODE_UNDER_TEST = 'Trio VMS';
