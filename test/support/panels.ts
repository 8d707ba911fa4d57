/**
 * What users read in n8n's panels: the properties of the three nodes and of the credential,
 * each under the name a failing check shows. The tests that judge every field walk these.
 */
import type { INodeProperties } from 'n8n-workflow';

import { TrioVmsApi } from '../../credentials/TrioVmsApi.credentials';
import { TrioVms } from '../../nodes/TrioVms/TrioVms.node';
import { TrioVmsSyncTrigger } from '../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import { TrioVmsTrigger } from '../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';

export const PANELS: ReadonlyArray<[owner: string, properties: INodeProperties[]]> = [
	['Trio VMS', new TrioVms().description.properties],
	['Trio VMS Trigger', new TrioVmsTrigger().description.properties],
	['Trio VMS Sync Trigger', new TrioVmsSyncTrigger().description.properties],
	['Trio VMS API credential', new TrioVmsApi().properties],
];
