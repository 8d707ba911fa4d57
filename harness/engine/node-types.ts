/**
 * The node types the engine knows: this package's nodes and the test nodes. The package's
 * nodes are loaded on first use, so the engine (and the tests of the transport) work while a
 * node is still being written, and a node that fails to load fails only the tests that use it.
 */
import type { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { TestBinarySource, TestCollect, TestStart } from './test-nodes';
import { TestTransportProbe } from './transport-probe.node';

export const PACKAGE_NAME = 'n8n-nodes-trio-vms';

type NodeTypeLoader = () => INodeType | IVersionedNodeType;

/** Loads `exportName` from a module path relative to this file, when first asked for. */
function lazyPackageNode(modulePath: string, exportName: string): NodeTypeLoader {
	return () => {
		// Loaded on first use so that a suite pays only for the nodes it runs. The path names the
		// .ts file: without an extension Node's resolver (under tsx, e.g. for the benchmarks)
		// would pick the codex file TrioVms.node.json beside it.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const loaded = require(modulePath) as Record<string, new () => INodeType | IVersionedNodeType>;
		const NodeClass = loaded[exportName];
		if (typeof NodeClass !== 'function')
			throw new UnexpectedError(`${modulePath} does not export a class "${exportName}"`);
		return new NodeClass();
	};
}

const TRIO_VMS = lazyPackageNode('../../nodes/TrioVms/TrioVms.node.ts', 'TrioVms');
const TRIO_VMS_TRIGGER = lazyPackageNode(
	'../../nodes/TrioVmsTrigger/TrioVmsTrigger.node.ts',
	'TrioVmsTrigger',
);

const TRIO_VMS_SYNC_TRIGGER = lazyPackageNode(
	'../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node.ts',
	'TrioVmsSyncTrigger',
);

function isVersioned(type: INodeType | IVersionedNodeType): type is IVersionedNodeType {
	return 'nodeVersions' in type;
}

export class EngineNodeTypes implements INodeTypes {
	private readonly loaders = new Map<string, NodeTypeLoader>();

	private readonly loaded = new Map<string, INodeType | IVersionedNodeType>();

	constructor() {
		// Workflows exported from n8n use the package-qualified name; tests may use the short one.
		this.register(`${PACKAGE_NAME}.trioVms`, TRIO_VMS);
		this.register('trioVms', TRIO_VMS);
		// n8n names a usableAsTool node used by an AI agent "<type>Tool"; the class is the same.
		this.register(`${PACKAGE_NAME}.trioVmsTool`, TRIO_VMS);
		this.register(`${PACKAGE_NAME}.trioVmsTrigger`, TRIO_VMS_TRIGGER);
		this.register('trioVmsTrigger', TRIO_VMS_TRIGGER);
		this.register(`${PACKAGE_NAME}.trioVmsSyncTrigger`, TRIO_VMS_SYNC_TRIGGER);
		this.register('trioVmsSyncTrigger', TRIO_VMS_SYNC_TRIGGER);
		this.register('test.start', () => new TestStart());
		this.register('test.binarySource', () => new TestBinarySource());
		this.register('test.collect', () => new TestCollect());
		this.register('test.transportProbe', () => new TestTransportProbe());
	}

	/** Adds (or replaces) a node type, e.g. a test's own helper node. */
	register(name: string, type: NodeTypeLoader | INodeType | IVersionedNodeType): void {
		this.loaded.delete(name);
		this.loaders.set(name, typeof type === 'function' ? type : () => type);
	}

	has(name: string): boolean {
		return this.loaders.has(name);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		let type = this.loaded.get(nodeType);
		if (!type) {
			const loader = this.loaders.get(nodeType);
			if (!loader) throw new UnexpectedError(`Unknown node type "${nodeType}" in the test engine`);
			type = loader();
			this.loaded.set(nodeType, type);
		}
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const type = this.getByName(nodeType);
		return isVersioned(type) ? type.getNodeType(version) : type;
	}

	/** The version a new node of this type gets in the editor: the default or the newest. */
	defaultVersion(nodeType: string): number {
		const type = this.getByName(nodeType);
		if (isVersioned(type)) return type.currentVersion;
		const { version, defaultVersion } = type.description;
		if (defaultVersion !== undefined) return defaultVersion;
		return Array.isArray(version) ? Math.max(...version) : version;
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(
			[...this.loaders.keys()].map((name) => [name, { className: name, sourcePath: '' }]),
		);
	}
}
