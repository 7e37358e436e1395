/** A 1-based place in a resource; 0 means unknown, as in Camunda's problems. */
export interface Position {
  line: number;
  column: number;
}

/** One start tag of the document. */
export interface TagInfo {
  qName: string;
  id: string | null;
  /** The attributes as written, e.g. ` id="a" name="b"`. */
  attributes: string;
  /** Just after the tag's closing `>`: where a SAX locator (and so Camunda) places an element. */
  end: Position;
}

export const UNKNOWN_POSITION: Position = Object.freeze({ line: 0, column: 0 });

const START_TAG = /<([A-Za-z_][\w.:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/y;
const ID_ATTRIBUTE = /(?:^|\s)id\s*=\s*(?:"([^"]*)"|'([^']*)')/;
const SKIPPED = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
  ['</', '>'],
] as const;

/**
 * Where the elements of a resource are. moddle keeps no positions, so one scan of the text finds
 * every start tag (skipping comments, CDATA and processing instructions).
 */
export class XmlPositions {
  private readonly lineStarts: number[] = [0];
  private readonly byId = new Map<string, TagInfo>();
  private readonly byStart = new Map<string, TagInfo>();
  private firstTag: TagInfo | null = null;

  constructor(xml: string) {
    for (let i = 0; i < xml.length; i++) if (xml.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    this.scan(xml);
  }

  /** The root element's start tag, if the text has any tag. */
  get root(): TagInfo | null {
    return this.firstTag;
  }

  /** The position of the first element with this id. */
  ofId(id: string): Position | undefined {
    return this.byId.get(id)?.end;
  }

  /** The tag of the first element with this id. */
  tagOfId(id: string): TagInfo | undefined {
    return this.byId.get(id);
  }

  /** An attribute's text as written on the first element with this id (moddle coerces booleans more strictly than Java). */
  rawAttribute(id: string, name: string): string | undefined {
    const attributes = this.byId.get(id)?.attributes ?? '';
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = new RegExp(`(?:^|\\s)${escaped}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
    return match ? (match[1] ?? match[2]) : undefined;
  }

  /** The tag whose `<` is at this 0-based line and column (the way saxen, under moddle, counts). */
  tagAt(line: number, column: number): TagInfo | undefined {
    return this.byStart.get(`${line}:${column}`);
  }

  private scan(xml: string): void {
    let offset = xml.indexOf('<');
    while (offset !== -1) {
      const skipped = SKIPPED.find(([open]) => xml.startsWith(open, offset));
      if (skipped) {
        const close = xml.indexOf(skipped[1], offset + skipped[0].length);
        if (close === -1) return;
        offset = xml.indexOf('<', close + skipped[1].length);
        continue;
      }
      START_TAG.lastIndex = offset;
      const match = START_TAG.exec(xml);
      if (match) this.record(match, offset);
      offset = xml.indexOf('<', match ? START_TAG.lastIndex : offset + 1);
    }
  }

  private record(match: RegExpExecArray, offset: number): void {
    const idMatch = ID_ATTRIBUTE.exec(match[2]);
    const id = idMatch ? (idMatch[1] ?? idMatch[2]) : null;
    const tag: TagInfo = { qName: match[1], id, attributes: match[2], end: this.positionOf(offset + match[0].length) };
    const start = this.positionOf(offset);
    this.byStart.set(`${start.line - 1}:${start.column - 1}`, tag);
    if (id !== null && !this.byId.has(id)) this.byId.set(id, tag);
    this.firstTag ??= tag;
  }

  private positionOf(offset: number): Position {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - this.lineStarts[low] + 1 };
  }
}
