import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';

const processWith = (key: string, attributes: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d_${key}" targetNamespace="http://trellis.test">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" ${attributes} /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

const form = (text: string, name = 'invoice.form') => ({ name, bytes: Buffer.from(text) });

// Camunda's CamundaFormDefinitionDeployer and GetCamundaFormDefinitionCmd, on both stores.
describe.each(testStoreConfigs())('Camunda Form definitions on $name', (testStore) => {
  let engine: ProcessEngine;
  afterEach(async () => engine?.close());

  const start = async (name: string) => {
    engine = await createTestEngine({ store: testStore.config(`${name}-${testStore.name}`) });
  };
  const deployProcess = async (key: string, attributes: string, tenantId: string | null = null, extra: Array<{ name: string; bytes: Buffer }> = []) => {
    const { processDefinitions } = await engine.deployment.deploy({ tenantId, resources: [{ name: `${key}.bpmn`, bytes: Buffer.from(processWith(key, attributes)) }, ...extra] });
    return processDefinitions![0]!.id;
  };
  const formOf = async (definitionId: string) => JSON.parse((await engine.startForm.getDeployedStartForm(definitionId)).bytes.toString('utf8'));

  it('versions forms per id and tenant, finds the latest among the caller\'s tenants, and none by version without a version', async () => {
    await start('form-tenants');
    await engine.deployment.deploy({ tenantId: 'acme', resources: [form('{"id":"invoice","n":"acme 1"}')] });
    await engine.deployment.deploy({ tenantId: 'acme', resources: [form('{"id":"invoice","n":"acme 2"}')] });
    await engine.deployment.deploy({ tenantId: 'globex', resources: [form('{"id":"invoice","n":"globex 1"}')] });
    const latest = await deployProcess('latest', 'camunda:formRef="invoice" camunda:formRefBinding="latest"');
    const byVersion = await deployProcess('byVersion', 'camunda:formRef="invoice" camunda:formRefBinding="version"');

    const acme = { userId: 'alice', groupIds: [], tenantIds: ['acme'] };
    expect(await engine.runAs(acme, () => formOf(latest))).toEqual({ id: 'invoice', n: 'acme 2' });
    await expect(formOf(latest)).rejects.toThrow("ENGINE-03109 Cannot resolve a unique Camunda Form definition for key 'invoice' because it exists for multiple tenants.");
    await expect(formOf(byVersion)).rejects.toMatchObject({ name: 'NotFoundException' });
  });

  it('takes an empty form, one without an id, and a one-element id array; refuses an id that is null', async () => {
    await start('form-keys');
    const empty = await deployProcess('empty', 'camunda:formRef="" camunda:formRefBinding="deployment"', null, [form('  ')]);
    const single = await deployProcess('single', 'camunda:formRef="a" camunda:formRefBinding="deployment"', null, [form('{"id":["a"],"n":1}')]);

    expect((await engine.startForm.getDeployedStartForm(empty)).bytes.toString('utf8')).toBe('  ');
    expect(await formOf(single)).toEqual({ id: ['a'], n: 1 });
    await expect(engine.deployment.deploy({ resources: [form('{"id":null}')] })).rejects.toThrow(/^ENGINE-09033 Could not parse Camunda Form resource invoice\.form\./);
  });

  it('removes the forms of a deleted deployment, so that a version binding no longer finds them', async () => {
    await start('form-deletion');
    const first = await engine.deployment.deploy({ resources: [form('{"id":"invoice","n":1}')] });
    await engine.deployment.deploy({ resources: [form('{"id":"invoice","n":2}')] });
    const byVersion = await deployProcess('byVersion', 'camunda:formRef="invoice" camunda:formRefBinding="version" camunda:formRefVersion="1"');
    const redeployed = await engine.deployment.redeploy(first.deployment.id, {});
    const third = await deployProcess('third', 'camunda:formRef="invoice" camunda:formRefBinding="version" camunda:formRefVersion="3"');

    expect(await formOf(byVersion)).toEqual({ id: 'invoice', n: 1 });
    expect(await formOf(third)).toEqual({ id: 'invoice', n: 1 });
    await engine.deployment.deleteDeployment(first.deployment.id);
    await expect(formOf(byVersion)).rejects.toMatchObject({ name: 'NotFoundException' });
    expect(redeployed.deployment.id).not.toBe(first.deployment.id);
  });
});
