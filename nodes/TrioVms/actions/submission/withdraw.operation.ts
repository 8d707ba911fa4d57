import { declineOrWithdrawOperation } from './declineOrWithdraw';

export const { description, execute } = declineOrWithdrawOperation('withdraw');
