export interface Position {
  line: number;
  column: number;
}

const ELEMENT_WITH_ID = /<([A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*\b[^>]*?\sid\s*=\s*(["'])(.*?)\2/g;

/**
 * Where each element with an id starts in the XML (1-based line and column), found by one scan of
 * the text: moddle keeps no positions for the elements it builds.
 */
export function elementPositions(xml: string): Map<string, Position> {
  const lineStarts = [0];
  for (let i = 0; i < xml.length; i++) if (xml.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const positions = new Map<string, Position>();
  for (const match of xml.matchAll(ELEMENT_WITH_ID)) {
    const id = match[3];
    if (!positions.has(id)) positions.set(id, positionOf(match.index, lineStarts));
  }
  return positions;
}

function positionOf(offset: number, lineStarts: number[]): Position {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lineStarts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - lineStarts[low] + 1 };
}
