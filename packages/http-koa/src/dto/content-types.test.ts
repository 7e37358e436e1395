import { describe, expect, it } from 'vitest';
import { attachmentDisposition, contentTypeFor } from './content-types.js';

describe('contentTypeFor', () => {
  it.each([
    ['order.bpmn', 'application/xml'],
    ['diagram.SVG', 'image/svg+xml'],
    ['form.html', 'text/html'],
    ['script.groovy', 'text/plain'],
    ['form.json', 'application/json'],
    ['archive.zip', 'application/octet-stream'],
  ])('%s is %s', (name, type) => {
    expect(contentTypeFor(name)).toBe(type);
  });
});

describe('attachmentDisposition', () => {
  it('names the last path segment, URL-encoded with spaces as %20', () => {
    expect(attachmentDisposition('forms/my form+1.html')).toBe(`attachment; filename="my form+1.html"; filename*=UTF-8''my%20form%2B1.html`);
  });
});
