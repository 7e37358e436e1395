import { afterEach, describe, expect, it } from 'vitest';
import { createTestEngine, simpleProcessXml, testStoreConfigs } from '../../src/testing/index.js';
import { ParseException, ProcessEngineException, NotFoundException } from '../../src/errors/index.js';
import type { ProcessEngine } from '../../src/engine.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

for (const testStore of testStoreConfigs()) {
  describe(`deployments on ${testStore.name}`, () => {
    async function engine(options: Parameters<typeof createTestEngine>[0] = {}) {
      const created = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), ...options });
      engines.push(created);
      return created;
    }

    const bpmn = (key: string, options = {}) => ({ name: `${key}.bpmn`, bytes: Buffer.from(simpleProcessXml(key, options)) });

    describe('DeploymentService.deploy', () => {
      it('creates version 1, then 2, of a process key', async () => {
        const trellis = await engine();

        const first = await trellis.deployment.deploy({ name: 'd', resources: [bpmn('invoice', { name: 'Invoice', versionTag: 'v1' })] });
        trellis.clock.advance(1000);
        const second = await trellis.deployment.deploy({ name: 'd', resources: [bpmn('invoice')] });

        expect(first.processDefinitions).toHaveLength(1);
        expect(first.processDefinitions![0]).toMatchObject({ key: 'invoice', version: 1, name: 'Invoice', versionTag: 'v1', historyTimeToLive: 30 });
        expect(first.processDefinitions![0].id).toMatch(/^invoice:1:/);
        expect(second.processDefinitions![0]).toMatchObject({ key: 'invoice', version: 2 });
      });

      it('versions a key separately per tenant', async () => {
        const trellis = await engine();

        await trellis.deployment.deploy({ resources: [bpmn('invoice')] });
        const tenant = await trellis.deployment.deploy({ tenantId: 'acme', resources: [bpmn('invoice')] });

        expect(tenant.processDefinitions![0]).toMatchObject({ version: 1, tenantId: 'acme' });
      });

      it('stores nothing of a deployment whose second resource does not parse', async () => {
        const trellis = await engine();

        const attempt = trellis.deployment.deploy({
          name: 'broken',
          resources: [bpmn('good'), { name: 'bad.bpmn', bytes: Buffer.from('<not-xml') }],
        });

        await expect(attempt).rejects.toBeInstanceOf(ParseException);
        expect(await trellis.deployment.countDeployments()).toBe(0);
        expect(await trellis.processDefinition.countProcessDefinitions()).toBe(0);
      });

      it('refuses two processes with the same key in one deployment', async () => {
        const trellis = await engine();

        const attempt = trellis.deployment.deploy({ resources: [bpmn('twin'), { ...bpmn('twin'), name: 'other.bpmn' }] });

        await expect(attempt).rejects.toThrow("The deployment contains definitions with the same key 'twin' (id attribute), this is not allowed");
        await expect(attempt).rejects.toBeInstanceOf(ProcessEngineException);
      });

      it('applies the engine default history time to live when the model has none', async () => {
        const trellis = await engine();

        const result = await trellis.deployment.deploy({ resources: [bpmn('plain', { historyTimeToLive: null })] });

        expect(result.processDefinitions![0].historyTimeToLive).toBe(180);
      });

      it('rejects a model without history time to live when there is no default and TTL is enforced', async () => {
        const trellis = await engine({ historyTimeToLive: null });

        const attempt = trellis.deployment.deploy({ resources: [bpmn('plain', { historyTimeToLive: null })] });

        await expect(attempt).rejects.toBeInstanceOf(ParseException);
        await expect(attempt).rejects.toThrow(/ENGINE-12018/);
      });

      it('refuses an empty history time to live while TTL is enforced, engine default or not', async () => {
        const trellis = await engine();

        const attempt = trellis.deployment.deploy({ resources: [bpmn('empty', { historyTimeToLive: '' })] });

        await expect(attempt).rejects.toThrow(/ENGINE-12018/);
      });

      it('stores an empty history time to live as null, not as the engine default, when TTL is not enforced', async () => {
        const trellis = await engine({ enforceHistoryTimeToLive: false });

        const result = await trellis.deployment.deploy({ resources: [bpmn('empty', { historyTimeToLive: '' })] });

        expect(result.processDefinitions![0].historyTimeToLive).toBeNull();
      });

      it('links a diagram image deployed beside the model', async () => {
        const trellis = await engine();

        const result = await trellis.deployment.deploy({
          resources: [bpmn('order'), { name: 'order.png', bytes: Buffer.from([137, 80, 78, 71]) }],
        });

        expect(result.processDefinitions![0].diagramResourceName).toBe('order.png');
        const diagram = await trellis.processDefinition.getProcessDiagram(result.processDefinitions![0].id);
        expect(diagram?.bytes).toEqual(Buffer.from([137, 80, 78, 71]));
      });

      it('stores non-BPMN files as resources without definitions', async () => {
        const trellis = await engine();

        const result = await trellis.deployment.deploy({ resources: [{ name: 'form.html', bytes: Buffer.from('<form></form>') }] });

        expect(result.processDefinitions).toEqual([]);
        const resources = await trellis.deployment.getDeploymentResources(result.deployment.id);
        expect(resources.map((r) => r.name)).toEqual(['form.html']);
      });
    });

    describe('duplicate filtering', () => {
      it('returns the previous deployment when nothing changed', async () => {
        const trellis = await engine();
        const first = await trellis.deployment.deploy({ name: 'app', resources: [bpmn('p')] });

        const again = await trellis.deployment.deploy({ name: 'app', enableDuplicateFiltering: true, resources: [bpmn('p')] });

        expect(again.deployment.id).toBe(first.deployment.id);
        expect(again.processDefinitions).toBeNull();
        expect(await trellis.deployment.countDeployments()).toBe(1);
      });

      it("deploys again when another tenant deployed the same name since: only the last deployment of a resource counts, as Camunda's query has it", async () => {
        const trellis = await engine();
        await trellis.deployment.deploy({ name: 'app', tenantId: 'a', resources: [bpmn('p')] });
        trellis.clock.advance(1000);
        const other = await trellis.deployment.deploy({ name: 'app', tenantId: 'b', resources: [bpmn('p')] });
        trellis.clock.advance(1000);

        const again = await trellis.deployment.deploy({ name: 'app', tenantId: 'a', enableDuplicateFiltering: true, resources: [bpmn('p')] });

        expect(again.deployment.id).not.toBe(other.deployment.id);
        expect(again.deployment.tenantId).toBe('a');
        expect(again.processDefinitions!.map((d) => `${d.key}:${d.version}:${d.tenantId}`)).toEqual(['p:2:a']);
      });

      it("finds the tenant's own deployment unchanged when it is the last with the resource", async () => {
        const trellis = await engine();
        await trellis.deployment.deploy({ name: 'app', tenantId: 'b', resources: [bpmn('p')] });
        trellis.clock.advance(1000);
        const own = await trellis.deployment.deploy({ name: 'app', tenantId: 'a', resources: [bpmn('p')] });
        trellis.clock.advance(1000);

        const again = await trellis.deployment.deploy({ name: 'app', tenantId: 'a', enableDuplicateFiltering: true, resources: [bpmn('p')] });

        expect(again.deployment.id).toBe(own.deployment.id);
      });

      it("answers the newest deployment of the name, of any tenant, when nothing changed (Camunda's DefaultDeploymentHandler)", async () => {
        const trellis = await engine();
        await trellis.deployment.deploy({ name: 'app', tenantId: 'a', resources: [bpmn('p')] });
        trellis.clock.advance(1000);
        const other = await trellis.deployment.deploy({ name: 'app', tenantId: 'b', resources: [bpmn('q')] });
        trellis.clock.advance(1000);

        const again = await trellis.deployment.deploy({ name: 'app', tenantId: 'a', enableDuplicateFiltering: true, resources: [bpmn('p')] });

        expect(again.deployment).toMatchObject({ id: other.deployment.id, tenantId: 'b' });
        expect(again.processDefinitions).toBeNull();
      });

      it('deploys every resource when one changed', async () => {
        const trellis = await engine();
        await trellis.deployment.deploy({ name: 'app', resources: [bpmn('p'), bpmn('q')] });

        const again = await trellis.deployment.deploy({
          name: 'app', enableDuplicateFiltering: true, resources: [bpmn('p', { name: 'changed' }), bpmn('q')],
        });

        expect(again.processDefinitions!.map((d) => `${d.key}:${d.version}`).sort()).toEqual(['p:2', 'q:2']);
      });

      it('deploys only the changed resources with deploy-changed-only', async () => {
        const trellis = await engine();
        await trellis.deployment.deploy({ name: 'app', resources: [bpmn('p'), bpmn('q')] });

        const again = await trellis.deployment.deploy({
          name: 'app', deployChangedOnly: true, resources: [bpmn('p', { name: 'changed' }), bpmn('q')],
        });

        expect(again.processDefinitions!.map((d) => `${d.key}:${d.version}`)).toEqual(['p:2']);
        expect((await trellis.deployment.getDeploymentResources(again.deployment.id)).map((r) => r.name)).toEqual(['p.bpmn']);
      });
    });

    describe('activation time', () => {
      it("suspends the duplicate deployment's definitions too and activates them when it comes, as Camunda's DeployCmd does", async () => {
        const trellis = await engine();
        const first = await trellis.deployment.deploy({ name: 'app', resources: [bpmn('p')] });
        const activationTime = new Date(trellis.clock.now().getTime() + 60_000);

        const again = await trellis.deployment.deploy({ name: 'app', enableDuplicateFiltering: true, activationTime, resources: [bpmn('p')] });
        const definition = first.processDefinitions![0];
        const suspended = (await trellis.processDefinition.getProcessDefinition(definition.id)).suspended;
        const [job] = await trellis.management.findJobs({});
        trellis.clock.advance(60_001);
        await trellis.jobExecutor.runDueJobs();

        expect([again.deployment.id, again.processDefinitions]).toEqual([first.deployment.id, null]);
        expect(suspended).toBe(true);
        expect(job).toMatchObject({ processDefinitionId: definition.id, deploymentId: first.deployment.id, dueDate: activationTime });
        expect((await trellis.processDefinition.getProcessDefinition(definition.id)).suspended).toBe(false);
      });

      it('deploys suspended even with an activation time that has passed; the due job activates', async () => {
        const trellis = await engine();

        const result = await trellis.deployment.deploy({ activationTime: new Date(trellis.clock.now().getTime() - 1000), resources: [bpmn('p')] });
        const id = result.processDefinitions![0].id;
        const before = (await trellis.processDefinition.getProcessDefinition(id)).suspended;
        await trellis.jobExecutor.runDueJobs();

        expect([result.processDefinitions![0].suspended, before]).toEqual([true, true]);
        expect((await trellis.processDefinition.getProcessDefinition(id)).suspended).toBe(false);
      });

      it('logs the suspension and the scheduled activation, and the Create of the duplicate deployment answered', async () => {
        const trellis = await engine();
        const first = await trellis.deployment.deploy({ name: 'app', resources: [bpmn('p')] });
        const definition = first.processDefinitions![0];

        await trellis.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () =>
          trellis.deployment.deploy({ name: 'app', enableDuplicateFiltering: true, activationTime: new Date(trellis.clock.now().getTime() + 60_000), resources: [bpmn('p')] }),
        );

        const entries = await trellis.history.userOperations.find();
        const summary = new Set(entries.map((entry) => `${entry.operationType} ${entry.entityType} ${entry.processDefinitionId ?? entry.deploymentId}`));
        expect([...summary].sort()).toEqual([
          `ActivateProcessDefinition ProcessDefinition ${definition.id}`,
          `Create Deployment ${first.deployment.id}`,
          `SuspendProcessDefinition ProcessDefinition ${definition.id}`,
        ]);
      });
    });

    describe('redeploy and delete', () => {
      it('redeploys the named resources of a deployment as a new version', async () => {
        const trellis = await engine();
        const first = await trellis.deployment.deploy({ name: 'app', resources: [bpmn('p'), bpmn('q')] });

        const again = await trellis.deployment.redeploy(first.deployment.id, { resourceNames: ['q.bpmn'] });

        expect(again.deployment.name).toBe('app');
        expect(again.processDefinitions!.map((d) => `${d.key}:${d.version}`)).toEqual(['q:2']);
      });

      it('refuses to redeploy a resource the deployment does not have', async () => {
        const trellis = await engine();
        const first = await trellis.deployment.deploy({ resources: [bpmn('p')] });

        await expect(trellis.deployment.redeploy(first.deployment.id, { resourceIds: ['nope'] })).rejects.toBeInstanceOf(NotFoundException);
        await expect(trellis.deployment.redeploy('gone')).rejects.toMatchObject({ name: 'NotFoundException', message: 'The following deployments are not found by id: gone' });
      });

      it("checks as Camunda's DeployCmd: CREATE on deployments, then READ on the source, then the resources asked for", async () => {
        const trellis = await engine({ authorization: { enabled: true } });
        const first = await trellis.deployment.deploy({ resources: [bpmn('p')] });
        const asMia = <T>(work: () => Promise<T>) => trellis.runAs({ userId: 'mia', groupIds: [], tenantIds: [] }, work);
        const grant = (resourceId: string, permissions: string[]) =>
          trellis.authorization.createAuthorization({ type: 1, userId: 'mia', groupId: null, resourceType: 9, resourceId, permissions });
        const redeploy = () => asMia(() => trellis.deployment.redeploy(first.deployment.id, { resourceIds: ['nope'] }));

        await grant(first.deployment.id, ['READ']);
        await expect(redeploy()).rejects.toMatchObject({ name: 'AuthorizationException', missingAuthorizations: [{ permissionName: 'CREATE', resourceName: 'Deployment' }] });
        await trellis.authorization.createAuthorization({ type: 1, userId: 'mia', groupId: null, resourceType: 9, resourceId: '*', permissions: ['CREATE'] });
        await expect(redeploy()).rejects.toBeInstanceOf(NotFoundException);
      });

      // Camunda's DeploymentManager deletes the authorizations on the deployment; its AuthorizationManager
      // does so only while authorization is enabled.
      it.each([
        [true, ['second']],
        [false, ['first', 'second']],
      ])('with authorization enabled %s, keeps the authorizations on the deployments %j when the first is deleted', async (enabled, left) => {
        const trellis = await engine({ authorization: { enabled } });
        const first = await trellis.deployment.deploy({ resources: [bpmn('p')] });
        const second = await trellis.deployment.deploy({ resources: [bpmn('q')] });
        for (const deployment of [first, second]) {
          await trellis.authorization.createAuthorization({ type: 1, userId: 'mia', groupId: null, resourceType: 9, resourceId: deployment.deployment.id, permissions: ['READ'] });
        }

        await trellis.deployment.deleteDeployment(first.deployment.id);

        const ids = (await trellis.authorization.findAuthorizations({ resourceType: 9 })).map((authorization) => authorization.resourceId);
        const names = { [first.deployment.id]: 'first', [second.deployment.id]: 'second' };
        expect(ids.map((id) => names[id!]).sort()).toEqual(left);
      });

      it("logs the deletion with the deployment's tenant", async () => {
        const trellis = await engine();
        const deployed = await trellis.deployment.deploy({ tenantId: 'acme', resources: [bpmn('p')] });

        await trellis.runAs({ userId: 'demo', groupIds: [], tenantIds: ['acme'] }, () => trellis.deployment.deleteDeployment(deployed.deployment.id));

        expect(await trellis.history.userOperations.find({ entityType: 'Deployment', operationType: 'Delete' })).toEqual([
          expect.objectContaining({ deploymentId: deployed.deployment.id, tenantId: 'acme', property: 'cascade', newValue: 'false' }),
        ]);
      });

      it('removes the deployment, its resources and definitions', async () => {
        const trellis = await engine();
        const first = await trellis.deployment.deploy({ resources: [bpmn('p')] });

        await trellis.deployment.deleteDeployment(first.deployment.id, { cascade: true });

        expect(await trellis.deployment.getDeployment(first.deployment.id)).toBeNull();
        expect(await trellis.deployment.getDeploymentResources(first.deployment.id)).toEqual([]);
        expect(await trellis.processDefinition.countProcessDefinitions()).toBe(0);
        expect(await trellis.deployment.getRegisteredDeployments()).toEqual([]);
      });
    });
  });
}
