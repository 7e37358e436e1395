import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine } from '../../src/testing/index.js';

const definitions = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="calling" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="call" />
    ${body}
    <bpmn:sequenceFlow id="f2" sourceRef="call" targetRef="wait" /><bpmn:userTask id="wait" />
  </bpmn:process>
</bpmn:definitions>`;

/** A service task posting an order with the http-connector; `config` adds request-config entries. */
const httpTask = (config = '') => `<bpmn:serviceTask id="call">
  <bpmn:extensionElements>
    <camunda:connector>
      <camunda:connectorId>http-connector</camunda:connectorId>
      <camunda:inputOutput>
        <camunda:inputParameter name="url">\${baseUrl}/orders/\${orderId}</camunda:inputParameter>
        <camunda:inputParameter name="method">POST</camunda:inputParameter>
        <camunda:inputParameter name="headers"><camunda:map>
          <camunda:entry key="Content-Type">application/json</camunda:entry>
          <camunda:entry key="X-Order">\${orderId}</camunda:entry>
        </camunda:map></camunda:inputParameter>
        <camunda:inputParameter name="payload">{"item":"\${item}","url":"\${url}"}</camunda:inputParameter>
        <camunda:inputParameter name="request-config"><camunda:map>${config}</camunda:map></camunda:inputParameter>
        <camunda:outputParameter name="status">\${statusCode}</camunda:outputParameter>
        <camunda:outputParameter name="body">\${response}</camunda:outputParameter>
        <camunda:outputParameter name="reply">\${connector.getVariable('headers')['x-reply']}</camunda:outputParameter>
        <camunda:outputParameter name="item">\${item} (sent)</camunda:outputParameter>
      </camunda:inputOutput>
    </camunda:connector>
  </bpmn:extensionElements>
</bpmn:serviceTask>`;

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('camunda:connector', () => {
  let server: Server;
  let baseUrl: string;
  const received: Received[] = [];
  let answer = { status: 201, body: '{"id":"o-1"}' };
  let engine: ProcessEngine;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ method: request.method!, url: request.url!, headers: request.headers, body });
        response.writeHead(answer.status, { 'Content-Type': 'application/json', 'X-Reply': 'noted' });
        response.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(async () => {
    engine = await createTestEngine();
    received.length = 0;
    answer = { status: 201, body: '{"id":"o-1"}' };
  });
  afterEach(async () => engine.close());

  const deploy = async (body: string) => {
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'calling.bpmn', bytes: Buffer.from(definitions(body)) }] });
    return processDefinitions![0].id;
  };
  const start = (definitionId: string) =>
    engine.runtime.startProcessInstanceById(definitionId, {
      variables: {
        baseUrl: { type: 'string', value: baseUrl, valueInfo: {} },
        orderId: { type: 'string', value: '42', valueInfo: {} },
        item: { type: 'string', value: 'tea', valueInfo: {} },
      },
    });
  const values = async (instanceId: string) => Object.fromEntries(Object.entries(await engine.runtime.getVariables(instanceId)).map(([name, value]) => [name, value.value]));

  it('sends the http-connector request its input parameters describe and maps the response out through its output parameters', async () => {
    const { id } = await start(await deploy(httpTask()));

    expect(received).toEqual([
      expect.objectContaining({ method: 'POST', url: '/orders/42', body: `{"item":"tea","url":"${baseUrl}/orders/42"}` }),
    ]);
    expect(received[0].headers).toMatchObject({ 'content-type': 'application/json', 'x-order': '42' });
    // The connector's variables (url, statusCode, …) stay in its scope; its outputs go to the instance.
    expect(await values(id)).toEqual({ baseUrl, orderId: '42', item: 'tea (sent)', status: 201, body: '{"id":"o-1"}', reply: 'noted' });
    expect((await engine.task.findTasks({ processInstanceId: id })).map((task) => task.taskDefinitionKey)).toEqual(['wait']);
  });

  it('keeps an error status as the response unless the request config says throw-http-error; then the command fails as Camunda does', async () => {
    answer = { status: 404, body: 'no such order' };
    const { id } = await start(await deploy(httpTask()));
    expect(await values(id)).toMatchObject({ status: 404, body: 'no such order' });

    const throwing = await deploy(httpTask('<camunda:entry key="throw-http-error">TRUE</camunda:entry>'));
    await expect(start(throwing)).rejects.toMatchObject({
      name: 'ConnectorRequestException',
      message: 'HTCL-02010 HTTP request failed with Status Code: 404 , Response: no such order',
    });
    expect(await engine.runtime.countProcessInstances({ processDefinitionId: throwing })).toBe(0);
  });

  it('refuses a request without url or with an unknown method, and a SOAP request without payload', async () => {
    const task = (connectorId: string, inputs: string) => `<bpmn:serviceTask id="call"><bpmn:extensionElements><camunda:connector>
      <camunda:connectorId>${connectorId}</camunda:connectorId>
      <camunda:inputOutput>${inputs}</camunda:inputOutput></camunda:connector></bpmn:extensionElements></bpmn:serviceTask>`;
    const failure = async (body: string) => start(await deploy(body)).then(() => null, (error: Error) => `${error.name}: ${error.message}`);

    expect(await failure(task('http-connector', '<camunda:inputParameter name="method">GET</camunda:inputParameter>'))).toBe(
      'ConnectorRequestException: HTCL-02005 Request url required.',
    );
    expect(await failure(task('http-connector', '<camunda:inputParameter name="url">${baseUrl}</camunda:inputParameter><camunda:inputParameter name="method">FETCH</camunda:inputParameter>'))).toBe(
      "ConnectorRequestException: HTCL-02006 Unknown or unsupported HTTP method 'FETCH'",
    );
    expect(await failure(task('soap-http-connector', '<camunda:inputParameter name="url">${baseUrl}</camunda:inputParameter>'))).toBe(
      'ConnectorRequestException: SOAPC-01002 No payload set on request',
    );
    expect(await failure(task('mail-connector', ''))).toBe("ConnectorException: No connector found for connector id 'mail-connector'");
    expect(received).toEqual([]);
  });

  it('runs a connector the host registered, on a send task and on a message end event', async () => {
    const calls: Array<Record<string, unknown>> = [];
    engine.delegates.registerConnector('doubler', (request) => {
      calls.push(request);
      return { answer: (request.question as number) * 2 };
    });
    const connector = (variable: string) => `<camunda:connector><camunda:connectorId>doubler</camunda:connectorId><camunda:inputOutput>
      <camunda:inputParameter name="question">\${amount}</camunda:inputParameter>
      <camunda:outputParameter name="${variable}">\${answer}</camunda:outputParameter></camunda:inputOutput></camunda:connector>`;
    const { processDefinitions } = await engine.deployment.deploy({
      resources: [
        {
          name: 'doubling.bpmn',
          bytes: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:message id="done" name="done" />
  <bpmn:process id="doubling" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="send" />
    <bpmn:sendTask id="send"><bpmn:extensionElements>${connector('doubled')}</bpmn:extensionElements></bpmn:sendTask>
    <bpmn:sequenceFlow id="f2" sourceRef="send" targetRef="end" />
    <bpmn:endEvent id="end"><bpmn:messageEventDefinition messageRef="done"><bpmn:extensionElements>${connector('doubledAgain')}</bpmn:extensionElements></bpmn:messageEventDefinition></bpmn:endEvent>
  </bpmn:process>
</bpmn:definitions>`),
        },
      ],
    });
    const instance = await engine.runtime.startProcessInstanceById(processDefinitions![0].id, {
      variables: { amount: { type: 'integer', value: 21, valueInfo: {} } },
    });

    expect(calls).toEqual([{ question: 21 }, { question: 21 }]);
    const history = await engine.history.variables.find({ processInstanceId: instance.id, sorting: [{ sortBy: 'variableName', sortOrder: 'asc' }] });
    expect(history.map((each) => [each.name, each.value.value])).toEqual([
      ['amount', 21],
      ['doubled', 42],
      ['doubledAgain', 42],
    ]);
    expect((await engine.history.findHistoricProcessInstances({ processInstanceId: instance.id }))[0].state).toBe('COMPLETED');
  });

  it('refuses a connector without id at deployment', async () => {
    const deployment = engine.deployment.deploy({
      resources: [{ name: 'calling.bpmn', bytes: Buffer.from(definitions('<bpmn:serviceTask id="call"><bpmn:extensionElements><camunda:connector /></bpmn:extensionElements></bpmn:serviceTask>')) }],
    });
    await expect(deployment).rejects.toMatchObject({ name: 'ParseException', message: expect.stringContaining("No 'id' defined for connector.") });
  });
});
