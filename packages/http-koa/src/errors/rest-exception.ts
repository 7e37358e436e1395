/**
 * An error raised by the REST layer itself, carrying its HTTP status (Camunda's
 * InvalidRequestException / RestException). Engine errors never carry a status.
 */
export class InvalidRequestException extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The `type` of the JSON body: 'InvalidRequestException' or 'RestException'. */
    readonly type: 'InvalidRequestException' | 'RestException' = 'InvalidRequestException',
    /** The engine code when the cause was an engine error, else null. */
    readonly code: number | null = null,
  ) {
    super(message);
    this.name = type;
  }
}
