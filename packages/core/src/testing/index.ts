export { createTestEngine } from './test-engine.js';
export { testStoreConfigs, schemaName, type TestStore } from './test-stores.js';
export { FixedClock } from '../clock.js';
export { simpleProcessXml, type SimpleProcessOptions } from './bpmn-builder.js';
