export { createTestEngine } from './test-engine.js';
export { testStoreConfigs, schemaName, type TestStore } from './test-stores.js';
export { FixedClock } from '../clock.js';
export { externalTaskProcessXml, simpleProcessXml, type ExternalTaskProcessOptions, type SimpleProcessOptions } from './bpmn-builder.js';
export { grantMore } from './grants.js';
