export * from './exceptions.js';
export { engineMessage } from './engine-message.js';
export { ensureMessage, ensureNotEmpty, ensureNotNull } from './ensure.js';
