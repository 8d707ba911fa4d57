export { default } from '../eslint.unpublished.mjs';
