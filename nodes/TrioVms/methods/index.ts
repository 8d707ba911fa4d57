import { searchJobs, searchWebhooks } from './listSearch';
import { getWebhookEvents, getWithdrawReasons } from './loadOptions';

/** The node's `methods`: dropdown options and searchable lists, by the names its fields use. */
export const loadOptions = { getWebhookEvents, getWithdrawReasons };
export const listSearch = { searchJobs, searchWebhooks };
