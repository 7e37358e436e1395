import { engineMessage } from '../../errors/engine-message.js';
import { ParseException, type ParseProblem } from '../../errors/exceptions.js';
import { UNKNOWN_POSITION, type Position, type XmlPositions } from './xml-positions.js';

/** Where a problem points: an element id (its start tag) or an explicit position. */
export type ProblemLocation = string | Position | null | undefined;

/**
 * Collects the problems of one resource, then throws them as one ParseException, the way
 * Camunda's Parse does: every rule runs and reports, and only the end of the parse throws.
 */
export class ParseReport {
  readonly errors: ParseProblem[] = [];
  readonly warnings: ParseProblem[] = [];

  constructor(
    readonly resourceName: string,
    readonly positions: XmlPositions,
  ) {}

  /**
   * Adds an error. The first of `elementIds` is the problem's mainElementId; the position is that
   * of `at` (an element id or a position), else of the main element.
   */
  error(message: string, elementIds: readonly (string | null | undefined)[] = [], at?: ProblemLocation): void {
    this.errors.push(this.problem(message, elementIds, at));
  }

  /** Adds a warning; see error. */
  warning(message: string, elementIds: readonly (string | null | undefined)[] = [], at?: ProblemLocation): void {
    this.warnings.push(this.problem(message, elementIds, at));
  }

  get hasErrors(): boolean {
    return this.errors.length > 0;
  }

  /** Throws ENGINE-09005 when any error was reported. */
  throwIfErrors(): void {
    if (!this.hasErrors) return;
    // Camunda: Parse.throwExceptionForErrors and ProblemImpl.toString (line and column only when known).
    const listed = this.errors
      .map(({ message, line, column }) => {
        const where = (line > 0 ? ` | line ${line}` : '') + (column > 0 ? ` | column ${column}` : '');
        return `\n* ${message} | resource ${this.resourceName}${where}`;
      })
      .join('');
    throw new ParseException(engineMessage('09', '005', `Could not parse BPMN process. Errors: ${listed}`), {
      [this.resourceName]: { errors: [...this.errors], warnings: [...this.warnings] },
    });
  }

  private problem(message: string, ids: readonly (string | null | undefined)[], at: ProblemLocation): ParseProblem {
    const elementIds = [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))];
    const mainElementId = elementIds[0] ?? null;
    const location = at === undefined ? mainElementId : at;
    const position =
      typeof location === 'string' ? this.positions.ofId(location) : location === null ? undefined : location;
    const { line, column } = position ?? UNKNOWN_POSITION;
    return { message, line, column, mainElementId, elementIds };
  }
}
