import { reasonedOperation } from './reasoned';

export const { description, execute } = reasonedOperation('withdraw');
