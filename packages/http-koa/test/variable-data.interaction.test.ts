import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
let instanceId: string;
let taskId: string;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="review" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="check" />
    <bpmn:userTask id="check" />
    <bpmn:sequenceFlow id="f2" sourceRef="check" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

const base64 = (text: string) => Buffer.from(text).toString('base64');

beforeEach(async () => {
  rest = await startRestHarness();
  await rest.engine.deployment.deploy({ resources: [{ name: 'review.bpmn', bytes: Buffer.from(MODEL) }] });
  const started = await rest.request('POST', '/process-definition/key/review/start', {
    json: { variables: { customer: { value: 'Alice', type: 'String' } } },
  });
  instanceId = started.body.id;
  taskId = (await rest.request('GET', '/task', { query: { processInstanceId: instanceId } })).body[0].id;
});
afterEach(async () => rest.close());

/** A multipart upload: the `data` part as a file with a name and content type, plus optional text parts. */
function upload(content: string | Buffer, options: { filename?: string; type?: string; fields?: Record<string, string> } = {}): FormData {
  const form = new FormData();
  form.append('data', new Blob([content], { type: options.type ?? '' }), options.filename ?? 'blob');
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  return form;
}

/** A multipart body written out by hand, for part headers FormData cannot send (a missing or malformed Content-Type, parameters as given). */
function rawUpload(parts: { name: string; filename?: string; type?: string; content: string }[]) {
  const boundary = 'trellis-boundary';
  const body = Buffer.concat([
    ...parts.map((part) => Buffer.from([
      `--${boundary}`,
      `Content-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`,
      ...(part.type === undefined ? [] : [`Content-Type: ${part.type}`]),
      '', part.content, '',
    ].join('\r\n'))),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } };
}

const get = (path: string, query?: Record<string, string>) => rest.request('GET', path, { query });
const post = (path: string, form: FormData) => rest.request('POST', path, { form });

describe('process instance single variables', () => {
  const path = (name: string) => `/process-instance/${instanceId}/variables/${name}`;

  it('puts, gets and deletes String, Json and File variables', async () => {
    expect((await rest.request('PUT', path('note'), { json: { value: 'hi', type: 'String' } })).status).toBe(204);
    expect((await rest.request('PUT', path('payload'), { json: { value: '{"a":1}', type: 'Json' } })).status).toBe(204);
    const file = { value: base64('file text'), type: 'File', valueInfo: { filename: 'note.txt', mimeType: 'text/plain', encoding: 'UTF-8' } };
    expect((await rest.request('PUT', path('doc'), { json: file })).status).toBe(204);

    expect((await get(path('note'))).body).toEqual({ type: 'String', value: 'hi', valueInfo: {} });
    expect((await get(path('customer'))).body).toEqual({ type: 'String', value: 'Alice', valueInfo: {} });
    expect((await get(path('payload'))).body).toEqual({ type: 'Json', value: '{"a":1}', valueInfo: {} });
    expect((await get(path('doc'))).body).toEqual({ type: 'File', value: null, valueInfo: { filename: 'note.txt', mimeType: 'text/plain', encoding: 'UTF-8' } });

    const data = await get(`${path('doc')}/data`);
    expect(data.status).toBe(200);
    expect(data.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(data.headers.get('content-disposition')).toBe(`attachment; filename="note.txt"; filename*=UTF-8''note.txt`);
    expect(data.body.toString()).toBe('file text');

    expect((await rest.request('DELETE', path('note'))).status).toBe(204);
    const gone = await get(path('note'));
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ type: 'InvalidRequestException', message: 'process instance variable with name note does not exist', code: null });
    expect(Object.keys((await get(`/process-instance/${instanceId}/variables`)).body).sort()).toEqual(['customer', 'doc', 'payload']);
  });

  it('answers 400 for a value it cannot convert and an unsupported type', async () => {
    const badInteger = await rest.request('PUT', path('n'), { json: { value: 'abc', type: 'Integer' } });
    const badType = await rest.request('PUT', path('n'), { json: { value: 1, type: 'Sandwich' } });

    expect(badInteger.status).toBe(400);
    expect(badInteger.body.message).toBe("Cannot put process instance variable n: Cannot convert value 'abc' of type 'Integer' to java type java.lang.Integer");
    expect(badType.status).toBe(400);
    expect(badType.body.message).toBe("Cannot put process instance variable n: Unsupported value type 'Sandwich'");
    const nan = await rest.request('PUT', path('d'), { json: { value: 'NaN', type: 'Double' } });
    expect([nan.status, nan.body.message]).toEqual([400, "Cannot put process instance variable d: Cannot convert value 'NaN' of type 'Double' to java type java.lang.Double"]);
    const listInfo = await rest.request('PUT', path('n'), { json: { value: 'x', type: 'String', valueInfo: ['transient'] } });
    const textInfo = await rest.request('POST', `/process-instance/${instanceId}/variables`, { json: { modifications: { n: { value: 'x', valueInfo: 'x' } } } });
    expect([listInfo.status, listInfo.body.type, listInfo.body.message]).toEqual([400, 'InvalidRequestException', '']);
    expect([textInfo.status, textInfo.body.message]).toEqual([400, '']);
    expect((await get(path('n'))).status).toBe(404);
  });

  it("lets a value type's own refusal escape as Camunda's IllegalArgumentException; binds deletions as a List<String> first", async () => {
    const noFilename = await rest.request('PUT', path('doc'), { json: { value: base64('x'), type: 'File', valueInfo: { mimeType: 'text/plain' } } });
    expect(noFilename.status).toBe(500);
    expect(noFilename.body).toMatchObject({ type: 'IllegalArgumentException', code: null });
    const badTransient = await rest.request('POST', `/process-instance/${instanceId}/variables`, { json: { modifications: { j: { value: '{}', type: 'Json', valueInfo: { transient: 'yes' } } } } });
    expect([badTransient.status, badTransient.body.type, badTransient.body.message]).toEqual([500, 'IllegalArgumentException', "The property 'transient' should have a value of type 'boolean'."]);

    const notAList = await rest.request('POST', `/process-instance/${instanceId}/variables`, { json: { deletions: 'customer', modifications: { n: { value: 'x', type: 'Integer' } } } });
    expect([notAList.status, notAList.body.message]).toEqual([400, '']);
    await rest.request('PUT', path('7'), { json: { value: 'seven', type: 'String' } });
    expect((await rest.request('POST', `/process-instance/${instanceId}/variables`, { json: { deletions: [7] } })).status).toBe(204);
    expect((await get(path('7'))).status).toBe(404);
  });

  it('stores an upload as a File with the part name and content type, or as Bytes', async () => {
    const asFile = await post(`${path('report')}/data`, upload('a,b\n1,2', { filename: 'report.csv', type: 'text/csv', fields: { valueType: 'File' } }));
    const asBytes = await post(`${path('raw')}/data`, upload(Buffer.from([0, 1, 2, 255]), { filename: 'ignored.bin', fields: { valueType: 'Bytes' } }));
    const byDefault = await post(`${path('plain')}/data`, upload('xyz', { type: 'text/plain' }));
    expect([asFile.status, asBytes.status, byDefault.status]).toEqual([204, 204, 204]);

    expect((await get(path('report'))).body).toEqual({ type: 'File', value: null, valueInfo: { filename: 'report.csv', mimeType: 'text/csv' } });
    const file = await get(`${path('report')}/data`);
    expect(file.headers.get('content-type')).toBe('text/csv');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="report.csv"; filename*=UTF-8''report.csv`);
    expect(file.body.toString()).toBe('a,b\n1,2');

    expect((await get(path('raw'))).body).toEqual({ type: 'Bytes', value: Buffer.from([0, 1, 2, 255]).toString('base64'), valueInfo: {} });
    const bytes = await get(`${path('raw')}/data`);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('application/octet-stream');
    expect(bytes.headers.get('content-disposition')).toBeNull();
    expect([...bytes.body]).toEqual([0, 1, 2, 255]);
    expect((await get(path('plain'))).body.type).toBe('Bytes');
  });

  it('stores an upload with a `type` part as a JSON-serialized Object, which is no binary value', async () => {
    const json = upload('["a","b"]', { filename: 'list.json', type: 'application/json', fields: { type: 'java.util.ArrayList' } });
    const notJson = upload('a,b', { filename: 'list.csv', type: 'text/csv', fields: { type: 'java.util.ArrayList' } });

    expect((await post(`${path('list')}/data`, json)).status).toBe(204);
    const refused = await post(`${path('list2')}/data`, notJson);

    expect((await get(path('list'), { deserializeValue: 'false' })).body).toEqual({
      type: 'Object', value: '["a","b"]', valueInfo: { objectTypeName: 'java.util.ArrayList', serializationDataFormat: 'application/json' },
    });
    expect((await get(path('list'))).body.value).toEqual(['a', 'b']);
    expect((await get(`${path('list')}/data`)).status).toBe(400);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Unrecognized content type for serialized java type: text/csv');
  });

  it('reads a UTF-8 file name and the data part\'s Content-Type parameters as fromFormPart does', async () => {
    const named = rawUpload([{ name: 'data', filename: 'ä ö.txt', type: 'text/plain; encoding=UTF-8', content: 'hi' }, { name: 'valueType', content: 'File' }]);
    expect((await rest.request('POST', `${path('doc')}/data`, named)).status).toBe(204);
    expect((await get(path('doc'))).body.valueInfo).toEqual({ filename: 'ä ö.txt', mimeType: 'text/plain', encoding: 'UTF-8' });
    const doc = await get(`${path('doc')}/data`);
    expect(doc.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(doc.headers.get('content-disposition')).toMatch(/; filename\*=UTF-8''%C3%A4%20%C3%B6\.txt$/);

    // Only `encoding` names the encoding (a `charset` is dropped); `transient=true` keeps the value out of the database.
    const charset = rawUpload([{ name: 'data', filename: 'c.csv', type: 'Text/CSV ; charset=UTF-8', content: 'a' }, { name: 'valueType', content: 'File' }]);
    const transient = rawUpload([{ name: 'data', filename: 't.txt', type: 'text/plain; transient="TRUE"', content: 't' }, { name: 'valueType', content: 'File' }]);
    const untyped = rawUpload([{ name: 'data', filename: 'u.bin', content: 'u' }, { name: 'valueType', content: 'File' }]);
    const textPart = rawUpload([{ name: 'data', content: 'plain' }, { name: 'valueType', content: 'File' }]);
    expect((await rest.request('POST', `${path('csv')}/data`, charset)).status).toBe(204);
    expect((await rest.request('POST', `${path('gone')}/data`, transient)).status).toBe(204);
    expect((await rest.request('POST', `${path('untyped')}/data`, untyped)).status).toBe(204);
    expect((await get(path('csv'))).body.valueInfo).toEqual({ filename: 'c.csv', mimeType: 'text/csv' });
    expect((await get(path('gone'))).status).toBe(404);
    expect((await get(path('untyped'))).body.valueInfo).toEqual({ filename: 'u.bin', mimeType: 'application/octet-stream' });
    // A part without a file name has none: the File value type refuses it.
    expect((await rest.request('POST', `${path('text')}/data`, textPart)).body.type).toBe('IllegalArgumentException');

    const malformed = await rest.request('POST', `${path('bad')}/data`, rawUpload([{ name: 'data', filename: 'b', type: 'text', content: 'b' }, { name: 'valueType', content: 'File' }]));
    const badParameter = await rest.request('POST', `${path('bad')}/data`, rawUpload([{ name: 'data', filename: 'b', type: 'text/plain; encoding', content: 'b' }, { name: 'valueType', content: 'File' }]));
    expect([malformed.status, malformed.body.type, malformed.body.message]).toEqual([400, 'RestException', 'Invalid mime type given']);
    expect([badParameter.status, badParameter.body.message]).toEqual([400, 'Invalid mime type given']);
    const noType = await rest.request('POST', `${path('obj')}/data`, rawUpload([{ name: 'data', filename: 'o.json', content: '{}' }, { name: 'type', content: 'java.util.HashMap' }]));
    expect([noType.status, noType.body.message]).toEqual([400, 'Unrecognized content type for serialized java type: null']);
  });

  it('refuses an upload as Json, Xml or Object: the part is bytes, not the String these types take', async () => {
    for (const valueType of ['Json', 'xml', 'Object']) {
      const refused = await post(`${path('j')}/data`, upload('{"a":1}', { filename: 'a.json', type: 'application/json', fields: { valueType } }));
      expect([refused.status, refused.body.type, refused.body.message]).toEqual([
        400, 'InvalidRequestException', `Must provide 'null' or String value for value of SerializableValue type '${valueType}'.`,
      ]);
    }
    expect((await get(path('j'))).status).toBe(404);
  });

  it('refuses non-binary, unknown and malformed data requests', async () => {
    const notBinary = await get(`${path('customer')}/data`);
    const unknownVariable = await get(`${path('nope')}/data`);
    const unknownInstance = await get('/process-instance/nope/variables/customer/data');
    const unknownInstanceGet = await get('/process-instance/nope/variables/customer');
    const badType = await post(`${path('x')}/data`, upload('x', { fields: { valueType: 'Sandwich' } }));
    const noData = await rest.request('POST', `${path('x')}/data`, { form: (() => { const f = new FormData(); f.append('valueType', 'Bytes'); return f; })() });
    const notMultipart = await rest.request('POST', `${path('x')}/data`, { json: {} });

    expect(notBinary.status).toBe(400);
    expect(notBinary.body).toEqual({ type: 'InvalidRequestException', message: `Value of variable with id ${instanceId} is not a binary value.`, code: null });
    expect(unknownVariable.status).toBe(404);
    expect(unknownVariable.body.message).toBe('process instance variable with name nope does not exist');
    // Camunda's AbstractVariablesResource: the engine's NullValueException for the instance, as a 500.
    const gone = "execution nope doesn't exist: execution is null";
    expect([unknownInstance.status, unknownInstance.body.type, unknownInstance.body.message]).toEqual([500, 'RestException', `Cannot get process instance variable customer: ${gone}`]);
    expect([unknownInstanceGet.status, unknownInstanceGet.body.message]).toEqual([500, `Cannot get process instance variable customer: ${gone}`]);
    expect(badType.status).toBe(400);
    expect(badType.body.message).toBe("Unsupported value type 'Sandwich'");
    expect(noData.status).toBe(400);
    expect(notMultipart.status).toBe(415);
  });
});

describe('execution local variable data', () => {
  const path = (name: string) => `/execution/${instanceId}/localVariables/${name}`;

  it('uploads and downloads File and Bytes data, refusing other types and unknown names', async () => {
    expect((await post(`${path('doc')}/data`, upload('<a/>', { filename: 'a.xml', type: 'application/xml', fields: { valueType: 'File' } }))).status).toBe(204);
    expect((await post(`${path('raw')}/data`, upload('raw!'))).status).toBe(204);

    expect((await get(path('doc'))).body).toEqual({ type: 'File', value: null, valueInfo: { filename: 'a.xml', mimeType: 'application/xml' } });
    const doc = await get(`${path('doc')}/data`);
    expect(doc.headers.get('content-type')).toBe('application/xml');
    expect(doc.headers.get('content-disposition')).toBe(`attachment; filename="a.xml"; filename*=UTF-8''a.xml`);
    expect(doc.body.toString()).toBe('<a/>');
    const raw = await get(`${path('raw')}/data`);
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect(raw.body.toString()).toBe('raw!');

    const notBinary = await get(`${path('customer')}/data`);
    const unknown = await get(`${path('nope')}/data`);
    const unknownExecution = await get('/execution/nope/localVariables/doc/data');
    const uploadToUnknown = await post('/execution/nope/localVariables/doc/data', upload('x'));
    expect(notBinary.status).toBe(400);
    expect(notBinary.body.message).toBe(`Value of variable with id ${instanceId} is not a binary value.`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('execution variable with name nope does not exist');
    const gone = "execution nope doesn't exist: execution is null";
    expect([unknownExecution.status, unknownExecution.body.message]).toEqual([500, `Cannot get execution variable doc: ${gone}`]);
    expect([uploadToUnknown.status, uploadToUnknown.body.message]).toEqual([500, `Cannot put execution variable doc: ${gone}`]);
  });
});

describe('task variable data', () => {
  it('uploads through …/variables onto the process instance and downloads it again', async () => {
    const path = (name: string) => `/task/${taskId}/variables/${name}`;
    expect((await post(`${path('scan')}/data`, upload('PDF!', { filename: 'scan.pdf', type: 'application/pdf', fields: { valueType: 'File' } }))).status).toBe(204);

    const scan = await get(`${path('scan')}/data`);
    expect(scan.status).toBe(200);
    expect(scan.headers.get('content-type')).toBe('application/pdf');
    expect(scan.headers.get('content-disposition')).toBe(`attachment; filename="scan.pdf"; filename*=UTF-8''scan.pdf`);
    expect(scan.body.toString()).toBe('PDF!');
    expect((await get(`/process-instance/${instanceId}/variables/scan`)).body.valueInfo).toEqual({ filename: 'scan.pdf', mimeType: 'application/pdf' });
    expect((await get(`/task/${taskId}/localVariables/scan`)).status).toBe(404);

    const notBinary = await get(`${path('customer')}/data`);
    const unknown = await get(`${path('nope')}/data`);
    const unknownTask = await get('/task/nope/variables/scan/data');
    expect(notBinary.status).toBe(400);
    expect(notBinary.body.message).toBe(`Value of variable with id ${taskId} is not a binary value.`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('task variable with name nope does not exist');
    // Camunda's AbstractVariablesResource: the engine's NullValueException for the task, as a 500.
    expect([unknownTask.status, unknownTask.body.type]).toEqual([500, 'RestException']);
    expect(unknownTask.body.message).toBe("Cannot get task variable scan: task nope doesn't exist: task is null");
  });

  it('uploads through …/localVariables onto the task only', async () => {
    const path = (name: string) => `/task/${taskId}/localVariables/${name}`;
    expect((await post(`${path('bin')}/data`, upload(Buffer.from([9, 8, 7]), { fields: { valueType: 'Bytes' } }))).status).toBe(204);

    const bin = await get(`${path('bin')}/data`);
    expect(bin.headers.get('content-type')).toBe('application/octet-stream');
    expect([...bin.body]).toEqual([9, 8, 7]);
    expect((await get(`/process-instance/${instanceId}/variables/bin`)).status).toBe(404);
    expect((await get(`/task/${taskId}/variables/bin`)).body).toEqual({ type: 'Bytes', value: Buffer.from([9, 8, 7]).toString('base64'), valueInfo: {} });

    const unknown = await get(`${path('customer')}/data`);
    const uploadToUnknown = await post('/task/nope/localVariables/bin/data', upload('x'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('task variable with name customer does not exist');
    expect([uploadToUnknown.status, uploadToUnknown.body.message]).toEqual([500, "Cannot put task variable bin: task nope doesn't exist: task is null"]);
  });
});
