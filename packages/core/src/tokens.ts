/** Injection tokens for ports that have more than one implementation. */
export const STORE = Symbol.for('trellis.Store');
export const CLOCK = Symbol.for('trellis.Clock');
export const ID_GENERATOR = Symbol.for('trellis.IdGenerator');
export const ENGINE_CONFIG = Symbol.for('trellis.EngineConfig');
export const LOGGER = Symbol.for('trellis.Logger');
