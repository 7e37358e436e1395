import { createTestEngine } from '@trellis/core/testing';
import type { EngineConfig, FixedClock, ProcessEngine } from '@trellis/core';
import type { AddressInfo } from 'node:net';
import { createRestApp, type EngineRestOptions } from '../../src/index.js';
import { expectConforms } from './contract.js';

export const BASE_PATH = '/engine-rest';

export interface RestResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON for JSON responses, a Buffer otherwise (empty for no content). */
  body: T;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean>;
  json?: unknown;
  form?: FormData;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Skip the contract check (only for paths outside the contract, like unknown routes). */
  outsideContract?: boolean;
}

export interface RestHarness {
  engine: ProcessEngine & { clock: FixedClock };
  url: string;
  /** Sends a request to `<base><path>`; every JSON answer is checked against the 7.22 contract. */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<RestResponse<T>>;
  close(): Promise<void>;
}

/** A real server on an ephemeral 127.0.0.1 port over a test engine (in-memory SQLite unless told otherwise). */
export async function startRestHarness(
  engineOptions: Partial<EngineConfig> & { clock?: FixedClock } = {},
  restOptions: EngineRestOptions = {},
): Promise<RestHarness> {
  const engine = await createTestEngine(engineOptions);
  const server = createRestApp(engine, { basePath: BASE_PATH, ...restOptions }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`;
  return {
    engine,
    url,
    async request(method, path, options = {}) {
      const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)]))}` : '';
      const headers: Record<string, string> = { ...options.headers };
      let body: FormData | string | Buffer | undefined = options.form ?? options.body;
      if (options.json !== undefined) {
        headers['Content-Type'] ??= 'application/json';
        body = JSON.stringify(options.json);
      }
      const response = await fetch(`${url}${path}${query}`, { method, headers, body });
      const contentType = response.headers.get('content-type') ?? '';
      const raw = Buffer.from(await response.arrayBuffer());
      const parsed = contentType.startsWith('application/json') && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : raw;
      if (!options.outsideContract) {
        expectConforms(method, path.split('?')[0], response.status, raw.length === 0 ? undefined : isJson(contentType) ? parsed : undefined);
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await engine.close();
    },
  };
}

const isJson = (contentType: string) => contentType.startsWith('application/json');

/** A multipart form with text fields and files, as curl -F sends them. */
export function deploymentForm(fields: Record<string, string>, files: Array<{ name: string; content: string | Buffer; part?: string }>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  files.forEach((file, i) => form.append(file.part ?? `data${i}`, new Blob([file.content]), file.name));
  return form;
}
