import { describe, expect, it } from 'vitest';
import { expectConforms, matchPathTemplate } from './contract.js';

const deployment = { links: [], id: 'd1', name: null, source: null, deploymentTime: '2013-01-23T13:59:43.000+0200', tenantId: null };

describe('matchPathTemplate', () => {
  it('prefers literal segments over parameters, and strips /engine/{name}', () => {
    expect(matchPathTemplate('/deployment/count')).toBe('/deployment/count');
    expect(matchPathTemplate('/deployment/abc')).toBe('/deployment/{id}');
    expect(matchPathTemplate('/engine/default/process-definition/key/k/xml')).toBe('/process-definition/key/{key}/xml');
    expect(matchPathTemplate('/engine')).toBe('/engine');
  });
});

describe('expectConforms', () => {
  it('accepts a correct DeploymentDto', () => {
    expect(() => expectConforms('GET', '/deployment/d1', 200, deployment)).not.toThrow();
  });

  it('rejects a wrong type', () => {
    expect(() => expectConforms('GET', '/deployment/d1', 200, { ...deployment, id: 5 })).toThrow(/does not conform/);
  });

  it('rejects a property the contract does not declare', () => {
    expect(() => expectConforms('GET', '/deployment/d1', 200, { ...deployment, deployTime: 'x' })).toThrow(/undeclared properties: \$\.deployTime/);
  });

  it('rejects a date outside Camunda format', () => {
    expect(() => expectConforms('GET', '/deployment/d1', 200, { ...deployment, deploymentTime: '2013-01-23T13:59:43Z' })).toThrow(/does not conform/);
  });

  it('rejects a success status the operation does not document', () => {
    expect(() => expectConforms('GET', '/deployment/d1', 201, deployment)).toThrow(/documents no 201/);
  });

  it('checks an undocumented error status against ExceptionDto', () => {
    expect(() => expectConforms('GET', '/deployment/d1/resources/r/data', 404, { type: 'X', message: 'm', code: null })).not.toThrow();
    expect(() => expectConforms('GET', '/deployment/d1/resources/r/data', 404, { type: 'X', message: 'm', code: null, trace: [] })).toThrow();
  });

  it('checks map values of deployedProcessDefinitions deeply', () => {
    const body = { ...deployment, deployedProcessDefinitions: { p: { id: 'p', oops: true } } };

    expect(() => expectConforms('POST', '/deployment/create', 200, body)).toThrow(/deployedProcessDefinitions\.p\.oops/);
  });
});
