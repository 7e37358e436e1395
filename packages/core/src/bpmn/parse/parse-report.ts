import { engineMessage } from '../../errors/engine-message.js';
import { ParseException, type ParseProblem } from '../../errors/exceptions.js';
import type { Position } from './xml-positions.js';

/** Collects the problems of one resource, then throws them as one ParseException (Camunda's BpmnParse). */
export class ParseReport {
  readonly errors: ParseProblem[] = [];
  readonly warnings: ParseProblem[] = [];

  constructor(
    readonly resourceName: string,
    private readonly positions: ReadonlyMap<string, Position>,
  ) {}

  error(message: string, elementId: string | null, at?: Position): void {
    this.errors.push(this.problem(message, elementId, at));
  }

  warning(message: string, elementId: string | null, at?: Position): void {
    this.warnings.push(this.problem(message, elementId, at));
  }

  /** Where an element starts in the resource (line 0, column 0 when unknown). */
  positionOf(elementId: string): Position {
    return this.positions.get(elementId) ?? { line: 0, column: 0 };
  }

  /** Throws when any error was reported. */
  throwIfErrors(): void {
    if (this.errors.length === 0) return;
    const listed = this.errors
      .map((problem) => `\n* ${problem.message} | resource ${this.resourceName} | line ${problem.line} | column ${problem.column}`)
      .join('');
    throw new ParseException(engineMessage('09', '005', `Could not parse BPMN process. Errors: ${listed}`), {
      [this.resourceName]: { errors: this.errors, warnings: this.warnings },
    });
  }

  private problem(message: string, elementId: string | null, at?: Position): ParseProblem {
    const position = at ?? (elementId ? this.positions.get(elementId) : undefined) ?? { line: 0, column: 0 };
    return {
      message,
      line: position.line,
      column: position.column,
      mainElementId: elementId,
      elementIds: elementId ? [elementId] : [],
    };
  }
}
