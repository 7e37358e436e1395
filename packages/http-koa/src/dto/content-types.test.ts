import { describe, expect, it } from 'vitest';
import { attachmentDisposition, contentTypeFor, resourceFileName } from './content-types.js';

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
  it("names the file as given, encoded as Java's URLEncoder with spaces as %20", () => {
    expect(attachmentDisposition('my form+1.html')).toBe(`attachment; filename="my form+1.html"; filename*=UTF-8''my%20form%2B1.html`);
    expect(attachmentDisposition('dir/a*b~c.txt')).toBe(`attachment; filename="dir/a*b~c.txt"; filename*=UTF-8''dir%2Fa*b%7Ec.txt`);
  });

  it('takes the last path segment of a deployment resource, a backslash counting as a slash', () => {
    expect(resourceFileName('forms/my form+1.html')).toBe('my form+1.html');
    expect(resourceFileName('forms\\review.form')).toBe('review.form');
    expect(resourceFileName('plain.bpmn')).toBe('plain.bpmn');
  });
});
