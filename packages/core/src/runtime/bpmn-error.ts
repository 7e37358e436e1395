/** A business error a delegate, script or worker throws for the model to catch (Camunda's BpmnError). */
export class BpmnError extends Error {
  override readonly name = 'BpmnError';

  constructor(
    readonly errorCode: string,
    message?: string,
  ) {
    super(message ?? errorCode);
  }
}
