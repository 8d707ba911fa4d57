/**
 * n8n's error chain: the keys under which n8n's errors hold the error they wrap, read as n8n
 * reads them (@n8n/utils errors/error-chain, which @n8n/backend-network's retry rules walk).
 * `cause` is the standard one; n8n's NodeError keeps a thrown value that is not an Error under
 * `errorResponse`, and NodeApiError reads the failure it describes from `errorResponse.reason`
 * (a rejected promise's reason, a request library's failure).
 *
 * The package cannot import @n8n/utils (a community node depends on n8n-workflow alone), so the
 * same rule is written here: the error first, then what it wraps generation by generation (all
 * of one depth before the next), at most MAX_DEPTH generations below it, each object once.
 */

/** Where n8n's errors keep the error they wrap, in the order n8n reads them. */
const WRAPPING_KEYS = ['cause', 'errorResponse', 'reason'] as const;

/** How many generations below the error are read, as n8n reads them. */
const MAX_DEPTH = 5;

type Link = Readonly<Record<string, unknown>>;

/** Any object, arrays and class instances included (n8n-workflow's isObject takes plain ones only). */
function isLink(value: unknown): value is Link {
	return typeof value === 'object' && value !== null;
}

/** The error and every object it wraps under WRAPPING_KEYS, shallowest first, each once. */
export function errorChain(error: unknown): Link[] {
	if (!isLink(error)) return [];
	const seen = new Set<unknown>([error]);
	const links: Link[] = [error];
	let generation: Link[] = [error];
	for (let depth = 0; depth < MAX_DEPTH && generation.length; depth++) {
		const next: Link[] = [];
		for (const link of generation) {
			for (const key of WRAPPING_KEYS) {
				const inner = link[key];
				if (!isLink(inner) || seen.has(inner)) continue;
				seen.add(inner);
				next.push(inner);
			}
		}
		links.push(...next);
		generation = next;
	}
	return links;
}
