import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
beforeEach(async () => {
  rest = await startRestHarness();
});
afterEach(async () => rest.close());

function processXml(key: string, startAttributes = '', startExtensions = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="definitions_${key}" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="30">
    <bpmn:startEvent id="start" ${startAttributes}>
      ${startExtensions ? `<bpmn:extensionElements>${startExtensions}</bpmn:extensionElements>` : ''}
      <bpmn:outgoing>flow1</bpmn:outgoing>
    </bpmn:startEvent>
    <bpmn:sequenceFlow id="flow1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review"><bpmn:incoming>flow1</bpmn:incoming></bpmn:userTask>
  </bpmn:process>
</bpmn:definitions>`;
}

const FORM_DATA = `<camunda:formData>
  <camunda:formField id="customer" label="Customer" type="string" defaultValue="ACME">
    <camunda:validation><camunda:constraint name="required" /><camunda:constraint name="maxlength" config="10" /></camunda:validation>
  </camunda:formField>
  <camunda:formField id="amount" label="Amount" type="long" defaultValue="42">
    <camunda:validation><camunda:constraint name="min" config="1" /></camunda:validation>
  </camunda:formField>
  <camunda:formField id="urgent" type="boolean" defaultValue="true" />
  <camunda:formField id="dueDate" label="Due" type="date" defaultValue="24/12/2024" />
  <camunda:formField id="kind" label="Kind" type="enum" defaultValue="b">
    <camunda:value id="a" name="Option &quot;A&quot;" />
    <camunda:value id="b" name="Option B" />
  </camunda:formField>
  <camunda:formField id="note" type="string" />
</camunda:formData>`;

async function deploy(xml: string, extra: Array<{ name: string; bytes: Buffer }> = [], tenantId: string | null = null) {
  const result = await rest.engine.deployment.deploy({ tenantId, resources: [{ name: 'process.bpmn', bytes: Buffer.from(xml) }, ...extra] });
  return result.processDefinitions![0];
}

const START_HTML = '<form role="form"><input cam-variable-name="x" cam-variable-type="String" /></form>';

describe('GET …/startForm', () => {
  it('returns the form key in all three addressing forms', async () => {
    const definition = await deploy(processXml('embedded', 'camunda:formKey="embedded:deployment:start.html"'), [
      { name: 'start.html', bytes: Buffer.from(START_HTML) },
    ]);
    const tenant = await deploy(processXml('embedded', 'camunda:formKey="embedded:app:forms/tenant.html"'), [], 'acme');

    const byId = await rest.request('GET', `/process-definition/${definition.id}/startForm`);
    const byKey = await rest.request('GET', '/process-definition/key/embedded/startForm');
    const byTenant = await rest.request('GET', '/process-definition/key/embedded/tenant-id/acme/startForm');

    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ key: 'embedded:deployment:start.html', camundaFormRef: null, contextPath: null });
    expect(byKey.body).toEqual(byId.body);
    expect(byTenant.body.key).toBe('embedded:app:forms/tenant.html');
    expect(tenant.tenantId).toBe('acme');
  });

  it('points at the rendered form when only form fields are declared, and reports a Camunda Form reference', async () => {
    const generated = await deploy(processXml('generated', '', FORM_DATA));
    const formRef = await deploy(processXml('camundaForm', 'camunda:formRef="invoiceForm" camunda:formRefBinding="version" camunda:formRefVersion="3"'));
    const none = await deploy(processXml('plain'));

    const forGenerated = await rest.request('GET', `/process-definition/${generated.id}/startForm`);
    const forRef = await rest.request('GET', `/process-definition/${formRef.id}/startForm`);
    const forNone = await rest.request('GET', `/process-definition/${none.id}/startForm`);

    expect(forGenerated.body.key).toBe(`embedded:engine://engine/:engine/process-definition/${generated.id}/rendered-form`);
    expect(forRef.body).toEqual({ key: null, camundaFormRef: { key: 'invoiceForm', binding: 'version', version: 3 }, contextPath: null });
    expect(forNone.body).toEqual({ key: null, camundaFormRef: null, contextPath: null });
  });

  it('reads camunda:formRefVersion as Java\'s Integer.parseInt when the form is read, not when it is submitted', async () => {
    const definition = await deploy(processXml('badVersion', 'camunda:formRef="invoiceForm" camunda:formRefBinding="version" camunda:formRefVersion="3.5"'));

    const read = await rest.request('GET', `/process-definition/${definition.id}/startForm`);
    const submitted = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: { variables: {} } });

    expect(read.status).toBe(500);
    expect(read.body).toEqual({ type: 'NumberFormatException', message: 'For input string: "3.5"', code: null });
    expect(submitted.status).toBe(200);
    expect(submitted.body.definitionId).toBe(definition.id);
  });

  it('answers 400 for an unknown id and 404 for an unknown key', async () => {
    const unknown = await rest.request('GET', '/process-definition/nope/startForm');
    const unknownKey = await rest.request('GET', '/process-definition/key/nope/startForm');

    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ type: 'InvalidRequestException', message: 'Cannot get start form data for process definition nope', code: 0 });
    expect(unknownKey.status).toBe(404);
    expect(unknownKey.body.message).toBe('No matching process definition with key: nope and no tenant-id');
  });
});

describe('GET …/form-variables', () => {
  it('returns the form fields with their typed default values', async () => {
    const definition = await deploy(processXml('generated', '', FORM_DATA));

    const all = await rest.request('GET', `/process-definition/${definition.id}/form-variables`);
    const some = await rest.request('GET', '/process-definition/key/generated/form-variables', { query: { variableNames: 'amount,unknown,kind', deserializeValues: false } });

    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      customer: { type: 'String', value: 'ACME', valueInfo: {} },
      amount: { type: 'Long', value: 42, valueInfo: {} },
      urgent: { type: 'Boolean', value: true, valueInfo: {} },
      dueDate: { type: 'String', value: '24/12/2024', valueInfo: {} },
      kind: { type: 'String', value: 'b', valueInfo: {} },
      note: { type: 'String', value: null, valueInfo: {} },
    });
    expect(some.body).toEqual({ amount: { type: 'Long', value: 42, valueInfo: {} }, kind: { type: 'String', value: 'b', valueInfo: {} } });
  });

  it('is an empty object without form fields', async () => {
    const definition = await deploy(processXml('plain'));

    const response = await rest.request('GET', `/process-definition/${definition.id}/form-variables`);

    expect(response.body).toEqual({});
  });
});

describe('GET …/rendered-form', () => {
  it('renders the generated HTML form of the form fields', async () => {
    const xml = processXml('generated', '', `<camunda:formData businessKey="ref">
      <camunda:formField id="ref" label="Reference" type="string" />
      <camunda:formField id="amount" label="Amount" type="long" defaultValue="42">
        <camunda:validation><camunda:constraint name="required" /><camunda:constraint name="min" config="1" /></camunda:validation>
      </camunda:formField>
      <camunda:formField id="urgent" type="boolean" />
      <camunda:formField id="kind" type="enum"><camunda:value id="a" name="Option &quot;A&quot;" /></camunda:formField>
      <camunda:formField id="due" type="date" datePattern="yyyy-MM-dd" />
    </camunda:formData>`);
    await deploy(xml);

    const response = await rest.request('GET', '/process-definition/key/generated/rendered-form');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/xhtml+xml');
    const error = (id: string, type: string) => [
      `    <div ng-if="this.generatedForm.${id}.$invalid && this.generatedForm.${id}.$dirty" class="has-error">`,
      `      <div ng-show="this.generatedForm.${id}.$error.required" class="help-block">`,
      '        Required field',
      '      </div>',
      `      <div ng-show="this.generatedForm.${id}.$error.camVariableType" class="help-block">`,
      `        Only a ${type} value is allowed`,
      '      </div>',
      '    </div>',
    ];
    expect(response.body.toString('utf8')).toBe([
      '<form name="generatedForm" role="form">',
      '  <div class="form-group">',
      '    <label for="ref">',
      '      Reference',
      '    </label>',
      '    <input class="form-control" name="ref" cam-business-key type="text" />',
      ...error('ref', 'string'),
      '  </div>',
      '  <div class="form-group">',
      '    <label for="amount">',
      '      Amount',
      '    </label>',
      '    <input class="form-control" name="amount" cam-variable-type="Long" cam-variable-name="amount" required min="1" type="text" value="42" />',
      ...error('amount', 'long'),
      '  </div>',
      '  <div class="form-group">',
      '    <input class="form-control" name="urgent" cam-variable-type="Boolean" cam-variable-name="urgent" type="checkbox" />',
      ...error('urgent', 'boolean'),
      '  </div>',
      '  <div class="form-group">',
      '    <select class="form-control" name="kind" cam-variable-type="String" cam-variable-name="kind">',
      '      <option value="a">',
      '        Option "A"',
      '      </option>',
      '    </select>',
      ...error('kind', 'string'),
      '  </div>',
      '  <div class="form-group">',
      '    <div class="input-group">',
      '      <input class="form-control" name="due" cam-variable-type="String" cam-variable-name="due" type="text" uib-datepicker-popup="yyyy-MM-dd" is-open="dateFieldOpeneddue" />',
      '      <div class="input-group-btn">',
      '        <button type="button" class="btn btn-default" ng-click="opendue($event)">',
      '          <i class="glyphicon glyphicon-calendar">',
      '          </i>',
      '        </button>',
      '      </div>',
      '      <script cam-script type="text/form-script">',
      '        $scope.opendue = function ($event) { $event.preventDefault(); $event.stopPropagation(); $scope.dateFieldOpeneddue = true; };',
      '      </script>',
      '    </div>',
      '    <div ng-if="this.generatedForm.due.$invalid && this.generatedForm.due.$dirty" class="has-error">',
      '      <div ng-show="this.generatedForm.due.$error.required && !this.generatedForm.due.$error.date" class="help-block">',
      '        Required field',
      '      </div>',
      '      <div ng-show="this.generatedForm.due.$error.date" class="help-block">',
      "        Invalid date format: the date should have the pattern 'yyyy-MM-dd'",
      '      </div>',
      '    </div>',
      '  </div>',
      '</form>',
      '',
    ].join('\n'));
  });

  it('escapes quotes in attribute values and renders readonly as disabled', async () => {
    await deploy(processXml('quoted', '', `<camunda:formData>
      <camunda:formField id="name" type="string" defaultValue='say "hi"'>
        <camunda:validation><camunda:constraint name="readonly" /></camunda:validation>
      </camunda:formField>
    </camunda:formData>`));

    const response = await rest.request('GET', '/process-definition/key/quoted/rendered-form');

    expect(response.body.toString('utf8')).toContain(
      '<input class="form-control" name="name" cam-variable-type="String" cam-variable-name="name" disabled type="text" value="say &quot;hi&quot;" />',
    );
  });

  it('answers 404 without form fields and 400 for an unknown id', async () => {
    const definition = await deploy(processXml('plain'));

    const none = await rest.request('GET', `/process-definition/${definition.id}/rendered-form`);
    const unknown = await rest.request('GET', '/process-definition/nope/rendered-form');

    expect(none.status).toBe(404);
    expect(none.body.message).toBe(`No matching rendered start form for process definition with the id ${definition.id} found.`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.type).toBe('NotFoundException');
  });
});

describe('GET …/deployed-start-form', () => {
  it('returns the deployed form file named by the form key', async () => {
    const definition = await deploy(processXml('embedded', 'camunda:formKey="embedded:deployment:start.html"'), [
      { name: 'start.html', bytes: Buffer.from(START_HTML) },
    ]);
    await deploy(processXml('camunda', 'camunda:formKey="camunda-forms:deployment:forms/start.form"'), [
      { name: 'forms/start.form', bytes: Buffer.from('{"id":"startForm","components":[]}') },
    ]);

    // The harness checks any 200 body against the contract's application/json schema (a binary string here),
    // which a byte stream cannot satisfy: these answers are checked by hand.
    const outsideContract = true;
    const byId = await rest.request('GET', `/process-definition/${definition.id}/deployed-start-form`, { outsideContract });
    const byKey = await rest.request('GET', '/process-definition/key/embedded/deployed-start-form', { outsideContract });
    const camundaForm = await rest.request('GET', '/process-definition/key/camunda/deployed-start-form', { outsideContract });

    expect(byId.status).toBe(200);
    expect(byId.headers.get('content-type')).toContain('application/xhtml+xml');
    expect(byId.body.toString('utf8')).toBe(START_HTML);
    expect(byKey.body.toString('utf8')).toBe(START_HTML);
    expect(camundaForm.headers.get('content-type')).toBe('application/json');
    expect(camundaForm.body).toEqual({ id: 'startForm', components: [] });
  });

  it('finds a Camunda Form by reference: in its own deployment, the latest version, or a given version', async () => {
    const form = (version: number) => ({ name: 'forms/invoice.form', bytes: Buffer.from(JSON.stringify({ id: 'invoice', components: [], version })) });
    const withForm = async (key: string, attributes: string) => deploy(processXml(key, `camunda:formRef="invoice" ${attributes}`), [form(1)]);
    await withForm('deployment', 'camunda:formRefBinding="deployment"');
    await rest.engine.deployment.deploy({ resources: [form(2)] });
    await withForm('latest', 'camunda:formRefBinding="latest"');
    await rest.engine.deployment.deploy({ resources: [form(4)] });
    await withForm('version', 'camunda:formRefBinding="version" camunda:formRefVersion="2"');
    const outsideContract = true;
    const formOf = async (key: string) => (await rest.request('GET', `/process-definition/key/${key}/deployed-start-form`, { outsideContract })).body.version;

    // Deployed: 1 (with "deployment"), 2, 3 (with "latest"), 4, 5 (with "version").
    expect(await formOf('deployment')).toBe(1);
    expect(await formOf('latest')).toBe(1);
    expect(await formOf('version')).toBe(2);
    const latest = await rest.engine.deployment.deploy({ resources: [form(6)] });
    expect(await formOf('latest')).toBe(6);
    await rest.engine.deployment.deleteDeployment(latest.deployment.id);
    expect(await formOf('latest')).toBe(1);
  });

  it('takes a form version of no tenant, and no latest form of a key deployed for two tenants', async () => {
    const form = { name: 'shared.form', bytes: Buffer.from('{"id":"shared"}') };
    await deploy(processXml('byVersion', 'camunda:formRef="shared" camunda:formRefBinding="version" camunda:formRefVersion="1"'), [form], 'acme');
    await rest.engine.deployment.deploy({ tenantId: 'globex', resources: [form] });
    await deploy(processXml('byLatest', 'camunda:formRef="shared" camunda:formRefBinding="latest"'));

    const byVersion = await rest.request('GET', '/process-definition/key/byVersion/tenant-id/acme/deployed-start-form');
    const byLatest = await rest.request('GET', '/process-definition/key/byLatest/deployed-start-form');

    expect(byVersion.status).toBe(404);
    expect(byVersion.body.message).toBe('No Camunda Form Definition was found for Camunda Form Ref: CamundaFormRefImpl [key=shared, binding=version, version=1]');
    expect(byLatest.status).toBe(500);
    expect(byLatest.body).toEqual({ type: 'ProcessEngineException', message: "ENGINE-03109 Cannot resolve a unique Camunda Form definition for key 'shared' because it exists for multiple tenants.", code: 0 });
  });

  it('refuses a deployment whose form is no JSON object or repeats a form id, unless strict form parsing is disabled', async () => {
    const broken = { name: 'broken.form', bytes: Buffer.from('{"id": "broken", ') };
    const bpmn = { name: 'process.bpmn', bytes: Buffer.from(processXml('withBroken')) };

    const refused = rest.engine.deployment.deploy({ resources: [bpmn, broken] });
    const repeated = rest.engine.deployment.deploy({ resources: [{ name: 'a.form', bytes: Buffer.from('{"id":"same"}') }, { name: 'b.form', bytes: Buffer.from('{"id":"same"}') }] });

    await expect(refused).rejects.toThrow(/^ENGINE-09033 Could not parse Camunda Form resource broken\.form\. Cause: /);
    await expect(repeated).rejects.toThrow("The deployment contains definitions with the same key 'same' (id attribute), this is not allowed");
    expect((await rest.request('GET', '/deployment/count')).body).toEqual({ count: 0 });
    const lenient = await startRestHarness({ disableStrictCamundaFormParsing: true });
    try {
      const deployed = await lenient.engine.deployment.deploy({ resources: [bpmn, broken] });
      expect(deployed.processDefinitions).toHaveLength(1);
    } finally {
      await lenient.close();
    }
  });

  it('answers 400 without a key or with a key that names no deployed form, 404 for a missing resource', async () => {
    await deploy(processXml('plain'));
    await deploy(processXml('app', 'camunda:formKey="embedded:app:forms/start.html"'));
    const missing = await deploy(processXml('missing', 'camunda:formKey="embedded:deployment:gone.html"'));

    const noKey = await rest.request('GET', '/process-definition/key/plain/deployed-start-form');
    const notDeployed = await rest.request('GET', '/process-definition/key/app/deployed-start-form');
    const gone = await rest.request('GET', '/process-definition/key/missing/deployed-start-form');
    const unknown = await rest.request('GET', '/process-definition/nope/deployed-start-form');

    expect(noKey.status).toBe(400);
    expect(noKey.body).toEqual({
      type: 'InvalidRequestException',
      message: "One of the attributes 'formKey' and 'camunda:formRef' must be supplied but none were set.",
      code: null,
    });
    expect(notDeployed.status).toBe(400);
    // Camunda's AbstractGetDeployedFormCmd names the form key as the model gives it.
    expect(notDeployed.body.message).toBe("The form key 'embedded:app:forms/start.html' does not reference a deployed form.");
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(`The form with the resource name 'gone.html' cannot be found in deployment with id ${missing.deploymentId}`);
    expect(unknown.status).toBe(404);
  });
});

describe('POST …/submit-form', () => {
  it('starts an instance with the form fields converted and defaulted', async () => {
    const definition = await deploy(processXml('generated', '', FORM_DATA));

    const response = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, {
      json: {
        businessKey: 'order-1',
        variables: {
          customer: { value: 'Globex' },
          amount: { value: 7 },
          urgent: { value: 'false' },
          dueDate: { value: '01/02/2025' },
          extra: { value: 5, type: 'Integer' },
        },
      },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ definitionId: definition.id, businessKey: 'order-1', ended: false, suspended: false, tenantId: null });
    expect(response.body.links).toEqual([{ method: 'GET', href: `${rest.url}/process-instance/${response.body.id}`, rel: 'self' }]);
    const variables = await rest.engine.runtime.getVariables(response.body.id);
    expect(variables.customer).toMatchObject({ type: 'string', value: 'Globex' });
    expect(variables.amount).toMatchObject({ type: 'long', value: 7 });
    expect(variables.urgent).toMatchObject({ type: 'boolean', value: false });
    expect(variables.dueDate).toMatchObject({ type: 'date', value: new Date(2025, 1, 1) });
    expect(variables.kind).toMatchObject({ type: 'string', value: 'b' });
    expect(variables.extra).toMatchObject({ type: 'integer', value: 5 });
    expect(variables.note).toBeUndefined();
  });

  it('works by key and by key and tenant', async () => {
    await deploy(processXml('plain'));
    await deploy(processXml('plain'), [], 'acme');

    const byKey = await rest.request('POST', '/process-definition/key/plain/submit-form', { json: { variables: { a: { value: 1, type: 'Integer' } } } });
    const byTenant = await rest.request('POST', '/process-definition/key/plain/tenant-id/acme/submit-form', { json: {} });

    expect(byKey.status).toBe(200);
    expect(byTenant.status).toBe(200);
    expect(byTenant.body.tenantId).toBe('acme');
  });

  it("answers a field failing validation as Camunda does (its FormFieldValidatorException, a 500) and 500 for an unconvertible value", async () => {
    const definition = await deploy(processXml('generated', '', FORM_DATA));
    const prefix = `Cannot instantiate process definition ${definition.id}`;

    const missing = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: { variables: { customer: { value: '' } } } });
    const tooLong = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: { variables: { customer: { value: 'A very long name' } } } });
    const tooSmall = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: { variables: { customer: { value: 'x' }, amount: { value: 0, type: 'Long' } } } });
    const badEnum = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: { variables: { customer: { value: 'x' }, kind: { value: 'z' } } } });
    const badType = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: { variables: { x: { value: 1, type: 'Nope' } } } });
    // Numeric validators check numbers only: text fails them.
    const textAmount = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: { variables: { customer: { value: 'x' }, amount: { value: '5' } } } });

    expect(missing.status).toBe(500);
    expect(textAmount.body.message).toBe(`${prefix}: Invalid value submitted for form field 'amount': validation of min(1) failed.`);
    expect(missing.body).toEqual({ type: 'RestException', message: `${prefix}: Invalid value submitted for form field 'customer': validation of required failed.`, code: 0 });
    expect(tooLong.body.message).toBe(`${prefix}: Invalid value submitted for form field 'customer': validation of maxlength(10) failed.`);
    expect(tooSmall.body.message).toBe(`${prefix}: Invalid value submitted for form field 'amount': validation of min(1) failed.`);
    expect(badEnum.status).toBe(500);
    expect(badEnum.body).toEqual({ type: 'RestException', message: `${prefix}: Invalid value for enum form property: z`, code: 0 });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toBe(`${prefix}: Unsupported value type 'Nope'`);
    expect(await rest.engine.runtime.countProcessInstances()).toBe(0);

    // A suspended definition is refused before its fields validate (Camunda creates the instance first).
    await rest.request('PUT', `/process-definition/${definition.id}/suspended`, { json: { suspended: true } });
    const suspended = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: { variables: { customer: { value: '' } } } });
    expect([suspended.status, suspended.body.message]).toEqual([500, `${prefix}: ENGINE-03043 Process Definition with id '${definition.id}' is suspended.`]);
  });

  it('answers 500 for an unknown id and 404 for an unknown key', async () => {
    const unknown = await rest.request('POST', '/process-definition/nope/submit-form', { json: {} });
    const unknownKey = await rest.request('POST', '/process-definition/key/nope/submit-form', { json: {} });

    expect(unknown.status).toBe(500);
    expect(unknown.body.message).toBe("Cannot instantiate process definition nope: no deployed process definition found with id 'nope': processDefinition is null");
    expect(unknownKey.status).toBe(404);
  });
});

describe('form field expressions of a start form', () => {
  // Camunda's FormFieldHandler: label and default value are expressions. Read, a start form has no
  // instance (its StartProcessVariableScope holds no variables), so only beans resolve there.
  const FIELDS = `<camunda:formData>
    <camunda:formField id="customer" label="Customer of \${defaults.company}" type="string" defaultValue="\${defaults.company}" />
    <camunda:formField id="amount" label="Amount" type="long" defaultValue="\${defaults.amount}" />
    <camunda:formField id="dueDate" type="date" defaultValue="\${defaults.due}" />
  </camunda:formData>`;

  beforeEach(() => {
    rest.engine.delegates.registerBean('defaults', { company: 'Initech', amount: 7, due: new Date(2024, 11, 24) });
  });

  it('evaluates labels and default values on read: form variables and the rendered form', async () => {
    await deploy(processXml('evaluated', '', FIELDS));

    const variables = await rest.request('GET', '/process-definition/key/evaluated/form-variables');
    const rendered = (await rest.request('GET', '/process-definition/key/evaluated/rendered-form')).body.toString('utf8');

    expect(variables.body).toEqual({
      customer: { type: 'String', value: 'Initech', valueInfo: {} },
      amount: { type: 'Long', value: 7, valueInfo: {} },
      dueDate: { type: 'String', value: '24/12/2024', valueInfo: {} },
    });
    expect(rendered).toContain('<label for="customer">\n      Customer of Initech\n');
    expect(rendered).toContain('cam-variable-name="customer" type="text" value="Initech" />');
    expect(rendered).toContain('cam-variable-name="amount" type="text" value="7" />');
  });

  it('fails reading a field whose expression names a variable, as no instance holds any yet', async () => {
    await deploy(processXml('unresolved', '', '<camunda:formData><camunda:formField id="note" defaultValue="${customer}" /></camunda:formData>'));

    const response = await rest.request('GET', '/process-definition/key/unresolved/form-variables');

    expect(response.status).toBe(500);
    expect(response.body.message).toMatch(/^Unknown property used in expression: \$\{customer\}/);
  });

  it('evaluates default values on submit on the new instance, which holds the fields handled before', async () => {
    const xml = processXml('submitted', '', FIELDS.replace('</camunda:formData>', '<camunda:formField id="note" defaultValue="for ${customer}" /></camunda:formData>'));
    const definition = await deploy(xml);

    const response = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: { variables: { customer: { value: 'Globex' } } } });

    const variables = await rest.engine.runtime.getVariables(response.body.id);
    expect(variables.customer).toMatchObject({ type: 'string', value: 'Globex' });
    expect(variables.amount).toMatchObject({ type: 'long', value: 7 });
    expect(variables.dueDate).toMatchObject({ type: 'date', value: new Date(2024, 11, 24) });
    expect(variables.note).toMatchObject({ type: 'string', value: 'for Globex' });
  });
});

describe('legacy form properties of a start form', () => {
  // Camunda's FormPropertyHandler: camunda:formProperty elements are rendered and submitted beside
  // the form fields, but are no form fields (no form variables, no generated-form key).
  const PROPERTIES = `<camunda:formProperty id="speaker" name="Speaker" variable="speakerName" default="\${defaults.company}" />
    <camunda:formProperty id="duration" name="Duration" type="long" required="true" />
    <camunda:formProperty id="secret" readable="false" />
    <camunda:formProperty id="fixed" name="Fixed" writable="false" default="set" />`;

  beforeEach(() => {
    rest.engine.delegates.registerBean('defaults', { company: 'Initech' });
  });

  it('renders the readable properties with their defaults; they are no form fields', async () => {
    const definition = await deploy(processXml('legacy', '', PROPERTIES));

    const rendered = (await rest.request('GET', `/process-definition/${definition.id}/rendered-form`)).body.toString('utf8');
    const variables = await rest.request('GET', `/process-definition/${definition.id}/form-variables`);
    const form = await rest.request('GET', `/process-definition/${definition.id}/startForm`);

    expect(rendered).toContain('<label for="speaker">\n      Speaker\n');
    expect(rendered).toContain('cam-variable-name="speaker" type="text" value="Initech" />');
    expect(rendered).toContain('cam-variable-name="duration" required type="text" />');
    expect(rendered).toContain('cam-variable-name="fixed" disabled type="text" value="set" />');
    expect(rendered).not.toContain('secret');
    expect(variables.body).toEqual({});
    expect(form.body.key).toBeNull();
  });

  it('submits each property into its variable, converted or defaulted; refuses one not writable and a missing required one', async () => {
    const definition = await deploy(processXml('legacy', '', PROPERTIES));
    const submit = (variables: Record<string, { value: unknown }>) => rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: { variables } });

    const started = await submit({ duration: { value: '90' }, extra: { value: 'x' } });
    const notWritable = await submit({ duration: { value: '90' }, fixed: { value: 'other' } });
    const missing = await submit({});

    expect(started.status).toBe(200);
    const variables = await rest.engine.runtime.getVariables(started.body.id);
    expect(variables).toMatchObject({ speakerName: { type: 'string', value: 'Initech' }, duration: { type: 'long', value: 90 }, fixed: { type: 'string', value: 'set' }, extra: { type: 'string', value: 'x' } });
    expect(variables.speaker).toBeUndefined();
    expect([notWritable.status, notWritable.body.message]).toEqual([500, expect.stringContaining("form property 'fixed' is not writable")]);
    expect([missing.status, missing.body.message]).toEqual([500, expect.stringContaining("form property 'duration' is required")]);
  });
});
