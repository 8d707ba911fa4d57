import { searchJobs, searchWebhooks, searchWithdrawReasons } from './listSearch';
import { getWebhookEvents } from './loadOptions';
import { getCandidateColumns, getSubmissionColumns } from './resourceMapping';

/** The node's `methods`: dropdown options, searchable lists and column mappings, by the names its fields use. */
export const loadOptions = { getWebhookEvents };
export const listSearch = { searchJobs, searchWebhooks, searchWithdrawReasons };
export const resourceMapping = { getCandidateColumns, getSubmissionColumns };
