import { searchJobs, searchWebhooks } from './listSearch';
import { getWebhookEvents, getWithdrawReasons } from './loadOptions';
import { getCandidateColumns, getSubmissionColumns } from './resourceMapping';

/** The node's `methods`: dropdown options, searchable lists and column mappings, by the names its fields use. */
export const loadOptions = { getWebhookEvents, getWithdrawReasons };
export const listSearch = { searchJobs, searchWebhooks };
export const resourceMapping = { getCandidateColumns, getSubmissionColumns };
